// The one place a run configuration's meaning is checked (Ceres' Solver::Options::IsValid):
// allowed values, ranges and combinations of settings. The parser reads the JSON (types,
// unknown and repeated keys) and then calls validate; runStudy, prepareStudy and runPrepared
// call it before any work, so a configuration built in code (the GUI's) meets the same rules;
// the GUI calls it before it starts a job, to say what is wrong without starting one.
// A refusal has the kind InvalidInput and a message that names the key (or the synthesizer)
// and says what is allowed ("mcmc: 'chains' is 0 but must be at least 1").
#pragma once

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study {

// The least values validate accepts, for input widgets that should offer only those (the
// rules themselves are validate's; these are not checked anywhere else).
namespace limits {
inline constexpr int kChains = 1;
inline constexpr int kDraws = 1;
inline constexpr int kWarmup = 0;
inline constexpr int kThreads = 1;
inline constexpr int kRefitWarmup = 0;
inline constexpr int kThin = 1;
inline constexpr int kTreeDepth = 1;   // up to mcmc::kMaxTreeDepth
inline constexpr int kComponents = 1;  // model.K
inline constexpr int kDatasets = 1;    // synthesis.m and risk.L
// Settings that must be above 0 (the sigmoid's a, M, the radius, a target epsilon): the
// smallest value an input widget offers for them.
inline constexpr double kSmallestPositive = 0.01;
}  // namespace limits

// What both "target" and "targets" in data get (after "data: ").
inline constexpr const char* kTargetAndTargets =
    "give either 'target' (one sensitive variable) or 'targets' (several, in the order they "
    "are synthesized), not both";

// Every rule of a run configuration: the sections and the synthesizers, their references to
// each other (match, base: existing, not themselves, no cycle) and the knobs that would
// weight every record 0 (run_checks.hpp's refuseDegenerateKnobs).
Status validate(const RunConfig& config);

// The sections only (data, model, mcmc, synthesis, risk, lipschitz, utility), without the
// synthesizers: what a sweep's configuration shares with a run's.
Status validateSections(const RunConfig& config);

// "synthesizers[2] 'EM'": how messages name a synthesizer (the name only when it is safe to
// show, checkSafeName).
std::string synthesizerPath(std::size_t index, const std::string& name);

}  // namespace ppsynth::study
