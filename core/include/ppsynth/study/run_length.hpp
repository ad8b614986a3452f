// How long a run's chains were, in the words the Results page, the report and the CLI show.
// A run until converged ("draws": "auto") keeps as many draws as each fit needed, so the
// configuration's draws (the block length) is not what was kept.
#pragma once

#include <string>

#include "ppsynth/mcmc/diagnostics.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study {

// "4 chains × 1000 draws", or for a run until converged "4 chains, draws until converged
// (blocks of 1000 per chain, at most 600 s per fit)".
std::string chainsAndDraws(const RunConfig& config);

// How one fit's length was set: "fixed", or "until converged: 3 blocks, converged" /
// "until converged: 3 blocks, budget reached".
std::string lengthText(const mcmc::RunDiagnostics& diagnostics);

// One fit's draws kept per chain: "1000", or for a run until converged "3000 (until
// converged: 3 blocks, converged)" / "2500 (until converged: 3 blocks, budget reached)"
// (the last block of a budget may be shorter).
std::string keptDrawsText(const RunConfig& config, const mcmc::RunDiagnostics& diagnostics);

}  // namespace ppsynth::study
