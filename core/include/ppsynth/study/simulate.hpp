// The local-to-global simulation (METHOD.md section 7; paper 000 sec. 4.4, paper 001
// appendix 6): for growing database sizes n, R replicate databases from a generating model;
// on each, the local Lipschitz bound Delta_{alpha,x_r} of the Unweighted, LW and LW-M
// mechanisms. Per n and mechanism: the distribution over replicates, delta_hat(epsilon) (the
// share of databases whose local epsilon 2 Delta exceeds epsilon) and the recommended
// global epsilon with the safety factor (000 sec. 4.5).
//
// Work runs in blocks (one size x a chunk of replicates) in parallel; every replicate's
// randomness comes from (seed, n, replicate, purpose), so results are the same for any
// thread count, and finished blocks are saved in the output folder so an interrupted
// simulation resumes where it stopped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/privacy/lipschitz.hpp"
#include "ppsynth/study/simulate_config.hpp"
#include "ppsynth/study/study_options.hpp"

namespace ppsynth::study {

// One replicate database under one mechanism.
struct SimulateReplicate {
    std::size_t n = 0;
    int replicate = 0;
    std::string mechanism;
    double delta = 0;          // Delta_{alpha,x_r}
    double posteriorMean = 0;  // posterior mean of the mean parameter (000 Figure 2)
    std::size_t zeroWeights = 0;
};

// The distribution of Delta_{alpha,x_r} over the replicates of one size and mechanism.
struct SimulateDistribution {
    std::size_t n = 0;
    std::string mechanism;
    double min = 0, median = 0, max = 0, mean = 0, sd = 0;
    std::vector<double> quantiles;  // at SimulateConfig::quantiles (R type 7)
    std::vector<double> deltaHat;   // at SimulateConfig::epsilons(): share with 2 Delta > eps
    // Recommended global epsilon (our reading of 000 sec. 4.5): a data owner holding one
    // database of this size computes its local Delta and multiplies 2 Delta by the safety
    // factor; we take the median replicate as that database. deltaHatLow/High: the share of
    // replicates whose local epsilon exceeds the recommendation, the estimated delta.
    privacy::GlobalEpsilon recommended;
    double deltaHatLow = 0, deltaHatHigh = 0;
    double meanPosteriorMean = 0;
};

struct SimulateSummary {
    SimulateConfig config;
    std::vector<SimulateReplicate> replicates;  // size, replicate, mechanism order
    std::vector<SimulateDistribution> distributions;
    std::size_t blocksRun = 0, blocksResumed = 0;
    std::size_t items = 0;  // the simulation's blocks (its work items)
    double seconds = 0;
};

// Runs (or resumes) the simulation into `outDir` and writes there, atomically per file:
//   config.json        the canonical configuration (identifies the folder)
//   items/*.json       finished blocks
//   replicates.csv     n, replicate, mechanism, delta, epsilon, posterior_mean, zero_weights
//   distribution.csv   n, mechanism, min, q..., max, mean, sd, recommended epsilon, delta_hat
//   delta_hat.csv      n, mechanism, epsilon, delta_hat
//   summary.json       all of the above but the replicates
// A folder holding a different configuration is refused.
Expected<SimulateSummary> runSimulation(const SimulateConfig& config, const std::string& outDir,
                                        const StudyOptions& options = {});

std::string simulateSummaryJson(const SimulateSummary& summary);

}  // namespace ppsynth::study
