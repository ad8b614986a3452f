// The report as a PDF (A4, QPdfWriter): the document laid out by QTextDocument page by page,
// with "CONFIDENTIAL" in the header and the footer of every page.
#pragma once

#include <QByteArray>
#include <QString>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ui/report/report_document.hpp"

namespace ppsynth::ui::report {

// Writes to `path` (the caller makes it atomic), with "ppsynth VERSION" as the PDF's Creator,
// which is how a report file is recognised (isPdfReport). Returns the page count. Thread-safe (no
// widgets, no pixmaps). Stop from `progress` ends it between pages with "cancelled", the file
// at `path` half-written for the caller to remove.
Expected<int> writePdf(const ReportDocument& doc, const QString& path,
                       const ProgressCallback& progress = {});

// Whether a PDF whose first and last few kilobytes are `start` and `end` is one writePdf
// wrote: its document information names ppsynth as the Creator.
bool isPdfReport(const QByteArray& start, const QByteArray& end);

}  // namespace ppsynth::ui::report
