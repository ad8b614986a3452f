// Builds a synthesizer model from its family name, checking the inputs first so every
// problem comes back as a message naming the row or setting at fault.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/models/model.hpp"
#include "ppsynth/models/priors.hpp"

namespace ppsynth::models {

struct ModelSpec {
    // "poisson-means", "poisson", "negbin", "normal" or "normal-mixture".
    std::string family = "normal";
    int components = 20;  // K, mixture only
    Priors priors;
};

// The family names makeModel accepts, in the order a user would see them.
std::vector<std::string> modelFamilies();

// Poisson means, Poisson and negative binomial regression model y as whole numbers.
bool isCountFamily(const std::string& family);

// X: n x p design, intercept first (not used by "poisson-means", but its row count must
// match); y: transformed response (non-negative integers for the count families);
// columnNames: one per column of X, or empty.
Expected<std::unique_ptr<Model>> makeModel(const ModelSpec& spec, Eigen::MatrixXd X,
                                           Eigen::VectorXd y,
                                           std::vector<std::string> columnNames = {});

}  // namespace ppsynth::models
