#include "ppsynth/models/negbin_regression.hpp"

#include <boost/random/normal_distribution.hpp>
#include <cassert>
#include <limits>
#include <map>

#include "models/count_draws.hpp"
#include "models/design.hpp"
#include "models/prior_terms.hpp"
#include "models/record_groups.hpp"
#include "ppsynth/common/log_gamma.hpp"

namespace ppsynth::models {

NegBinRegression::NegBinRegression(Eigen::MatrixXd X, Eigen::VectorXd y,
                                   std::vector<std::string> columnNames, Priors priors,
                                   bool allowSparse, const std::atomic<bool>* cancel)
    : RegressionModel(std::move(X), std::move(y), std::move(columnNames), std::move(priors), 1,
                      allowSparse, cancel) {
    lfact_ = detail::logFactorials(y_);
    std::map<double, Eigen::Index> index;
    for (Eigen::Index i = 0; i < y_.size(); ++i) index.emplace(y_(i), 0);
    distinct_.resize(static_cast<Eigen::Index>(index.size()));
    Eigen::Index u = 0;
    for (auto& [value, slot] : index) {
        distinct_(u) = value;
        slot = u++;
    }
    which_.resize(static_cast<std::size_t>(y_.size()));
    for (Eigen::Index i = 0; i < y_.size(); ++i) which_[static_cast<std::size_t>(i)] = index[y_(i)];
    groups_ = detail::RecordGroups::make(X_->dense(), y_, allowSparse, cancel);
    if (groups_) {
        const Eigen::VectorXd& yg = groups_->response();
        evalLfact_ = detail::logFactorials(yg);
        for (Eigen::Index g = 0; g < yg.size(); ++g) evalWhich_.push_back(index[yg(g)]);
    } else {
        evalLfact_ = lfact_;
        evalWhich_ = which_;
    }
}

NegBinRegression::~NegBinRegression() = default;

std::vector<std::string> NegBinRegression::parameterNames() const {
    auto names = coefficientNames();
    names.push_back("phi");
    return names;
}

Eigen::VectorXd NegBinRegression::constrain(const Eigen::VectorXd& q) const {
    Eigen::VectorXd out(reportedExtraOffset() + 1);
    constrainCoefficients(q, out);
    out(reportedExtraOffset()) = std::exp(-q(extraOffset()));
    return out;
}

double NegBinRegression::logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                                      Eigen::VectorXd& grad) const {
    assert(alpha.size() == y_.size());
    const double v = q(extraOffset());  // log inv_phi
    const double phi = std::exp(-v);
    const double lphi = -v;
    // Far out on a trajectory phi can under- or overflow; detail::digamma then gives +-inf
    // or NaN instead of throwing and guardedLogDensity below rejects the point.
    thread_local Eigen::VectorXd eta, logMuPhi, r, wDistinct, summed;
    const detail::Design& X = groups_ ? groups_->design() : *X_;
    const Eigen::VectorXd& y = groups_ ? groups_->response() : y_;
    if (groups_) groups_->sum(alpha, summed);
    const Eigen::VectorXd& w = groups_ ? summed : alpha;
    X.times(coefficients(q), eta);
    // log(mu + phi) without overflow: max + log1p(exp(-|eta - log phi|)).
    logMuPhi = (eta.array().max(lphi) + (-(eta.array() - lphi).abs()).exp().log1p()).matrix();
    // Per record, without the lgamma terms:
    //   phi log phi + y eta - (y + phi) log(mu + phi) - lgamma(y + 1)
    const auto yphi = y.array() + phi;
    double ll = detail::weighted(w, phi * lphi + y.array() * eta.array() - yphi * logMuPhi.array() -
                                        evalLfact_.array())
                    .sum();
    // dl/deta = y - (y + phi) mu / (mu + phi)
    r = detail::weighted(w, y.array() - yphi * (eta - logMuPhi).array().exp()).matrix();
    // dl/dphi (per record, without digammas) = log phi + 1 - log(mu + phi) - (y+phi)/(mu+phi)
    double dPhi =
        detail::weighted(w, lphi + 1.0 - logMuPhi.array() - yphi * (-logMuPhi.array()).exp()).sum();
    // lgamma(y + phi) - lgamma(phi) and its digammas, once per distinct y.
    wDistinct.setZero(distinct_.size());
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        wDistinct(evalWhich_[static_cast<std::size_t>(i)]) += w(i);
    }
    const double lgPhi = logGamma(phi);
    const double dgPhi = detail::digamma(phi);
    for (Eigen::Index u = 0; u < distinct_.size(); ++u) {
        if (wDistinct(u) == 0.0) continue;
        ll += wDistinct(u) * (logGamma(distinct_(u) + phi) - lgPhi);
        dPhi += wDistinct(u) * (detail::digamma(distinct_(u) + phi) - dgPhi);
    }

    grad.setZero(q.size());
    Eigen::VectorXd gBeta;
    X.transposeTimes(r, gBeta);
    grad.head(p()) = gBeta;
    const detail::ValueGrad prior = detail::logHalfTOnLog(v, 1.0, priors_.invPhiScale);
    grad(extraOffset()) = -phi * dPhi + prior.grad;
    const double lp = ll + prior.value + coefficientLogPrior(q, grad);
    return detail::guardedLogDensity(lp, grad);
}

