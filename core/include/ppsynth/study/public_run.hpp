// What the release path may read of a run: its configuration and every synthesizer's
// PublicResult, never a RecordLevel part nor the run's per-record bounds f_i. Besides those,
// two things a bundle cannot be made without, each named for its one use: the data file's
// rows the datasets stand for (the released predictors are those rows), and the confidential
// y for the leak guard alone (a released target equal to it is refused; it is never written).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <string>
#include <vector>

#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/synthesizer_result.hpp"

namespace ppsynth::study {

// A view: `run` must outlive it. It converts from a RunResult, so a release API is called with
// the run itself and sees only this.
class PublicRun {
  public:
    PublicRun(const RunResult& run);  // NOLINT(google-explicit-constructor): a view by design

    const RunConfig& config() const { return *config_; }
    const std::vector<const PublicResult*>& synthesizers() const { return synthesizers_; }
    const PublicResult* find(const std::string& name) const;
    const std::vector<std::size_t>& keptRows() const { return *keptRows_; }
    const Eigen::VectorXd& leakGuardTarget() const { return *leakGuardTarget_; }

  private:
    const RunConfig* config_;
    std::vector<const PublicResult*> synthesizers_;
    const std::vector<std::size_t>* keptRows_;
    const Eigen::VectorXd* leakGuardTarget_;
};

}  // namespace ppsynth::study
