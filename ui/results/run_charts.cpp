#include "ui/results/run_charts.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <set>

#include "ppsynth/utility/kde.hpp"
#include "ui/charts/density_chart.hpp"
#include "ui/charts/line_chart.hpp"
#include "ui/charts/scatter_chart.hpp"
#include "ui/charts/violin_chart.hpp"
#include "ui/results/joint_utility_charts.hpp"
#include "ui/results/run_variables.hpp"
#include "ui/results/variable_charts.hpp"

namespace ppsynth::ui::results {

namespace {

using study::RunResult;
using study::SynthesizerResult;

QString qRunCharts(const std::string& s) {
    return QString::fromStdString(s);
}

QString targetName(const RunResult& run) {
    return run.config.data.target.empty() ? QStringLiteral("y")
                                          : qRunCharts(run.config.data.target);
}

Expected<const SynthesizerResult*> findSynthesizer(const RunResult& run, const std::string& name) {
    if (const auto* s = run.find(name)) return s;
    std::string known;
    for (const auto& s : run.synthesizers) known += (known.empty() ? "" : ", ") + s.name;
    return Error{"the run has no synthesizer '" + name + "' (it has " +
                 (known.empty() ? std::string("none") : known) + ")"};
}

BuiltChart make(QString key, QString title, QString caption, bool recordLevel,
                std::unique_ptr<charts::PlotChart> chart) {
    chart->setTitle(title);
    return {std::move(key), std::move(title), std::move(caption), recordLevel, std::move(chart)};
}

// One violin per synthesizer of a record-level vector; `mark` gives the marked value. With
// `logWhenSpread`, values whose positive part spans two orders of magnitude or more (over
// all synthesizers: one axis) are drawn on a log scale.
template <typename Values, typename Mark>
Expected<BuiltChart> violinsOf(const RunResult& run, Values values, Mark mark,
                               const QString& markLabel, const QString& valueTitle,
                               const utility::KdeOptions& kde, QString key, QString title,
                               QString caption, bool logWhenSpread = false) {
    if (run.synthesizers.empty()) return Error{"the run has no synthesizers to plot"};
    std::vector<std::vector<double>> all;
    std::vector<double> pooled;
    for (const auto& s : run.synthesizers) {
        all.push_back(values(s));
        pooled.insert(pooled.end(), all.back().begin(), all.back().end());
    }
    const bool log = logWhenSpread && utility::spansOrdersOfMagnitude(pooled);
    if (log)
        caption += QStringLiteral(
            " The value axis is logarithmic because the values span orders of magnitude.");
    std::vector<charts::Violin> violins;
    for (std::size_t k = 0; k < run.synthesizers.size(); ++k) {
        const auto& s = run.synthesizers[k];
        const std::vector<double>& v = all[k];
        if (v.empty()) {
            return Error{"synthesizer '" + s.name + "' has no values for '" +
                         valueTitle.toStdString() + "'"};
        }
        // A synthesizer whose values are all 0 (none positive) keeps the linear scale's
        // violin; the chart then stays linear.
        const bool anyPositive = std::any_of(v.begin(), v.end(), [](double x) { return x > 0; });
        auto summary =
            log && anyPositive ? utility::logViolinSummary(v, kde) : utility::violinSummary(v, kde);
        if (!summary) {
            return Error{"synthesizer '" + s.name + "', " + valueTitle.toStdString() + ": " +
                         summary.message()};
        }
        violins.push_back({qRunCharts(s.name), std::move(*summary), mark(s), markLabel});
    }
    auto chart = std::make_unique<charts::ViolinChart>();
    chart->setValueTitle(valueTitle);
    chart->setViolins(std::move(violins));
    return make(std::move(key), std::move(title), std::move(caption), true, std::move(chart));
}

std::vector<double> toStd(const Eigen::VectorXd& v) {
    return {v.data(), v.data() + v.size()};
}

utility::KdeOptions unitInterval() {
    utility::KdeOptions o;
    o.lower = 0.0;
    o.upper = 1.0;
    return o;
}

QList<QPointF> zipPoints(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
    QList<QPointF> pts;
    const Eigen::Index n = std::min(x.size(), y.size());
    pts.reserve(n);
    for (Eigen::Index i = 0; i < n; ++i) pts.append(QPointF(x[i], y[i]));
    return pts;
}

QList<QPointF> zipPoints(const Eigen::VectorXd& x, const std::vector<double>& y) {
    QList<QPointF> pts;
    const auto n = std::min<std::size_t>(static_cast<std::size_t>(x.size()), y.size());
    pts.reserve(static_cast<qsizetype>(n));
    for (std::size_t i = 0; i < n; ++i) pts.append(QPointF(x[static_cast<Eigen::Index>(i)], y[i]));
    return pts;
}

// The key of a chart of the confidential y under synthesizer `s`: `kind` and the synthesizer,
// with data.target between them in a run with several sensitive variables.
QString confidentialYKey(const RunResult& run, const QString& kind, const SynthesizerResult& s) {
    if (!severalTargets(run)) return kind + keyPart(s.name);
    return kind + variableKey(run, run.config.data.target) + QLatin1Char('_') + keyPart(s.name);
}

Status sameRecords(const RunResult& run, const SynthesizerResult& s, std::size_t size,
                   const char* what) {
    const auto n = static_cast<std::size_t>(run.inputs.yOriginal.size());
    if (size != n) {
        return Error{"synthesizer '" + s.name + "': " + what + " covers " + std::to_string(size) +
                     " records, the data " + std::to_string(n)};
    }
    return {};
}

Expected<utility::DensityComparison> densities(const RunResult& run, const SynthesizerResult& s,
                                               std::optional<double> tailQuantile) {
    if (s.synthetic.empty()) return Error{"synthesizer '" + s.name + "' has no synthetic datasets"};
    std::vector<double> pooled;
    // Several sensitive variables: the first one's values (those of run.inputs.yOriginal).
    for (const auto& d : s.synthetic) {
        const auto first = firstVariable(run, d);
        pooled.insert(pooled.end(), first.begin(), first.end());
    }
    const auto y = toStd(run.inputs.yOriginal);
    if (y.empty()) return Error{"the run holds no confidential values of the target"};
    auto c = utility::compareDensities(y, pooled, {}, tailQuantile);
    if (!c) return c.error().prefixed("synthesizer '" + s.name + "', densities: ");
    return c;
}

// `key`, or `key` with the first free suffix "_2", "_3", ...; recorded in `taken`.
QString unusedChartKey(std::set<QString>& taken, const QString& key) {
    QString out = key;
    for (int k = 2; taken.contains(out); ++k) out = key + QStringLiteral("_%1").arg(k);
    taken.insert(out);
    return out;
}

}  // namespace

std::optional<std::size_t> parameterIndex(const RunResult& run, const std::string& quantity) {
    for (std::size_t j = 0; j < run.parameterNames.size(); ++j)
        if (quantity == run.parameterNames[j]) return j;
    const std::string prefix = "parameter ";
    if (quantity.rfind(prefix, 0) != 0) return std::nullopt;
    const std::string digits = quantity.substr(prefix.size());
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const auto k = static_cast<std::size_t>(std::stoul(digits));
    if (k < 1 || k > run.parameterNames.size()) return std::nullopt;
    return k - 1;
}

QString keyPart(const std::string& name) {
    // Runs of other characters become one '_' ("beta[(Intercept)]" -> "beta_Intercept").
    QString out;
    for (const QChar ch : qRunCharts(name)) {
        const bool keep = (ch.isLetterOrNumber() && ch.unicode() < 128) || ch == QLatin1Char('-') ||
                          ch == QLatin1Char('_');
        if (keep) {
            out += ch;
        } else if (!out.endsWith(QLatin1Char('_'))) {
            out += QLatin1Char('_');
        }
    }
    while (out.size() > 1 && out.endsWith(QLatin1Char('_'))) out.chop(1);
    return out.isEmpty() ? QStringLiteral("_") : out;
}

Expected<BuiltChart> lipschitzViolins(const RunResult& run) {
    return violinsOf(
        run, [](const SynthesizerResult& s) { return toStd(s.records.recordDelta); },
        [](const SynthesizerResult& s) { return std::optional<double>(s.deltaAlphaX); },
        QStringLiteral("Δ(α,x) (the bound)"), QStringLiteral("Record bound Δ(α,xᵢ)"), {},
        QStringLiteral("violin_lipschitz"), QStringLiteral("By-record Lipschitz bounds"),
        QStringLiteral("Each violin shows how the records' sensitivity bounds are spread under "
                       "one synthesizer; the dashed line is its largest bound Δ(α,x), and "
                       "ε = 2 Δ(α,x) per released dataset, so lower lines mean more privacy."),
        true);
}

Expected<BuiltChart> riskViolins(const RunResult& run) {
    return violinsOf(
        run, [](const SynthesizerResult& s) { return s.records.ir; },
        [](const SynthesizerResult& s) { return std::optional<double>(s.irSummary.mean); },
        QStringLiteral("mean"), QStringLiteral("Identification risk IRᵢ"), unitInterval(),
        QStringLiteral("violin_risk"), QStringLiteral("Identification risk by record"),
        QStringLiteral("Each violin shows how the records' identification risks are spread "
                       "under one synthesizer (0 = not identifiable, 1 = certainly); the dashed "
                       "line is the mean risk, and mass near the top is the records to worry "
                       "about.%1")
            .arg(severalTargets(run)
                     ? QStringLiteral(" A synthetic record is close to a true one %1.")
                           .arg(closenessPhrase(run))
                     : QString()));
}

Expected<BuiltChart> pairwiseRiskViolins(const RunResult& run) {
    std::vector<charts::Violin> violins;
    for (const auto& s : run.synthesizers) {
        if (s.records.pairwiseWeight.empty()) continue;
        auto summary = utility::violinSummary(s.records.pairwiseWeight, unitInterval());
        if (!summary)
            return Error{"synthesizer '" + s.name + "', pairwise risk: " + summary.message()};
        violins.push_back({qRunCharts(s.name), std::move(*summary), std::nullopt, QString()});
    }
    if (violins.empty()) return Error{"no synthesizer of this run weights by the pairwise risk"};
    auto chart = std::make_unique<charts::ViolinChart>();
    chart->setValueTitle(QStringLiteral("Pairwise score atᵢ"));
    chart->setViolins(std::move(violins));
    return make(
        QStringLiteral("violin_pairwise_risk"), QStringLiteral("Pairwise risk score atᵢ by record"),
        QStringLiteral("Each violin shows the records' pairwise score atᵢ under a pairwise "
                       "synthesizer's risk source: the mean over the other records of its "
                       "pattern of 1 − IRᵢⱼ, IRᵢⱼ the risk of the pair; near 1 is safe, and "
                       "the weights are c atᵢ + g.%1")
            .arg(severalTargets(run)
                     ? QStringLiteral(" Closeness is the box: %1.").arg(closenessPhrase(run))
                     : QString()),
        true, std::move(chart));
}

Expected<BuiltChart> weightViolins(const RunResult& run) {
    return violinsOf(
        run, [](const SynthesizerResult& s) { return toStd(s.records.alpha); },
        [](const SynthesizerResult& s) { return std::optional<double>(s.weights.mean); },
        QStringLiteral("mean"), QStringLiteral("Weight αᵢ"), unitInterval(),
        QStringLiteral("violin_weights"), QStringLiteral("Record weights"),
        QStringLiteral("Each violin shows the weights a synthesizer gives the records (1 = "
                       "used fully, 0 = left out); the more weight stays near 1, the more of "
                       "the data's information the synthetic data keeps; a flat line is a "
                       "synthesizer that gives every record the same weight."),
        true);
}

std::vector<std::string> utilityStatistics(const RunResult& run) {
    for (const auto& s : run.synthesizers) {
        if (!s.utility) continue;
        std::vector<std::string> names;
        for (const auto& st : s.utility->statistics) names.push_back(st.name);
        return names;
    }
    return {};
}

Expected<BuiltChart> utilityViolins(const RunResult& run, std::size_t index) {
    const auto names = utilityStatistics(run);
    if (names.empty()) {
        std::string why = "the run has no utility report";
        for (const auto& s : run.synthesizers)
            if (!s.utilityError.empty()) why += " (" + s.name + ": " + s.utilityError + ")";
        if (!run.config.utility.enabled) why += " (the configuration's utility block is off)";
        return Error{why};
    }
    if (index >= names.size())
        return Error{"the utility report has no statistic number " + std::to_string(index + 1)};
    const std::string& name = names[index];
    std::vector<charts::Violin> violins;
    std::optional<double> confidential;
    for (const auto& s : run.synthesizers) {
        if (!s.utility || index >= s.utility->statistics.size() ||
            s.utility->statistics[index].name != name)
            continue;
        const auto& st = s.utility->statistics[index];
        if (violins.empty()) {
            // Every report of a run draws the same confidential bootstrap (one seed per run),
            // so the first report's distribution stands for the data.
            confidential = st.original.estimate;
            auto summary = utility::violinSummary(st.originalQuantiles);
            if (!summary) return summary.error().prefixed("confidential " + name + ": ");
            violins.push_back({QStringLiteral("Confidential"), std::move(*summary), confidential,
                               QStringLiteral("confidential value")});
        }
        auto summary = utility::violinSummary(st.syntheticQuantiles);
        if (!summary)
            return summary.error().prefixed("synthesizer '" + s.name + "', " + name + ": ");
        violins.push_back({qRunCharts(s.name), std::move(*summary), confidential,
                           QStringLiteral("confidential value")});
    }
    auto chart = std::make_unique<charts::ViolinChart>();
    const QString statistic = qRunCharts(name);
    chart->setValueTitle(QStringLiteral("%1 of %2").arg(statistic, targetName(run)));
    chart->setViolins(std::move(violins));
    // Several sensitive variables: each variable's violins have files of their own (named
    // by the variable the reports measure).
    std::string measured = run.config.data.target;
    for (const auto& s : run.synthesizers)
        if (s.utility && !s.utility->target.empty()) {
            measured = s.utility->target;
            break;
        }
    const QString key =
        severalTargets(run)
            ? QStringLiteral("violin_utility_%1_%2").arg(variableKey(run, measured), keyPart(name))
            : QStringLiteral("violin_utility_") + keyPart(name);
    return make(key, QStringLiteral("Utility: the %1 of %2").arg(statistic, targetName(run)),
                QStringLiteral("The first violin is how precisely the confidential data know the "
                               "%1 (bootstrap), the others what the synthetic datasets say; a "
                               "synthesizer is useful when its violin sits on the dashed "
                               "confidential value and overlaps the first.")
                    .arg(statistic),
                false, std::move(chart));
}

Expected<BuiltChart> boundVsWeightScatter(const RunResult& run, const std::string& synthesizer) {
    auto found = findSynthesizer(run, synthesizer);
    if (!found) return found.error();
    const SynthesizerResult& s = **found;
    if (auto st =
            sameRecords(run, s, static_cast<std::size_t>(s.records.alpha.size()), "the weights");
        !st)
        return st.error();
    auto chart = std::make_unique<charts::ScatterChart>();
    chart->setAxisTitles(QStringLiteral("Weight αᵢ"), QStringLiteral("Record bound Δ(α,xᵢ)"));
    const QString delta = QStringLiteral("Δ(α,x) = %1").arg(charts::formatValue(s.deltaAlphaX));
    chart->setHorizontalLine(s.deltaAlphaX, delta);
    const SynthesizerResult* base =
        s.scheme == study::Scheme::Reweight ? [&]() -> const SynthesizerResult* {
        const auto* cfg = run.config.find(s.name);
        return cfg ? run.find(cfg->base) : nullptr;
    }()
        : nullptr;
    QString caption;
    if (base && base->records.alpha.size() == s.records.alpha.size()) {
        chart->setPoints(zipPoints(base->records.alpha, base->records.recordDelta),
                         QStringLiteral("before re-weighting (%1)").arg(qRunCharts(base->name)));
        chart->setOverlayPoints(
            zipPoints(s.records.alpha, s.records.recordDelta),
            QStringLiteral("after re-weighting (k = %1)")
                .arg(charts::formatValue(s.reweight() ? s.reweight()->k : 0.0)));
        caption = QStringLiteral(
                      "Each point is a record: re-weighting moves weights up (to the right) "
                      "while no record's bound may pass the dashed line Δ(α,x) of %1, so the "
                      "privacy guarantee stays and more information is kept.")
                      .arg(qRunCharts(base->name));
    } else {
        chart->setPoints(zipPoints(s.records.alpha, s.records.recordDelta));
        caption = QStringLiteral(
            "Each point is a record: its weight and its bound under this synthesizer; the "
            "dashed line is the largest bound Δ(α,x), and records near it set the privacy "
            "guarantee ε = 2 Δ(α,x).");
    }
    return make(QStringLiteral("scatter_bound_weight_") + keyPart(s.name),
                QStringLiteral("Bound against weight: %1").arg(qRunCharts(s.name)), caption, true,
                std::move(chart));
}

Expected<BuiltChart> syntheticVsConfidentialScatter(const RunResult& run,
                                                    const std::string& synthesizer,
                                                    std::size_t dataset) {
    auto found = findSynthesizer(run, synthesizer);
    if (!found) return found.error();
    const SynthesizerResult& s = **found;
    if (dataset >= s.synthetic.size()) {
        return Error{"synthesizer '" + s.name + "' has " + std::to_string(s.synthetic.size()) +
                     " synthetic datasets; dataset " + std::to_string(dataset + 1) +
                     " does not exist"};
    }
    const auto values = firstVariable(run, s.synthetic[dataset]);
    if (auto st = sameRecords(run, s, values.size(), "the synthetic dataset"); !st)
        return st.error();
    const QString y = targetName(run);
    auto chart = std::make_unique<charts::ScatterChart>();
    chart->setAxisTitles(QStringLiteral("Confidential %1").arg(y),
                         QStringLiteral("Synthetic %1").arg(y));
    chart->setIdentityLine(true);
    chart->setPoints(zipPoints(run.inputs.yOriginal, values));
    return make(confidentialYKey(run, QStringLiteral("scatter_synthetic_confidential_"), s),
                QStringLiteral("Synthetic against confidential %1: %2 (dataset %3)")
                    .arg(y, qRunCharts(s.name))
                    .arg(dataset + 1),
                QStringLiteral("Each point is a record: points on the dashed line y = x got back "
                               "their own value (what an intruder hopes for), points far from it "
                               "were replaced by something else."),
                true, std::move(chart));
}

Expected<BuiltChart> riskComparisonScatter(const RunResult& run, const std::string& synthesizer) {
    auto found = findSynthesizer(run, synthesizer);
    if (!found) return found.error();
    const SynthesizerResult& s = **found;
    const SynthesizerResult* base = nullptr;
    for (const auto& o : run.synthesizers)
        if (o.scheme == study::Scheme::Unweighted) base = &o;
    if (!base) return Error{"the run has no unweighted synthesizer to compare risks against"};
    if (base == &s) return Error{"'" + s.name + "' is the unweighted synthesizer itself"};
    if (s.records.ir.size() != base->records.ir.size() || s.records.ir.empty())
        return Error{"synthesizer '" + s.name + "' has no identification risks to compare"};
    QList<QPointF> pts;
    pts.reserve(static_cast<qsizetype>(s.records.ir.size()));
    for (std::size_t i = 0; i < s.records.ir.size(); ++i)
        pts.append(QPointF(base->records.ir[i], s.records.ir[i]));
    auto chart = std::make_unique<charts::ScatterChart>();
    chart->setAxisTitles(QStringLiteral("IRᵢ under %1").arg(qRunCharts(base->name)),
                         QStringLiteral("IRᵢ under %1").arg(qRunCharts(s.name)));
    chart->setIdentityLine(true);
    chart->setPoints(std::move(pts));
    std::vector<qsizetype> moles(s.records.whackAMole.begin(), s.records.whackAMole.end());
    chart->setHighlighted(std::move(moles),
                          QStringLiteral("whack-a-mole (rise > %1)")
                              .arg(charts::formatValue(run.config.risk.whackAMoleRise)));
    return make(
        QStringLiteral("scatter_risk_") + keyPart(s.name),
        QStringLiteral("Risk under %1 against %2").arg(qRunCharts(s.name), qRunCharts(base->name)),
        QStringLiteral("Each point is a record: below the dashed line y = x the weighting "
                       "lowered its risk, above it raised it; highlighted records are the "
                       "whack-a-mole cases whose risk rose by more than %1.")
            .arg(charts::formatValue(run.config.risk.whackAMoleRise)),
        true, std::move(chart));
}

Expected<BuiltChart> weightVsYScatter(const RunResult& run, const std::string& synthesizer) {
    auto found = findSynthesizer(run, synthesizer);
    if (!found) return found.error();
    const SynthesizerResult& s = **found;
    if (auto st =
            sameRecords(run, s, static_cast<std::size_t>(s.records.alpha.size()), "the weights");
        !st)
        return st.error();
    const QString y = targetName(run);
    auto chart = std::make_unique<charts::ScatterChart>();
    chart->setAxisTitles(QStringLiteral("Confidential %1").arg(y), QStringLiteral("Weight αᵢ"));
    chart->setPoints(zipPoints(run.inputs.yOriginal, s.records.alpha));
    return make(confidentialYKey(run, QStringLiteral("scatter_weight_y_"), s),
                QStringLiteral("Weight against %1: %2").arg(y, qRunCharts(s.name)),
                QStringLiteral("Each point is a record: low weights mark the values the "
                               "synthesizer treats as risky (usually the extremes of %1), which "
                               "is where the synthetic data lose detail.")
                    .arg(y),
                true, std::move(chart));
}

Expected<BuiltChart> densityChart(const RunResult& run, const std::string& synthesizer) {
    auto found = findSynthesizer(run, synthesizer);
    if (!found) return found.error();
    const SynthesizerResult& s = **found;
    auto c = densities(run, s, std::nullopt);
    if (!c) return c.error();
    const QString y = targetName(run);
    auto chart = std::make_unique<charts::DensityChart>();
    chart->setValueTitle(y);
    chart->setCurves({{QStringLiteral("Confidential"), c->confidential, Qt::SolidLine},
                      {QStringLiteral("Synthetic (%1 datasets pooled)").arg(s.synthetic.size()),
                       c->synthetic, Qt::DashLine}});
    return make(confidentialYKey(run, QStringLiteral("density_"), s),
                QStringLiteral("Distribution of %1: %2").arg(y, qRunCharts(s.name)),
                QStringLiteral("The solid curve is the confidential %1, the dashed one the "
                               "synthetic; where they part, the synthetic data misrepresent "
                               "those values.")
                    .arg(y),
                true, std::move(chart));
}

Expected<BuiltChart> densityTailChart(const RunResult& run, const std::string& synthesizer,
                                      double tailQuantile) {
    if (!(tailQuantile > 0 && tailQuantile < 1))
        return Error{"the tail quantile must lie between 0 and 1"};
    auto found = findSynthesizer(run, synthesizer);
    if (!found) return found.error();
    const SynthesizerResult& s = **found;
    auto c = densities(run, s, tailQuantile);
    if (!c) return c.error();
    if (!c->confidentialTail || !c->syntheticTail)
        return Error{"synthesizer '" + s.name + "': the upper tail has no spread to plot"};
    const QString y = targetName(run);
    auto chart = std::make_unique<charts::DensityChart>();
    chart->setValueTitle(
        QStringLiteral("%1 above its %2 quantile").arg(y, charts::formatValue(tailQuantile)));
    chart->setCurves({{QStringLiteral("Confidential"), *c->confidentialTail, Qt::SolidLine},
                      {QStringLiteral("Synthetic"), *c->syntheticTail, Qt::DashLine}});
    return make(confidentialYKey(run, QStringLiteral("density_tail_"), s),
                QStringLiteral("Upper tail of %1: %2").arg(y, qRunCharts(s.name)),
                QStringLiteral("The same densities over the largest %1% of the confidential "
                               "values, where the risky records live and where weighting "
                               "changes the synthetic data most.")
                    .arg(charts::formatValue(100 * (1 - tailQuantile))),
                true, std::move(chart));
}

Expected<BuiltChart> traceChart(const RunResult& run, const std::string& synthesizer,
                                std::size_t parameter) {
    auto found = findSynthesizer(run, synthesizer);
    if (!found) return found.error();
    const SynthesizerResult& s = **found;
    if (parameter >= run.parameterNames.size() ||
        static_cast<Eigen::Index>(parameter) >= s.draws.cols()) {
        return Error{"synthesizer '" + s.name + "' has no parameter number " +
                     std::to_string(parameter + 1)};
    }
    const int chains = std::max(1, run.config.mcmc.chains);
    const Eigen::Index perChain = s.draws.rows() / chains;
    if (perChain < 2) return Error{"synthesizer '" + s.name + "' kept too few draws to trace"};
    std::vector<charts::Line> lines;
    const auto col = static_cast<Eigen::Index>(parameter);
    for (int c = 0; c < chains; ++c) {
        charts::Line line{QStringLiteral("chain %1").arg(c + 1), {}};
        line.points.reserve(perChain);
        for (Eigen::Index k = 0; k < perChain; ++k)
            line.points.append(QPointF(static_cast<double>(k + 1), s.draws(c * perChain + k, col)));
        lines.push_back(std::move(line));
    }
    const QString name = qRunCharts(run.parameterNames[parameter]);
    auto chart = std::make_unique<charts::LineChart>();
    chart->setAxisTitles(QStringLiteral("Iteration after warm-up"), name);
    chart->setLines(lines);
    return make(QStringLiteral("trace_") + keyPart(s.name) + QLatin1Char('_') +
                    keyPart(run.parameterNames[parameter]),
                QStringLiteral("Trace of %1: %2").arg(name, qRunCharts(s.name)),
                QStringLiteral("One line per chain: well-mixed chains overlap as one band with "
                               "no trend; a chain that stays apart or drifts means the sampler "
                               "has not converged and the results are not yet reliable."),
                false, std::move(chart));
}

std::vector<std::size_t> traceParameters(const RunResult& run, const std::string& synthesizer,
                                         std::size_t count) {
    const auto* s = run.find(synthesizer);
    const std::size_t d = s ? std::min<std::size_t>(run.parameterNames.size(),
                                                    static_cast<std::size_t>(s->draws.cols()))
                            : 0;
    std::vector<std::size_t> idx(d);
    std::iota(idx.begin(), idx.end(), 0);
    std::vector<double> rhat(d, -1.0);
    if (s) {
        // R-hat is rank-based, so that of the sampler's (unconstrained) parameter holds for
        // the constrained one traced here.
        for (const auto& qd : s->diagnostics.quantities) {
            const auto j = parameterIndex(run, qd.name);
            if (j && *j < d && std::isfinite(qd.summary.rhat)) rhat[*j] = qd.summary.rhat;
        }
    }
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::size_t a, std::size_t b) { return rhat[a] > rhat[b]; });
    idx.resize(std::min(count, d));
    return idx;
}

