#include "ppsynth/models/normal_mixture.hpp"

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cassert>
#include <limits>

#include "models/design.hpp"
#include "models/mixture_kernel.hpp"
#include "models/prior_terms.hpp"
#include "ppsynth/common/log_gamma.hpp"

namespace ppsynth::models {

NormalMixture::NormalMixture(Eigen::MatrixXd X, Eigen::VectorXd y, int components,
                             std::vector<std::string> columnNames, Priors priors, bool allowSparse,
                             const std::atomic<bool>* cancel)
    : RegressionModel(std::move(X), std::move(y), std::move(columnNames), std::move(priors),
                      components, allowSparse, cancel),
      xMax_(X_->dense().size() ? X_->dense().cwiseAbs().maxCoeff() : 0.0) {}

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
    const Eigen::Index shift = reportedExtraOffset() - extraOffset();
    Eigen::VectorXd out(q.size() + shift + 1);
    constrainCoefficients(q, out);
    if (!priors_.fixedSigma)
        out.segment(sigmaOffset() + shift, K) = q.segment(sigmaOffset(), K).array().exp().matrix();
    out.segment(simplexOffset() + shift, K) = logWeights(q).array().exp().matrix();
    out(simplexOffset() + shift + K) = std::exp(q(gammaOffset()));
    return out;
}

// Records go in blocks of this many where a K x block scratch is used (dense designs,
// recordLogLik, predict): it stays in cache, and nothing is K x n.
constexpr Eigen::Index kBlock = 256;

// The likelihood part of logPosterior: as detail::mixtureKernel (same inputs, padded to KP
// components; padded ones add nothing: exp(-inf - m) is 0 or, in Eigen's exp, ~1e-308), for
// any CPU and for dense designs. One record at a time, its component values in fixed-size
// arrays; a sparse X is multiplied row by row, a dense one by GEMMs on blocks of records.
template <int KP>
double likelihoodTerms(const detail::MixtureKernelInput& in, const detail::Design& X,
                       Eigen::ArrayXd& rs, Eigen::ArrayXd& zs, Eigen::MatrixXd& G) {
    using Vec = Eigen::Array<double, KP, 1>;
    const Eigen::Index Kp = in.Kp;
    const Eigen::Index p = X.cols();
    const Eigen::Map<const Eigen::MatrixXd> B(in.B, Kp, p);
    const Vec is = Eigen::Map<const Vec>(in.invS, Kp), c = Eigen::Map<const Vec>(in.c, Kp);
    Vec sumR = Vec::Zero(Kp), sumRZZ = Vec::Zero(Kp), z(Kp), r(Kp);
    double ll = 0.0;
    // Record i: mu holds its means on entry and d/dmean = R Z / sigma on return.
    auto record = [&](Eigen::Index i, auto& mu) {
        z = (in.y[i] - mu) * is;
        r = c - 0.5 * z.square();
        // l_i = m + log sum_k exp(lp_ki - m).
        const double m = r.maxCoeff();
        r = (r - m).exp();
        const double s = r.sum();
        // alpha_i = 0 drops the record even where its density is 0 (see detail::weighted).
        const double a = in.alpha[i];
        if (a != 0.0) ll += a * (m + std::log(s));
        r *= a == 0.0 ? 0.0 : a * (1.0 / s);
        sumR += r;
        sumRZZ += r * z.square();
        mu = r * z * is;
    };
    const auto column = [Kp](auto* M, int j) { return Eigen::Map<Vec>(M + j * Kp, Kp); };
    const Eigen::Index n = X.rows();
    if (X.isSparse()) {
        const int* start = X.rowStart();
        const int* col = X.columnIndex();
        const double* value = X.value();
        Vec mu(Kp);
        for (Eigen::Index i = 0; i < n; ++i) {
            mu.setZero();
            for (int e = start[i]; e < start[i + 1]; ++e)
                mu += value[e] * Eigen::Map<const Vec>(in.B + col[e] * Kp, Kp);
            record(i, mu);
            for (int e = start[i]; e < start[i + 1]; ++e) column(G.data(), col[e]) += value[e] * mu;
        }
    } else {
        Eigen::MatrixXd buf(Kp, kBlock);
        const Eigen::MatrixXd Bm = B;
        for (Eigen::Index first = 0; first < n; first += kBlock) {
            const Eigen::Index count = std::min(kBlock, n - first);
            X.timesTransposed(Bm, first, count, buf.data());
            for (Eigen::Index j = 0; j < count; ++j) {
                Eigen::Map<Vec> mu(buf.col(j).data(), Kp);
                record(first + j, mu);
            }
            X.addTransposedTimes(buf.data(), first, count, G);
        }
    }
    rs += sumR;
    zs += sumRZZ;
    return ll;
}

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
    const Eigen::VectorXd logPi = logWeights(q);
    const Eigen::VectorXd ls = logSigmas(q);
    const Eigen::MatrixXd Bt = coefficients(q).transpose();
    const Eigen::ArrayXd invS = (-ls).array().exp();
    const Eigen::ArrayXd lc = (logPi - ls).array() - detail::kLogSqrt2Pi;

    // Components padded: to the AVX2 width for the kernel, else to a fixed 20 (the default
    // K) so the per-record arrays have a compile-time size.
    const bool kernel =
        detail::mixtureKernelAvailable() && X_->isSparse() && K <= detail::kMixtureKernelMaxK;
    const Eigen::Index Kp = kernel ? (K + 3) / 4 * 4 : std::max<Eigen::Index>(K, 20);
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(Kp, p());
    B.topRows(K) = Bt;
    Eigen::ArrayXd is = Eigen::ArrayXd::Zero(Kp);
    is.head(K) = invS;
    Eigen::ArrayXd cp = Eigen::ArrayXd::Constant(Kp, -std::numeric_limits<double>::infinity());
    cp.head(K) = lc;
    const detail::MixtureKernelInput in{X_.get(),  y_.data(), alpha.data(), B.data(), is.data(),
                                        cp.data(), Kp};
    Eigen::ArrayXd rs = Eigen::ArrayXd::Zero(Kp), zs = Eigen::ArrayXd::Zero(Kp);
    Eigen::MatrixXd gBt = Eigen::MatrixXd::Zero(Kp, p());
    const double ll = kernel     ? detail::mixtureKernel(in, rs.data(), zs.data(), gBt.data())
                      : Kp == 20 ? likelihoodTerms<20>(in, *X_, rs, zs, gBt)
                                 : likelihoodTerms<Eigen::Dynamic>(in, *X_, rs, zs, gBt);
    const Eigen::ArrayXd resp = rs.head(K);

    grad.setZero(q.size());
    // d/dlog sigma_k = sum_i R_ki (Z_ki^2 - 1); d/dlog pi_k = sum_i R_ki.
    if (!priors_.fixedSigma) grad.segment(sigmaOffset(), K) = zs.head(K) - resp;
    Eigen::Map<Eigen::MatrixXd>(grad.data(), p(), K) = gBt.topRows(K).transpose();

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
    const double logDir = logGamma(gamma) - Kd * logGamma(c) + (c - 1.0) * sumLogPi;
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
