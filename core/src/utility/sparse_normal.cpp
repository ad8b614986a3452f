#include "sparse_normal.hpp"

#include <cmath>

#include "ols_solver.hpp"

namespace ppsynth::utility::detail {

namespace {

std::string quotedName(const std::string& s) {
    return "'" + s + "'";
}

// Column norms; errors name a non-finite value or an all-zero column.
Expected<Eigen::VectorXd> sparseColumnNorms(const SparseMatrix& X,
                                            const std::vector<std::string>& names,
                                            const std::string& what) {
    Eigen::VectorXd norms = Eigen::VectorXd::Zero(X.cols());
    for (Eigen::Index j = 0; j < X.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(X, j); it; ++it) {
            if (!std::isfinite(it.value()))
                return Error{what + ": column " + quotedName(names[static_cast<std::size_t>(j)]) +
                             " row " + std::to_string(it.row() + 1) + " is not a finite number"};
            norms(j) += it.value() * it.value();
        }
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
        if (norms(j) == 0)
            return Error{what + ": column " + quotedName(names[static_cast<std::size_t>(j)]) +
                         " is all zero; drop it"};
        norms(j) = std::sqrt(norms(j));
    }
    return norms;
}

Status rankError(const std::string& what, const std::string& column) {
    return Error{what + " is rank deficient: " + quotedName(column) +
                 " is a linear combination of the other columns; drop it or merge categories"};
}

// Factorizes the Gram matrix of Xs (unit-norm columns) and checks its pivots.
Status factorGram(const SparseMatrix& Xs, const std::vector<std::string>& names,
                  const std::string& what, SparseLdlt& ldlt) {
    const SparseMatrix G = Xs.transpose() * Xs;
    ldlt.compute(G);
    if (auto column = dependentColumn(ldlt, names); !column.empty()) return rankError(what, column);
    if (ldlt.info() != Eigen::Success)
        return Error{what +
                     " could not be factorized (numerically rank deficient); drop "
                     "collinear columns or merge categories"};
    return {};
}

}  // namespace

std::string dependentColumn(const SparseLdlt& ldlt, const std::vector<std::string>& names) {
    const Eigen::VectorXd d = ldlt.vectorD();
    const auto& old = ldlt.permutationPinv().indices();
    for (Eigen::Index k = 0; k < d.size(); ++k)
        if (!(d(k) > kSparseRankPivot)) return names[static_cast<std::size_t>(old(k))];
    return {};
}

Status checkRankSparse(const SparseMatrix& X, const std::vector<std::string>& names,
                       const std::string& what) {
    const auto all = columnNames(names, X.cols());
    auto norms = sparseColumnNorms(X, all, what);
    if (!norms) return norms.status();
    const SparseMatrix Xs = X * norms->cwiseInverse().asDiagonal();
    SparseLdlt ldlt;
    return factorGram(Xs, all, what, ldlt);
}

Expected<SparseOls> SparseOls::create(const SparseMatrix& X, std::vector<std::string> names,
                                      const ProgressCallback& progress) {
    SparseOls s;
    s.n_ = X.rows();
    s.p_ = X.cols();
    s.names_ = columnNames(names, s.p_);
    if (Status st = checkRegressionShape(s.n_, s.p_); !st) return st.error();
    auto norms = sparseColumnNorms(X, s.names_, "the design matrix");
    if (!norms) return norms.error();
    s.scale_ = *norms;
    s.Xs_ = X * s.scale_.cwiseInverse().asDiagonal();
    auto ldlt = std::make_shared<SparseLdlt>();
    if (auto st = factorGram(s.Xs_, s.names_, "the design matrix", *ldlt); !st) return st.error();
    s.ldlt_ = ldlt;
    // (X'X)^-1_jj = (Xs'Xs)^-1_jj / scale_j^2, one solve per column.
    s.inverseDiagonal_.resize(s.p_);
    Eigen::VectorXd e = Eigen::VectorXd::Zero(s.p_);
    for (Eigen::Index j = 0; j < s.p_; ++j) {
        if (j % 64 == 0 && report(progress, {"regression", 0, static_cast<double>(j),
                                             static_cast<double>(s.p_)}) == Continue::Stop)
            return Error::cancelled("regression cancelled");
        e(j) = 1;
        s.inverseDiagonal_(j) = ldlt->solve(e)(j) / (s.scale_(j) * s.scale_(j));
        e(j) = 0;
    }
    return s;
}

SparseOls::Solution SparseOls::solve(const Eigen::VectorXd& y) const {
    // The normal equations, with one step of iterative refinement against the rounding of
    // the Gram matrix.
    Eigen::VectorXd b = ldlt_->solve(Xs_.transpose() * y);
    Eigen::VectorXd r = y - Xs_ * b;
    b += ldlt_->solve(Xs_.transpose() * r);
    r = y - Xs_ * b;
    Solution out;
    out.sigma2 = r.squaredNorm() / static_cast<double>(n_ - p_);
    out.coefficients = b.cwiseQuotient(scale_);
    out.variances = out.sigma2 * inverseDiagonal_;
    return out;
}

}  // namespace ppsynth::utility::detail
