#include "ppsynth/privacy/lipschitz.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "ppsynth/common/quantile.hpp"

namespace ppsynth::privacy {

LipschitzAccumulator::LipschitzAccumulator(Eigen::VectorXd alpha)
    : alpha_(std::move(alpha)),
      recordMax_(Eigen::VectorXd::Zero(alpha_.size())),
      nonFinite_(static_cast<std::size_t>(alpha_.size()), 0) {}

void LipschitzAccumulator::addDraw(const Eigen::Ref<const Eigen::VectorXd>& loglik) {
    double drawMax = 0;
    Eigen::Index argmax = 0;
    for (Eigen::Index i = 0; i < loglik.size(); ++i) {
        const double l = loglik[i];
        if (!std::isfinite(l)) nonFinite_[static_cast<std::size_t>(i)] = 1;
        const double v = weightedAbsLogLik(alpha_[i], l);
        recordMax_[i] = std::max(recordMax_[i], v);
        if (v > drawMax) {
            drawMax = v;
            argmax = i;
        }
    }
    drawMax_.push_back(drawMax);
    drawArgmax_.push_back(static_cast<std::size_t>(argmax));
    drawArgmaxLogLik_.push_back(loglik.size() > 0 ? loglik[argmax] : 0.0);
}

void LipschitzAccumulator::merge(const LipschitzAccumulator& other) {
    if (alpha_.size() == 0) {
        *this = other;
        return;
    }
    recordMax_ = recordMax_.cwiseMax(other.recordMax_);
    drawMax_.insert(drawMax_.end(), other.drawMax_.begin(), other.drawMax_.end());
    drawArgmax_.insert(drawArgmax_.end(), other.drawArgmax_.begin(), other.drawArgmax_.end());
    drawArgmaxLogLik_.insert(drawArgmaxLogLik_.end(), other.drawArgmaxLogLik_.begin(),
                             other.drawArgmaxLogLik_.end());
    for (std::size_t i = 0; i < nonFinite_.size(); ++i) nonFinite_[i] |= other.nonFinite_[i];
}

std::string LipschitzBound::method() const {
    if (quantile >= 1.0) return "max over draws";
    std::ostringstream s;
    s << quantile << "-quantile over draws";
    return s.str();
}

LipschitzBound lipschitzBound(const LipschitzAccumulator& acc, double q) {
    return lipschitzBound(acc.drawMax(), q);
}

LipschitzBound lipschitzBound(const std::vector<double>& m, double q) {
    LipschitzBound b;
    b.quantile = std::clamp(q, 0.0, 1.0);
    if (m.empty()) return b;
    if (b.quantile >= 1.0) {
        b.delta = *std::max_element(m.begin(), m.end());
    } else {
        b.delta = quantile(m, b.quantile);
    }
    // With q < 1 a draw whose max is not finite is never retained (METHOD.md section 2),
    // even when more than 1 - q of the draws are unbounded and Delta itself is infinite.
    const bool robust = b.quantile < 1.0;
    for (std::size_t s = 0; s < m.size(); ++s)
        if (m[s] <= b.delta && (!robust || std::isfinite(m[s]))) b.keptDraws.push_back(s);
    return b;
}

EpsilonAccount epsilonAccount(double delta, int m) {
    return {2.0 * delta, 2.0 * delta * m, m};
}

GlobalEpsilon globalEpsilon(double delta, std::size_t n) {
    GlobalEpsilon g;
    if (n < 1000) {
        g.safetyLow = 1.05;
        g.safetyHigh = 1.10;
    }
    g.epsilonLow = 2.0 * g.safetyLow * delta;
    g.epsilonHigh = 2.0 * g.safetyHigh * delta;
    return g;
}

}  // namespace ppsynth::privacy
