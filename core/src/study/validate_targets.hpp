// The parts of study::validate that live in their own files (private to core/study): the
// rules of several sensitive variables (data.targets and the per-variable "models" section).
#pragma once

#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study::detail {

// The one form of every refusal: "SECTION: what is wrong and what to write instead".
Error refused(const std::string& where, const std::string& what);

Status checkTargets(const RunConfig& config);

}  // namespace ppsynth::study::detail
