// Generators behind data/examples.hpp (private to core), one file per example, and the
// small drawing helpers they share.
#pragma once

#include <boost/random/discrete_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/table.hpp"

namespace ppsynth::data::detail {

Table makePoissonExample(Rng& rng);
Table makeNbMixtureExample(Rng& rng);
Table makeIncomeSurveyExample(Rng& rng);
Table makeLognormalMixtureExample(Rng& rng);
// examples_income.cpp: income_survey's households with two expenditures.
Table makeHouseholdSpendingExample(Rng& rng);

// A categorical level drawn with the given (unnormalised) probabilities, as a code.
inline std::int32_t drawLevel(Rng& rng, std::initializer_list<double> probs) {
    boost::random::discrete_distribution<std::int32_t, double> d(probs);
    return d(rng);
}
inline std::int32_t drawLevel(Rng& rng, const std::vector<double>& probs) {
    boost::random::discrete_distribution<std::int32_t, double> d(probs.begin(), probs.end());
    return d(rng);
}

// NB2 with the given mean and size (Var = mean + mean^2 / size), drawn as a Poisson whose
// rate is Gamma(shape = size, scale = mean / size).
inline double drawNegBinomial(Rng& rng, double mean, double size) {
    const double rate = boost::random::gamma_distribution<double>(size, mean / size)(rng);
    if (!(rate > 0)) return 0;  // a Gamma draw can underflow to 0 for small shapes
    return static_cast<double>(
        boost::random::poisson_distribution<std::int64_t, double>(rate)(rng));
}

// Levels whose value and label are the same text.
inline std::vector<Level> textLevels(std::initializer_list<const char*> labels) {
    std::vector<Level> out;
    for (const char* l : labels) out.push_back({l, l});
    return out;
}

}  // namespace ppsynth::data::detail
