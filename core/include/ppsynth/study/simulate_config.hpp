// The local-to-global simulation's configuration (simulate.hpp runs it): the generating
// model, sizes, replicates and mechanisms, its JSON keys and canonical form.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::study {

struct SimulateConfig {
    // "poisson": y ~ Poisson(mean), synthesized by the conjugate Poisson means model (exact
    // draws, no MCMC). "nb-mixture": y ~ 0.2 NB(mean, 5) + 0.8 NB(mean, 20), synthesized by
    // an intercept-only negative binomial model (NUTS), as in paper 001.
    std::string model = "poisson";
    double mean = 100;
    std::vector<std::size_t> sizes{100, 400, 1600, 6400};
    int replicates = 400;
    std::vector<std::string> mechanisms{"Unweighted", "LW", "LW-M"};
    double c = 1.0, g = 0.0;  // LW knobs
    double M = 3.5;           // LW-M truncation
    struct Mcmc {
        int chains = 1, warmup = 500, draws = 1000, maxTreeDepth = 10;
        double adaptDelta = 0.8;
    } mcmc;  // draws per chain; warmup, treedepth and adapt_delta only matter for NUTS
    std::uint64_t seed = 1;
    int threads = 2;     // does not change results
    int blockSize = 25;  // replicates per saved block
    std::vector<double> quantiles{0.05, 0.25, 0.5, 0.75, 0.95};
    std::vector<double> epsilonGrid;  // empty: 1, 1.5, ..., 40

    std::vector<double> epsilons() const;  // the grid in use
};

Expected<SimulateConfig> parseSimulateConfig(const std::string& jsonText);
Expected<SimulateConfig> loadSimulateConfig(const std::string& path);
// Canonical JSON (every default written out); `withThreads` false leaves out the settings
// that do not change results, which is what identifies a resumable output folder.
std::string toJson(const SimulateConfig& config, bool withThreads = true);

}  // namespace ppsynth::study
