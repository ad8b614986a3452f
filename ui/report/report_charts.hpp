// The report's charts: every chart of the run (ui/results/run_charts, the same builders as
// the results page) rendered offscreen to PNG through results::exportRunCharts, each with
// the builder's one-sentence caption on how to read it. Needs a QApplication.
#pragma once

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/report/report_document.hpp"

namespace ppsynth::ui::report {

Expected<ReportSection> chartsSection(const study::RunResult& run);

}  // namespace ppsynth::ui::report
