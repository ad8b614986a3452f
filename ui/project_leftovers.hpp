// What a ppsynth stopped part-way (killed, a crash, a power cut) while saving a project's runs
// left beside them: unfinished run folders that may hold confidential files. Found when the
// project opens, so the person can have them removed (core's common/leftovers.hpp decides
// what is one: name and content, and a process no longer running).
#pragma once

#include <QString>
#include <vector>

#include "ppsynth/common/leftovers.hpp"
#include "ui/project_file.hpp"

namespace ppsynth::ui {

// The leftovers in the folders the project's runs are written to: its runs folder
// ("<name>_runs" beside the project file) and the folder of every run it lists.
std::vector<Leftover> projectLeftovers(const QString& projectPath, const Project& project);

}  // namespace ppsynth::ui
