// Several sensitive variables (METHOD.md section 9): the configuration's list of sensitive
// variables and the model settings of each, with the run-wide `model` and data.transform as
// defaults. One sensitive variable (data.target) is the list of one.
#pragma once

#include <string>
#include <vector>

#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study {

// data.targets, or {data.target} for one sensitive variable.
std::vector<std::string> sensitiveVariables(const RunConfig& config);

// The model of one sensitive variable: `model` with the variable's "models" entry applied
// (family, K, tau; priors key by key over model.priors).
RunConfig::Model modelFor(const RunConfig& config, const std::string& target);
// data.transform, or the variable's own "transform" from "models".
std::string transformFor(const RunConfig& config, const std::string& target);

// True when some sensitive variable's model is the normal mixture.
bool anyMixture(const RunConfig& config);

}  // namespace ppsynth::study
