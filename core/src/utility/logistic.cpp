#include "ppsynth/utility/logistic.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>

#include "ols_solver.hpp"
#include "ppsynth/data/number_format.hpp"

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

}  // namespace

Expected<LogisticFit> fitLogistic(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                  const LogisticOptions& options,
                                  const std::vector<std::string>& names) {
    const Eigen::Index n = X.rows(), p = X.cols();
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
    if (auto st = detail::checkRank(X, names, "the logistic design matrix"); !st)
        return Error{st.message()};

    LogisticFit fit;
    Eigen::VectorXd beta = Eigen::VectorXd::Zero(p);
    Eigen::VectorXd eta = Eigen::VectorXd::Zero(n);
    double dev = deviance(eta, y);
    bool singular = false, stuck = false;
    Eigen::LDLT<Eigen::MatrixXd> ldlt;

    // The Newton step at the current estimate; false when X'WX is numerically singular.
    auto newtonStep = [&](Eigen::VectorXd& delta) {
        const Eigen::VectorXd prob = sigmoid(eta);
        const Eigen::VectorXd w = prob.cwiseProduct(Eigen::VectorXd::Ones(n) - prob);
        const Eigen::MatrixXd H = X.transpose() * w.asDiagonal() * X;
        ldlt.compute(H);
        if (ldlt.info() != Eigen::Success || !ldlt.isPositive()) return false;
        const double dmax = ldlt.vectorD().maxCoeff(), dmin = ldlt.vectorD().minCoeff();
        if (!(dmin > dmax * 1e-14)) return false;
        delta = ldlt.solve(X.transpose() * (y - prob));
        return delta.allFinite();
    };

    Eigen::VectorXd delta(p);
    while (fit.iterations < options.maxIterations) {
        if (!newtonStep(delta)) {
            singular = true;
            break;
        }
        ++fit.iterations;
        double step = 1, devNew = dev;
        Eigen::VectorXd betaNew, etaNew;
        bool accepted = false;
        for (int h = 0; h <= options.maxHalvings; ++h, step /= 2) {
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

}  // namespace ppsynth::utility
