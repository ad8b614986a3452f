#include "ppsynth/utility/ols.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <optional>

#include "ols_solver.hpp"
#include "ppsynth/data/number_format.hpp"
#include "ppsynth/utility/ci_overlap.hpp"
#include "ppsynth/utility/statistics.hpp"
#include "sparse_normal.hpp"
#include "utility/coefficient_overlap.hpp"

namespace ppsynth::utility {

namespace detail {

namespace {
// Relative size of a pivot of the unit-norm-column QR below which a column counts as a linear
// combination of the columns pivoted before it.
constexpr double kRankThreshold = 1e-9;

std::string quoted(const std::string& s) {
    return "'" + s + "'";
}
}  // namespace

std::vector<std::string> columnNames(const std::vector<std::string>& names, Eigen::Index p) {
    std::vector<std::string> out(static_cast<std::size_t>(p));
    for (std::size_t j = 0; j < out.size(); ++j)
        out[j] =
            j < names.size() && !names[j].empty() ? names[j] : "column " + std::to_string(j + 1);
    return out;
}

namespace {
Expected<Eigen::VectorXd> columnNorms(const Eigen::MatrixXd& X,
                                      const std::vector<std::string>& names,
                                      const std::string& what) {
    if (!X.allFinite()) {
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                if (!std::isfinite(X(i, j)))
                    return Error{what + ": column " + quoted(names[static_cast<std::size_t>(j)]) +
                                 " row " + std::to_string(i + 1) + " is not a finite number"};
    }
    Eigen::VectorXd norms = X.colwise().norm().transpose();
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        if (norms(j) == 0)
            return Error{what + ": column " + quoted(names[static_cast<std::size_t>(j)]) +
                         " is all zero; drop it"};
    return norms;
}

Status rankOf(const Eigen::ColPivHouseholderQR<Eigen::MatrixXd>& qr,
              const std::vector<std::string>& names, const std::string& what) {
    if (qr.rank() == qr.cols()) return {};
    std::string dependent;
    const auto& perm = qr.colsPermutation().indices();
    for (Eigen::Index k = qr.rank(); k < qr.cols(); ++k) {
        if (!dependent.empty()) dependent += ", ";
        dependent += quoted(names[static_cast<std::size_t>(perm(k))]);
    }
    const bool one = qr.cols() - qr.rank() == 1;
    return Error{what + " is rank deficient (rank " + std::to_string(qr.rank()) + " of " +
                 std::to_string(qr.cols()) + " columns): " + dependent + (one ? " is" : " are") +
                 " a linear combination of the other columns; drop " + (one ? "it" : "them") +
                 " or merge categories"};
}
}  // namespace

Status checkRank(const Eigen::MatrixXd& X, const std::vector<std::string>& names,
                 const std::string& what) {
    const auto all = columnNames(names, X.cols());
    auto norms = columnNorms(X, all, what);
    if (!norms) return norms.status();
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(X * norms->cwiseInverse().asDiagonal());
    qr.setThreshold(kRankThreshold);
    return rankOf(qr, all, what);
}

Status checkRegressionShape(Eigen::Index n, Eigen::Index p) {
    if (p == 0) return Error{"the regression has no columns"};
    if (n <= p)
        return Error{"the regression needs more records than columns (" + std::to_string(n) +
                     " records, " + std::to_string(p) + " columns)"};
    return {};
}

Expected<OlsSolver> OlsSolver::create(const Eigen::MatrixXd& X, std::vector<std::string> names) {
    OlsSolver s;
    s.n_ = X.rows();
    s.p_ = X.cols();
    s.names_ = columnNames(names, s.p_);
    if (Status st = checkRegressionShape(s.n_, s.p_); !st) return st.error();
    auto norms = columnNorms(X, s.names_, "the design matrix");
    if (!norms) return norms.error();
    s.scale_ = *norms;
    s.qr_.setThreshold(kRankThreshold);
    s.qr_.compute(X * s.scale_.cwiseInverse().asDiagonal());
    if (auto st = rankOf(s.qr_, s.names_, "the design matrix"); !st) return st.error();
    // (X'X)^-1 = D^-1 P R^-1 R^-T P' D^-1 for X D^-1 P = Q R.
    const Eigen::MatrixXd R =
        s.qr_.matrixR().topLeftCorner(s.p_, s.p_).triangularView<Eigen::Upper>();
    const Eigen::MatrixXd Rinv =
        R.triangularView<Eigen::Upper>().solve(Eigen::MatrixXd::Identity(s.p_, s.p_));
    const Eigen::MatrixXd inner = Rinv * Rinv.transpose();
    const auto& P = s.qr_.colsPermutation();
    const Eigen::MatrixXd unpermuted = P * inner * P.transpose();
    const Eigen::VectorXd invScale = s.scale_.cwiseInverse();
    s.xtxInverse_ = invScale.asDiagonal() * unpermuted * invScale.asDiagonal();
    return s;
}

OlsSolver::Solution OlsSolver::solve(const Eigen::VectorXd& y) const {
    Solution out;
    out.coefficients = qr_.solve(y).cwiseQuotient(scale_);
    // Residuals from the QR: the part of y outside the column space.
    const Eigen::VectorXd qty = qr_.householderQ().transpose() * y;
    const double rss = qty.tail(n_ - p_).squaredNorm();
    out.sigma2 = rss / static_cast<double>(n_ - p_);
    out.covariance = out.sigma2 * xtxInverse_;
    return out;
}

}  // namespace detail

namespace {
Expected<Eigen::VectorXd> toVector(std::span<const double> y, Eigen::Index n,
                                   const std::string& what) {
    if (static_cast<Eigen::Index>(y.size()) != n)
        return Error{what + " has " + std::to_string(y.size()) +
                     " values but the design matrix has " + std::to_string(n) + " rows"};
    if (auto st = validateSample(y, what); !st) return st.error();
    return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(y.data(), n));
}

Status checkLevel(double level) {
    if (!(level > 0 && level < 1))
        return Error{"interval level " + data::formatNumber(level) +
                     " must lie strictly between 0 and 1"};
    return {};
}
}  // namespace

