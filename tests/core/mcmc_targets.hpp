// Analytic targets for sampler tests: Gaussians with known moments, Neal's funnel, and a
// deliberately slow target for cancellation, and targets exercising the optional hooks
// (exactMove, holdFixed, poolMetric).
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <chrono>
#include <cmath>

#include "ppsynth/mcmc/log_density.hpp"

namespace ppsynth::testing {

class StdNormal : public mcmc::LogDensity {
  public:
    explicit StdNormal(std::size_t d) : d_(d) {}
    std::size_t dimension() const override { return d_; }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        grad = -q;
        return -0.5 * q.squaredNorm();
    }

  private:
    std::size_t d_;
};

// Equal mixture of Normal(-m, 1) and Normal(m, 1) in one dimension: NUTS alone never
// crosses between the modes for m = 8. With flips on, exactMove proposes q -> -q with
// probability 1/2; the density is symmetric, so the Metropolis ratio is 1 and it is exact.
class TwoModes : public mcmc::LogDensity {
  public:
    TwoModes(double m, bool flips) : m_(m), flips_(flips) {}
    std::size_t dimension() const override { return 1; }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        const double a = -0.5 * (q(0) - m_) * (q(0) - m_), b = -0.5 * (q(0) + m_) * (q(0) + m_);
        const double top = std::max(a, b);
        const double wa = std::exp(a - top), wb = std::exp(b - top);
        grad.resize(1);
        grad(0) = (wa * (m_ - q(0)) + wb * (-m_ - q(0))) / (wa + wb);
        return top + std::log(wa + wb);
    }
    bool exactMove(Eigen::VectorXd& q, Rng& rng) const override {
        if (!flips_ || rng() % 2 == 0) return false;
        q = -q;
        return true;
    }

  private:
    double m_;
    bool flips_;
};

// Two independent normals with sds 0.1 and 10 whose poolMetric replaces the window's
// variances by their geometric mean: the adapted metric must then be the same for both.
class PooledPair : public mcmc::LogDensity {
  public:
    std::size_t dimension() const override { return 2; }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        grad.resize(2);
        grad << -q(0) / 0.01, -q(1) / 100.0;
        return -0.5 * (q(0) * q(0) / 0.01 + q(1) * q(1) / 100.0);
    }
    void poolMetric(const Eigen::VectorXd& mean, Eigen::VectorXd& var) const override {
        (void)mean;
        var.setConstant(std::sqrt(var(0) * var(1)));
    }
};

// Standard bivariate normal with correlation 0.8 whose coordinate 1 NUTS holds fixed;
// with gibbs on, exactMove draws it from its exact conditional Normal(0.8 q0, 0.6).
class HeldBivariate : public mcmc::LogDensity {
  public:
    explicit HeldBivariate(bool gibbs) : gibbs_(gibbs) {}
    std::size_t dimension() const override { return 2; }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        const double r = 0.8, det = 1 - r * r;
        grad.resize(2);
        grad << -(q(0) - r * q(1)) / det, -(q(1) - r * q(0)) / det;
        return -0.5 * (q(0) * q(0) - 2 * r * q(0) * q(1) + q(1) * q(1)) / det;
    }
    void holdFixed(const Eigen::VectorXd& q, Eigen::VectorXd& movable) const override {
        (void)q;
        movable(1) = 0.0;
    }
    bool exactMove(Eigen::VectorXd& q, Rng& rng) const override {
        if (!gibbs_) return false;
        q(1) = 0.8 * q(0) + 0.6 * boost::random::normal_distribution<double>()(rng);
        return true;
    }

  private:
    bool gibbs_;
};

// Standard bivariate normal with correlation rho and a Gibbs sweep (q0 given q1, then q1
// given q0): q0's lag-1 autocorrelation per sweep is rho^2.
class GibbsBivariate : public mcmc::LogDensity {
  public:
    explicit GibbsBivariate(double rho) : rho_(rho) {}
    std::size_t dimension() const override { return 2; }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        const double det = 1 - rho_ * rho_;
        grad.resize(2);
        grad << -(q(0) - rho_ * q(1)) / det, -(q(1) - rho_ * q(0)) / det;
        return -0.5 * (q(0) * q(0) - 2 * rho_ * q(0) * q(1) + q(1) * q(1)) / det;
    }
    bool gibbsSweep(Eigen::VectorXd& q, Rng& rng, const mcmc::StopCheck&,
                    double /*anneal*/) const override {
        boost::random::normal_distribution<double> z;
        const double sd = std::sqrt(1 - rho_ * rho_);
        q(0) = rho_ * q(1) + sd * z(rng);
        q(1) = rho_ * q(0) + sd * z(rng);
        return true;
    }

  private:
    double rho_;
};

// Normal(mu, Sigma) with Sigma = S R S: scales S, equicorrelation R with coefficient rho.
class Gaussian : public mcmc::LogDensity {
  public:
    Gaussian(Eigen::VectorXd mu, Eigen::VectorXd scales, double rho)
        : mu_(std::move(mu)), scales_(std::move(scales)), rho_(rho) {
        const Eigen::Index d = mu_.size();
        Eigen::MatrixXd r = Eigen::MatrixXd::Constant(d, d, rho);
        r.diagonal().setOnes();
        sigma_ = scales_.asDiagonal() * r * scales_.asDiagonal();
        precision_ = sigma_.llt().solve(Eigen::MatrixXd::Identity(d, d));
    }
    std::size_t dimension() const override { return static_cast<std::size_t>(mu_.size()); }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        grad.noalias() = -precision_ * (q - mu_);
        return 0.5 * (q - mu_).dot(grad);
    }
    const Eigen::VectorXd& mean() const { return mu_; }
    const Eigen::MatrixXd& covariance() const { return sigma_; }
    double rho() const { return rho_; }

  private:
    Eigen::VectorXd mu_, scales_;
    double rho_;
    Eigen::MatrixXd sigma_, precision_;
};

// Neal's funnel, centred: v ~ Normal(0, 3), x_i | v ~ Normal(0, exp(v / 2)). Its neck defeats
// any single step size, so NUTS reports divergences.
class Funnel : public mcmc::LogDensity {
  public:
    explicit Funnel(std::size_t d) : d_(d) {}
    std::size_t dimension() const override { return d_; }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        const double v = q[0];
        const auto x = q.tail(q.size() - 1);
        const double ev = std::exp(-v);
        const double n = static_cast<double>(x.size());
        grad[0] = -v / 9 + 0.5 * x.squaredNorm() * ev - 0.5 * n;
        grad.tail(x.size()) = -x * ev;
        return -v * v / 18 - 0.5 * x.squaredNorm() * ev - 0.5 * n * v;
    }

  private:
    std::size_t d_;
};

// A standard normal whose every evaluation busy-waits, as an expensive model would.
class SlowNormal : public mcmc::LogDensity {
  public:
    SlowNormal(std::size_t d, std::chrono::microseconds cost) : d_(d), cost_(cost) {}
    std::size_t dimension() const override { return d_; }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        const auto until = std::chrono::steady_clock::now() + cost_;
        while (std::chrono::steady_clock::now() < until) {
        }
        grad = -q;
        return -0.5 * q.squaredNorm();
    }

  private:
    std::size_t d_;
    std::chrono::microseconds cost_;
};

}  // namespace ppsynth::testing
