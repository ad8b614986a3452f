// The two count examples: the simulation settings of Savitsky, Hu & Williams
// ("Vector-weighted mechanisms ...", paper 001), with no predictors.
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>

#include "data/examples_detail.hpp"

namespace ppsynth::data::detail {

namespace {
constexpr std::size_t kRows = 1000;
constexpr double kMean = 100;

Table singleCountColumn(std::vector<double> y) {
    Table t;
    (void)t.addColumn(Column::count("y", std::move(y)));  // the first column cannot clash
    return t;
}
}  // namespace

// SIMULATED: y ~ Poisson(100), the equi-dispersed count of the papers' Poisson simulation.
Table makePoissonExample(Rng& rng) {
    boost::random::poisson_distribution<std::int64_t, double> pois(kMean);
    std::vector<double> y(kRows);
    for (auto& v : y) v = static_cast<double>(pois(rng));
    return singleCountColumn(std::move(y));
}

// SIMULATED: over-dispersed counts with a heavier-tailed minority, imitating the papers'
// negative-binomial simulation: y ~ 0.2 NB(mean 100, size 5) + 0.8 NB(mean 100, size 20).
// Both components share the mean, so the mixture has mean 100 and variance
// 100 + 100^2 (0.2/5 + 0.8/20) = 900. The component label is not kept: it would leak the
// generating structure.
Table makeNbMixtureExample(Rng& rng) {
    boost::random::bernoulli_distribution<double> wide(0.2);
    std::vector<double> y(kRows);
    for (auto& v : y) v = drawNegBinomial(rng, kMean, wide(rng) ? 5.0 : 20.0);
    return singleCountColumn(std::move(y));
}

}  // namespace ppsynth::data::detail
