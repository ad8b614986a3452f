#include "ui/results/study_charts.hpp"

#include <algorithm>
#include <map>

#include "ppsynth/utility/kde.hpp"
#include "ui/charts/curve_chart.hpp"
#include "ui/charts/line_chart.hpp"
#include "ui/charts/violin_chart.hpp"

namespace ppsynth::ui::results {

namespace {

QString qStudyCharts(const std::string& s) {
    return QString::fromStdString(s);
}

QString sizeLabel(std::size_t n) {
    return QStringLiteral("n = %1").arg(n);
}

// Mechanisms in the order the curves are drawn: LW first, then EM, then the rest as met.
std::vector<std::string> curveOrder(const study::SweepSummary& sweep) {
    std::vector<std::string> names;
    for (const char* first : {"LW", "EM"}) {
        for (const auto& r : sweep.rows) {
            if (r.mechanism == first) {
                names.push_back(first);
                break;
            }
        }
    }
    for (const auto& r : sweep.rows)
        if (std::find(names.begin(), names.end(), r.mechanism) == names.end())
            names.push_back(r.mechanism);
    return names;
}

std::vector<const study::SweepRow*> rowsOf(const study::SweepSummary& sweep,
                                           const std::string& mechanism) {
    std::vector<const study::SweepRow*> rows;
    for (const auto& r : sweep.rows)
        if (r.mechanism == mechanism) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto* a, const auto* b) { return a->epsilon < b->epsilon; });
    return rows;
}

double measureOf(const study::SweepRow& r, SweepMeasure m) {
    switch (m) {
        case SweepMeasure::MeanWeight:
            return r.weights.mean;
        case SweepMeasure::MeanRisk:
            return r.ir.mean;
        case SweepMeasure::HighRiskRecords:
            return static_cast<double>(r.ir.aboveThreshold);
    }
    return 0;
}

QString knobs(const study::SweepRow& r) {
    if (r.point == 0) return QStringLiteral("unweighted reference");
    QString s = QStringLiteral("point %1: c = %2, g = %3")
                    .arg(r.point)
                    .arg(charts::formatValue(r.knobs.c), charts::formatValue(r.knobs.g));
    if (r.knobs.M) s += QStringLiteral(", M = %1").arg(charts::formatValue(*r.knobs.M));
    if (r.mechanism == "LW_final") s += QStringLiteral(", k = %1").arg(charts::formatValue(r.k));
    if (r.mechanism == "EM")
        s += QStringLiteral(", a = %1").arg(charts::formatValue(r.scalarWeight));
    if (r.knobs.r) s += QStringLiteral(", r = %1").arg(charts::formatValue(*r.knobs.r));
    return s;
}

}  // namespace

QString toString(SweepMeasure measure) {
    switch (measure) {
        case SweepMeasure::MeanWeight:
            return QStringLiteral("Mean weight (information kept)");
        case SweepMeasure::MeanRisk:
            return QStringLiteral("Mean identification risk");
        case SweepMeasure::HighRiskRecords:
            return QStringLiteral("Records above the risk threshold");
    }
    return {};
}

Expected<BuiltChart> contractionViolins(const study::SimulateSummary& sim,
                                        const std::string& mechanism) {
    std::map<std::size_t, std::vector<double>> local;
    for (const auto& r : sim.replicates)
        if (r.mechanism == mechanism) local[r.n].push_back(2 * r.delta);
    if (local.empty())
        return Error{"the simulation has no replicates of mechanism '" + mechanism + "'"};
    std::vector<charts::Violin> violins;
    for (const auto& [n, values] : local) {
        auto summary = utility::violinSummary(values);
        if (!summary) return summary.error().prefixed("n = " + std::to_string(n) + ": ");
        std::optional<double> mark;
        for (const auto& d : sim.distributions)
            if (d.n == n && d.mechanism == mechanism) mark = d.recommended.epsilonHigh;
        violins.push_back(
            {sizeLabel(n), std::move(*summary), mark, QStringLiteral("recommended global ε")});
    }
    auto chart = std::make_unique<charts::ViolinChart>();
    chart->setValueTitle(QStringLiteral("Local ε = 2 Δ(α,x)"));
    chart->setViolins(std::move(violins));
    const QString title = QStringLiteral("Local to global: %1").arg(qStudyCharts(mechanism));
    chart->setTitle(title);
    return BuiltChart{QStringLiteral("contraction_") + keyPart(mechanism), title,
                      QStringLiteral("Each violin shows the local ε of %1 simulated databases "
                                     "of one size; the dashed line is the global ε recommended "
                                     "from a typical (median) database with the safety factor, "
                                     "and the part of a violin above it is the δ risked.")
                          .arg(sim.config.replicates),
                      false, std::move(chart)};
}

