// The Utility tab of a run with several sensitive variables (METHOD.md section 9) shows one
// variable at a time exactly as a run of that variable alone shows its utility, or the joint
// measures (joint_utility_tables.hpp, joint_utility_charts.hpp). The per-variable reports are
// in each synthesizer's utility report (UtilityReport::variables), so no data are needed.
#pragma once

#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/runner.hpp"

namespace ppsynth::ui::results {

// A run that holds only what the utility charts and tables read (configuration, synthesizers'
// names, schemes and utility reports), with data.target `target` and every synthesizer's
// utility report `target`'s own: utilityViolins, utilityTable, distributionTable,
// regressionTable and posteriorTable then show that variable as for a one-variable run.
// data.targets stays, so the charts still know the run has several variables. Record-level
// results (synthetic datasets, records, draws) are left out.
Expected<study::RunResult> utilityOfVariable(const study::RunResult& run,
                                             const std::string& target);

}  // namespace ppsynth::ui::results
