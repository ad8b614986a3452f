// Ordinary least squares and the regression utility of METHOD.md section 6: the original-data
// OLS interval of each coefficient against the synthetic interval from the combining rules for
// partially synthetic data, compared by CI overlap.
//
// The design matrix X is used exactly as given: it must contain the intercept column if one
// is wanted (the design of METHOD.md section 1 has it first). In partial synthesis the
// predictors are released as they are, so one X serves the original y and every synthetic y*.
#pragma once

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/utility/combining_rules.hpp"
#include "ppsynth/utility/interval.hpp"

namespace ppsynth::utility {

struct OlsFit {
    std::vector<std::string> names;  // column names (given, or "column 1", ...)
    Eigen::VectorXd coefficients;
    Eigen::VectorXd standardErrors;   // sqrt of diag sigma^2 (X'X)^-1
    Eigen::MatrixXd covariance;       // sigma^2 (X'X)^-1
    std::vector<Interval> intervals;  // t intervals with n - p degrees of freedom
    double sigma2 = 0;                // residual sum of squares / (n - p)
    int df = 0;                       // n - p
};

// names: one per column of X, or empty. Errors: n <= p, non-finite values, a rank-deficient
// design (the message names the columns that are linear combinations of the others).
Expected<OlsFit> fitOls(const Eigen::MatrixXd& X, std::span<const double> y,
                        const std::vector<std::string>& names = {}, double level = 0.95);

// The numerical rank check shared with the pMSE model: Ok when X has full column rank.
Status checkFullColumnRank(const Eigen::MatrixXd& X, const std::vector<std::string>& names,
                           const std::string& what);

struct CoefficientUtility {
    std::string name;
    double original = 0;         // original-data OLS estimate
    Interval originalInterval;   // its t interval
    CombinedEstimate synthetic;  // combining rules over the m synthetic fits
    double overlap = 0;          // Karr et al. CI overlap (may be negative)
};

struct RegressionUtility {
    std::vector<CoefficientUtility> coefficients;
    double meanOverlap = 0;  // average CI overlap over the coefficients
};

struct RegressionOptions {
    double level = 0.95;
    // A design with at least this many columns is solved in sparse form (normal equations
    // with a sparse LDLT; the variances from the diagonal of (X'X)^-1 only): time and memory
    // follow the non-zeros, where the dense QR costs n p^2. Agrees with the dense form to
    // rounding on designs both can solve.
    std::size_t sparseColumns = 128;
    // Stage "regression"; asked between datasets (and columns of the sparse form's inverse
    // diagonal). A Stop answer returns a "cancelled" error.
    ProgressCallback progress;
};

// synthetic[l] is dataset l's y*, in the record order of X's rows. Needs m >= 2.
Expected<RegressionUtility> regressionUtility(const Eigen::MatrixXd& X, std::span<const double> y,
                                              const std::vector<std::vector<double>>& synthetic,
                                              const std::vector<std::string>& names,
                                              const RegressionOptions& options);
Expected<RegressionUtility> regressionUtility(const Eigen::MatrixXd& X, std::span<const double> y,
                                              const std::vector<std::vector<double>>& synthetic,
                                              const std::vector<std::string>& names = {},
                                              double level = 0.95);

}  // namespace ppsynth::utility
