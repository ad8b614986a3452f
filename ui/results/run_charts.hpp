// The plots of a finished run (issue 6's "Plots"), built from a study::RunResult by pure
// functions: no widgets, no files, nothing shown. The results page puts them in chart cards;
// chart_files.hpp writes them to PNG and SVG for reports. Every builder returns a chart with
// a key (a file-name-safe identifier, unique within the run), a title and a one-sentence
// caption that says how to read it, or an error a person can act on.
#pragma once

#include <QString>
#include <QStringList>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/charts/plot_chart.hpp"

namespace ppsynth::ui::results {

struct BuiltChart {
    QString key;      // e.g. "violin_lipschitz", "scatter_bound_weight_LW"
    QString title;    // also the chart's own title
    QString caption;  // one sentence: how to read it
    // Drawn from record-level quantities (weights, bounds, risks, confidential y): such a
    // chart belongs only in a report marked confidential, never in a release (METHOD.md 9).
    bool recordLevel = true;
    std::unique_ptr<charts::PlotChart> chart;  // hand it to a view with release()
};

// ---- violins, one per synthesizer ----
// Delta_{alpha,x_i} per record, with Delta_{alpha,x} marked.
Expected<BuiltChart> lipschitzViolins(const study::RunResult& run);
// IR_i per record, with the mean marked.
Expected<BuiltChart> riskViolins(const study::RunResult& run);
// The pairwise risk score at_i (paper 004, METHOD.md 4.2; with several sensitive variables counted
// with the box) of the synthesizers that weight by it; an error when none does.
Expected<BuiltChart> pairwiseRiskViolins(const study::RunResult& run);
// alpha_i per record, with the mean marked.
Expected<BuiltChart> weightViolins(const study::RunResult& run);

// ---- utility (from each synthesizer's utility report) ----
// The statistics the run's utility reports compare (mean, median, quantiles), by name.
std::vector<std::string> utilityStatistics(const study::RunResult& run);
// Violins of statistic `index` of utilityStatistics(): its bootstrap distribution on the
// confidential data, then per synthesizer across the m datasets (averaged quantile
// functions), each marked at the confidential value.
Expected<BuiltChart> utilityViolins(const study::RunResult& run, std::size_t index);

// ---- scatter plots of one synthesizer (named as in the run's configuration) ----
// The charts of the run's confidential y (synthetic against confidential, weight against y and
// the two densities) draw data.target, the variable of inputs.yOriginal. In a run with several
// sensitive variables their keys name it after the kind of chart ("density_income_LW";
// variableKey()), so every variable's files are its own; runOfVariable() makes the run that
// draws another variable.
// Delta_{alpha,x_i} against alpha_i with the Delta_{alpha,x} line; for a re-weighting
// synthesizer the records of its base fit (before) and of the re-weighted fit (after).
Expected<BuiltChart> boundVsWeightScatter(const study::RunResult& run,
                                          const std::string& synthesizer);
// Synthetic y (dataset `dataset`, 0-based) against confidential y, with y = x.
Expected<BuiltChart> syntheticVsConfidentialScatter(const study::RunResult& run,
                                                    const std::string& synthesizer,
                                                    std::size_t dataset = 0);
// IR under this synthesizer against IR under the unweighted one, y = x, whack-a-mole
// records highlighted. Needs an unweighted synthesizer in the run.
Expected<BuiltChart> riskComparisonScatter(const study::RunResult& run,
                                           const std::string& synthesizer);
// alpha_i against confidential y_i.
Expected<BuiltChart> weightVsYScatter(const study::RunResult& run, const std::string& synthesizer);

// ---- y distributions ----
// Kernel densities of confidential y and of the pooled synthetic y (all m datasets).
Expected<BuiltChart> densityChart(const study::RunResult& run, const std::string& synthesizer);
// The same over the upper tail, from the confidential `tailQuantile` upwards.
Expected<BuiltChart> densityTailChart(const study::RunResult& run, const std::string& synthesizer,
                                      double tailQuantile = 0.9);

// ---- MCMC ----
// Trace plot of parameter `parameter` (a column of RunResult::parameterNames), one line per
// chain against the iteration.
Expected<BuiltChart> traceChart(const study::RunResult& run, const std::string& synthesizer,
                                std::size_t parameter);
// The parameters worth a trace plot: those with the largest R-hat first (unconverged ones
// lead), at most `count`; in parameter order when the fit has no per-parameter R-hat.
std::vector<std::size_t> traceParameters(const study::RunResult& run,
                                         const std::string& synthesizer, std::size_t count);

// The parameter (column of RunResult::parameterNames) a diagnostics quantity is about: its
// name, or "parameter k" as the sampler's diagnostics call the k-th (1-based) parameter on
// its unconstrained scale. nullopt for other quantities (e.g. the total log-likelihood).
std::optional<std::size_t> parameterIndex(const study::RunResult& run, const std::string& quantity);

// ---- everything ----
struct RunChartOptions {
    std::size_t traceParametersPerSynthesizer = 3;
    double tailQuantile = 0.9;
    // The table the run used: it holds the confidential values of a run's sensitive variables
    // after the first, so with it the charts of the confidential y are made for each of them
    // too (without it they are skipped with a note). The recipes keep a reference to it.
    std::shared_ptr<const data::Table> table;
};

struct RunCharts {
    std::vector<BuiltChart> charts;  // in display order
    QStringList skipped;             // charts that do not apply to this run, with the reason
};

// Every chart the run supports: the violins, then per synthesizer its scatter plots,
// densities and trace plots; in a run with several sensitive variables then, for each
// variable after the first, its charts of the confidential y per synthesizer.
RunCharts buildRunCharts(const study::RunResult& run, const RunChartOptions& options = {});

// The same charts as recipes, to build one at a time (e.g. one per event-loop pass so the
// window stays responsive). The recipes refer to `run`, which must outlive them. Build each
// once and in order: that is what keeps the keys unique when two names share a key part.
struct ChartRecipe {
    QString what;  // names the chart in a "skipped" note
    std::function<Expected<BuiltChart>()> build;
};
std::vector<ChartRecipe> runChartRecipes(const study::RunResult& run,
                                         const RunChartOptions& options = {});

// A key part made of a name: ASCII letters, digits, '-' and '_' kept, each run of other
// characters one '_', none at the end.
QString keyPart(const std::string& name);

}  // namespace ppsynth::ui::results
