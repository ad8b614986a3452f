// Saving a project together with runs not yet on disk, as one transaction: the run folders
// first (each written whole or not at all by its writer, such as writeRunOutput), into
// "<project>_runs" beside the project file, then the project file listing them, written
// atomically. When any step fails or is stopped, the folders this save wrote are removed
// again (and the runs folder, when this save made it and it is empty), and the project file
// is left as it was: the old project stays whole and names no folder that is gone.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/study/project.hpp"

namespace ppsynth::study {

struct RunToSave {
    std::string label, summary;  // as ProjectRun
    // The folder's name under the runs folder ("run_3"); "run_3_2", "run_3_3", ... when taken.
    std::string name;
    // Writes the run's folder at the path given, which does not exist yet.
    std::function<Status(const std::string& folder)> write;
};

struct ProjectSaveOptions {
    // Told before each run folder; Continue::Stop ends the save, rolled back.
    ProgressCallback progress;
    // Called after the run folders are written, before the project file: an error ends the
    // save, rolled back (tests make the project-file step fail with it).
    std::function<Status()> beforeProjectFile;
};

// "<project>_runs" beside the project file `projectPath` ("study.ppsynth": "study_runs").
std::string projectRunsFolder(const std::string& projectPath);

// Writes `runs` into fresh folders under projectRunsFolder(path), then `project` with them
// added to its runs. Returns the folders written, in the order of `runs`.
Expected<std::vector<std::string>> saveProject(const Project& project, const std::string& path,
                                               const std::vector<RunToSave>& runs,
                                               const ProjectSaveOptions& options = {});

}  // namespace ppsynth::study
