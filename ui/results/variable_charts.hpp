// The charts of the confidential y (synthetic against confidential, weight against y, density
// and tail density) of a run's sensitive variables after the first (METHOD.md section 9), as
// recipes for runChartRecipes(): each variable is drawn through runOfVariable() with the
// run's table, so its charts look like a one-variable run's, named by the variable.
#pragma once

#include <vector>

#include "ppsynth/study/runner.hpp"
#include "ui/results/run_charts.hpp"

namespace ppsynth::ui::results {

// For each sensitive variable but data.target, in synthesis order, per synthesizer its four
// charts; a variable whose values cannot be read (no options.table, no such column, records
// the table lacks) gets one recipe instead that fails with the reason, so it is skipped with
// a note. Empty for a run with one sensitive variable. The recipes refer to `run`, which
// must outlive them, and keep options.table.
std::vector<ChartRecipe> otherVariableRecipes(const study::RunResult& run,
                                              const RunChartOptions& options);

}  // namespace ppsynth::ui::results
