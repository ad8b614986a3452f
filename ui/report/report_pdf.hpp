// The report as a PDF (A4, QPdfWriter): the document laid out by QTextDocument page by page,
// with "CONFIDENTIAL" in the header and the footer of every page.
#pragma once

#include <QString>

#include "ppsynth/common/expected.hpp"
#include "ui/report/report_document.hpp"

namespace ppsynth::ui::report {

// Writes to `path` (the caller makes it atomic). Returns the page count.
Expected<int> writePdf(const ReportDocument& doc, const QString& path);

}  // namespace ppsynth::ui::report
