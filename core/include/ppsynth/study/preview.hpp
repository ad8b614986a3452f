// The live preview of the Lipschitz weights: from the unweighted fit's per-record bounds
// f_i alone, what LW (and LW-M) weights a choice of (c, g, M) gives and the bound it
// predicts, before any refit. Cheap (O(n)) so the GUI can redraw while a slider moves.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "ppsynth/privacy/weights.hpp"
#include "ppsynth/utility/histogram.hpp"

namespace ppsynth::study {

struct WeightPreview {
    Eigen::VectorXd alpha;           // LW weights, truncated at M when M is given
    utility::Histogram weights;      // of alpha over [0, 1]
    privacy::WeightSummary summary;  // min, quartiles, mean, max, zeros
    double predictedBound = 0;       // max_i alpha_i f_i
    double unweightedBound = 0;      // max_i f_i
};

// A prediction, not a result: the refit under alpha changes the posterior and with it
// the f_i, so the refit's Delta_{alpha,x} differs from predictedBound (usually a little).
WeightPreview previewLipschitzWeights(const Eigen::VectorXd& f, double c, double g,
                                      std::optional<double> M, std::size_t bins = 20);

}  // namespace ppsynth::study
