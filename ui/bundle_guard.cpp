#include "ui/bundle_guard.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "ppsynth/release/manifest.hpp"

namespace ppsynth::ui {

namespace {

// A manifest.json only marks a bundle when it carries the bundle's format mark, as for the
// bundle writer's own check before it replaces a folder: other programs use that name too.
bool holdsReleaseManifest(const QDir& dir) {
    QFile file(dir.filePath(QStringLiteral("manifest.json")));
    if (!QFileInfo(file).isFile() || !file.open(QIODevice::ReadOnly)) return false;
    return release::notAReleaseManifest(file.readAll().toStdString()).empty();
}

}  // namespace

QString releaseBundleAround(const QString& path) {
    if (path.isEmpty()) return {};
    const QFileInfo info(QDir::cleanPath(QFileInfo(path).absoluteFilePath()));
    // A file (or a name not yet written) is checked from its folder up, a folder from itself;
    // folders not yet made are passed over (QDir::cdUp stops at them).
    QString dir = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
    while (true) {
        if (holdsReleaseManifest(QDir(dir))) return dir;
        const QString parent = QFileInfo(dir).absolutePath();
        if (parent == dir) return {};
        dir = parent;
    }
}

QString confidentialDestinationProblem(const QString& path, const QString& what) {
    const QString bundle = releaseBundleAround(path);
    if (bundle.isEmpty()) return {};
    return QCoreApplication::translate(
               "ppsynth::ui",
               "Confidential output (%1) cannot be written into the release bundle %2 (it has "
               "ppsynth's manifest.json): a bundle is made to be handed out. Choose a folder "
               "outside it, one kept inside the agency.")
        .arg(what, QDir::toNativeSeparators(bundle));
}

}  // namespace ppsynth::ui
