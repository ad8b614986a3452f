// The record bounds f_i of a fit, per chain and per half chain, over the draws the bound
// keeps: the one computation behind the unweighted fit's f_i and the epsilon verdict's
// agreement test (the runner after a fit, and the stopping rule of a run until converged
// between blocks).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "ppsynth/models/model.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"

namespace ppsynth::study {

struct ChainRecordBounds {
    // Per chain, max over its retained draws s < S/2 and s >= S/2 of alpha_i |l_{s,i}|.
    std::vector<privacy::HalfChainRecordMax> halves;
    // Per chain, the max over both halves (f_i of that chain).
    std::vector<Eigen::VectorXd> perChain;
    // The max over every chain: the run's record bounds.
    Eigen::VectorXd overall;
};

// chainDraws: each chain's stored draws (rows, unconstrained), all chains the same length S;
// kept: the retained draws (LipschitzBound::keptDraws), numbered chain after chain (draw s of
// chain c is c * S + s). Non-finite values are unbounded (privacy::weightedAbsLogLik). One
// likelihood evaluation per retained draw, in parallel on `threads`.
ChainRecordBounds chainRecordBounds(
    const models::Model& model, const std::vector<Eigen::Ref<const Eigen::MatrixXd>>& chainDraws,
    const std::vector<std::size_t>& kept, const Eigen::VectorXd& alpha, int threads = 1);

// The same for draws stored chain after chain in one matrix (Fit::draws), `chains` chains.
ChainRecordBounds chainRecordBounds(const models::Model& model, const Eigen::MatrixXd& draws,
                                    std::size_t chains, const std::vector<std::size_t>& kept,
                                    const Eigen::VectorXd& alpha, int threads = 1);

}  // namespace ppsynth::study
