#include "ppsynth/data/examples.hpp"

#include <string>

#include "data/examples_detail.hpp"

namespace ppsynth::data {

const std::vector<ExampleInfo>& exampleList() {
    // Default seeds are arbitrary fixed numbers; changing one changes a bundled file.
    static const std::vector<ExampleInfo> list = {
        {ExampleId::Poisson,
         "poisson",
         "Simulated counts: 1000 draws of y ~ Poisson(100), no predictors",
         20190101,
         1000,
         "y",
         {}},
        {ExampleId::NbMixture,
         "nb_mixture",
         "Simulated over-dispersed counts: 1000 draws from 0.2 NB(100, size 5) + 0.8 NB(100, "
         "size 20), no predictors",
         20190102,
         1000,
         "y",
         {}},
        {ExampleId::IncomeSurvey,
         "income_survey",
         "Simulated household survey modelled on the CE sample: 6208 households, 10 categorical "
         "predictors, skewed family income, doctor visits",
         20170101,
         6208,
         "income",
         {"gender", "age", "region"}},
        {ExampleId::LognormalMixture,
         "lognormal_mixture",
         "Simulated skewed outcome: 1000 draws from a two-component lognormal mixture with 15 "
         "categorical predictors",
         20190104,
         1000,
         "y",
         {"x1", "x2", "x3", "x4", "x5"}},
        {ExampleId::HouseholdSpending,
         "household_spending",
         "Simulated household spending with three related sensitive variables: 2000 households "
         "drawn like income_survey, income and yearly food and housing spending that follow it",
         20170102,
         2000,
         "income",
         {"gender", "age", "region"}},
    };
    return list;
}

const ExampleInfo& exampleInfo(ExampleId id) {
    return exampleList()[static_cast<std::size_t>(id)];
}

std::optional<ExampleId> exampleFromName(std::string_view name) {
    for (const auto& e : exampleList())
        if (e.name == name) return e.id;
    return std::nullopt;
}

Table makeExample(ExampleId id, std::optional<std::uint64_t> seed) {
    Rng rng = makeRng(seed.value_or(exampleInfo(id).defaultSeed), 0, Purpose::Example);
    switch (id) {
        case ExampleId::Poisson:
            return detail::makePoissonExample(rng);
        case ExampleId::NbMixture:
            return detail::makeNbMixtureExample(rng);
        case ExampleId::IncomeSurvey:
            return detail::makeIncomeSurveyExample(rng);
        case ExampleId::LognormalMixture:
            return detail::makeLognormalMixtureExample(rng);
        case ExampleId::HouseholdSpending:
            return detail::makeHouseholdSpendingExample(rng);
    }
    return {};
}

Expected<Table> makeExample(std::string_view name, std::optional<std::uint64_t> seed) {
    if (auto id = exampleFromName(name)) return makeExample(*id, seed);
    std::string known;
    for (const auto& e : exampleList()) known += (known.empty() ? "" : ", ") + std::string(e.name);
    return Error{"there is no example named '" + std::string(name) + "'; the examples are " +
                 known};
}

}  // namespace ppsynth::data
