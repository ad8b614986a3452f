// The report's sections that come from the run itself (configuration, epsilon accounting,
// risk with the top-risk records, MCMC diagnostics). Charts and utility have their own
// builders (report_charts.hpp, report_utility.hpp).
#pragma once

#include <QString>

#include "ppsynth/study/runner.hpp"
#include "ui/report/report_document.hpp"

namespace ppsynth::ui::report {

struct RunSource {
    QString runDir;
    QString dataPath;
    bool dataVerified = false;  // the data file's checksum matched run.json's
};

ReportSection configurationSection(const study::RunResult& run, const RunSource& source);
ReportSection epsilonSection(const study::RunResult& run);
// Summaries per synthesizer, then the `topK` highest-risk records of each.
ReportSection riskSection(const study::RunResult& run, std::size_t topK = 10);
ReportSection diagnosticsSection(const study::RunResult& run);

// A number for the report: `digits` significant digits without an exponent between 0.001
// and 1e9 (whole digits are never cut), "∞" when unbounded, "-" when NaN.
QString num(double v, int digits = 4);

}  // namespace ppsynth::ui::report
