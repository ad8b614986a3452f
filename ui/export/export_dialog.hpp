// The GUI's release export: pick one synthesizer of a finished run, the file formats and
// the bundle folder; the bundle is written off the GUI thread (JobRunner) by the same core
// code as `ppsynth-cli release`, so it is atomic, checksummed and leak-guarded alike. An
// existing folder is replaced only after the person says so.
#pragma once

#include <QDialog>
#include <functional>
#include <memory>
#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/public_run.hpp"
#include "ui/message_area.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace ppsynth::ui {

template <typename R>
class JobRunner;

class ExportDialog : public QDialog {
    Q_OBJECT
  public:
    // `run` gives the synthesizers and their epsilon; the export reads `runDir` again in
    // the background (the data file is checked against the run's checksum there).
    ExportDialog(const QString& runDir, const study::PublicRun& run, QWidget* parent = nullptr);
    ~ExportDialog() override;

    // Asked before an existing folder is replaced; answers true to replace. The default
    // shows a question box; tests answer themselves.
    using OverwriteQuestion = std::function<bool(const QString& folder)>;
    void setOverwriteQuestion(OverwriteQuestion question) { question_ = std::move(question); }
    // Asked before releasing a synthesizer whose epsilon did not converge (or was never
    // diagnosed), with why; answers true to release it all the same (the manifest records
    // that). The default shows a question box; tests answer themselves.
    using UnconvergedQuestion = std::function<bool(const QString& synthesizer, const QString& why)>;
    void setUnconvergedQuestion(UnconvergedQuestion question) {
        unconvergedQuestion_ = std::move(question);
    }

    void setSynthesizer(const QString& name);
    void setFormats(bool csv, bool sav, bool dta);
    void setDestination(const QString& folder);
    QString destination() const;
    // The data file when it moved since the run (empty: where run.json says).
    void setDataPath(const QString& path) { dataPath_ = path; }

    bool isRunning() const;
    MessageArea* messageArea() const { return message_; }
    QPushButton* exportButton() const { return export_; }
    // The chosen synthesizer's epsilon (per dataset and for all m) and how Delta was estimated.
    QLabel* privacyLabel() const { return privacy_; }

  public slots:
    // Checks the choices, asks about an existing folder, and starts the export.
    void startExport();
    void cancelExport();
    void reject() override;

  signals:
    // After an export ended, however it ended (written, refused, failed or cancelled).
    void exportFinished(bool written);

  private:
    void browse();
    void updateState();
    void setBusy(bool busy);
    void say(MessageArea::Kind kind, const QString& text);

    QString runDir_, dataPath_;
    QComboBox* synthesizer_;
    QCheckBox* csv_;
    QCheckBox* sav_;
    QCheckBox* dta_;
    QLineEdit* destination_;
    QPushButton* browse_;
    QLabel* privacy_;
    QProgressBar* progress_;
    MessageArea* message_;
    QPushButton* export_;
    QPushButton* close_;
    JobRunner<Status>* job_;
    OverwriteQuestion question_;
    UnconvergedQuestion unconvergedQuestion_;
    std::vector<QString> unconverged_;  // per synthesizer: why its epsilon is not settled
    QString writing_;                   // the folder the running export writes
    // What the running export's writer warned about (an old bundle it could not delete);
    // written on the worker, read once the result is back on the GUI thread.
    std::shared_ptr<std::string> warning_;
    std::vector<QString> privacyTexts_;
};

}  // namespace ppsynth::ui
