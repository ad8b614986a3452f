// The coefficient prior with tau integrated out. Row j of the coefficients, beta_j =
// (beta_1j, ..., beta_Kj) (K = 1 for a plain regression, K components for the mixture),
// has prior beta_kj ~ Normal(0, tau_j), tau_j ~ half-t(df, 0, scale) (METHOD.md section 1).
// Its marginal density
//   p(beta_j) = integral over tau of prod_k Normal(beta_kj | 0, tau) half-t(tau) dtau
// depends on r2 = sum_k beta_kj^2 only. NUTS moves a whitened version of beta without
// tau (see radius()), so the funnel between a near-zero beta_j and its tau_j (divergences
// on every dummy-coded design) is gone while the posterior of beta is unchanged; tau_j is
// drawn afterwards, exactly, from p(tau_j | beta_j) (the likelihood does not involve tau).
// Private to core/src/models.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/prior_terms.hpp"

namespace ppsynth::models::detail {

class IntegratedTau {
  public:
    IntegratedTau(double df, double scale, int components);

    // T(rho) and dT/drho of the whitening map.
    struct Radius {
        double value = 0.0;
        double slope = 0.0;
    };
    // The sampler moves w_j, a K-vector with prior Normal(0, I), and sets
    //   beta_j = T(||w_j||) w_j / ||w_j||,   T = H^{-1} o F_chi(K),
    // H the CDF of ||beta_j|| under the marginal prior: then beta_j has exactly that prior
    // (probability integral transform of the radius; direction is uniform in both). The
    // prior seen by NUTS is a plain standard normal, so neither the funnel of (beta, tau)
    // nor the log-spike of the marginal density at beta = 0 (which makes NUTS saturate
    // its trees) appears; strong data pin w as they pin beta. T is a cubic Hermite table
    // in (log rho, log T), exact at its nodes and within about 1e-7 between them (measured by
    // tst_integrated_tau), with a power-law extension beyond its range. Its derivative is
    // that of the interpolant, so the sampler's value and gradient agree exactly.
    Radius radius(double rho) const;
    // rho with T(rho) = r.
    double inverseRadius(double r) const;

    // log p(beta_j) and d/d r2 by quadrature (r2 = ||beta_j||^2): the marginal density.
    ValueGrad integrate(double r2) const;
    // log P(||beta_j|| <= r) (upper = false) or log P(||beta_j|| > r), by quadrature.
    double logRadialCdf(double r, bool upper) const;
    // One exact draw of tau from p(tau | beta_j) (detail::drawScale), driven by a SplitMix64
    // stream from seed.
    double drawTau(double r2, std::uint64_t seed) const;

  private:
    // The integrand on u = log tau given v = log r2 (normalizing constants included).
    double logKernel(double u, double v) const;
    // Solves H(r) = F_chi(K)(rho) for log r, starting near guess.
    double solveRadius(double rho, double guess) const;

    double df_;
    double scale_;
    int K_;
    double logConst_;     // -K log sqrt(2 pi) + log of the half-t normalizing constant
    double logChiConst_;  // log(2^(K/2 - 1) Gamma(K/2)), the chi(K) density's normalizer
    std::vector<double> x_, logT_, slope_;  // nodes log rho; log T and dlogT/dlog rho there
};

// Shared, built once per (df, scale, K): the table takes a fraction of a second.
std::shared_ptr<const IntegratedTau> integratedTau(double df, double scale, int components);

}  // namespace ppsynth::models::detail
