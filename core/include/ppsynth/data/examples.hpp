// Bundled example datasets. Every one is SIMULATED from a fixed seed by code (never edited
// by hand) with Boost.Random distributions, whose algorithms, unlike std::'s, are the same
// on every platform; so a seed always gives the same table.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"

namespace ppsynth::data {

enum class ExampleId { Poisson, NbMixture, IncomeSurvey, LognormalMixture, HouseholdSpending };

struct ExampleInfo {
    ExampleId id;
    std::string_view name;         // file stem and CLI name, e.g. "income_survey"
    std::string_view description;  // one line for lists and tooltips
    std::uint64_t defaultSeed;     // the seed of the bundled file
    std::size_t rows;
    std::string_view target;              // the sensitive outcome column
    std::vector<std::string_view> known;  // the papers' intruder knowledge (a suggestion)
};

// All examples, in ExampleId order.
const std::vector<ExampleInfo>& exampleList();
const ExampleInfo& exampleInfo(ExampleId id);
std::optional<ExampleId> exampleFromName(std::string_view name);

// The example drawn from `seed` (its default seed when not given).
Table makeExample(ExampleId id, std::optional<std::uint64_t> seed = std::nullopt);
// By name; fails naming the known examples when the name is unknown.
Expected<Table> makeExample(std::string_view name,
                            std::optional<std::uint64_t> seed = std::nullopt);

}  // namespace ppsynth::data
