// Builds a synthesizer model from its family name, checking the inputs first so every
// problem comes back as a message naming the row or setting at fault.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/models/model.hpp"
#include "ppsynth/models/priors.hpp"

namespace ppsynth::models {

struct ModelSpec {
    // A family id of the registry (family_registry.hpp).
    std::string family = "normal";
    int components = 20;  // K, mixture only
    Priors priors;
    // Polled while the inputs are checked and the model precomputes from X (seconds for a
    // design with thousands of columns); a set flag makes makeModel return Error::cancelled().
    const std::atomic<bool>* cancel = nullptr;
};

// The family ids makeModel accepts, in the registry's order (the order the GUI offers them).
std::vector<std::string> modelFamilies();

// The registry's `counts`: Poisson means, Poisson and negative binomial regression model y as
// whole numbers (false for an unknown id).
bool isCountFamily(const std::string& family);

// X: n x p design, intercept first (not used by "poisson-means", but its row count must
// match); y: transformed response (non-negative integers for the count families);
// columnNames: one per column of X, or empty.
Expected<std::unique_ptr<Model>> makeModel(const ModelSpec& spec, Eigen::MatrixXd X,
                                           Eigen::VectorXd y,
                                           std::vector<std::string> columnNames = {});

}  // namespace ppsynth::models
