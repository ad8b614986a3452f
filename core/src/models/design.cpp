#include "models/design.hpp"

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

}  // namespace ppsynth::models::detail
