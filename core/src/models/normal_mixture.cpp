#include "ppsynth/models/normal_mixture.hpp"

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cassert>

#include "models/design.hpp"
#include "models/prior_terms.hpp"

namespace ppsynth::models {

NormalMixture::NormalMixture(Eigen::MatrixXd X, Eigen::VectorXd y, int components,
                             std::vector<std::string> columnNames, Priors priors, bool allowSparse)
    : RegressionModel(std::move(X), std::move(y), std::move(columnNames), std::move(priors),
                      components, allowSparse) {}

std::size_t NormalMixture::dimension() const {
    return static_cast<std::size_t>(gammaOffset() + 1);
}

std::vector<std::string> NormalMixture::parameterNames() const {
    auto names = coefficientNames();
    const Eigen::Index K = components();
    if (!priors_.fixedSigma)
        for (Eigen::Index k = 0; k < K; ++k)
            names.push_back("sigma[" + std::to_string(k + 1) + "]");
    for (Eigen::Index k = 0; k < K; ++k) names.push_back("pi[" + std::to_string(k + 1) + "]");
    names.push_back("gamma");
    return names;
}

Eigen::VectorXd NormalMixture::logWeights(const Eigen::VectorXd& q) const {
    const Eigen::Index K = components();
    Eigen::VectorXd a(K);
    a.head(K - 1) = q.segment(simplexOffset(), K - 1);
    a(K - 1) = 0.0;
    const double m = a.maxCoeff();
    const double lse = m + std::log((a.array() - m).exp().sum());
    return (a.array() - lse).matrix();
}

Eigen::VectorXd NormalMixture::logSigmas(const Eigen::VectorXd& q) const {
    if (priors_.fixedSigma)
        return Eigen::VectorXd::Constant(components(), std::log(*priors_.fixedSigma));
    return q.segment(sigmaOffset(), components());
}

// Reported: beta, tau, sigma_k, pi_k (K of them: one more than the free coordinates), gamma.
Eigen::VectorXd NormalMixture::constrain(const Eigen::VectorXd& q) const {
    const Eigen::Index K = components();
    Eigen::VectorXd out(q.size() + 1);
    constrainCoefficients(q, out);
    if (!priors_.fixedSigma)
        out.segment(sigmaOffset(), K) = q.segment(sigmaOffset(), K).array().exp().matrix();
    out.segment(simplexOffset(), K) = logWeights(q).array().exp().matrix();
    out(simplexOffset() + K) = std::exp(q(gammaOffset()));
    return out;
}

// Records go in blocks of this many: the K x block scratch (two arrays of 40 kB at K = 20)
// stays in cache, so the cost is linear in n with no K x n temporaries.
constexpr Eigen::Index kBlock = 256;

void NormalMixture::componentLogDensities(const Eigen::MatrixXd& Bt, const Eigen::ArrayXd& invS,
                                          const Eigen::ArrayXd& c, Eigen::Index first,
                                          Eigen::Index count, Eigen::ArrayXXd& Z,
                                          Eigen::ArrayXXd& lp) const {
    Z.resize(Bt.rows(), count);
    lp.resize(Bt.rows(), count);
    X_->timesTransposed(Bt, first, count, Z.data());  // means x_i' beta_k
    Z = ((-Z).rowwise() + y_.segment(first, count).transpose().array()).colwise() * invS;
    lp = (-0.5 * Z.square()).colwise() + c;
}

double NormalMixture::logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                                   Eigen::VectorXd& grad) const {
    assert(alpha.size() == y_.size());
    const Eigen::Index K = components();
    const Eigen::Index n = y_.size();
    const Eigen::VectorXd logPi = logWeights(q);
    const Eigen::VectorXd ls = logSigmas(q);
    const Eigen::MatrixXd Bt = coefficients(q).transpose();
    const Eigen::ArrayXd invS = (-ls).array().exp();
    const Eigen::ArrayXd lc = (logPi - ls).array() - detail::kLogSqrt2Pi;

    // Per block: Z, the log densities turned in place into weighted responsibilities R, and
    // the sums the gradient needs. resp_k = sum_i R_ki, zz_k = sum_i R_ki Z_ki^2,
    // gBt = sum_i (R_ki Z_ki / sigma_k) x_i' (d/dB' of the log likelihood).
    Eigen::ArrayXXd Z, R;
    Eigen::Array<double, 1, Eigen::Dynamic> m, s, w;
    Eigen::ArrayXd resp = Eigen::ArrayXd::Zero(K), zz = Eigen::ArrayXd::Zero(K);
    Eigen::MatrixXd gBt = Eigen::MatrixXd::Zero(K, p());
    double ll = 0.0;
    for (Eigen::Index first = 0; first < n; first += kBlock) {
        const Eigen::Index count = std::min(kBlock, n - first);
        componentLogDensities(Bt, invS, lc, first, count, Z, R);
        const auto a = alpha.segment(first, count).transpose();
        // Per-record log-sum-exp: l_i = m_i + log sum_k exp(lp_ki - m_i).
        m = R.colwise().maxCoeff();
        R.rowwise() -= m;
        R = R.exp();  // separate step: the broadcast form falls back to scalar exp
        s = R.colwise().sum();
        ll += detail::weighted(a, m + s.log()).sum();
        // Weighted responsibilities alpha_i r_ki = alpha_i exp(lp_ki - l_i).
        w = detail::weighted(a, s.inverse());
        R.rowwise() *= w;
        resp += R.rowwise().sum();
        if (!priors_.fixedSigma) zz += (R * Z.square()).rowwise().sum();
        Z = (R * Z).colwise() * invS;
        X_->addTransposedTimes(Z.data(), first, count, gBt);
    }

    grad.setZero(q.size());
    // d/dlog sigma_k = sum_i R_ki (Z_ki^2 - 1); d/dlog pi_k = sum_i R_ki.
    if (!priors_.fixedSigma) grad.segment(sigmaOffset(), K) = zz - resp;
    Eigen::Map<Eigen::MatrixXd>(grad.data(), p(), K) = gBt.transpose();

    double lp = ll + coefficientLogPrior(q, grad);

    if (!priors_.fixedSigma) {
        for (Eigen::Index k = 0; k < K; ++k) {
            const detail::ValueGrad h =
                detail::logHalfTOnLog(ls(k), priors_.sigmaDf, priors_.sigmaScale);
            lp += h.value;
            grad(sigmaOffset() + k) += h.grad;
        }
    }

    // gamma = exp(g): Gamma prior with Jacobian; Dirichlet(c = gamma / K) on pi; ALR
    // Jacobian sum_k log pi_k. With h_k = dtotal/dlog pi_k = resp_k + (c - 1) + 1, the free
    // coordinates get dtotal/da_j = h_j - pi_j sum_k h_k.
    const double g = q(gammaOffset());
    const double gamma = std::exp(g);
    const double Kd = static_cast<double>(K);
    const double c = gamma / Kd;
    const double sumLogPi = logPi.sum();
    const detail::ValueGrad gp = detail::logGammaOnLog(g, priors_.gammaShape, priors_.gammaRate);
    const double logDir = std::lgamma(gamma) - Kd * std::lgamma(c) + (c - 1.0) * sumLogPi;
    lp += gp.value + logDir + sumLogPi;
    const double dDir = K > 1 ? detail::digamma(gamma) - detail::digamma(c) + sumLogPi / Kd : 0.0;
    grad(gammaOffset()) = gp.grad + gamma * dDir;
    const Eigen::ArrayXd h = resp.array() + c;
    const double hSum = h.sum();
    const Eigen::ArrayXd pi = logPi.array().exp();
    for (Eigen::Index j = 0; j + 1 < K; ++j) grad(simplexOffset() + j) = h(j) - pi(j) * hSum;
    return detail::guardedLogDensity(lp, grad);
}

