// Prior hyperparameters shared by every synthesizer family (METHOD.md section 1). One
// struct for all families: each model reads the fields it needs and ignores the rest, so a
// saved configuration keeps its meaning when the user switches family.
#pragma once

#include <optional>
#include <string>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::models {

// How the sampler handles the coefficient scales tau_j (the posterior is the same).
enum class TauForm { Automatic, Integrated, Sampled };

struct Priors {
    // beta_j ~ Normal(0, tau_j), tau_j ~ half-Student-t(tauDf, 0, tauScale), independent
    // over columns j (mixture: tau_j shared by the K components).
    double tauDf = 3.0;
    double tauScale = 1.0;
    // When set, tau_j = fixedTau for every j and tau is not sampled (conjugate checks).
    std::optional<double> fixedTau;
    // Not priors but how the sampler handles the coefficient block; the posterior is the
    // same every way, and reported draws always hold beta and tau.
    // Integrated: tau_j is integrated out and NUTS moves a whitened row w_j ~ Normal(0, I)
    // with beta_j = T(||w_j||) w_j / ||w_j||, T the radius map that gives beta_j its marginal
    // prior exactly (a table accurate to 1e-8); each reported tau_j is an exact draw from
    // p(tau_j | beta_j). With tau in the sampler every (beta_j, tau_j) pair is a funnel, which
    // made NUTS diverge in 8-11% of the draws on dummy-coded regressions; beta itself under
    // the marginal prior has a log-spike at 0 that saturates NUTS's trees.
    // Sampled: tau_j is a parameter (see centeredCoefficients). The mixture needs it: there
    // row j holds all K components, and one well-determined coefficient pins w_j to a curved
    // ridge through the other components' coordinates (T depends on ||w_j||), which no
    // diagonal metric follows; K = 20 on income_survey saturated every tree.
    // Automatic (default): integrated for one component, sampled for the mixture.
    TauForm tau = TauForm::Automatic;
    // Only with tau sampled: by default a column with few nonzero entries (a rare
    // dummy level: fewer than RegressionModel::kNonCentredBelow records) is non-centred,
    // z_kj ~ Normal(0, 1) with beta_kj = tau_j z_kj, and every other column, the intercept
    // included, is centred. true: every column centred. Ignored with fixedTau.
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

// "auto", "integrated" or "sampled" (the configuration's model.tau); nullopt otherwise.
std::optional<TauForm> tauFormFromString(const std::string& name);

}  // namespace ppsynth::models
