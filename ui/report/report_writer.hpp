// `ppsynth-cli report` and the GUI's report export: a finished run folder to a
// disclosure-review report, HTML or PDF by the file's extension, written atomically (a
// temporary file beside the target, renamed into place; nothing is left on failure).
#pragma once

#include <QString>
#include <cstddef>
#include <memory>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/report/report_document.hpp"
#include "ui/report/report_sections.hpp"

namespace ppsynth::ui::report {

struct ReportOptions {
    QString dataPath;  // the run's data file when it moved (checked by checksum)
    // Replace an existing report file that ppsynth wrote (isReportFile); any other file there
    // is refused.
    bool overwrite = false;
    // With overwrite, replace whatever file is there (never a folder): for the GUI, where the
    // person confirmed replacing that very file in the save dialog.
    bool replaceAnyFile = false;
    std::size_t topK = 10;      // records per top-risk table
    ProgressCallback progress;  // loading, charts, writing; Stop cancels
};

// The report's words: every section but the charts, from a run in memory. Thread-safe (no
// GUI objects), so the GUI makes them on the worker that loads the run.
ReportDocument textReport(const study::RunResult& run, const RunSource& source,
                          const ReportOptions& options = {});

// Every section, charts included (drawn offscreen one after the other: GUI thread, needs a
// QApplication). `table`, the run's, adds the charts of its sensitive variables after the first.
Expected<ReportDocument> buildReport(const study::RunResult& run, const RunSource& source,
                                     const ReportOptions& options = {},
                                     std::shared_ptr<const data::Table> table = {});

struct WrittenReport {
    QString path;
    int pages = 0;  // PDF only
    std::size_t figures = 0;
};

// Whether `outPath` can take a report: named .html, .htm or .pdf, and nothing there, or with
// `overwrite` a report file ppsynth wrote (isReportFile); another program's file (or a folder)
// is refused, unless `replaceAnyFile` (then any file is replaced, never a folder).
Status checkReportTarget(const QString& outPath, bool overwrite, bool replaceAnyFile = false);

// Whether the file at `path` is a report this writer made (HTML or PDF, whatever its name):
// the HTML's generator tag, or the PDF's Creator, names ppsynth (report_html.hpp,
// report_pdf.hpp).
bool isReportFile(const QString& path);

// Writes `doc` to `outPath` atomically. Thread-safe (no widgets, no pixmaps), so the GUI
// writes on a worker. Stop from options.progress ends it with "cancelled" and nothing written;
// a stopped or failed write also removes the folders it made for the file.
Expected<WrittenReport> writeDocument(const ReportDocument& doc, const QString& outPath,
                                      const ReportOptions& options = {});

// Loads `runDir` (study::loadRunFolder), builds the report and writes `outPath` (.html,
// .htm or .pdf), all on the calling thread (the CLI; the GUI uses ReportJob).
Expected<WrittenReport> writeReport(const QString& runDir, const QString& outPath,
                                    const ReportOptions& options = {});

}  // namespace ppsynth::ui::report
