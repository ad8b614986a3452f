// The design matrix X as the models multiply it: X B (linear predictors) and X' G
// (gradients). Dummy-coded predictors make X mostly zeros, so when few entries are nonzero
// a row-major sparse copy is used for the products (same results up to rounding, several
// times fewer flops). Private to core/src/models.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <atomic>

namespace ppsynth::models::detail {

class Design {
  public:
    // Use the sparse copy when at most this share of the entries is nonzero.
    static constexpr double kSparseDensity = 0.3;

    // cancel is polled while X is scanned (column blocks); once it is set the copy may be
    // incomplete and must be discarded.
    explicit Design(Eigen::MatrixXd X, bool allowSparse = true,
                    const std::atomic<bool>* cancel = nullptr);

    Eigen::Index rows() const { return X_.rows(); }
    Eigen::Index cols() const { return X_.cols(); }
    const Eigen::MatrixXd& dense() const { return X_; }
    bool isSparse() const { return sparse_; }
    // Column means of X (mean linear predictor = colMeans' beta).
    const Eigen::RowVectorXd& columnMeans() const { return colMeans_; }

    // out = X B (out resized to rows x B.cols()).
    template <typename In, typename Out>
    void times(const In& B, Out& out) const {
        if (sparse_)
            out.noalias() = S_ * B;
        else
            out.noalias() = X_ * B;
    }
    // out = X' G (out resized to cols x G.cols()).
    template <typename In, typename Out>
    void transposeTimes(const In& G, Out& out) const {
        if (sparse_)
            out.noalias() = St_ * G;
        else
            out.noalias() = X_.transpose() * G;
    }

    // The sparse copy in compressed row form (isSparse() only): the nonzeros of row i are
    // entries rowStart()[i] .. rowStart()[i + 1] - 1 of columnIndex() and value().
    const int* rowStart() const { return S_.outerIndexPtr(); }
    const int* columnIndex() const { return S_.innerIndexPtr(); }
    const double* value() const { return S_.valuePtr(); }

    // x_i' v: over row i's nonzeros when there is a sparse copy (a column-major row is n
    // doubles apart per entry).
    double rowDot(Eigen::Index i, const Eigen::Ref<const Eigen::VectorXd>& v) const {
        if (!sparse_) return X_.row(i).dot(v);
        double sum = 0.0;
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(S_, i); it; ++it)
            sum += it.value() * v(it.index());
        return sum;
    }

    // f(i, x_ij) for every nonzero of column j, i ascending: from the sparse copy's X' rows
    // when there is one (a dummy's few records instead of all n), else by scanning the column.
    template <typename F>
    void forEachInColumn(Eigen::Index j, F&& f) const {
        if (sparse_) {
            for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(St_, j); it; ++it)
                f(it.index(), it.value());
            return;
        }
        for (Eigen::Index i = 0; i < X_.rows(); ++i)
            if (const double x = X_(i, j); x != 0.0) f(i, x);
    }

    // Transposed layout for many right-hand sides (the mixture's K components), one block of
    // records at a time so the K x count scratch stays in cache: each record's K values
    // contiguous. Records first .. first + count - 1.
    // out = Bt X[rows]' (k x count, column-major), Bt is k x cols.
    void timesTransposed(const Eigen::MatrixXd& Bt, Eigen::Index first, Eigen::Index count,
                         double* out) const;
    // acc += Gt X[rows] (acc: k x cols), Gt is k x count, column-major.
    void addTransposedTimes(const double* Gt, Eigen::Index first, Eigen::Index count,
                            Eigen::MatrixXd& acc) const;

  private:
    Eigen::MatrixXd X_;
    Eigen::SparseMatrix<double, Eigen::RowMajor> S_;   // X, rows contiguous
    Eigen::SparseMatrix<double, Eigen::RowMajor> St_;  // X', rows contiguous
    Eigen::RowVectorXd colMeans_;
    bool sparse_ = false;
};

}  // namespace ppsynth::models::detail
