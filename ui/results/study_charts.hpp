// Charts of the studies beyond one run: the local-to-global simulation (how the local bound
// of databases of size n contracts as n grows, METHOD.md 7) and the risk-utility sweep
// (epsilon against a utility or risk measure for LW and EM, METHOD.md 8). Pure builders, as
// run_charts.hpp, from the summaries that study::runSimulation and study::runSweep return.
#pragma once

#include <QString>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/sweep.hpp"
#include "ui/results/run_charts.hpp"

namespace ppsynth::ui::results {

// Violins per database size n of the local epsilon 2 Delta_{alpha,x_r} over the replicate
// databases under one mechanism ("Unweighted", "LW", "LW-M"), with the recommended global
// epsilon of each size marked.
Expected<BuiltChart> contractionViolins(const study::SimulateSummary& simulation,
                                        const std::string& mechanism);
// delta_hat(epsilon): the share of replicate databases whose local epsilon exceeds epsilon,
// one line per n, for one mechanism.
Expected<BuiltChart> deltaHatChart(const study::SimulateSummary& simulation,
                                   const std::string& mechanism);

// What the risk-utility curve puts on its vertical axis.
enum class SweepMeasure {
    MeanWeight,      // information kept (utility proxy: the mean record weight)
    MeanRisk,        // mean identification risk
    HighRiskRecords  // records above the risk threshold
};
QString toString(SweepMeasure measure);

// epsilon per dataset against `measure`, one curve per mechanism of the sweep (LW first,
// then EM, then the others; the unweighted reference as a single point). Each point's hover
// names its knobs; sweepRowAt() maps a clicked point back to its row.
Expected<BuiltChart> riskUtilityCurve(const study::SweepSummary& sweep, SweepMeasure measure);
// The row behind point `index` of curve `curve` of riskUtilityCurve(), or nullptr.
const study::SweepRow* sweepRowAt(const study::SweepSummary& sweep, int curve, int index);

}  // namespace ppsynth::ui::results
