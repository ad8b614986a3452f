// Utility of several sensitive variables (METHOD.md section 9): every measure of section 6 for
// each sensitive variable, and the joint measures (UtilityReport::joint): pMSE over all
// sensitive variables with the predictors, each sensitive variable regressed on the chosen
// predictors and the other sensitive variables (combining rules, CI overlap), and the
// difference of the sensitive variables' correlation matrices.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/study/utility_options.hpp"
#include "ppsynth/study/utility_report.hpp"

namespace ppsynth::study {

struct JointUtilityInputs {
    std::vector<std::string> targets;        // q >= 2, in the user's order
    Eigen::MatrixXd original;                // n x q, released (original) scale
    std::vector<Eigen::MatrixXd> synthetic;  // m datasets, n x q each
    // The regressions' predictors with their intercept column (0 columns: the intercept and the
    // other sensitive variables only) and the propensity model's, without intercept.
    Eigen::MatrixXd regressionDesign;
    std::vector<std::string> regressionNames;
    Eigen::MatrixXd propensityPredictors;
    std::vector<std::string> propensityNames;
    bool posteriorPredictive = true;
};

// E[S_pMSE] of a correct synthesizer when q of the propensity model's k - 1 columns are
// synthesized (partial synthesis, c = 1/2): 2q / (k - 1) from posterior predictive draws,
// q / (k - 1) from fixed parameters; q = 1 is sPmseReference.
double jointSPmseReference(int k, std::size_t q, bool posteriorPredictive);

// The joint measures. A measure that fails (a constant synthetic variable, a rank-deficient
// regression) leaves its part empty and says why in warnings; progress stage "joint".
Expected<JointUtility> computeJointUtility(const JointUtilityInputs& inputs,
                                           const UtilityOptions& options, int threads = 1,
                                           const ProgressCallback& progress = {});

// A run's report with q sensitive variables: `first` are the first variable's inputs as
// utilityInputs makes them (design, propensity predictors, parameters), but with `original`
// and every synthetic dataset holding q n values, variable after variable. Each variable gets
// its own report (its parameters are those named "<variable>: ..."), seeded with
// utilitySeed(seed, synthesizer) and "confidential data" for the first (as a one-variable
// run), "<synthesizer>: <variable>" and "confidential data: <variable>" for the others. The
// result is the first variable's report with `variables` (all q) and `joint` filled in.
Expected<UtilityReport> computeSeveralUtility(const UtilityInputs& first,
                                              const std::vector<std::string>& targets,
                                              const UtilityOptions& options, std::uint64_t seed,
                                              const std::string& synthesizer, int threads = 1,
                                              const ProgressCallback& progress = {});

}  // namespace ppsynth::study
