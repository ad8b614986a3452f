#include "ui/project_leftovers.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QStringList>

#include "ui/local_path.hpp"

namespace ppsynth::ui {

std::vector<Leftover> projectLeftovers(const QString& projectPath, const Project& project) {
    const QFileInfo info(projectPath);
    QStringList folders{
        info.absoluteDir().filePath(info.completeBaseName() + QStringLiteral("_runs"))};
    for (const auto& r : project.runs)
        if (!r.folder.isEmpty()) folders << QFileInfo(r.folder).absolutePath();
    std::vector<Leftover> out;
    QSet<QString> seen;
    for (const QString& folder : folders) {
        const QString key = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
        if (seen.contains(key) || !QFileInfo(key).isDir()) continue;
        seen.insert(key);
        for (auto& l : findLeftoversIn(localPath(key))) out.push_back(std::move(l));
    }
    return out;
}

}  // namespace ppsynth::ui