void NormalMixture::recordLogLik(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> out) const {
    const Eigen::VectorXd ls = logSigmas(q);
    const Eigen::MatrixXd Bt = coefficients(q).transpose();
    const Eigen::ArrayXd invS = (-ls).array().exp();
    const Eigen::ArrayXd c = (logWeights(q) - ls).array() - detail::kLogSqrt2Pi;
    Eigen::ArrayXXd Z, lp;
    Eigen::Array<double, 1, Eigen::Dynamic> m;
    for (Eigen::Index first = 0; first < y_.size(); first += kBlock) {
        const Eigen::Index count = std::min(kBlock, y_.size() - first);
        componentLogDensities(Bt, invS, c, first, count, Z, lp);
        m = lp.colwise().maxCoeff();
        lp.rowwise() -= m;
        lp = lp.exp();
        out.segment(first, count) = (m + lp.colwise().sum().log()).transpose().matrix();
    }
}

void NormalMixture::predict(const Eigen::VectorXd& q, Rng& rng,
                            Eigen::Ref<Eigen::VectorXd> out) const {
    const Eigen::Index K = components();
    const Eigen::MatrixXd Bt = coefficients(q).transpose();
    const Eigen::VectorXd sigma = logSigmas(q).array().exp().matrix();
    Eigen::VectorXd cum(K);
    const Eigen::VectorXd pi = logWeights(q).array().exp().matrix();
    double acc = 0.0;
    for (Eigen::Index k = 0; k < K; ++k) cum(k) = (acc += pi(k));
    boost::random::uniform_01<double> unif;
    boost::random::normal_distribution<double> z(0.0, 1.0);
    Eigen::MatrixXd means;  // K x block
    for (Eigen::Index first = 0; first < out.size(); first += kBlock) {
        const Eigen::Index count = std::min(kBlock, out.size() - first);
        means.resize(K, count);
        X_->timesTransposed(Bt, first, count, means.data());
        for (Eigen::Index r = 0; r < count; ++r) {
            // Component k ~ pi (the predictive of record i is the mixture itself).
            const double u = unif(rng) * acc;
            Eigen::Index k = 0;
            while (k + 1 < K && cum(k) <= u) ++k;
            out(first + r) = means(k, r) + sigma(k) * z(rng);
        }
    }
}

