// The charts of a run with several sensitive variables' utility (METHOD.md section 9): each
// variable's utility violins as a one-variable run draws them, and the joint ones, violins
// across the m synthetic datasets (as section 6 draws a statistic across them): of each
// pair's correlation, marked at the confidential r, and of the correlation-matrix difference
// ||R_l - R_o||_F, marked at its mean.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/results/run_charts.hpp"

namespace ppsynth::ui::results {

// The pairs of sensitive variables the joint correlations measure, in the reports' order.
std::vector<std::pair<std::string, std::string>> correlationPairs(const study::RunResult& run);
// Pair `pair` of correlationPairs(): per synthesizer its correlation in each synthetic
// dataset, marked at the confidential correlation.
Expected<BuiltChart> correlationViolins(const study::RunResult& run, std::size_t pair);
// Per synthesizer ||R_l - R_o||_F of each synthetic dataset, marked at the mean (the number
// the tables report).
Expected<BuiltChart> correlationNormViolins(const study::RunResult& run);

// For "Export all charts" of a run with several sensitive variables: every variable's utility
// violins (keys "violin_utility_<variable>_<statistic>") and the joint charts. The recipes
// refer to `run`, which must outlive them.
std::vector<ChartRecipe> severalUtilityRecipes(const study::RunResult& run);

}  // namespace ppsynth::ui::results
