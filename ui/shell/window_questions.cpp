#include "ui/shell/window_questions.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QSettings>
#include <algorithm>

#include "ui/stat_options_dialog.hpp"

namespace ppsynth::ui {

namespace {
const QString kLastDirKey = QStringLiteral("lastDirectory");

UnsavedChoice askAboutUnsavedWork(QWidget* parent, const QString& question,
                                  const QStringList& what) {
    QMessageBox box(QMessageBox::Warning, QObject::tr("Unsaved work"), question,
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setInformativeText(QStringLiteral("\u2022 ") + what.join(QStringLiteral("\n\u2022 ")));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
        case QMessageBox::Save:
            return UnsavedChoice::Save;
        case QMessageBox::Discard:
            return UnsavedChoice::Discard;
        default:
            return UnsavedChoice::Cancel;
    }
}

QString askForDataFile(QWidget* parent, const QString& missing) {
    const QFileInfo was(missing);
    return QFileDialog::getOpenFileName(
        parent,
        QObject::tr("Locate data file %1 (it was in %2)")
            .arg(was.fileName(), QDir::toNativeSeparators(was.absolutePath())),
        QSettings().value(kLastDirKey).toString(),
        QObject::tr("%1 (%1);;All files (*)").arg(was.fileName()));
}

// Encodings older SPSS, Stata and SAS files were commonly written in (western Windows, DOS
// and Unix code pages); the list is editable for any other iconv name.
QString askForStatEncoding(QWidget* parent, const QString& path, const QString& tried) {
    const QStringList common = StatOptionsDialog::commonEncodings();
    const QString why = tried.isEmpty()
                            ? QObject::tr(
                                  "The text of %1 is not in the encoding the file declares.\nOlder "
                                  "SPSS, Stata and SAS files are often in a code page.")
                                  .arg(QFileInfo(path).fileName())
                            : QObject::tr("The text of %1 is not in %2 either.")
                                  .arg(QFileInfo(path).fileName(), tried);
    const int next = std::max(0, int(common.indexOf(tried)) + 1) % int(common.size());
    bool ok = false;
    const QString chosen =
        QInputDialog::getItem(parent, QObject::tr("File encoding"),
                              why + QStringLiteral("\n\n") + QObject::tr("Read it again as:"),
                              common, tried.isEmpty() ? 0 : next, true, &ok);
    return ok ? chosen.trimmed() : QString();
}

bool askToReplace(QWidget* parent, const QString& path) {
    return QMessageBox::question(
               parent, QObject::tr("Replace file"),
               QObject::tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path)),
               QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
}

bool askToRemoveLeftovers(QWidget* parent, const QStringList& what) {
    QMessageBox box(QMessageBox::Warning, QObject::tr("Unfinished run folders"),
                    QObject::tr("A ppsynth that was stopped before it finished left these beside "
                                "the project's runs. They may hold confidential files. Remove "
                                "them?"),
                    QMessageBox::NoButton, parent);
    box.setInformativeText(QStringLiteral("\u2022 ") + what.join(QStringLiteral("\n\u2022 ")));
    auto* remove = box.addButton(QObject::tr("Remove"), QMessageBox::AcceptRole);
    box.addButton(QObject::tr("Keep"), QMessageBox::RejectRole);
    box.setDefaultButton(remove);
    box.exec();
    return box.clickedButton() == remove;
}
}  // namespace

WindowQuestions defaultQuestions(QWidget* parent) {
    WindowQuestions questions;
    questions.unsavedWork = [parent](const QString& question, const QStringList& what) {
        return askAboutUnsavedWork(parent, question, what);
    };
    questions.saveFileName = [parent](const QString& caption, const QString& dir,
                                      const QString& filter, QString* selectedFilter) {
        return QFileDialog::getSaveFileName(parent, caption, dir, filter, selectedFilter);
    };
    questions.replaceFile = [parent](const QString& path) { return askToReplace(parent, path); };
    questions.removeLeftovers = [parent](const QStringList& what) {
        return askToRemoveLeftovers(parent, what);
    };
    questions.locateDataFile = [parent](const QString& missing) {
        return askForDataFile(parent, missing);
    };
    questions.statEncoding = [parent](const QString& path, const QString& tried) {
        return askForStatEncoding(parent, path, tried);
    };
    questions.statOptions =
        [parent](const QString& path,
                 const data::StatOptions& initial) -> std::optional<data::StatOptions> {
        StatOptionsDialog dialog(path, initial, parent);
        if (dialog.exec() != QDialog::Accepted) return std::nullopt;
        return dialog.options();
    };
    return questions;
}

QString lastDirectory() {
    return QSettings().value(kLastDirKey).toString();
}

void rememberDirectory(const QString& dir) {
    QSettings().setValue(kLastDirKey, dir);
}

QString chooseSavePath(const WindowQuestions& questions, const QString& caption, const QString& dir,
                       const QString& filter, const QStringList& suffixes) {
    QString selectedFilter;
    QString path = questions.saveFileName(caption, dir, filter, &selectedFilter);
    if (path.isEmpty()) return {};
    if (!suffixes.contains(QFileInfo(path).suffix().toLower())) {
        const auto named = std::find_if(suffixes.begin(), suffixes.end(), [&](const QString& s) {
            return selectedFilter.contains(QStringLiteral("*.") + s);
        });
        path += QLatin1Char('.') + (named != suffixes.end() ? *named : suffixes.front());
        if (QFileInfo::exists(path) && !questions.replaceFile(path)) return {};
    }
    rememberDirectory(QFileInfo(path).absolutePath());
    return path;
}

}  // namespace ppsynth::ui