Expected<BuiltChart> deltaHatChart(const study::SimulateSummary& sim,
                                   const std::string& mechanism) {
    const auto eps = sim.config.epsilons();
    std::vector<charts::Line> lines;
    for (const auto& d : sim.distributions) {
        if (d.mechanism != mechanism) continue;
        charts::Line line{sizeLabel(d.n), {}};
        for (std::size_t k = 0; k < eps.size() && k < d.deltaHat.size(); ++k)
            line.points.append(QPointF(eps[k], d.deltaHat[k]));
        lines.push_back(std::move(line));
    }
    if (lines.empty())
        return Error{"the simulation has no distribution of mechanism '" + mechanism + "'"};
    auto chart = std::make_unique<charts::LineChart>();
    chart->setAxisTitles(QStringLiteral("ε"), QStringLiteral("δ̂(ε)"));
    chart->setLines(lines, 2.0);
    const QString title = QStringLiteral("Estimated δ: %1").arg(qStudyCharts(mechanism));
    chart->setTitle(title);
    return BuiltChart{QStringLiteral("delta_hat_") + keyPart(mechanism), title,
                      QStringLiteral("For a global ε on the horizontal axis, each line gives the "
                                     "share of databases of that size whose local ε exceeds it, "
                                     "the δ of an (ε, δ) guarantee."),
                      false, std::move(chart)};
}

Expected<BuiltChart> riskUtilityCurve(const study::SweepSummary& sweep, SweepMeasure measure) {
    if (sweep.rows.empty()) return Error{"the sweep has no results yet"};
    std::vector<charts::Curve> curves;
    for (const auto& mech : curveOrder(sweep)) {
        charts::Curve curve{qStudyCharts(mech), {}};
        for (const auto* r : rowsOf(sweep, mech))
            curve.points.push_back({r->epsilon, measureOf(*r, measure), knobs(*r)});
        curves.push_back(std::move(curve));
    }
    auto chart = std::make_unique<charts::CurveChart>();
    chart->setAxisTitles(QStringLiteral("ε per dataset"), toString(measure));
    chart->setCurves(std::move(curves));
    const QString title = QStringLiteral("Risk and utility against ε");
    chart->setTitle(title);
    const bool utilityUp = measure == SweepMeasure::MeanWeight;
    return BuiltChart{QStringLiteral("risk_utility_") +
                          keyPart(toString(measure).section(QLatin1Char(' '), 0, 1).toStdString()),
                      title,
                      utilityUp ? QStringLiteral("Each point is one setting of the knobs: moving "
                                                 "right costs privacy (larger ε) and buys "
                                                 "information; click a point to open that "
                                                 "setting.")
                                : QStringLiteral("Each point is one setting of the knobs: a "
                                                 "lower point at the same ε is a safer "
                                                 "synthesizer; click a point to open that "
                                                 "setting."),
                      false, std::move(chart)};
}

const study::SweepRow* sweepRowAt(const study::SweepSummary& sweep, int curve, int index) {
    const auto order = curveOrder(sweep);
    if (curve < 0 || curve >= static_cast<int>(order.size()) || index < 0) return nullptr;
    const auto rows = rowsOf(sweep, order[static_cast<std::size_t>(curve)]);
    return index < static_cast<int>(rows.size()) ? rows[static_cast<std::size_t>(index)] : nullptr;
}

}  // namespace ppsynth::ui::results