// Components start at the overall mean shifted by half a standard deviation of jitter (so
// they are distinguishable), with sigma_k = sd(y), equal weights and gamma = 1.
Eigen::VectorXd NormalMixture::initialPoint(Rng& rng) const {
    const Eigen::Index K = components();
    Eigen::VectorXd q(static_cast<Eigen::Index>(dimension()));
    const double mean = detail::sampleMean(y_);
    const double sd = std::max(detail::sampleSd(y_), 1e-3);
    boost::random::normal_distribution<double> spread(0.0, 0.5 * sd);
    boost::random::normal_distribution<double> jitter(0.0, 0.1);
    Eigen::VectorXd intercepts(K);
    for (Eigen::Index k = 0; k < K; ++k) intercepts(k) = mean + spread(rng);
    initialCoefficients(intercepts, rng, q);
    if (!priors_.fixedSigma)
        for (Eigen::Index k = 0; k < K; ++k) q(sigmaOffset() + k) = std::log(sd) + jitter(rng);
    for (Eigen::Index j = 0; j + 1 < K; ++j) q(simplexOffset() + j) = jitter(rng);
    q(gammaOffset()) = jitter(rng);
    return q;
}

// E[y | x_i, theta] = sum_k pi_k x_i' beta_k, averaged over i: colMeans(X) B pi.
double NormalMixture::meanPrediction(const Eigen::VectorXd& q) const {
    const Eigen::VectorXd pi = logWeights(q).array().exp().matrix();
    return X_->columnMeans() * (coefficients(q) * pi);
}

}  // namespace ppsynth::models
