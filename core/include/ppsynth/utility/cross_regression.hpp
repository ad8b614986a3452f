// Regression utility when the regressors differ between datasets (METHOD.md section 9): a
// sensitive variable regressed on the predictors and the OTHER sensitive variables, which are
// synthetic too. The confidential OLS fit of y on Xo against, for every synthetic dataset l,
// the OLS fit of y*_l on its own X_l, combined with the rules for partially synthetic data and
// compared by CI overlap: regressionUtility of ols.hpp with one design per dataset.
#pragma once

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/utility/ols.hpp"

namespace ppsynth::utility {

// Xo: n x p with its intercept column; syntheticX[l]: dataset l's design (same columns, same
// meaning), syntheticY[l] its response. Needs m >= 2. Errors name the dataset.
Expected<RegressionUtility> regressionUtilityPerDataset(
    const Eigen::MatrixXd& Xo, std::span<const double> y,
    const std::vector<Eigen::MatrixXd>& syntheticX,
    const std::vector<std::vector<double>>& syntheticY, const std::vector<std::string>& names,
    double level = 0.95);

}  // namespace ppsynth::utility
