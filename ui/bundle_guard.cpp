#include "ui/bundle_guard.hpp"

#include <QDir>

#include "ppsynth/release/bundle_guard.hpp"
#include "ui/local_path.hpp"

namespace ppsynth::ui {

QString releaseBundleAround(const QString& path) {
    if (path.isEmpty()) return {};
    const auto bundle = release::releaseBundleAround(localPath(path));
    return bundle ? QDir::cleanPath(fromLocalPath(bundle->string())) : QString();
}

QString confidentialDestinationProblem(const QString& path, const QString& what) {
    if (path.isEmpty()) return {};
    const std::string why =
        release::confidentialDestinationProblem(localPath(path), what.toStdString());
    if (why.empty()) return {};
    // Core's message is a clause (the CLI puts "error: " before it); here it is a sentence.
    QString text = QString::fromStdString(why) + QLatin1Char('.');
    text[0] = text[0].toUpper();
    return text;
}

}  // namespace ppsynth::ui
