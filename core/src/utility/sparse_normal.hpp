// Normal-equation solvers on sparse designs, for the utility measures' wide designs (a
// categorical predictor with thousands of levels): X'X (or X'WX) of dummy columns is nearly
// diagonal, so a sparse LDLT with a fill-reducing ordering factorizes it in about the time
// of one pass over the non-zeros, where a dense QR of the n x p matrix costs n p^2 and n p
// doubles. Private to core/utility.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <memory>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"

namespace ppsynth::utility::detail {

using SparseMatrix = Eigen::SparseMatrix<double>;
using SparseLdlt = Eigen::SimplicialLDLT<SparseMatrix>;

// A pivot of the LDLT of the Gram matrix of unit-norm columns is the squared sine of the
// angle between a column and the span of the columns ordered before it. Below this the
// column counts as a linear combination of the others (a sine of about 1e-5: the Gram
// matrix's own rounding keeps exact dependencies well above the dense QR's 1e-9).
inline constexpr double kSparseRankPivot = 1e-10;

// The name of a column whose pivot in `ldlt` (of the Gram matrix of unit-norm columns) is
// below kSparseRankPivot, or empty when there is none.
std::string dependentColumn(const SparseLdlt& ldlt, const std::vector<std::string>& names);

// Full column rank of X with columns scaled to unit norm; Error names the first dependent
// column found, an all-zero column or a value that is not finite (`what` opens the message).
Status checkRankSparse(const SparseMatrix& X, const std::vector<std::string>& names,
                       const std::string& what);

// Least squares on a sparse design, for one X and many responses (the regression utility's
// original y and every synthetic y*): coefficients and their variances sigma^2 (X'X)^-1_jj,
// the diagonal only (the utility compares one coefficient at a time).
class SparseOls {
  public:
    // Checks shape, finiteness and rank like OlsSolver::create. The diagonal of (X'X)^-1
    // takes one solve per column; `progress` (stage "regression") is asked between them and
    // a Stop answer returns a "cancelled" error.
    static Expected<SparseOls> create(const SparseMatrix& X, std::vector<std::string> names,
                                      const ProgressCallback& progress = {});

    Eigen::Index rows() const { return n_; }
    Eigen::Index cols() const { return p_; }
    const std::vector<std::string>& names() const { return names_; }

    struct Solution {
        Eigen::VectorXd coefficients;
        Eigen::VectorXd variances;  // sigma^2 (X'X)^-1_jj
        double sigma2 = 0;
    };
    Solution solve(const Eigen::VectorXd& y) const;

  private:
    Eigen::Index n_ = 0, p_ = 0;
    std::vector<std::string> names_;
    SparseMatrix Xs_;                         // X with unit-norm columns
    Eigen::VectorXd scale_;                   // the column norms
    std::shared_ptr<const SparseLdlt> ldlt_;  // of Xs' Xs (Eigen's solvers do not move)
    Eigen::VectorXd inverseDiagonal_;         // (X'X)^-1_jj on the original column scale
};

}  // namespace ppsynth::utility::detail
