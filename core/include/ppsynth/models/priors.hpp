// Prior hyperparameters shared by every synthesizer family (METHOD.md section 1). One
// struct for all families: each model reads the fields it needs and ignores the rest, so a
// saved configuration keeps its meaning when the user switches family.
#pragma once

#include <optional>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::models {

struct Priors {
    // beta_j ~ Normal(0, tau_j), tau_j ~ half-Student-t(tauDf, 0, tauScale), independent
    // over columns j (mixture: tau_j shared by the K components).
    double tauDf = 3.0;
    double tauScale = 1.0;
    // When set, tau_j = fixedTau for every j and tau is not sampled (conjugate checks).
    std::optional<double> fixedTau;
    // Not a prior but how the sampler moves the coefficients; the posterior is the same
    // either way (reported draws and names are on the beta scale). By default a column
    // with few nonzero entries (a rare dummy level: fewer than
    // RegressionModel::kNonCentredBelow records) is non-centred, z_kj ~ Normal(0, 1) with
    // beta_kj = tau_j z_kj, which removes the funnel between a weakly identified beta_j and
    // its tau_j that made NUTS diverge; every other column, the intercept included, is
    // well identified by its many records and stays centred (there the non-centred form
    // would be the harder geometry). true: every column centred. Ignored with fixedTau.
    bool centeredCoefficients = false;

    // Normal families: sigma (each sigma_k) ~ half-Student-t(sigmaDf, 0, sigmaScale).
    double sigmaDf = 3.0;
    double sigmaScale = 1.0;
    // When set, sigma (every sigma_k) = fixedSigma and is not sampled.
    std::optional<double> fixedSigma;

    // Negative binomial: inv_phi = 1/phi ~ half-Cauchy(0, invPhiScale).
    double invPhiScale = 5.0;

    // Poisson means: mu ~ Gamma(meanShape, meanRate) (shape, rate).
    double meanShape = 1.0;
    double meanRate = 0.01;

    // Mixture: pi ~ Dirichlet(gamma/K, ..., gamma/K), gamma ~ Gamma(gammaShape, gammaRate).
    double gammaShape = 1.0;
    double gammaRate = 1.0;

    // Every hyperparameter must be finite and positive; the message names the field.
    Status validate() const;
};

}  // namespace ppsynth::models