void NegBinRegression::recordLogLik(const Eigen::VectorXd& q,
                                    Eigen::Ref<Eigen::VectorXd> out) const {
    const double phi = std::exp(-q(extraOffset()));
    const double lphi = std::log(phi);
    Eigen::VectorXd eta;
    X_->times(coefficients(q), eta);
    const Eigen::ArrayXd logMuPhi =
        eta.array().max(lphi) + (-(eta.array() - lphi).abs()).exp().log1p();
    Eigen::VectorXd lg(distinct_.size());
    const double lgPhi = logGamma(phi);
    for (Eigen::Index u = 0; u < distinct_.size(); ++u)
        lg(u) = logGamma(distinct_(u) + phi) - lgPhi;
    for (Eigen::Index i = 0; i < y_.size(); ++i) {
        out(i) = lg(which_[static_cast<std::size_t>(i)]) + phi * lphi + y_(i) * eta(i) -
                 (y_(i) + phi) * logMuPhi(i) - lfact_(i);
    }
}

void NegBinRegression::predict(const Eigen::VectorXd& q, Rng& rng,
                               Eigen::Ref<Eigen::VectorXd> out) const {
    const double phi = std::exp(-q(extraOffset()));
    Eigen::VectorXd eta;
    X_->times(coefficients(q), eta);
    for (Eigen::Index i = 0; i < out.size(); ++i)
        out(i) = detail::drawNegBin(std::exp(eta(i)), phi, rng);
}

Eigen::VectorXd NegBinRegression::initialPoint(Rng& rng) const {
    Eigen::VectorXd q(static_cast<Eigen::Index>(dimension()));
    const double m = std::max(detail::sampleMean(y_), 0.1);
    initialCoefficients(Eigen::VectorXd::Constant(1, std::log(m)), rng, q);
    // Method of moments: Var = m + m^2 inv_phi, clamped to a sensible range.
    const double sd = detail::sampleSd(y_);
    const double invPhi = std::clamp((sd * sd - m) / (m * m), 0.01, 10.0);
    boost::random::normal_distribution<double> jitter(0.0, 0.1);
    q(extraOffset()) = std::log(invPhi) + jitter(rng);
    return q;
}

double NegBinRegression::meanPrediction(const Eigen::VectorXd& q) const {
    Eigen::VectorXd eta;
    X_->times(coefficients(q), eta);
    return eta.array().exp().mean();
}

}  // namespace ppsynth::models
