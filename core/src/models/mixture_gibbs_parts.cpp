#include "models/mixture_gibbs_parts.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "models/design.hpp"
#include "models/log_zero.hpp"
#include "models/prior_terms.hpp"
#include "ppsynth/common/log_gamma.hpp"

namespace ppsynth::models::detail {

namespace {
constexpr double kLogZero = -std::numeric_limits<double>::infinity();
}

double uniformOpen(Rng& rng) {
    boost::random::uniform_01<double> unif;
    double u = 0.0;
    while (u <= 0.0) u = unif(rng);
    return u;
}

double logGammaVariate(double shape, Rng& rng) {
    if (shape >= 1.0) return std::log(boost::random::gamma_distribution<double>(shape)(rng));
    return std::log(boost::random::gamma_distribution<double>(shape + 1.0)(rng)) +
           std::log(uniformOpen(rng)) / shape;
}

Eigen::ArrayXd logDirichletVariate(const Eigen::ArrayXd& shape, Rng& rng) {
    Eigen::ArrayXd logPi(shape.size());
    for (Eigen::Index k = 0; k < shape.size(); ++k) logPi(k) = logGammaVariate(shape(k), rng);
    const double m = logPi.maxCoeff();
    return logPi - (m + std::log((logPi - m).exp().sum()));
}

double logHalfTVariate(double df, double scale, Rng& rng) {
    return std::log(scale * std::abs(boost::random::student_t_distribution<double>(df)(rng)));
}

Eigen::VectorXd priorCoefficients(const Eigen::VectorXd& tau, Rng& rng) {
    boost::random::normal_distribution<double> normal(0.0, 1.0);
    Eigen::VectorXd beta(tau.size());
    for (Eigen::Index j = 0; j < tau.size(); ++j) beta(j) = tau(j) * normal(rng);
    return beta;
}

bool acceptLog(double logRatio, Rng& rng) {
    if (!(logRatio > kLogZero)) return false;
    return logRatio >= 0.0 || std::log(uniformOpen(rng)) < logRatio;
}

Eigen::ArrayXd normalLogDensities(const Eigen::VectorXd& y, const Eigen::VectorXd& mean,
                                  double logSigma) {
    const double inv = std::exp(-logSigma);
    return -kLogSqrt2Pi - logSigma - 0.5 * ((y - mean).array() * inv).square();
}

double logBetaDensity(double logU, double log1mU, double a, double b) {
    return (a - 1.0) * logU + (b - 1.0) * log1mU - (logGamma(a) + logGamma(b) - logGamma(a + b));
}

namespace {

// log Dirichlet(pi | shape) from log pi.
double logDirichlet(const Eigen::ArrayXd& logPi, const Eigen::ArrayXd& shape) {
    double lp = logGamma(shape.sum());
    for (Eigen::Index k = 0; k < shape.size(); ++k)
        lp += (shape(k) - 1.0) * logPi(k) - logGamma(shape(k));
    return lp;
}

// sum_i alpha_i r_ik for every component.
Eigen::ArrayXd expectedCounts(const Eigen::VectorXd& alpha, const MixtureCache& cache) {
    const Eigen::Index K = cache.logWeights().size();
    Eigen::ArrayXd m(K);
    for (Eigen::Index k = 0; k < K; ++k)
        m(k) = (alpha.array() *
                (cache.densities().col(k) + cache.logWeights()(k) - cache.logLik()).exp())
                   .sum();
    return m;
}

}  // namespace

bool marginalWeights(const Eigen::VectorXd& alpha, double c, MixtureCache& cache, Rng& rng) {
    const Eigen::ArrayXd shape = c + expectedCounts(alpha, cache);
    const Eigen::ArrayXd logPi = logDirichletVariate(shape, rng);
    if (!logPi.allFinite()) return false;
    MixtureCache next(cache.densities(), logPi);
    const Eigen::ArrayXd& now = cache.logWeights();
    const double logRatio = (c - 1.0) * (logPi.sum() - now.sum()) +
                            weightedLogRatio(alpha, next.logLik(), cache.logLik()) +
                            logDirichlet(now, c + expectedCounts(alpha, next)) -
                            logDirichlet(logPi, shape);
    if (!acceptLog(logRatio, rng)) return false;
    cache = std::move(next);
    return true;
}

void Labels::index(const Eigen::VectorXd& alpha, Eigen::Index K) {
    members.assign(static_cast<std::size_t>(K), {});
    count = Eigen::ArrayXd::Zero(K);
    for (std::size_t i = 0; i < z.size(); ++i) {
        if (z[i] < 0) continue;
        members[static_cast<std::size_t>(z[i])].push_back(static_cast<Eigen::Index>(i));
        count(z[i]) += alpha(static_cast<Eigen::Index>(i));
    }
}

// One uniform per record, scaled by the record's sum of unnormalized responsibilities
// exp(logPi_k + D(i, k) - m_i), m_i its largest term, from which they are subtracted in
// component order. Tiles of records keep those terms in cache, and L is not needed: the sweep
// with every alpha_i 0 or 1 does not compute it.
Labels drawLabels(const Eigen::VectorXd& alpha, const MixtureCache& cache, Rng& rng) {
    constexpr Eigen::Index kTile = 256;
    const Eigen::ArrayXXd& D = cache.densities();
    const Eigen::ArrayXd& logPi = cache.logWeights();
    const Eigen::Index n = D.rows(), K = D.cols();
    boost::random::uniform_01<double> unif;
    Eigen::ArrayXd u(n);
    for (Eigen::Index i = 0; i < n; ++i) u(i) = alpha(i) == 0.0 ? -1.0 : unif(rng);
    Labels out;
    out.z.assign(static_cast<std::size_t>(n), -1);
    Eigen::ArrayXXd e(kTile, K);
    Eigen::ArrayXd m(kTile), sum(kTile);
    std::vector<Eigen::Index> active;
    for (Eigen::Index r0 = 0; r0 < n; r0 += kTile) {
        const Eigen::Index len = std::min(kTile, n - r0);
        auto mt = m.head(len);
        mt.setConstant(kNegInf);
        for (Eigen::Index k = 0; k < K; ++k) mt = mt.max(D.col(k).segment(r0, len) + logPi(k));
        mt = (mt == kNegInf).select(0.0, mt);  // such a row's terms are all 0
        auto st = sum.head(len);
        st.setZero();
        active.clear();
        for (Eigen::Index k = 0; k < K; ++k) {
            auto ek = e.col(k).head(len);
            ek = D.col(k).segment(r0, len) + logPi(k) - mt;
            // Responsibilities all below exp(-kNegligibleLog) (2e-22) of the tile's records
            // would change a label with no more than that probability, far under their own
            // rounding; a NaN keeps its column.
            if (ek.maxCoeff<Eigen::PropagateNaN>() < -kNegligibleLog) continue;
            ek = ek.exp();
            st += ek;
            active.push_back(k);
        }
        for (Eigen::Index t = 0; t < len; ++t) {
            const Eigen::Index i = r0 + t;
            if (alpha(i) == 0.0) continue;
            // The last component takes what is left (also a NaN or all-zero row).
            Eigen::Index label = K - 1;
            double left = u(i) * st(t);
            for (const Eigen::Index k : active) {
                if (k == K - 1) break;
                left -= e(t, k);
                if (left < 0.0) {
                    label = k;
                    break;
                }
            }
            out.z[static_cast<std::size_t>(i)] = label;
        }
    }
    out.index(alpha, K);
    return out;
}

void labelLogResponsibilities(const Labels& labels, const MixtureCache& cache,
                              Eigen::ArrayXd& out) {
    const Eigen::Index n = cache.densities().rows();
    out.setZero(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index k = labels.z[static_cast<std::size_t>(i)];
        if (k >= 0) out(i) = cache.logWeights()(k) + cache.densities()(i, k) - cache.logLik()(i);
    }
}

ComponentStats componentStats(const Design& X, const Eigen::VectorXd& y,
                              const Eigen::VectorXd& alpha,
                              const std::vector<Eigen::Index>& members) {
    const Eigen::Index p = X.cols();
    ComponentStats s;
    s.XtAX.setZero(p, p);
    s.XtAy.setZero(p);
    for (Eigen::Index i : members) {
        s.count += alpha(i);
        s.yAy += alpha(i) * y(i) * y(i);
    }
    if (X.isSparse()) {
        const int* start = X.rowStart();
        const int* col = X.columnIndex();
        const double* value = X.value();
        for (Eigen::Index i : members) {
            const double a = alpha(i);
            for (int e = start[i]; e < start[i + 1]; ++e) {
                const double av = a * value[e];
                s.XtAy(col[e]) += av * y(i);
                for (int f = start[i]; f < start[i + 1]; ++f)
                    s.XtAX(col[e], col[f]) += av * value[f];
            }
        }
        return s;
    }
    for (Eigen::Index i : members) {
        const auto row = X.dense().row(i);
        s.XtAX.noalias() += alpha(i) * row.transpose() * row;
        s.XtAy += (alpha(i) * y(i)) * row.transpose();
    }
    return s;
}

namespace {
// x_i' beta.
double rowDot(const Design& X, Eigen::Index i, const Eigen::VectorXd& beta) {
    if (!X.isSparse()) return X.dense().row(i).dot(beta);
    double dot = 0.0;
    for (int e = X.rowStart()[i]; e < X.rowStart()[i + 1]; ++e)
        dot += X.value()[e] * beta(X.columnIndex()[e]);
    return dot;
}
}  // namespace

double residualSquares(const Design& X, const Eigen::VectorXd& y, const Eigen::VectorXd& alpha,
                       const std::vector<Eigen::Index>& members, const Eigen::VectorXd& beta) {
    double ss = 0.0;
    for (Eigen::Index i : members) {
        const double r = y(i) - rowDot(X, i, beta);
        ss += alpha(i) * r * r;
    }
    return ss;
}

namespace {

// Cholesky factor of beta's conditional precision X'AX / sigma^2 + diag(1 / tau^2).
Eigen::LLT<Eigen::MatrixXd> coefficientPrecision(const ComponentStats& s, double invVar,
                                                 const Eigen::VectorXd& tau) {
    Eigen::MatrixXd prec = s.XtAX * invVar;
    prec.diagonal() += tau.array().square().inverse().matrix();
    return Eigen::LLT<Eigen::MatrixXd>(prec);
}

}  // namespace

double logScaleMarginal(const ComponentStats& s, const Eigen::VectorXd& tau, double df,
                        double scale, double u) {
    const double invVar = std::exp(-2.0 * u);
    if (!std::isfinite(invVar) || invVar <= 0.0) return -std::numeric_limits<double>::infinity();
    const Eigen::LLT<Eigen::MatrixXd> llt = coefficientPrecision(s, invVar, tau);
    if (llt.info() != Eigen::Success) return -std::numeric_limits<double>::infinity();
    const Eigen::VectorXd w = llt.matrixL().solve(s.XtAy * invVar);
    const Eigen::MatrixXd& L = llt.matrixLLT();
    return logHalfTOnLog(u, df, scale).value - s.count * u - 0.5 * s.yAy * invVar -
           L.diagonal().array().log().sum() + 0.5 * w.squaredNorm();
}

CoefficientConditional::CoefficientConditional(const ComponentStats& s, double logSigma,
                                               const Eigen::VectorXd& tau) {
    const double invVar = std::exp(-2.0 * logSigma);
    const Eigen::LLT<Eigen::MatrixXd> llt = coefficientPrecision(s, invVar, tau);
    ok_ = llt.info() == Eigen::Success;
    if (!ok_) return;
    U_ = llt.matrixU();
    mean_ = llt.solve(s.XtAy * invVar);
    logDetHalf_ = U_.diagonal().array().log().sum();
}

Eigen::VectorXd CoefficientConditional::draw(Rng& rng) const {
    boost::random::normal_distribution<double> normal(0.0, 1.0);
    Eigen::VectorXd e(mean_.size());
    for (Eigen::Index j = 0; j < e.size(); ++j) e(j) = normal(rng);
    return mean_ + U_.triangularView<Eigen::Upper>().solve(e);
}

double CoefficientConditional::logDensity(const Eigen::VectorXd& beta) const {
    const Eigen::VectorXd r = U_.triangularView<Eigen::Upper>() * (beta - mean_);
    return logDetHalf_ - static_cast<double>(beta.size()) * kLogSqrt2Pi - 0.5 * r.squaredNorm();
}

}  // namespace ppsynth::models::detail