Status checkFullColumnRank(const Eigen::MatrixXd& X, const std::vector<std::string>& names,
                           const std::string& what) {
    return detail::checkRank(X, names, what);
}

Expected<OlsFit> fitOls(const Eigen::MatrixXd& X, std::span<const double> y,
                        const std::vector<std::string>& names, double level) {
    if (auto st = checkLevel(level); !st) return st.error();
    auto solver = detail::OlsSolver::create(X, names);
    if (!solver) return solver.error();
    auto yv = toVector(y, X.rows(), "y");
    if (!yv) return yv.error();
    const auto sol = solver->solve(*yv);

    OlsFit fit;
    fit.names = solver->names();
    fit.coefficients = sol.coefficients;
    fit.covariance = sol.covariance;
    fit.standardErrors = sol.covariance.diagonal().cwiseSqrt();
    fit.sigma2 = sol.sigma2;
    fit.df = static_cast<int>(X.rows() - X.cols());
    const double t = boost::math::quantile(boost::math::students_t_distribution<double>(fit.df),
                                           (1 + level) / 2);
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        fit.intervals.push_back({fit.coefficients(j) - t * fit.standardErrors(j),
                                 fit.coefficients(j) + t * fit.standardErrors(j)});
    return fit;
}

namespace {

// One response's coefficients and their variances, from the dense or the sparse solver.
struct Coefficients {
    Eigen::VectorXd estimates, variances;
};

// The least-squares fits the regression utility needs, dense or sparse by the design's width.
class RegressionSolver {
  public:
    static Expected<RegressionSolver> create(const Eigen::MatrixXd& X,
                                             const std::vector<std::string>& names,
                                             const RegressionOptions& options) {
        RegressionSolver s;
        if (static_cast<std::size_t>(X.cols()) >= options.sparseColumns) {
            auto sparse = detail::SparseOls::create(X.sparseView(), names, options.progress);
            if (!sparse) return sparse.error();
            s.sparse_ = std::move(*sparse);
        } else {
            auto dense = detail::OlsSolver::create(X, names);
            if (!dense) return dense.error();
            s.dense_ = std::move(*dense);
        }
        return s;
    }
    const std::vector<std::string>& names() const {
        return sparse_ ? sparse_->names() : dense_->names();
    }
    Coefficients solve(const Eigen::VectorXd& y) const {
        if (sparse_) {
            auto sol = sparse_->solve(y);
            return {std::move(sol.coefficients), std::move(sol.variances)};
        }
        auto sol = dense_->solve(y);
        return {std::move(sol.coefficients), sol.covariance.diagonal()};
    }

