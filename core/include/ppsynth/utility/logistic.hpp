// Logistic regression by iteratively reweighted least squares (Newton's method), for the
// pMSE propensity model. Step halving keeps every accepted step from raising the deviance;
// convergence is R's glm rule |dev - dev_old| / (|dev| + 0.1) < tolerance.
//
// Separation (a combination of columns predicting y perfectly or almost) has no finite
// maximum: the deviance criterion may still be met while the coefficients run off. The fit
// is flagged, never silently returned as fine, when at the end
//  - a fitted probability is within 10 machine epsilons of 0 or 1 (R's warning), or
//  - one more Newton step would still move some linear predictor by more than 0.01 (at a
//    true maximum Newton converges quadratically and that step is tiny), or
//  - X'WX became numerically singular because weights p(1 - p) vanished,
// and `warning` then holds a sentence saying so. Non-convergence in maxIterations likewise.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"

namespace ppsynth::utility {

struct LogisticOptions {
    int maxIterations = 50;
    double tolerance = 1e-8;  // on the relative deviance change
    int maxHalvings = 30;
    // Asked before every Newton iteration and step halving (stage "logistic", done/total in
    // iterations); a Stop answer ends the fit with a "cancelled" error.
    ProgressCallback progress;
};

struct LogisticFit {
    Eigen::VectorXd coefficients;
    Eigen::VectorXd fitted;  // p_i
    double deviance = 0;
    int iterations = 0;
    bool converged = false;
    bool separation = false;
    double lastStep = 0;  // max_i |x_i' delta| of the Newton step at the returned estimate
    std::string warning;  // empty when the fit is trustworthy
};

// X is used as given (include an intercept column if wanted); y holds 0/1. Errors for bad
// shapes, values other than 0/1, non-finite or rank-deficient X (naming columns).
Expected<LogisticFit> fitLogistic(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                  const LogisticOptions& options = {},
                                  const std::vector<std::string>& names = {});

// The same on a sparse X (dummy columns of many levels): X'WX is factorized by a sparse
// LDLT, so time and memory follow the non-zeros, not rows x columns. The rank check works on
// the Gram matrix (a column within a sine of about 1e-5 of the others' span is an error);
// otherwise the fit agrees with the dense one to rounding.
Expected<LogisticFit> fitLogistic(const Eigen::SparseMatrix<double>& X, const Eigen::VectorXd& y,
                                  const LogisticOptions& options = {},
                                  const std::vector<std::string>& names = {});

}  // namespace ppsynth::utility
