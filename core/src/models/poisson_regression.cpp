#include "ppsynth/models/poisson_regression.hpp"

#include <cassert>

#include "models/count_draws.hpp"
#include "models/design.hpp"
#include "models/prior_terms.hpp"
#include "models/record_groups.hpp"

namespace ppsynth::models {

PoissonRegression::PoissonRegression(Eigen::MatrixXd X, Eigen::VectorXd y,
                                     std::vector<std::string> columnNames, Priors priors,
                                     bool allowSparse, const std::atomic<bool>* cancel)
    : RegressionModel(std::move(X), std::move(y), std::move(columnNames), std::move(priors), 1,
                      allowSparse, cancel) {
    lfact_ = detail::logFactorials(y_);
    groups_ = detail::RecordGroups::make(X_->dense(), y_, allowSparse, cancel);
    if (groups_) evalLfact_ = detail::logFactorials(groups_->response());
}

PoissonRegression::~PoissonRegression() = default;

Eigen::VectorXd PoissonRegression::constrain(const Eigen::VectorXd& q) const {
    Eigen::VectorXd out(reportedExtraOffset());
    constrainCoefficients(q, out);
    return out;
}

double PoissonRegression::logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                                       Eigen::VectorXd& grad) const {
    assert(alpha.size() == y_.size());
    thread_local Eigen::VectorXd eta, mu, r, summed;
    const detail::Design& X = groups_ ? groups_->design() : *X_;
    const Eigen::VectorXd& y = groups_ ? groups_->response() : y_;
    const Eigen::VectorXd& lfact = groups_ ? evalLfact_ : lfact_;
    if (groups_) groups_->sum(alpha, summed);
    const Eigen::VectorXd& w = groups_ ? summed : alpha;
    X.times(coefficients(q), eta);
    mu = eta.array().exp().matrix();
    // l_i = y_i eta_i - mu_i - lgamma(y_i + 1); dl_i/deta_i = y_i - mu_i.
    const double ll =
        detail::weighted(w, y.array() * eta.array() - mu.array() - lfact.array()).sum();
    r = detail::weighted(w, y - mu).matrix();
    grad.setZero(q.size());
    Eigen::VectorXd gBeta;
    X.transposeTimes(r, gBeta);
    grad.head(p()) = gBeta;
    const double lp = ll + coefficientLogPrior(q, grad);
    return detail::guardedLogDensity(lp, grad);
}

void PoissonRegression::recordLogLik(const Eigen::VectorXd& q,
                                     Eigen::Ref<Eigen::VectorXd> out) const {
    Eigen::VectorXd eta;
    X_->times(coefficients(q), eta);
    out = (y_.array() * eta.array() - eta.array().exp() - lfact_.array()).matrix();
}

void PoissonRegression::predict(const Eigen::VectorXd& q, Rng& rng,
                                Eigen::Ref<Eigen::VectorXd> out) const {
    Eigen::VectorXd eta;
    X_->times(coefficients(q), eta);
    for (Eigen::Index i = 0; i < out.size(); ++i)
        out(i) = detail::drawPoisson(std::exp(eta(i)), rng);
}

Eigen::VectorXd PoissonRegression::initialPoint(Rng& rng) const {
    Eigen::VectorXd q(static_cast<Eigen::Index>(dimension()));
    initialCoefficients(
        Eigen::VectorXd::Constant(1, std::log(std::max(detail::sampleMean(y_), 0.1))), rng, q);
    return q;
}

double PoissonRegression::meanPrediction(const Eigen::VectorXd& q) const {
    Eigen::VectorXd eta;
    X_->times(coefficients(q), eta);
    return eta.array().exp().mean();
}

}  // namespace ppsynth::models
