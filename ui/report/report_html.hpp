// The report as one self-contained HTML file: styles inline, charts embedded as base64 PNG,
// a CONFIDENTIAL banner that stays on screen while scrolling and repeats on printed pages.
#pragma once

#include <QString>

#include "ui/report/report_document.hpp"

namespace ppsynth::ui::report {

QString toHtml(const ReportDocument& doc);

}  // namespace ppsynth::ui::report
