// Reopening the output folder of `ppsynth-cli simulate` or `sweep` (the GUI's Studies tab).
#pragma once

#include <optional>
#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/study_options.hpp"
#include "ppsynth/study/sweep.hpp"

namespace ppsynth::study {

// Exactly one of the two is set.
struct StudyFolder {
    std::optional<SimulateSummary> simulation;
    std::optional<SweepSummary> sweep;
};

// Reads DIR/config.json and resumes the study in DIR: a finished folder is only read back
// (every item is saved), an unfinished one computes its missing items, as the CLI would.
Expected<StudyFolder> openStudyFolder(const std::string& dir, const StudyOptions& options = {});

}  // namespace ppsynth::study
