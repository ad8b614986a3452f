// The risk-utility sweep (METHOD.md section 8; paper 000 sec. 5.3): for a grid of LW knobs
// (c, g), optionally with M truncation, re-weighting k or the IR radius r per point, an LW
// fit gives Delta_{alpha,x} and epsilon_x; a scalar-weight (EM) fit is matched to that
// epsilon_x; both are summarized by their weights and identification risk, one row per
// point and mechanism, so a data owner can read epsilon against risk and utility (the
// utility report of the run configuration's "utility" section, per mechanism).
//
// The unweighted model is fitted once and shared by every point. Points run in parallel
// and independently; each finished point is saved in the output folder at once, so a
// cancelled or crashed sweep resumes where it stopped.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/privacy/identification_risk.hpp"
#include "ppsynth/privacy/weights.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/study_options.hpp"
#include "ppsynth/study/sweep_config.hpp"
#include "ppsynth/study/utility_report.hpp"

namespace ppsynth::study {

struct SweepRow {
    int point = 0;  // 1-based; 0 is the unweighted reference row
    SweepPoint knobs;
    std::string mechanism;  // "Unweighted", "LW", "LW-M", "LW_final", "EM"
    double deltaX = 0, deltaAlphaX = 0, epsilon = 0, epsilonTotal = 0;
    int m = 0;
    double scalarWeight = 0;  // EM: a; LW-scaled: its scale a
    double k = 0;             // LW_final
    int fits = 0;
    privacy::WeightSummary weights;
    privacy::RiskSummary ir;
    std::size_t whackAMole = 0;  // vs the unweighted fit at this point's radius
    double seconds = 0;
    // METHOD.md section 6 on the m released datasets (the configuration's "utility"
    // section); absent when disabled, utilityError when it failed.
    std::optional<UtilityReport> utility;
    std::string utilityError;
    // The utility columns, read off the report (NaN when it is absent or lacks the
    // statistic): the 0.90 quantile's and the mean's CI overlap and relative error
    // |synthetic - original| / |original|, the ECDF distance U_m, pMSE and S_pMSE.
    double q90CiOverlap = kUndefined, q90RelError = kUndefined;
    double meanCiOverlap = kUndefined, meanRelError = kUndefined;
    double Um = kUndefined, pmse = kUndefined, sPmse = kUndefined;
};

struct SweepSummary {
    SweepConfig config;
    std::vector<SweepRow> rows;                    // the unweighted reference, then point by point
    std::size_t pointsRun = 0, pointsResumed = 0;  // items, the unweighted one included
    std::size_t items = 0;                         // the sweep's items: points + 1
    double seconds = 0;                            // this call
    double preparedSeconds = 0;  // the shared unweighted fit (0 when every point was saved)
    // The shared unweighted fit was read from items/unweighted.prepared (item 0 saved it)
    // instead of fitted here.
    bool preparedLoaded = false;
};

// Runs (or resumes) the sweep on `input` (readRunData(config.run)) into outDir:
//   config.json, items/*.json   as for the simulation (resume; another configuration, a
//                               data file with other bytes (input.sha256) or another
//                               engine revision is refused)
//   sweep.csv                   one row per point and mechanism
//   sweep.json                  the rows with timings, and the configuration
// Item 0 is the unweighted reference (the shared fit), item i the grid point i; with
// options.items a process computes only some of them. Item 0 also saves what the points
// share from the unweighted fit (items/unweighted.prepared, exact); a process computing
// points without item 0 loads it instead of refitting, and is refused while it is missing
// (compute item 0 first), damaged or of another configuration. A local run (no
// options.items) fits the unweighted model itself when a point is missing and saves the
// file too. Either way the items are the same, byte for byte.
Expected<SweepSummary> runSweep(const SweepConfig& config, const RunData& input,
                                const std::string& outDir, const StudyOptions& options = {});

std::string sweepSummaryJson(const SweepSummary& summary);

}  // namespace ppsynth::study
