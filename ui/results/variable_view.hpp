// One sensitive variable of a run with several, seen as if it were the run's only one: the
// Results page's synthetic-data charts and riskiest-records table draw the chosen variable
// with it. The run keeps the first variable's confidential values (inputs.yOriginal); the
// others come from the table the run used, at the run's records (inputs.keptRows).
#pragma once

#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"

namespace ppsynth::ui::results {

// `target`'s confidential values at the run's records, read from `table`.
Expected<std::vector<double>> confidentialValues(const study::RunResult& run,
                                                 const data::Table& table,
                                                 const std::string& target);

// A copy of `run` whose data.target is `target`, inputs.yOriginal its confidential values
// and every synthetic dataset only its part (datasets hold the variables one after another
// in synthesis order). data.targets stays as it was, so the views still say the run has
// several variables.
Expected<study::RunResult> runOfVariable(const study::RunResult& run, const data::Table& table,
                                         const std::string& target);

}  // namespace ppsynth::ui::results
