// The tables of a finished run as plain data (title, headers, rows of text, warnings in
// words): epsilon accounting, identification risk, the top-10 risky records (confidential),
// R-hat/ESS and the sampler's divergences. Pure functions of a study::RunResult; the
// results page shows them, reports can print them.
#pragma once

#include <QString>
#include <QStringList>
#include <cstddef>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"

namespace ppsynth::ui::results {

struct TableData {
    QString key;      // file-name-safe identifier, e.g. "epsilon"
    QString title;    // starts with "CONFIDENTIAL" for record-level tables
    QString caption;  // one sentence: how to read it
    QStringList headers;
    std::vector<QStringList> rows;  // each as long as headers
    QStringList warnings;           // problems in words, shown above the table
    // Record-level content: only for a report marked confidential, never a release.
    bool confidential = false;
};

// Per synthesizer: Delta_x, Delta_{alpha,x}, how Delta was estimated, epsilon per dataset,
// m, epsilon for all m datasets, the global recommendation, weights kept.
TableData epsilonTable(const study::RunResult& run);
// Per synthesizer: mean, median, quartiles and max of IR_i, records above the threshold,
// whack-a-mole records.
TableData riskTable(const study::RunResult& run);
// The `count` records with the highest IR_i under `synthesizer`: row in the data file,
// confidential y, IR_i, alpha_i, Delta_{alpha,x_i}. Marked CONFIDENTIAL. With several
// sensitive variables and the run's `table`, one column per variable (their values read
// from the table); without the table, the first variable's.
Expected<TableData> topRiskTable(const study::RunResult& run, const std::string& synthesizer,
                                 std::size_t count = 10, const data::Table* table = nullptr);
// Per synthesizer and quantity: mean, sd, R-hat, bulk and tail ESS, and a verdict.
TableData convergenceTable(const study::RunResult& run);
// Per synthesizer: draws, divergences, tree-depth hits, lowest E-BFMI; every diagnostic
// warning in words.
TableData samplerTable(const study::RunResult& run);

// ---- utility (from each synthesizer's utility report) ----
// Per synthesizer and statistic: confidential and synthetic estimate with their intervals,
// and the CI overlap. Every measure's warnings and a failed report in words.
Expected<TableData> utilityTable(const study::RunResult& run);
// Per synthesizer: ECDF distances, pMSE and S_pMSE with the value expected of a correct
// synthesizer, the regression's mean CI overlap.
Expected<TableData> distributionTable(const study::RunResult& run);
// The regression of y under `synthesizer`: each term's confidential and synthetic estimate
// (combining rules) with intervals, CI overlap and degrees of freedom.
Expected<TableData> regressionTable(const study::RunResult& run, const std::string& synthesizer);
// The posterior of each model parameter under `synthesizer` against the unweighted one, with
// the ratio of 90% interval widths (above 1: information lost to the weights).
Expected<TableData> posteriorTable(const study::RunResult& run, const std::string& synthesizer);

// Two runs side by side, one row per synthesizer name found in either (first run's order,
// then the second's new ones): epsilon per dataset, m, epsilon for all m datasets, how Delta
// was estimated, mean IR, mean weight, records above the risk threshold, each for both runs;
// "–" where a run lacks the synthesizer. Warns when m, the Delta estimate, L or r differ.
TableData comparisonTable(const study::RunResult& a, const QString& labelA,
                          const study::RunResult& b, const QString& labelB);

// Number format of every table: 4 significant digits, "–" for NaN.
QString formatCell(double v);
// An interval as a table cell: "[lower, upper]".
QString intervalCell(const study::EstimateInterval& e);
// "yes", "no ⚠" or "not diagnosed" (a run made before ppsynth diagnosed epsilon).
QString epsilonConvergedCell(const privacy::EpsilonDiagnostics& d);
std::string joinReasons(const std::vector<std::string>& reasons);

}  // namespace ppsynth::ui::results