std::vector<ChartRecipe> runChartRecipes(const RunResult& run, const RunChartOptions& options) {
    std::vector<ChartRecipe> out;
    const RunResult* r = &run;
    auto add = [&out](QString what, std::function<Expected<BuiltChart>()> build) {
        out.push_back({std::move(what), std::move(build)});
    };
    add(QStringLiteral("Lipschitz bound violins"), [r] { return lipschitzViolins(*r); });
    add(QStringLiteral("Identification risk violins"), [r] { return riskViolins(*r); });
    add(QStringLiteral("Weight violins"), [r] { return weightViolins(*r); });
    const auto statistics = utilityStatistics(run);
    if (severalTargets(run)) {
        // Every variable's utility, then the joint charts.
        for (auto& recipe : severalUtilityRecipes(run)) out.push_back(std::move(recipe));
    } else {
        for (std::size_t k = 0; k < statistics.size(); ++k)
            add(QStringLiteral("Utility violins, ") + qRunCharts(statistics[k]),
                [r, k] { return utilityViolins(*r, k); });
        if (statistics.empty())
            add(QStringLiteral("Utility violins"), [r] { return utilityViolins(*r, 0); });
    }
    for (const auto& s : run.synthesizers) {
        const QString n = qRunCharts(s.name);
        const std::string name = s.name;
        add(n + QStringLiteral(", bound against weight"),
            [r, name] { return boundVsWeightScatter(*r, name); });
        if (s.scheme != study::Scheme::Unweighted)
            add(n + QStringLiteral(", risk comparison"),
                [r, name] { return riskComparisonScatter(*r, name); });
        add(n + QStringLiteral(", synthetic against confidential"),
            [r, name] { return syntheticVsConfidentialScatter(*r, name); });
        add(n + QStringLiteral(", weight against y"),
            [r, name] { return weightVsYScatter(*r, name); });
        add(n + QStringLiteral(", density"), [r, name] { return densityChart(*r, name); });
        const double tail = options.tailQuantile;
        add(n + QStringLiteral(", tail density"),
            [r, name, tail] { return densityTailChart(*r, name, tail); });
        for (std::size_t p : traceParameters(run, s.name, options.traceParametersPerSynthesizer))
            add(n + QStringLiteral(", trace"), [r, name, p] { return traceChart(*r, name, p); });
    }
    // Several sensitive variables: the others' charts of the confidential y.
    for (auto& recipe : otherVariableRecipes(run, options)) out.push_back(std::move(recipe));
    // Names that differ only in what keyPart() drops ("LW 1" and "LW_1", "beta[x 1]" and
    // "beta[x_1]") would give two charts one file and one report figure: a key an earlier
    // chart of this run already has gets "_2", "_3", ... (the recipes are built once, in order).
    auto taken = std::make_shared<std::set<QString>>();
    for (auto& recipe : out) {
        recipe.build = [build = std::move(recipe.build), taken]() -> Expected<BuiltChart> {
            auto chart = build();
            if (chart) chart->key = unusedChartKey(*taken, chart->key);
            return chart;
        };
    }
    return out;
}

RunCharts buildRunCharts(const RunResult& run, const RunChartOptions& options) {
    RunCharts out;
    for (const ChartRecipe& recipe : runChartRecipes(run, options)) {
        auto c = recipe.build();
        if (c) {
            out.charts.push_back(std::move(*c));
        } else {
            out.skipped << QStringLiteral("%1: %2").arg(recipe.what, qRunCharts(c.message()));
        }
    }
    return out;
}

}  // namespace ppsynth::ui::results
