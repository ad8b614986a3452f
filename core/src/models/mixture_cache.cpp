#include "models/mixture_cache.hpp"

#include <cassert>
#include <cmath>
#include <limits>

#include "models/log_zero.hpp"

namespace ppsynth::models::detail {
namespace {

// log sum_{j != skip} exp(v(j)) over j < count; skip = -1 keeps every entry.
template <typename Value>
double logSumExpExcept(Value v, Eigen::Index count, Eigen::Index skip) {
    double m = kNegInf;
    for (Eigen::Index j = 0; j < count; ++j)
        if (j != skip) m = std::max(m, v(j));
    if (m == kNegInf) return kNegInf;
    double s = 0.0;
    for (Eigen::Index j = 0; j < count; ++j)
        if (j != skip) s += std::exp(v(j) - m);
    return m + std::log(s);
}

// out_i = log sum_{j != skip} exp(logPi_j + D(i, j)) for every record, one column at a time:
// a row-wise pass strides across the n-long columns, which falls out of the cache for large n
// (it made a Gibbs sweep 27 times dearer for 16 times the records).
void columnLogSumExp(const Eigen::ArrayXXd& D, const Eigen::ArrayXd& logPi, Eigen::Index skip,
                     Eigen::ArrayXd& out) {
    const Eigen::Index n = D.rows();
    Eigen::ArrayXd m = Eigen::ArrayXd::Constant(n, kNegInf);
    for (Eigen::Index j = 0; j < D.cols(); ++j)
        if (j != skip) m = m.max(D.col(j) + logPi(j));
    Eigen::ArrayXd s = Eigen::ArrayXd::Zero(n);
    const Eigen::ArrayXd shift = (m == kNegInf).select(0.0, m);  // no -inf - -inf
    for (Eigen::Index j = 0; j < D.cols(); ++j) {
        if (j == skip || (D.col(j) + logPi(j) < m - kNegligibleLog).all()) continue;
        s += (D.col(j) + logPi(j) - shift).exp();
    }
    out = (m == kNegInf).select(kNegInf, m + s.log());
}

}  // namespace

double logAddExp(double a, double b) {
    const double m = std::max(a, b);
    if (m == kNegInf) return kNegInf;
    return m + std::log1p(std::exp(-std::abs(a - b)));
}

MixtureCache::MixtureCache(Eigen::ArrayXXd D, Eigen::ArrayXd logPi, bool withLogLik)
    : D_(std::move(D)), logPi_(std::move(logPi)) {
    assert(D_.cols() == logPi_.size());
    if (withLogLik) columnLogSumExp(D_, logPi_, -1, L_);
}

void MixtureCache::setWeights(const Eigen::ArrayXd& logPi) {
    logPi_ = logPi;
    L_.resize(0);
    focus_ = -1;
}

void MixtureCache::rest(Eigen::Index k, Eigen::ArrayXd& out) const {
    const Eigen::ArrayXd share = (D_.col(k) + logPi_(k) - L_).exp();
    out = L_ + (-share).log1p();
    // Summed afresh where k holds over half the mass (also for NaN: L_i = -inf); for many
    // such records (k the dominant component) in column passes.
    const Eigen::Index fresh = (!(share <= 0.5)).count();
    if (fresh == 0) return;
    if (fresh > out.size() / D_.cols()) {
        Eigen::ArrayXd full;
        columnLogSumExp(D_, logPi_, k, full);
        out = (share <= 0.5).select(out, full);
        return;
    }
    for (Eigen::Index i = 0; i < out.size(); ++i)
        if (!(share(i) <= 0.5)) out(i) = rowLogSumExp(i, k);
}

void MixtureCache::focus(Eigen::Index k) {
    focus_ = k;
    rest(k, rest_);
}

double MixtureCache::rowLogSumExp(Eigen::Index i, Eigen::Index skip) const {
    return logSumExpExcept([&](Eigen::Index j) { return D_(i, j) + logPi_(j); }, D_.cols(), skip);
}

double MixtureCache::logRestWeight(Eigen::Index k) const {
    return logSumExpExcept([&](Eigen::Index j) { return logPi_(j); }, logPi_.size(), k);
}

void MixtureCache::candidate(const Eigen::ArrayXd& rest, double shift, const Eigen::ArrayXd& Dk,
                             double logPiK, Eigen::ArrayXd& out) {
    out.resize(rest.size());
    for (Eigen::Index i = 0; i < rest.size(); ++i)
        out(i) = logAddExp(rest(i) + shift, logPiK + Dk(i));
}

void MixtureCache::setComponent(Eigen::Index k, const Eigen::ArrayXd& Dk, const Eigen::ArrayXd& L) {
    D_.col(k) = Dk;
    L_ = L;
}

void MixtureCache::setWeight(Eigen::Index k, double logPiK, double shift, const Eigen::ArrayXd& L) {
    logPi_ += shift;
    logPi_(k) = logPiK;
    L_ = L;
    if (k == focus_) rest_ += shift;  // the other components' part moved with their weights
}

double weightedLogRatio(const Eigen::VectorXd& alpha, const Eigen::ArrayXd& next,
                        const Eigen::ArrayXd& current) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < next.size(); ++i) {
        const double a = alpha(i);
        if (a == 0.0) continue;
        if (!(next(i) > kNegInf)) return kNegInf;  // -inf or NaN
        sum += a * (next(i) - current(i));
    }
    return sum;
}

}  // namespace ppsynth::models::detail
