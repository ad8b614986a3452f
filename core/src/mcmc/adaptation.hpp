// Warm-up adaptation as in Stan: Nesterov dual averaging of log(step size) towards a target
// acceptance statistic, and a windowed estimate of the posterior variances that becomes the
// diagonal inverse metric (windows doubling between an initial and a terminal buffer).
#pragma once

#include <Eigen/Core>
#include <string>

#include "ppsynth/mcmc/log_density.hpp"

namespace ppsynth::mcmc::detail {

class StepSizeAdaptation {
  public:
    explicit StepSizeAdaptation(double delta) : delta_(delta) {}
    void setMu(double mu) { mu_ = mu; }
    void restart() {
        counter_ = 0;
        sBar_ = 0;
        xBar_ = 0;
    }
    // One dual-averaging update from an iteration's acceptance statistic; returns the
    // step size to use next.
    double learn(double acceptStat);
    // The step size to keep after warm-up: exp of the averaged iterate.
    double final() const;

  private:
    double delta_;
    double gamma_ = 0.05;
    double t0_ = 10;
    double kappa_ = 0.75;
    double mu_ = 0;
    double counter_ = 0;
    double sBar_ = 0;
    double xBar_ = 0;
};

// Stan's windowed adaptation schedule. Iterations [0, initBuffer) and the last termBuffer
// are not used for the metric; the windows between start at baseWindow and double, the
// last one stretched to the terminal buffer.
class WindowedVarianceAdaptation {
  public:
    // Returns a note when the schedule had to be changed (short warm-up), else "".
    std::string configure(int warmup, int initBuffer, int termBuffer, int baseWindow);
    bool enabled() const { return enabled_; }
    // Feeds the state after one warm-up iteration; when a window closes, writes the
    // regularized variance into invMetric and returns true (the caller then re-initializes
    // the step size). A target, when given, may pool the window's variances first
    // (LogDensity::poolMetric).
    bool learn(const Eigen::VectorXd& q, Eigen::VectorXd& invMetric,
               const LogDensity* target = nullptr);

    // Schedule introspection for tests: iteration indices at which windows end.
    int initBuffer() const { return initBuffer_; }
    int termBuffer() const { return termBuffer_; }
    int baseWindow() const { return baseWindow_; }

    // The regularization: variance -> (n/(n+5)) variance + (5/(n+5)) kShrinkTarget scale,
    // scale = shrinkScale(the window's variances).
    static constexpr double kShrinkTarget = 1e-3;
    static double shrinkScale(const Eigen::ArrayXd& var);

  private:
    bool inWindow() const;
    bool endOfWindow() const;
    void nextWindow();

    bool enabled_ = false;
    long warmup_ = 0;
    int initBuffer_ = 0;
    int termBuffer_ = 0;
    int baseWindow_ = 0;
    long counter_ = 0;
    long windowSize_ = 0;
    long nextWindowEnd_ = 0;
    // Welford accumulators
    long n_ = 0;
    Eigen::VectorXd mean_;
    Eigen::VectorXd m2_;
    Eigen::VectorXd delta_;
};

}  // namespace ppsynth::mcmc::detail
