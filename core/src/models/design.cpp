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

// Sparse paths: one pass over the nonzeros of X (rows contiguous), each an axpy on K
// contiguous doubles; Eigen's dense x sparse products were 2-3 times slower here.
void Design::timesTransposed(const Eigen::MatrixXd& Bt, Eigen::MatrixXd& out) const {
    if (!sparse_) {
        out.noalias() = Bt * X_.transpose();
        return;
    }
    const Eigen::Index K = Bt.rows();
    out.resize(K, X_.rows());
    const int* outer = S_.outerIndexPtr();
    const int* inner = S_.innerIndexPtr();
    const double* val = S_.valuePtr();
    for (Eigen::Index i = 0; i < X_.rows(); ++i) {
        double* o = out.col(i).data();
        std::fill(o, o + K, 0.0);
        for (int e = outer[i]; e < outer[i + 1]; ++e) {
            const double v = val[e];
            const double* b = Bt.col(inner[e]).data();
            for (Eigen::Index k = 0; k < K; ++k) o[k] += v * b[k];
        }
    }
}

void Design::transposedTimes(const Eigen::MatrixXd& Gt, Eigen::MatrixXd& out) const {
    if (!sparse_) {
        out.noalias() = Gt * X_;
        return;
    }
    const Eigen::Index K = Gt.rows();
    out.setZero(K, X_.cols());
    const int* outer = S_.outerIndexPtr();
    const int* inner = S_.innerIndexPtr();
    const double* val = S_.valuePtr();
    for (Eigen::Index i = 0; i < X_.rows(); ++i) {
        const double* g = Gt.col(i).data();
        for (int e = outer[i]; e < outer[i + 1]; ++e) {
            const double v = val[e];
            double* o = out.col(inner[e]).data();
            for (Eigen::Index k = 0; k < K; ++k) o[k] += v * g[k];
        }
    }
}

}  // namespace ppsynth::models::detail
