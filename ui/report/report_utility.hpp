// The report's utility section (METHOD.md section 6), from each synthesizer's utility
// report as the run stored it: an overview across synthesizers, then per synthesizer the
// summary statistics and the regression with their intervals and CI overlaps.
#pragma once

#include "ppsynth/study/runner.hpp"
#include "ui/report/report_document.hpp"

namespace ppsynth::ui::report {

ReportSection utilitySection(const study::RunResult& run);

}  // namespace ppsynth::ui::report
