// The questions the window asks the person (save unsaved work? replace a file? where did the
// data file go?), as replaceable functions: the controllers ask through them, tests replace
// them with stubs. defaultQuestions() gives the dialogs.
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

#include "ppsynth/data/io.hpp"

class QWidget;

namespace ppsynth::ui {

enum class UnsavedChoice { Save, Discard, Cancel };

struct WindowQuestions {
    // Work would be lost (`what` lists it): save it first, discard it, or stay.
    std::function<UnsavedChoice(const QString& question, const QStringList& what)> unsavedWork;
    // QFileDialog::getSaveFileName's arguments; an empty path when the person cancels.
    std::function<QString(const QString& caption, const QString& dir, const QString& filter,
                          QString* selectedFilter)>
        saveFileName;
    // `path` exists: replace it?
    std::function<bool(const QString& path)> replaceFile;
    // A run's data file is no longer at `missing` (its folder moved): where is it now? An
    // empty path when the person cancels.
    std::function<QString(const QString& missing)> locateDataFile;
    // The text of SPSS/Stata/SAS file `path` is not in the encoding it declares (older files
    // often are in a code page): which one (an iconv name) should it be read with? `tried`
    // is the one that failed, empty for the file's own. Empty when the person cancels.
    std::function<QString(const QString& path, const QString& tried)> statEncoding;
    // How to read SPSS/Stata/SAS file `path` before it is read (its text encoding), offered
    // as CSV files offer theirs; `initial` is what is chosen now. nullopt when the person
    // cancels.
    std::function<std::optional<data::StatOptions>(const QString& path,
                                                   const data::StatOptions& initial)>
        statOptions;
    // A ppsynth stopped part-way (killed, a crash) left these beside the opened project's runs
    // (`what`: one per item, its path and what it is); they may hold confidential files:
    // remove them?
    std::function<bool(const QStringList& what)> removeLeftovers;
};

// The dialogs, parented to `parent`.
WindowQuestions defaultQuestions(QWidget* parent);

// The folder the last file dialog was in (QSettings), and remembering a new one.
QString lastDirectory();
void rememberDirectory(const QString& dir);

// A file name to save to, asked through `questions`. The file dialog asked before replacing
// the name the person typed; a suffix added here makes another name, so replacing that one is
// asked here. The first suffix is added when the name has none of them, or the selected
// filter's when it names one. Empty when the person cancels.
QString chooseSavePath(const WindowQuestions& questions, const QString& caption, const QString& dir,
                       const QString& filter, const QStringList& suffixes);

}  // namespace ppsynth::ui
