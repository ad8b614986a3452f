#include "mcmc/adaptation.hpp"

#include <algorithm>
#include <cmath>

namespace ppsynth::mcmc::detail {

double StepSizeAdaptation::learn(double acceptStat) {
    counter_ += 1;
    acceptStat = std::min(acceptStat, 1.0);
    const double eta = 1.0 / (counter_ + t0_);
    sBar_ = (1.0 - eta) * sBar_ + eta * (delta_ - acceptStat);
    const double x = mu_ - sBar_ * std::sqrt(counter_) / gamma_;
    const double xEta = std::pow(counter_, -kappa_);
    xBar_ = (1.0 - xEta) * xBar_ + xEta * x;
    return std::exp(x);
}

double StepSizeAdaptation::final() const {
    return std::exp(xBar_);
}

std::string WindowedVarianceAdaptation::configure(int warmup, int initBuffer, int termBuffer,
                                                  int baseWindow) {
    std::string note;
    warmup_ = warmup;
    if (warmup < 20) {
        enabled_ = false;
        return "no metric adaptation for fewer than 20 warm-up iterations";
    }
    enabled_ = true;
    if (initBuffer + baseWindow + termBuffer > warmup) {
        // Stan's fallback: 15% / 75% / 10% of the warm-up. Stan's set_window_params does
        // not restart the schedule on this path; we do, so the single window does close.
        initBuffer_ = static_cast<int>(0.15 * warmup);
        termBuffer_ = static_cast<int>(0.10 * warmup);
        baseWindow_ = warmup - (initBuffer_ + termBuffer_);
        note = "warm-up too short for the adaptation windows; using 15%/75%/10%";
    } else {
        initBuffer_ = initBuffer;
        termBuffer_ = termBuffer;
        baseWindow_ = baseWindow;
    }
    counter_ = 0;
    windowSize_ = baseWindow_;
    nextWindowEnd_ = initBuffer_ + windowSize_ - 1;
    n_ = 0;
    return note;
}

bool WindowedVarianceAdaptation::inWindow() const {
    return counter_ >= initBuffer_ && counter_ < warmup_ - termBuffer_ && counter_ != warmup_;
}

bool WindowedVarianceAdaptation::endOfWindow() const {
    return counter_ == nextWindowEnd_ && counter_ != warmup_;
}

void WindowedVarianceAdaptation::nextWindow() {
    const long lastEnd = warmup_ - termBuffer_ - 1;
    if (nextWindowEnd_ == lastEnd) return;
    windowSize_ *= 2;
    nextWindowEnd_ = counter_ + windowSize_;
    if (nextWindowEnd_ == lastEnd) return;
    // If the window after this one would overrun, stretch this one to the end.
    if (nextWindowEnd_ + 2 * windowSize_ >= warmup_ - termBuffer_) nextWindowEnd_ = lastEnd;
}

// exp(mean log var) over the positive variances; 1 when none is (a chain that never moved
// keeps Stan's absolute target).
double WindowedVarianceAdaptation::shrinkScale(const Eigen::ArrayXd& var) {
    double sumLog = 0.0;
    int count = 0;
    for (const double v : var)
        if (v > 0.0 && std::isfinite(v)) {
            sumLog += std::log(v);
            ++count;
        }
    return count > 0 ? std::exp(sumLog / count) : 1.0;
}

bool WindowedVarianceAdaptation::learn(const Eigen::VectorXd& q, Eigen::VectorXd& invMetric,
                                       const LogDensity* target) {
    if (!enabled_) return false;
    if (inWindow()) {
        if (n_ == 0) {
            mean_.setZero(q.size());
            m2_.setZero(q.size());
            delta_.resize(q.size());
        }
        ++n_;
        delta_ = q - mean_;
        mean_ += delta_ / static_cast<double>(n_);
        m2_.array() += delta_.array() * (q - mean_).array();
    }
    if (endOfWindow()) {
        nextWindow();
        if (n_ >= 2) {
            const double n = static_cast<double>(n_);
            // Shrink the sample variance with weight 5 / (n + 5) towards 1e-3 times the
            // geometric mean of the window's variances. Stan shrinks towards 1e-3 itself,
            // which is not scale-free: a parameter whose posterior variance is ~1e-6 (a
            // whitened coefficient informed by many records) gets a metric several times
            // too wide, and NUTS's U-turn then cuts every trajectory at that parameter's
            // short period (NB intercept-only: phi's ESS fell to a third).
            Eigen::VectorXd pooled = m2_ / (n - 1.0);
            if (target != nullptr) {
                target->poolMetric(mean_, pooled);
                // A pooled estimate that is not a variance would break NUTS; keep the raw one.
                if (!pooled.allFinite() || pooled.minCoeff() < 0.0) pooled = m2_ / (n - 1.0);
            }
            const Eigen::ArrayXd var = pooled.array();
            invMetric =
                (n / (n + 5.0)) * var + kShrinkTarget * shrinkScale(var) * (5.0 / (n + 5.0));
        }
        n_ = 0;
        ++counter_;
        return true;
    }
    ++counter_;
    return false;
}

}  // namespace ppsynth::mcmc::detail
