// The rules of several sensitive variables (private to core/study; part of study::validate):
// data.targets and the per-variable "models" section.
#pragma once

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study::detail {

Status checkTargets(const RunConfig& config);

}  // namespace ppsynth::study::detail
