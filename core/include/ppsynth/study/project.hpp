// A .ppsynth project: the data file and how to read it, the roles, transform, model, MCMC
// settings and synthesizers (a RunConfig, in a run configuration's own JSON spellings, so
// `ppsynth-cli run PROJECT.ppsynth` runs what the GUI's Run button runs), the folders of the
// project's finished runs and a note. Small JSON only: run results live in their own folders
// (writeRunOutput), never in here.
//
// The file (format version 2):
//   {"format": "ppsynth-project", "version": 2, "note": "...",
//    "data": {...},           a run configuration's data section, its path relative to the
//                             project's folder when the data file is inside it
//    "has_synthesizers": true,
//    "run_config": {...},     model, mcmc, synthesis, risk, lipschitz, utility, synthesizers
//    "runs": [{"folder": "p_runs/run_1", "label": "Run 1 (LW)", "summary": "LW: ε 2.3"}]}
// Version 1 files (the GUI's before version 2) are read too: their data.csv and data.stat
// objects and top-level transform and missing are taken into the version 2 places.
#pragma once

#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study {

struct ProjectRun {
    std::string folder;   // absolute when loaded; stored relative to the project when inside it
    std::string label;    // "Run 2 (Unweighted, LW, EM)"
    std::string summary;  // epsilon per synthesizer, for a run list before the folder is read
};

struct Project {
    static constexpr int kVersion = 2;
    // data.path is the data file (absolute when loaded) and data.read how it is read. A
    // project may be saved before its sensitive variable is chosen (data.target empty), which
    // a run configuration does not allow.
    RunConfig config;
    bool hasSynthesizers = true;  // false when saved with none listed (config.synthesizers empty)
    std::vector<ProjectRun> runs;
    std::string note;  // shown when the project opens; optional
};

// The project file's text for a project saved at `projectPath`: the data file's and the
// runs' paths inside the project's folder are written relative to it.
std::string projectToJson(const Project& project, const std::string& projectPath);

// Reads a project file's text; relative paths resolve against the folder of `projectPath`.
// Refuses a key given twice, a name that could be a path (checkSafeName) and whatever a run
// configuration refuses, naming the key.
Expected<Project> parseProject(const std::string& text, const std::string& projectPath);

// Reads and checks the project file at `path`; messages start "project 'NAME.ppsynth': ".
Expected<Project> loadProject(const std::string& path);

// Writes the project file atomically (writeFileAtomically): the old file stays whole if
// anything fails.
Status saveProjectFile(const Project& project, const std::string& path);

// The configuration a run of the project uses, as the GUI's Run button makes it: refused,
// saying what to set, when the project has no sensitive variable or no synthesizers.
Expected<RunConfig> projectRunConfig(const Project& project);

// Whether `path` names a project file by its content (a JSON object whose "format" is
// "ppsynth-project"); false for a run configuration or anything else.
bool isProjectFile(const std::string& path);

}  // namespace ppsynth::study
