// A .ppsynth project as the GUI holds it (Qt paths and texts; the reading options apart, as
// the Data page keeps them): the file itself, its format and its checks are core's
// study::Project (ppsynth/study/project.hpp), which `ppsynth-cli run PROJECT.ppsynth` runs.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/study/project.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::ui {

struct ProjectRun {
    QString folder;   // absolute when loaded; stored relative to the project when inside it
    QString label;    // "Run 2 (Unweighted, LW, EM)"
    QString summary;  // epsilon per synthesizer, for the run list before the folder is read
};

struct Project {
    QString dataPath;  // absolute when loaded
    data::CsvOptions csv;
    data::StatOptions stat;  // the encoding of an older SPSS/Stata/SAS file
    // data.target/predictors/known/types/reference_levels/max_levels/transform/missing,
    // model, mcmc, synthesis, risk and the synthesizers. data.path is dataPath.
    study::RunConfig config;
    bool hasSynthesizers = true;  // false when the project was saved with none listed
    std::vector<ProjectRun> runs;
    // Shown when the project opens (the bundled example says what it set up and how to
    // change it); optional, kept when the project is saved again.
    QString note;
};

// Writes atomically (study::saveProjectFile): the old file stays whole if anything fails.
Status saveProject(const Project& project, const QString& path);
// Reads and checks a project; messages name the file and what is wrong in it.
Expected<Project> loadProject(const QString& path);

// Reading options for the project's data file: its CSV and SPSS/Stata/SAS options and
// column types.
data::ReadOptions readOptionsOf(const Project& project);

// The same project in core's terms and back.
study::Project toStudyProject(const Project& project);
Project fromStudyProject(const study::Project& project);

}  // namespace ppsynth::ui
