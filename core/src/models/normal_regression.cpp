#include "ppsynth/models/normal_regression.hpp"

#include <Eigen/Cholesky>
#include <boost/random/normal_distribution.hpp>
#include <cassert>

#include "models/design.hpp"
#include "models/prior_terms.hpp"

namespace ppsynth::models {

NormalRegression::NormalRegression(Eigen::MatrixXd X, Eigen::VectorXd y,
                                   std::vector<std::string> columnNames, Priors priors,
                                   bool allowSparse, const std::atomic<bool>* cancel)
    : RegressionModel(std::move(X), std::move(y), std::move(columnNames), std::move(priors), 1,
                      allowSparse, cancel) {}

std::size_t NormalRegression::dimension() const {
    return static_cast<std::size_t>(extraOffset() + (priors_.fixedSigma ? 0 : 1));
}

std::vector<std::string> NormalRegression::parameterNames() const {
    auto names = coefficientNames();
    if (!priors_.fixedSigma) names.push_back("sigma");
    return names;
}

double NormalRegression::logSigma(const Eigen::VectorXd& q) const {
    return priors_.fixedSigma ? std::log(*priors_.fixedSigma) : q(extraOffset());
}

Eigen::VectorXd NormalRegression::constrain(const Eigen::VectorXd& q) const {
    Eigen::VectorXd out(reportedExtraOffset() + (priors_.fixedSigma ? 0 : 1));
    constrainCoefficients(q, out);
    if (!priors_.fixedSigma) out(reportedExtraOffset()) = std::exp(q(extraOffset()));
    return out;
}

double NormalRegression::logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                                      Eigen::VectorXd& grad) const {
    assert(alpha.size() == y_.size());
    const double ls = logSigma(q);
    const double inv2 = std::exp(-2.0 * ls);
    thread_local Eigen::VectorXd res, r;
    X_->times(coefficients(q), res);
    res = y_ - res;  // residuals y - x'beta
    // l_i = -0.5 log(2 pi) - log sigma - 0.5 res^2 / sigma^2
    const auto sq = res.array().square();
    const double ll = detail::weighted(alpha, -detail::kLogSqrt2Pi - ls - 0.5 * inv2 * sq).sum();
    r = detail::weighted(alpha, inv2 * res.array()).matrix();  // dl/deta
    grad.setZero(q.size());
    Eigen::VectorXd gBeta;
    X_->transposeTimes(r, gBeta);
    grad.head(p()) = gBeta;
    double lp = ll + coefficientLogPrior(q, grad);
    if (!priors_.fixedSigma) {
        const detail::ValueGrad prior =
            detail::logHalfTOnLog(ls, priors_.sigmaDf, priors_.sigmaScale);
        grad(extraOffset()) = detail::weighted(alpha, inv2 * sq - 1.0).sum() + prior.grad;
        lp += prior.value;
    }
    return detail::guardedLogDensity(lp, grad);
}

void NormalRegression::recordLogLik(const Eigen::VectorXd& q,
                                    Eigen::Ref<Eigen::VectorXd> out) const {
    const double ls = logSigma(q);
    const double inv2 = std::exp(-2.0 * ls);
    Eigen::VectorXd eta;
    X_->times(coefficients(q), eta);
    out = (-detail::kLogSqrt2Pi - ls - 0.5 * inv2 * (y_ - eta).array().square()).matrix();
}

void NormalRegression::predict(const Eigen::VectorXd& q, Rng& rng,
                               Eigen::Ref<Eigen::VectorXd> out) const {
    const double sigma = std::exp(logSigma(q));
    Eigen::VectorXd eta;
    X_->times(coefficients(q), eta);
    boost::random::normal_distribution<double> z(0.0, 1.0);
    for (Eigen::Index i = 0; i < out.size(); ++i) out(i) = eta(i) + sigma * z(rng);
}

Eigen::VectorXd NormalRegression::initialPoint(Rng& rng) const {
    Eigen::VectorXd q(static_cast<Eigen::Index>(dimension()));
    initialCoefficients(Eigen::VectorXd::Constant(1, detail::sampleMean(y_)), rng, q);
    if (!priors_.fixedSigma) {
        boost::random::normal_distribution<double> jitter(0.0, 0.1);
        q(extraOffset()) = std::log(std::max(detail::sampleSd(y_), 1e-3)) + jitter(rng);
    }
    return q;
}

double NormalRegression::meanPrediction(const Eigen::VectorXd& q) const {
    return X_->columnMeans().dot(coefficients(q).col(0));
}

GaussianPosterior normalConjugatePosterior(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                           const Eigen::VectorXd& alpha, double sigma, double tau) {
    const Eigen::Index p = X.cols();
    const double s2 = sigma * sigma;
    Eigen::MatrixXd precision = X.transpose() * alpha.asDiagonal() * X / s2;
    precision.diagonal().array() += 1.0 / (tau * tau);
    const Eigen::LLT<Eigen::MatrixXd> llt(precision);
    GaussianPosterior post;
    post.covariance = llt.solve(Eigen::MatrixXd::Identity(p, p));
    post.mean = llt.solve(X.transpose() * alpha.cwiseProduct(y) / s2);
    return post;
}

}  // namespace ppsynth::models
