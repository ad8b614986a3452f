// The joint utility of a run with several sensitive variables (METHOD.md section 9) as tables:
// per synthesizer the pMSE over all variables, the correlation-matrix difference and the
// cross-regressions' mean CI overlap; for one synthesizer each sensitive variable regressed on
// the predictors and the others, and the correlations pair by pair. Pure functions of a run,
// like results_tables.hpp.
#pragma once

#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/results/results_tables.hpp"

namespace ppsynth::ui::results {

// Per synthesizer: joint pMSE, S_pMSE and the value a correct synthesizer gives, the Frobenius
// norm ||R_s - R_o||_F and the largest |r_s - r_o|, each cross-regression's mean CI overlap.
// An error when no synthesizer has joint measures.
Expected<TableData> jointUtilityTable(const study::RunResult& run);
// Each sensitive variable on the predictors and the other sensitive variables under
// `synthesizer`: per coefficient the confidential estimate, the synthetic one combined over
// the m datasets, their intervals, the CI overlap and df; in each regression the other
// sensitive variables' coefficients first, then the predictors' in the report's order.
Expected<TableData> crossRegressionTable(const study::RunResult& run,
                                         const std::string& synthesizer);
// The sensitive variables' correlations under `synthesizer`, pair by pair (confidential r,
// synthetic r averaged over the datasets, difference), the Frobenius norm in the title.
Expected<TableData> correlationTable(const study::RunResult& run, const std::string& synthesizer);

}  // namespace ppsynth::ui::results