  private:
    std::optional<detail::OlsSolver> dense_;
    std::optional<detail::SparseOls> sparse_;
};

}  // namespace

Expected<RegressionUtility> regressionUtility(const Eigen::MatrixXd& X, std::span<const double> y,
                                              const std::vector<std::vector<double>>& synthetic,
                                              const std::vector<std::string>& names, double level) {
    RegressionOptions options;
    options.level = level;
    return regressionUtility(X, y, synthetic, names, options);
}

Expected<RegressionUtility> regressionUtility(const Eigen::MatrixXd& X, std::span<const double> y,
                                              const std::vector<std::vector<double>>& synthetic,
                                              const std::vector<std::string>& names,
                                              const RegressionOptions& options) {
    const double level = options.level;
    if (auto st = checkLevel(level); !st) return st.error();
    auto solver = RegressionSolver::create(X, names, options);
    if (!solver) return solver.error();
    auto yv = toVector(y, X.rows(), "y");
    if (!yv) return yv.error();
    const std::size_t m = synthetic.size();
    if (m < 2)
        return Error{"the regression utility needs at least 2 synthetic datasets (m = " +
                     std::to_string(m) + ") for the combining rules"};
    auto stopped = [&](std::size_t done) {
        return report(options.progress, {"regression", 0, static_cast<double>(done),
                                         static_cast<double>(m + 1)}) == Continue::Stop;
    };
    if (stopped(0)) return Error::cancelled("regression cancelled");
    const auto original = solver->solve(*yv);
    const auto p = static_cast<std::size_t>(X.cols());
    const double t = boost::math::quantile(
        boost::math::students_t_distribution<double>(static_cast<double>(X.rows() - X.cols())),
        (1 + level) / 2);

    std::vector<std::vector<double>> q(p, std::vector<double>(m)), u(p, std::vector<double>(m));
    for (std::size_t l = 0; l < m; ++l) {
        if (stopped(l + 1)) return Error::cancelled("regression cancelled");
        auto yl = toVector(synthetic[l], X.rows(), "synthetic dataset " + std::to_string(l + 1));
        if (!yl) return yl.error();
        const auto sol = solver->solve(*yl);
        for (std::size_t j = 0; j < p; ++j) {
            const auto jj = static_cast<Eigen::Index>(j);
            q[j][l] = sol.estimates(jj);
            u[j][l] = sol.variances(jj);
        }
    }

    RegressionUtility out;
    for (std::size_t j = 0; j < p; ++j) {
        const auto jj = static_cast<Eigen::Index>(j);
        CoefficientUtility c;
        c.name = solver->names()[j];
        c.original = original.estimates(jj);
        const double se = std::sqrt(original.variances(jj));
        c.originalInterval = {c.original - t * se, c.original + t * se};
        if (auto s = detail::combineCoefficient(c, q[j], u[j], level); !s) return s.error();
        out.meanOverlap += c.overlap / static_cast<double>(p);
        out.coefficients.push_back(std::move(c));
    }
    return out;
}

}  // namespace ppsynth::utility
