// `ppsynth-cli report` and the GUI's report export: a finished run folder to a
// disclosure-review report, HTML or PDF by the file's extension, written atomically (a
// temporary file beside the target, renamed into place; nothing is left on failure).
#pragma once

#include <QString>
#include <cstddef>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/report/report_document.hpp"
#include "ui/report/report_sections.hpp"

namespace ppsynth::ui::report {

struct ReportOptions {
    QString dataPath;           // the run's data file when it moved (checked by checksum)
    bool overwrite = false;     // replace an existing report file
    std::size_t topK = 10;      // records per top-risk table
    ProgressCallback progress;  // loading, charts; Stop cancels
};

// Every section from a run already in memory, charts included (rendered offscreen; needs a
// QApplication).
Expected<ReportDocument> buildReport(const study::RunResult& run, const RunSource& source,
                                     const ReportOptions& options = {});

struct WrittenReport {
    QString path;
    int pages = 0;  // PDF only
    std::size_t figures = 0;
};

// Loads `runDir` (study::loadRunFolder), builds the report and writes `outPath` (.html,
// .htm or .pdf).
Expected<WrittenReport> writeReport(const QString& runDir, const QString& outPath,
                                    const ReportOptions& options = {});

// The same for a run folder already loaded (the GUI loads it on a worker thread; the charts
// and the writing need the GUI thread, since Qt Charts and QTextDocument are GUI objects).
Expected<WrittenReport> writeReport(const study::LoadedRun& loaded, const QString& runDir,
                                    const QString& outPath, const ReportOptions& options = {});

}  // namespace ppsynth::ui::report
