// The risk-utility sweep's configuration (sweep.hpp runs it): the grid of points, its JSON
// keys and canonical form, and the synthesizers one point runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study {

struct SweepPoint {
    double c = 1.0, g = 0.0;
    std::optional<double> M;  // LW-M truncation
    std::optional<double> k;  // re-weighting (LW_final) with this k ...
    bool kAuto = false;       // ... or with the largest k that keeps the bound
    std::optional<double> r;  // identification-risk radius at this point
    // A point of the target-epsilon grid (METHOD.md 8 with 3.10): LW (c, g[, M]) scaled to
    // this epsilon ("LW-scaled") beside the EM at the same epsilon, instead of LW and an EM
    // matched to LW's epsilon.
    std::optional<double> targetEpsilon;
};

// The CE study's six (c, g) points (paper 000 Table 2): (0.7, 0), (0.6, 0), (0.6, -0.1),
// (0.5, 0), (0.5, -0.1), (0.5, -0.3).
std::vector<SweepPoint> ceStudyPoints();

struct SweepConfig {
    RunConfig run;  // data, model, mcmc, synthesis, risk, lipschitz (no synthesizers)
    std::vector<SweepPoint> points = ceStudyPoints();
    double tolerance = 0.02;  // EM: relative distance to the LW epsilon_x
    int threads = 2;          // points in parallel (each point's chains run one after another)
};

// Keys: the run configuration's data, model, mcmc, synthesis, risk and lipschitz sections
// and a "sweep" section {points: [{c, g, M?, k?, r?, target_epsilon?}], M?, k?, r? (defaults
// for every point), tolerance, threads}, or, for the grid over target epsilon,
// {target_epsilons: [1, 2, 5, 10, 20], c?, g?, M?, r?, tolerance, threads}: one point per
// epsilon with the LW knobs c, g (default 1, 0) and M. Unknown keys are errors.
Expected<SweepConfig> parseSweepConfig(const std::string& jsonText,
                                       const std::string& baseDir = "");
Expected<SweepConfig> loadSweepConfig(const std::string& path);
// Canonical JSON; withThreads false leaves out what does not change results.
std::string toJson(const SweepConfig& config, bool withThreads = true);

// The synthesizers of one grid point: LW (or LW-M) at its (c, g[, M]), LW_final when it
// re-weights, and the EM matched to the last of them, on the sweep's run settings and the
// point's radius; at a target-epsilon point "LW-scaled" (or "LW-M-scaled": scheme scaled of
// lipschitz) and "EM", both at that target epsilon. The sweep runs exactly these on its
// shared unweighted fit.
RunConfig sweepPointRunConfig(const SweepConfig& sweep, const SweepPoint& point);

}  // namespace ppsynth::study
