#include "models/design.hpp"

#include <algorithm>

namespace ppsynth::models::detail {

Design::Design(Eigen::MatrixXd X, bool allowSparse) : X_(std::move(X)) {
    colMeans_ = X_.rows() > 0 ? Eigen::RowVectorXd(X_.colwise().mean())
                              : Eigen::RowVectorXd::Zero(X_.cols());
    const auto total = static_cast<double>(X_.size());
    const auto nonzero = static_cast<double>((X_.array() != 0.0).count());
    sparse_ = allowSparse && total > 0 && nonzero <= kSparseDensity * total;
    if (sparse_) {
        S_ = X_.sparseView();
        St_ = S_.transpose();
        S_.makeCompressed();
        St_.makeCompressed();
    }
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
