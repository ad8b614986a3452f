// A least-squares solver for one design matrix reused for many responses (the original y and
// every synthetic y* share the released predictors). Private to core/utility.
#pragma once

#include <Eigen/Core>
#include <Eigen/QR>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::utility::detail {

// Column names, falling back to "column j" (1-based) when none were given.
std::vector<std::string> columnNames(const std::vector<std::string>& names, Eigen::Index p);

// A regression of n records on p columns can be fitted: p > 0 and n > p.
Status checkRegressionShape(Eigen::Index n, Eigen::Index p);

class OlsSolver {
  public:
    // Checks shape, finiteness and full column rank (naming dependent columns).
    static Expected<OlsSolver> create(const Eigen::MatrixXd& X, std::vector<std::string> names);

    Eigen::Index rows() const { return n_; }
    Eigen::Index cols() const { return p_; }
    const std::vector<std::string>& names() const { return names_; }

    struct Solution {
        Eigen::VectorXd coefficients;
        Eigen::MatrixXd covariance;  // sigma^2 (X'X)^-1
        double sigma2 = 0;
    };
    Solution solve(const Eigen::VectorXd& y) const;

  private:
    Eigen::Index n_ = 0, p_ = 0;
    std::vector<std::string> names_;
    Eigen::VectorXd scale_;  // column norms: the QR works on unit-norm columns
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr_;
    Eigen::MatrixXd xtxInverse_;  // (X'X)^-1 on the original column scale
};

// Full column rank of X with columns scaled to unit norm (so units do not matter); Error
// names the columns found to be (numerically) linear combinations of the others.
Status checkRank(const Eigen::MatrixXd& X, const std::vector<std::string>& names,
                 const std::string& what);

}  // namespace ppsynth::utility::detail
