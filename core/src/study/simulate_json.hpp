// The simulation's replicates as JSON and its output tables (private to core/study): shared
// by its execution (simulate.cpp) and its output files (simulate_output.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/simulate.hpp"
#include "study/resumable_folder.hpp"

namespace ppsynth::study::detail {

nlohmann::json replicateJson(const SimulateReplicate& r);
SimulateReplicate replicateFrom(const nlohmann::json& j);

// replicates.csv, distribution.csv, delta_hat.csv and summary.json, atomically per file.
Status writeTables(const ResumableFolder& folder, const SimulateSummary& s);

}  // namespace ppsynth::study::detail
