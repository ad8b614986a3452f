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

// `ppsynth-cli sweep|simulate CONFIG --out DIR --plan` for the GUI: reads the simulation or
// sweep configuration `config`, writes the study folder DIR with every item listed
// (DIR/plan.json) and nothing computed, and records how an item is run (in the
// configuration's folder: `ppsynth-cli <command> CONFIG --out DIR --item K`, both paths
// absolute). The command ("sweep" or "simulate").
Expected<std::string> planStudyFolder(const std::string& config, const std::string& dir);

}  // namespace ppsynth::study
