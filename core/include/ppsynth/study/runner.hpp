// End-to-end runs (the papers' Algorithms 1-3): prepare the data, fit the unweighted model
// once, then for every synthesizer compute its weights, refit (warm-started), bound the
// sensitivity, synthesize and measure identification risk.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/design_summary.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/mcmc/diagnostics.hpp"
#include "ppsynth/models/priors.hpp"
#include "ppsynth/privacy/calibration.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/privacy/identification_risk.hpp"
#include "ppsynth/privacy/lipschitz.hpp"
#include "ppsynth/privacy/weights.hpp"
#include "ppsynth/study/fit.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/synthesizer_result.hpp"
#include "ppsynth/study/utility_report.hpp"

namespace ppsynth::study {

struct RunResult {
    RunConfig config;
    data::ModelInputs inputs;
    std::vector<std::string> parameterNames;
    Eigen::VectorXd f;                            // unweighted per-record bounds f_i (confidential)
    std::vector<SynthesizerResult> synthesizers;  // in configuration order
    double seconds = 0;
    // What was fitted (run.json "design") and what a person should know about the settings
    // and results (run.json "warnings"): study/run_checks.hpp's rules.
    data::DesignSummary design;
    std::vector<std::string> warnings;
    // SHA-256 of the data file the table was read from (readRunData), recorded in run.json
    // so a reopened run can tell whether the file changed. Empty: the output writer hashes
    // config.data.path itself.
    std::string dataSha256;

    const SynthesizerResult* find(const std::string& name) const;
};

// What a run is about to fit, known once the data are prepared and before the first fit.
struct RunStart {
    data::DesignSummary design;
    std::vector<std::string> warnings;  // about the settings and the data so far
};

struct RunOptions {
    ProgressCallback progress;  // stage "<synthesizer>: <what>"
    const std::atomic<bool>* cancel = nullptr;
    // Called once, on the calling thread, before the unweighted fit starts.
    std::function<void(const RunStart&)> started;
};

// The design summary of prepared inputs under a configuration's model (the mixture's K
// components each have their own coefficients; Poisson means uses no predictors).
data::DesignSummary designOf(const RunConfig& config, const data::ModelInputs& inputs);

Expected<RunResult> runStudy(const RunConfig& config, const data::Table& table,
                             const RunOptions& options = {});

// A study prepared once: the data, the model and the unweighted fit with its synthetic
// datasets and risk. A sweep runs many synthesizer sets on one prepared study, so the
// unweighted model is fitted once and shared (read-only, safe from several threads).
class PreparedStudy {
  public:
    const RunConfig& config() const;  // the configuration it was prepared from
    struct State;

  private:
    friend Expected<PreparedStudy> prepareStudy(const RunConfig&, const data::Table&,
                                                const RunOptions&);
    friend Expected<RunResult> runPrepared(const PreparedStudy&, const RunConfig&,
                                           const RunOptions&);
    friend struct PreparedStudyFile;  // saved and restored by sweep items (core/src/study)
    std::shared_ptr<const State> state_;
};

// Prepares data and model and fits the unweighted synthesizer (progress and cancel apply
// during this call only).
Expected<PreparedStudy> prepareStudy(const RunConfig& config, const data::Table& table,
                                     const RunOptions& options = {});

// Runs config's synthesizers on the prepared study without refitting the unweighted model.
// config's data and model sections must be the prepared ones; its synthesizers, m, risk
// settings and thread count may differ ("unweighted" synthesizers reuse the shared fit).
Expected<RunResult> runPrepared(const PreparedStudy& study, const RunConfig& config,
                                const RunOptions& options = {});

// Maps a configuration's prior names (tau_df, tau_scale, sigma_df, sigma_scale,
// inv_phi_scale, mean_shape, mean_rate, gamma_shape, gamma_rate) onto models::Priors.
Expected<models::Priors> priorsFromConfig(const std::map<std::string, double>& values);
// The hyperparameters of `priors` under the configuration's names: those `family` reads, or
// every one when family is empty.
std::map<std::string, double> priorValues(const models::Priors& priors,
                                          const std::string& family = "");

// The seeds a synthesizer's draws are chosen and its datasets generated with
// (common/rng.hpp): derived from the run's seed and the synthesizer's name only, so renaming
// or reordering other synthesizers does not change this one's datasets.
using ppsynth::drawChoiceSeed;
using ppsynth::synthesisSeed;
// The name those seeds take for a synthesizer: its own, except for the unweighted scheme,
// whose datasets are the run's one unweighted synthesis (also the risk reference of the
// other schemes), seeded as "Unweighted" whatever the synthesizer is called.
std::string seedName(Scheme scheme, const std::string& name);

}  // namespace ppsynth::study
