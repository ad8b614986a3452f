// A sweep row's utility columns, read off its utility report (private to core/study).
//
// Every row has the first sensitive variable's columns (q90_ci_overlap ... s_pmse). A sweep
// with several sensitive variables (METHOD.md section 9) adds, after every column a one-variable
// sweep writes, the same seven columns per variable, named "<column>[<variable>]" (e.g.
// "pmse[income]", "mean_ci_overlap[exp_food]"), in the configuration's order, and five joint
// columns:
//   joint_pmse, joint_s_pmse      the propensity model over the predictors and every variable
//   joint_corr_frobenius          || R_s - R_o ||_F of the variables' correlation matrices,
//                                 averaged over the datasets
//   joint_corr_max_abs            the largest |r_s - r_o| over pairs and datasets
//   joint_regression_ci_overlap   the mean over the variables of the mean CI overlap of each
//                                 variable regressed on the predictors and the others
//                                 (undefined when one of these regressions is)
// A one-variable sweep writes none of these, so its files are as before.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ppsynth/study/utility_report.hpp"

namespace ppsynth::study::detail {

// One variable's utility columns (NaN where the report lacks the measure).
struct UtilityColumns {
    double q90CiOverlap = kUndefined, q90RelError = kUndefined;
    double meanCiOverlap = kUndefined, meanRelError = kUndefined;
    double Um = kUndefined, pmse = kUndefined, sPmse = kUndefined;
};

struct JointColumns {
    double pmse = kUndefined, sPmse = kUndefined;
    double corrFrobenius = kUndefined, corrMaxAbs = kUndefined;
    double regressionCiOverlap = kUndefined;
};

UtilityColumns utilityColumns(const UtilityReport& u);
// The report's variable named `target` (the first variable's columns are the report's own when
// it has no per-variable reports); all NaN when it is absent.
UtilityColumns utilityColumns(const UtilityReport& u, const std::string& target);
JointColumns jointColumns(const UtilityReport& u);

// The CSV header of the several-variable columns for `targets` (empty for one variable) and a
// row's cells, in the same order.
std::vector<std::string> severalHeader(const std::vector<std::string>& targets);
std::vector<double> severalCells(const UtilityReport* u, const std::vector<std::string>& targets);

// A row's JSON additions: "variables" [{target, q90_ci_overlap, ...}] and "joint" {pmse, ...};
// nothing for a report of one variable.
void addSeveralJson(nlohmann::json& row, const UtilityReport& u);

}  // namespace ppsynth::study::detail
