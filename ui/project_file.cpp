#include "ui/project_file.hpp"

#include <QFile>

#include "ppsynth/study/project.hpp"
#include "ui/local_path.hpp"

namespace ppsynth::ui {

// The GUI's project and core's: the same settings, the paths and texts as Qt holds them, the
// reading options where the Data page keeps them.
study::Project toStudyProject(const Project& project) {
    study::Project p;
    p.config = project.config;
    p.config.data.path = localPath(project.dataPath);
    p.config.data.read = {project.csv, project.stat};
    p.hasSynthesizers = project.hasSynthesizers;
    for (const auto& r : project.runs)
        p.runs.push_back({localPath(r.folder), r.label.toStdString(), r.summary.toStdString()});
    p.note = project.note.toStdString();
    return p;
}

Project fromStudyProject(const study::Project& project) {
    Project p;
    p.dataPath = fromLocalPath(project.config.data.path);
    p.csv = project.config.data.read.csv;
    p.stat = project.config.data.read.stat;
    p.config = project.config;
    p.config.data.read = {};  // kept in csv and stat, as the Data page keeps them
    p.hasSynthesizers = project.hasSynthesizers;
    for (const auto& r : project.runs)
        p.runs.push_back({fromLocalPath(r.folder), QString::fromStdString(r.label),
                          QString::fromStdString(r.summary)});
    p.note = QString::fromStdString(project.note);
    return p;
}

Status saveProject(const Project& project, const QString& path) {
    return study::saveProjectFile(toStudyProject(project), localPath(path));
}

Expected<Project> loadProject(const QString& path) {
    auto project = study::loadProject(localPath(path));
    if (!project) return Error{project.message()};
    return fromStudyProject(*project);
}

data::ReadOptions readOptionsOf(const Project& project) {
    data::ReadOptions o;
    o.csv = project.csv;
    o.stat = project.stat;
    o.maxLevels = project.config.data.maxLevels;
    for (const auto& [column, type] : project.config.data.types)
        if (auto t = data::columnTypeFromString(type)) o.typeOverrides.emplace_back(column, *t);
    return o;
}

}  // namespace ppsynth::ui
