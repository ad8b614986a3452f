#include "ppsynth/utility/logistic.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>

#include "ols_solver.hpp"
#include "ppsynth/data/number_format.hpp"
#include "sparse_normal.hpp"

namespace ppsynth::utility {

namespace {

// log(1 + e^x) without overflow.
double softplus(double x) {
    return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

double deviance(const Eigen::VectorXd& eta, const Eigen::VectorXd& y) {
    double d = 0;
    for (Eigen::Index i = 0; i < eta.size(); ++i)
        d += y(i) > 0.5 ? softplus(-eta(i)) : softplus(eta(i));  // -log p or -log(1 - p)
    return 2 * d;
}

Eigen::VectorXd sigmoid(const Eigen::VectorXd& eta) {
    return eta.unaryExpr([](double e) { return 1 / (1 + std::exp(-e)); });
}

constexpr double kProbabilityEdge = 10 * std::numeric_limits<double>::epsilon();
constexpr double kStillMoving = 0.01;

// X'WX factorized densely, as the design is held.
struct DenseFactor {
    Eigen::LDLT<Eigen::MatrixXd> ldlt;
    bool compute(const Eigen::MatrixXd& X, const Eigen::VectorXd& w) {
        ldlt.compute(X.transpose() * w.asDiagonal() * X);
        return ldlt.info() == Eigen::Success && ldlt.isPositive();
    }
    Eigen::VectorXd solve(const Eigen::VectorXd& g) const { return ldlt.solve(g); }
    Eigen::VectorXd pivots() const { return ldlt.vectorD(); }
};

struct SparseFactor {
    detail::SparseLdlt ldlt;
    bool compute(const detail::SparseMatrix& X, const Eigen::VectorXd& w) {
        const detail::SparseMatrix WX = w.asDiagonal() * X;
        const detail::SparseMatrix H = X.transpose() * WX;
        ldlt.compute(H);
        return ldlt.info() == Eigen::Success && ldlt.vectorD().minCoeff() > 0;
    }
    Eigen::VectorXd solve(const Eigen::VectorXd& g) const { return ldlt.solve(g); }
    Eigen::VectorXd pivots() const { return ldlt.vectorD(); }
};

// Shapes, options, outcomes; the rank check is the caller's (dense or sparse).
Status checkLogisticInputs(Eigen::Index n, Eigen::Index p, const Eigen::VectorXd& y,
                           const LogisticOptions& options) {
    if (y.size() != n)
        return Error{"the logistic model has " + std::to_string(n) + " rows but " +
                     std::to_string(y.size()) + " outcomes"};
    if (p == 0 || n <= p)
        return Error{"the logistic model needs more records than columns (" + std::to_string(n) +
                     " records, " + std::to_string(p) + " columns)"};
    if (options.maxIterations < 1 || options.maxHalvings < 0 || !(options.tolerance > 0))
        return Error{"logistic options: maxIterations >= 1, maxHalvings >= 0, tolerance > 0"};
    for (Eigen::Index i = 0; i < n; ++i)
        if (y(i) != 0 && y(i) != 1)
            return Error{"logistic outcome row " + std::to_string(i + 1) + ": " +
                         data::formatNumber(y(i)) + " is not 0 or 1"};
    return {};
}

template <class Matrix, class Factor>
Expected<LogisticFit> newton(const Matrix& X, const Eigen::VectorXd& y,
                             const LogisticOptions& options, Factor& factor) {
    const Eigen::Index n = X.rows(), p = X.cols();
    auto stopped = [&](int iteration) {
        return report(options.progress, {"logistic", 0, static_cast<double>(iteration),
                                         static_cast<double>(options.maxIterations)}) ==
               Continue::Stop;
    };
    LogisticFit fit;
    Eigen::VectorXd beta = Eigen::VectorXd::Zero(p);
    Eigen::VectorXd eta = Eigen::VectorXd::Zero(n);
    double dev = deviance(eta, y);
    bool singular = false, stuck = false;

    // The Newton step at the current estimate; false when X'WX is numerically singular.
    auto newtonStep = [&](Eigen::VectorXd& delta) {
        const Eigen::VectorXd prob = sigmoid(eta);
        const Eigen::VectorXd w = prob.cwiseProduct(Eigen::VectorXd::Ones(n) - prob);
        if (!factor.compute(X, w)) return false;
        const Eigen::VectorXd d = factor.pivots();
        const double dmax = d.maxCoeff(), dmin = d.minCoeff();
        if (!(dmin > dmax * 1e-14)) return false;
        delta = factor.solve(X.transpose() * (y - prob));
        return delta.allFinite();
    };

    Eigen::VectorXd delta(p);
    while (fit.iterations < options.maxIterations) {
        if (stopped(fit.iterations)) return Error::cancelled("the logistic fit was cancelled");
        if (!newtonStep(delta)) {
            singular = true;
            break;
        }
        ++fit.iterations;
        double step = 1, devNew = dev;
        Eigen::VectorXd betaNew, etaNew;
        bool accepted = false;
        for (int h = 0; h <= options.maxHalvings; ++h, step /= 2) {
            if (h > 0 && stopped(fit.iterations))
                return Error::cancelled("the logistic fit was cancelled");
            betaNew = beta + step * delta;
            etaNew = X * betaNew;
            devNew = deviance(etaNew, y);
            if (std::isfinite(devNew) && devNew <= dev * (1 + 1e-12)) {
                accepted = true;
                break;
            }
        }
        if (!accepted) {
            stuck = true;
            break;
        }
        const double change = std::abs(devNew - dev) / (std::abs(devNew) + 0.1);
        beta = betaNew;
        eta = etaNew;
        dev = devNew;
        if (change < options.tolerance) {
            fit.converged = true;
            break;
        }
    }

    fit.coefficients = beta;
    fit.fitted = sigmoid(eta);
    fit.deviance = dev;
    if (!singular) {
        if (newtonStep(delta))
            fit.lastStep = (X * delta).cwiseAbs().maxCoeff();
        else
            singular = true;
    }
    const bool atEdge = (fit.fitted.array() < kProbabilityEdge).any() ||
                        (fit.fitted.array() > 1 - kProbabilityEdge).any();
    fit.separation = singular || atEdge || fit.lastStep > kStillMoving;

    if (fit.separation) {
        fit.warning =
            "the logistic model separates the outcomes (perfect or near-perfect prediction: ";
        fit.warning += atEdge     ? "fitted probabilities reached 0 or 1"
                       : singular ? "the weights p(1 - p) vanished"
                                  : "the coefficients keep diverging";
        fit.warning += "), so its estimates are not finite and the fitted probabilities are limits";
    } else if (stuck) {
        fit.warning = "the logistic fit stopped after " + std::to_string(fit.iterations) +
                      " iterations because step halving could not lower the deviance";
    } else if (!fit.converged) {
        fit.warning = "the logistic fit did not converge in " +
                      std::to_string(options.maxIterations) + " iterations";
    }
    return fit;
}

}  // namespace

Expected<LogisticFit> fitLogistic(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                  const LogisticOptions& options,
                                  const std::vector<std::string>& names) {
    if (auto st = checkLogisticInputs(X.rows(), X.cols(), y, options); !st) return st.error();
    if (auto st = detail::checkRank(X, names, "the logistic design matrix"); !st) return st.error();
    DenseFactor factor;
    return newton(X, y, options, factor);
}

Expected<LogisticFit> fitLogistic(const Eigen::SparseMatrix<double>& X, const Eigen::VectorXd& y,
                                  const LogisticOptions& options,
                                  const std::vector<std::string>& names) {
    if (auto st = checkLogisticInputs(X.rows(), X.cols(), y, options); !st) return st.error();
    if (auto st = detail::checkRankSparse(X, names, "the logistic design matrix"); !st)
        return st.error();
    SparseFactor factor;
    return newton(X, y, options, factor);
}

}  // namespace ppsynth::utility
