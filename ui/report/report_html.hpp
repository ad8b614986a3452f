// The report as one self-contained HTML file: styles inline, charts embedded as base64 PNG,
// a CONFIDENTIAL banner that stays on screen while scrolling and repeats on printed pages.
#pragma once

#include <QByteArray>
#include <QString>

#include "ui/report/report_document.hpp"

namespace ppsynth::ui::report {

// The report's HTML. Its head names ppsynth as the generator (<meta name="generator"
// content="ppsynth VERSION">), which is how a report file is recognised (isHtmlReport).
QString toHtml(const ReportDocument& doc);

// Whether `start` (the first few kilobytes of a file) is the start of an HTML report toHtml
// wrote: the generator tag in its head, or, for reports from before that tag, the exact head
// they all began with.
bool isHtmlReport(const QByteArray& start);

}  // namespace ppsynth::ui::report
