// One finished run of the session: its result (shared, read-only), the table it ran on
// (for saving its folder), and where it was saved. Records are what the run list shows and
// what the results views and the project file refer to.
#pragma once

#include <QDateTime>
#include <QString>
#include <memory>

#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"

namespace ppsynth::ui {

struct RunRecord {
    int id = 0;  // 1, 2, ... in the order the session finished them
    QString label;
    QDateTime finishedAt;
    std::shared_ptr<const study::RunResult> result;  // null for a run reopened from disk
    std::shared_ptr<const data::Table> table;        // the table the run used
    QString folder;                                  // its saved folder; empty until saved
    // Where its data file is now: the project's (project files keep paths relative, so the
    // folder may have moved since the run) or one the person located. Empty: the path the
    // run recorded.
    QString dataPath;
    QString savedSummary;  // epsilon summary of a reopened run

    // "LW: ε 1.23 per dataset; EM: ε 1.22 per dataset" (names in configuration order).
    QString epsilonSummary() const;
};

// The same summary for a finished run.
QString epsilonSummary(const study::RunResult& run);
// "97 of 100 rows modelled, 3 dropped by listwise deletion (missing values)".
QString recordsSummary(const study::RunResult& run);
// Several lines per synthesizer: epsilon per dataset and in total, Delta, weights, risk.
QString detailedSummary(const study::RunResult& run);

}  // namespace ppsynth::ui
