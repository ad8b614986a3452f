#include "models/design.hpp"

#include <algorithm>

#include "ppsynth/common/cancel.hpp"

namespace ppsynth::models::detail {

// Every pass over X goes a block of columns at a time so a wide design (thousands of dummy
// columns, hundreds of MB) stops within milliseconds of a cancel.
Design::Design(Eigen::MatrixXd X, bool allowSparse, const std::atomic<bool>* cancel)
    : X_(std::move(X)) {
    const Eigen::Index n = X_.rows(), p = X_.cols();
    colMeans_ = Eigen::RowVectorXd::Zero(p);
    Eigen::Index nonzero = 0;
    for (Eigen::Index j0 = 0; j0 < p; j0 += kColumnsPerPoll) {
        if (stopRequested(cancel)) return;
        const Eigen::Index w = std::min<Eigen::Index>(kColumnsPerPoll, p - j0);
        if (n > 0) colMeans_.segment(j0, w) = X_.middleCols(j0, w).colwise().mean();
        nonzero += (X_.middleCols(j0, w).array() != 0.0).count();
    }
    const auto total = static_cast<double>(X_.size());
    sparse_ = allowSparse && total > 0 && static_cast<double>(nonzero) <= kSparseDensity * total;
    if (!sparse_) return;
    // Filled column by column (sorted, exact zeros left out, as sparseView does), then
    // converted to the row-major form the products use.
    Eigen::SparseMatrix<double> byColumn(n, p);
    byColumn.reserve(nonzero);
    for (Eigen::Index j = 0; j < p; ++j) {
        if (j % kColumnsPerPoll == 0 && stopRequested(cancel)) {
            sparse_ = false;
            return;
        }
        byColumn.startVec(j);
        for (Eigen::Index i = 0; i < n; ++i)
            if (X_(i, j) != 0.0) byColumn.insertBack(i, j) = X_(i, j);
    }
    byColumn.finalize();
    S_ = byColumn;
    St_ = S_.transpose();
    S_.makeCompressed();
    St_.makeCompressed();
}

// Sparse paths: one pass over the nonzeros of the rows (contiguous), each an axpy on K
// contiguous doubles; Eigen's dense x sparse products were 2-3 times slower here.
void Design::timesTransposed(const Eigen::MatrixXd& Bt, Eigen::Index first, Eigen::Index count,
                             double* out) const {
    const Eigen::Index K = Bt.rows();
    Eigen::Map<Eigen::MatrixXd> o(out, K, count);
    if (!sparse_) {
        o.noalias() = Bt * X_.middleRows(first, count).transpose();
        return;
    }
    const int* outer = S_.outerIndexPtr();
    const int* inner = S_.innerIndexPtr();
    const double* val = S_.valuePtr();
    for (Eigen::Index r = 0; r < count; ++r) {
        auto col = o.col(r);
        col.setZero();
        const Eigen::Index i = first + r;
        for (int e = outer[i]; e < outer[i + 1]; ++e) col += val[e] * Bt.col(inner[e]);
    }
}

void Design::addTransposedTimes(const double* Gt, Eigen::Index first, Eigen::Index count,
                                Eigen::MatrixXd& acc) const {
    const Eigen::Index K = acc.rows();
    const Eigen::Map<const Eigen::MatrixXd> g(Gt, K, count);
    if (!sparse_) {
        acc.noalias() += g * X_.middleRows(first, count);
        return;
    }
    const int* outer = S_.outerIndexPtr();
    const int* inner = S_.innerIndexPtr();
    const double* val = S_.valuePtr();
    for (Eigen::Index r = 0; r < count; ++r) {
        const auto gi = g.col(r);
        const Eigen::Index i = first + r;
        for (int e = outer[i]; e < outer[i + 1]; ++e) acc.col(inner[e]) += val[e] * gi;
    }
}

}  // namespace ppsynth::models::detail
