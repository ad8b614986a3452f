// The application's main window: hosts the pages of the workflow (Data first), the File
// menu with recent files, drag-and-drop opening, and the progress of the running job.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/table.hpp"
#include "ui/job_runner.hpp"

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace ppsynth::ui {

class DataPage;

// What a background read hands back: the table or the error, and the reader's notes.
struct ReadOutcome {
    Expected<data::Table> table;
    data::ReadReport report;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    static constexpr int kMaxRecentFiles = 8;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows a table built elsewhere (tests, examples); `source` names where it came from.
    void setTable(data::Table table, const QString& source);
    // Opens a file: CSV files ask for their options first, others are read at once.
    void openFile(const QString& path);
    // Reads a file with the given options in the background (progress bar and Cancel).
    bool readFile(const QString& path, const data::ReadOptions& options);

    DataPage* dataPage() const { return dataPage_; }
    JobRunnerBase* readJob() const { return readJob_; }
    QStringList recentFiles() const;

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildMenus();
    void chooseFile();
    void addRecentFile(const QString& path);
    void updateRecentMenu();
    void onReadDone(ReadOutcome result);
    void setBusy(bool busy, const QString& what = {});

    QTabWidget* tabs_;
    DataPage* dataPage_;
    QMenu* recentMenu_ = nullptr;
    QAction* openAction_ = nullptr;
    QLabel* busyLabel_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    JobRunner<ReadOutcome>* readJob_;
    QString readingPath_;
};

}  // namespace ppsynth::ui
