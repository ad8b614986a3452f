#include "ui/destination_guard.hpp"

#include "ui/local_path.hpp"

namespace ppsynth::ui {

QString unwritableDestinationProblem(const QString& path, DestinationUse use) {
    if (path.isEmpty()) return {};
    const Status s = checkWritableDestination(localPath(path), use);
    if (s) return {};
    // Core's message is a clause (the CLI puts "error: " before it); here it is a sentence.
    QString text = fromLocalPath(s.message()) + QLatin1Char('.');
    text[0] = text[0].toUpper();
    return text;
}

}  // namespace ppsynth::ui
