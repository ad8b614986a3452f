// Synthesis (METHOD.md section 5): m distinct draws chosen uniformly from the retained
// draws; for each, y*_i ~ p(. | x_i, theta) for every record, back-transformed to the
// original scale. Dataset l's randomness comes from (seed, l), so results are the same for
// any thread count.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/models/model.hpp"

namespace ppsynth::study {

// `count` distinct indices drawn uniformly from `retained` (the draws kept by the bound).
Expected<std::vector<std::size_t>> chooseDraws(const std::vector<std::size_t>& retained, int count,
                                               std::uint64_t seed);

struct SynthesisOptions {
    std::uint64_t seed = 1;
    int threads = 1;
    bool integer = false;  // count models: values stay whole numbers
    // Transformed scale -> original scale (identity when empty).
    std::function<double(double)> backTransform;
    ProgressCallback progress;  // stage "synthesis", done/total in datasets
};

// draws: S x d unconstrained draws (one row per draw); chosen: row indices, one dataset each.
Expected<std::vector<std::vector<double>>> synthesize(const models::Model& model,
                                                      const Eigen::MatrixXd& draws,
                                                      const std::vector<std::size_t>& chosen,
                                                      const SynthesisOptions& options);

}  // namespace ppsynth::study
