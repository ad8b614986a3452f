#include "ui/results/results_tables.hpp"

#include <algorithm>
#include <cmath>

#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/study/run_length.hpp"
#include "ui/results/run_charts.hpp"
#include "ui/results/run_variables.hpp"
#include "ui/results/variable_view.hpp"

namespace ppsynth::ui::results {

namespace {

using study::RunResult;
using study::SynthesizerResult;

QString qTables(const std::string& s) {
    return QString::fromStdString(s);
}

QString count(std::size_t n) {
    return QString::number(static_cast<qulonglong>(n));
}

// Stan's thresholds, as mcmc::diagnose uses them.
constexpr double kRhatThreshold = 1.01;
constexpr double kEssPerChain = 100;

}  // namespace

QString epsilonConvergedCell(const privacy::EpsilonDiagnostics& d) {
    if (!d.diagnosed) return QStringLiteral("not diagnosed");
    return d.converged ? QStringLiteral("yes") : QStringLiteral("no ⚠");
}

std::string joinReasons(const std::vector<std::string>& reasons) {
    std::string s;
    for (const auto& r : reasons) s += (s.empty() ? "" : "; ") + r;
    return s;
}

QString formatCell(double v) {
    if (std::isnan(v)) return QStringLiteral("–");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("∞") : QStringLiteral("-∞");
    return QString::number(v, 'g', 4);
}

namespace {

// A scalar (EM) synthesizer whose chosen refit missed its target: another synthesizer's
// epsilon (match) or an explicit epsilon, which is a budget and must not be exceeded.
QString scalarTargetWarning(const RunResult& run, const SynthesizerResult& s,
                            const study::SynthesizerConfig* cfg, const privacy::ScalarTry& used) {
    if (!cfg) return {};
    const auto* matched = cfg->match.empty() ? nullptr : run.find(cfg->match);
    if (!matched && !cfg->epsilon) return {};
    const double target = matched ? matched->epsilon.perDataset : *cfg->epsilon;
    const double rel = std::abs(used.epsilon - target) / std::max(target, 1e-300);
    if (rel <= cfg->tolerance) return {};
    const QString what = matched
                             ? QStringLiteral("matched ε of %1").arg(qTables(matched->name))
                             : QStringLiteral("reached the target ε = %1").arg(formatCell(target));
    QString text = QStringLiteral(
                       "%1: the scalar weight %2 only within %3% after %4 refits "
                       "(tolerance %5%).")
                       .arg(qTables(s.name), what, formatCell(100 * rel))
                       .arg(s.scalar() ? s.scalar()->tries.size() : 0)
                       .arg(formatCell(100 * cfg->tolerance));
    if (!matched && used.epsilon > target)
        text += QStringLiteral(" Its ε is above that budget: no refit kept within it.");
    if (s.scalar() && s.scalar()->noiseLimited)
        text += s.scalar()->noise > cfg->tolerance
                    ? QStringLiteral(
                          " Each refit's ε scatters by about %1% between its chains "
                          "(Δ is a maximum over draws), more than the tolerance, so "
                          "the search stopped at that noise and kept the closest "
                          "try; more draws steady it.")
                          .arg(formatCell(100 * s.scalar()->noise))
                    : QStringLiteral(
                          " Refits at nearly the same weight gave ε further apart than that "
                          "(Δ is a maximum over draws), so the search kept the closest one; "
                          "more draws steady it.");
    return text;
}

}  // namespace

TableData epsilonTable(const RunResult& run) {
    TableData t;
    t.key = QStringLiteral("epsilon");
    t.title = QStringLiteral("Privacy accounting (ε)");
    t.caption = QStringLiteral(
        "ε = 2 Δ(α,x) is the local guarantee of one released synthetic dataset; releasing m "
        "datasets spends m times that, so quote the total when all of them are published.");
    t.headers = {QStringLiteral("Synthesizer"),
                 QStringLiteral("Scheme"),
                 QStringLiteral("Δx (unweighted)"),
                 QStringLiteral("Δ(α,x)"),
                 QStringLiteral("ε per dataset"),
                 QStringLiteral("ε converged"),
                 QStringLiteral("m"),
                 QStringLiteral("ε for m datasets"),
                 QStringLiteral("Global ε (recommended)"),
                 QStringLiteral("Δ estimated as"),
                 QStringLiteral("Mean weight"),
                 QStringLiteral("Records left out")};
    const bool mixture = models::isMixtureFamily(run.config.model.family);
    for (const auto& s : run.synthesizers) {
        t.rows.push_back(
            {qTables(s.name), qTables(std::string(study::toString(s.scheme))), formatCell(s.deltaX),
             formatCell(s.deltaAlphaX),
             s.formalGuarantee() ? formatCell(s.epsilon.perDataset)
                                 : QStringLiteral("no formal guarantee"),
             epsilonConvergedCell(s.epsilonDiagnostics), QString::number(s.epsilon.m),
             formatCell(s.epsilon.total),
             QStringLiteral("%1 to %2")
                 .arg(formatCell(s.global.epsilonLow), formatCell(s.global.epsilonHigh)),
             qTables(s.deltaMethod), formatCell(s.weights.mean), count(s.weights.zeros)});
        const auto& e = s.epsilonDiagnostics;
        if (e.diagnosed && !e.converged)
            t.warnings << QStringLiteral("%1: ε did not converge: %2.")
                              .arg(qTables(s.name), qTables(joinReasons(e.reasons)));
        if (const auto note = privacy::argmaxNote(e, mixture); !note.empty())
            t.warnings << QStringLiteral("%1: %2.").arg(qTables(s.name), qTables(note));
        if (s.excludedDraws > 0) {
            t.warnings << QStringLiteral(
                              "%1: %2 draws above the robust bound were left out of synthesis.")
                              .arg(qTables(s.name))
                              .arg(s.excludedDraws);
        }
        if (const auto* tc = s.topCode()) {
            // Several sensitive variables: each has its own threshold.
            QStringList each;
            for (const auto& v : tc->variables)
                each << QStringLiteral("%1 at t = %2 (%3 records capped)")
                            .arg(qTables(v.name), formatCell(v.threshold))
                            .arg(v.capped);
            t.warnings << (each.isEmpty()
                               ? QStringLiteral("%1: top-coded at the %2 quantile (t = %3): a "
                                                "comparator with no formal guarantee; it is not "
                                                "released.")
                                     .arg(qTables(s.name), formatCell(tc->q),
                                          formatCell(tc->threshold))
                               : QStringLiteral("%1: each variable top-coded at its %2 quantile, "
                                                "%3: a comparator with no formal guarantee; it "
                                                "is not released.")
                                     .arg(qTables(s.name), formatCell(tc->q),
                                          each.join(QStringLiteral(", "))));
        }
        if (const auto* sd = s.scaled(); sd && sd->target && !sd->converged)
            t.warnings << (sd->reachable
                               ? QStringLiteral("%1: the scale a = %2 reached ε = %3, not the "
                                                "target %4 within its tolerance (%5 refits).")
                                     .arg(qTables(s.name), formatCell(sd->a),
                                          formatCell(s.epsilon.perDataset), formatCell(*sd->target))
                                     .arg(sd->tries.size())
                               : QStringLiteral("%1: the target ε = %2 is above what the %3 "
                                                "weights give on their own (ε = %4): no scale a "
                                                "in (0, 1] reaches it, so a = 1 is used.")
                                     .arg(qTables(s.name), formatCell(*sd->target),
                                          qTables(std::string(study::toString(sd->of))),
                                          formatCell(s.epsilon.perDataset)));
        if (const auto* sd = s.scalar(); sd && !sd->tries.empty()) {
            // The search keeps the try closest to the target, not necessarily the last.
            const auto chosen =
                std::find_if(sd->tries.begin(), sd->tries.end(),
                             [&](const privacy::ScalarTry& x) { return x.a == sd->a; });
            const auto& used = chosen != sd->tries.end() ? *chosen : sd->tries.back();
            const auto* cfg = run.config.find(s.name);
            if (auto w = scalarTargetWarning(run, s, cfg, used); !w.isEmpty()) t.warnings << w;
        }
    }
    return t;
}

TableData riskTable(const RunResult& run) {
    TableData t;
    t.key = QStringLiteral("risk");
    t.title =
        severalTargets(run)
            ? QStringLiteral("Identification risk of %1 together (a box)").arg(variablesPhrase(run))
            : QStringLiteral("Identification risk");
    t.caption = QStringLiteral(
        "IRᵢ is the chance an intruder who knows a record's pattern picks it out from the "
        "synthetic values near its own; whack-a-mole counts records whose risk rose under the "
        "weighted synthesizer compared with the unweighted one.");
    if (severalTargets(run))
        t.caption += QStringLiteral(
                         " With several sensitive variables a synthetic record is "
                         "near a true one %1; the pairwise scheme's risk counts "
                         "with the same box.")
                         .arg(closenessPhrase(run));
    const double threshold = run.synthesizers.empty() ? run.config.risk.threshold
                                                      : run.synthesizers[0].irSummary.threshold;
    t.headers = {QStringLiteral("Synthesizer"),
                 QStringLiteral("Mean IR"),
                 QStringLiteral("Median"),
                 QStringLiteral("Q1"),
                 QStringLiteral("Q3"),
                 QStringLiteral("Max"),
                 QStringLiteral("Above %1").arg(formatCell(threshold)),
                 QStringLiteral("Whack-a-mole")};
    for (const auto& s : run.synthesizers) {
        const auto& r = s.irSummary;
        t.rows.push_back(
            {qTables(s.name), formatCell(r.mean), formatCell(r.median), formatCell(r.q1),
             formatCell(r.q3), formatCell(r.max), count(r.aboveThreshold),
             s.scheme == study::Scheme::Unweighted ? QStringLiteral("–")
                                                   : count(s.records.whackAMole.size())});
    }
    return t;
}

Expected<TableData> topRiskTable(const RunResult& run, const std::string& synthesizer,
                                 std::size_t n, const data::Table* table) {
    const auto* s = run.find(synthesizer);
    if (!s) return Error{"the run has no synthesizer '" + synthesizer + "'"};
    if (s->records.ir.empty()) return Error{"synthesizer '" + synthesizer + "' has no risks"};
    const auto records = static_cast<std::size_t>(run.inputs.yOriginal.size());
    if (s->records.ir.size() != records ||
        static_cast<std::size_t>(s->records.alpha.size()) != records ||
        static_cast<std::size_t>(s->records.recordDelta.size()) != records)
        return Error{"synthesizer '" + synthesizer + "': its records do not match the data"};
    // The runner's summary keeps the top 10; sort again when more are asked for.
    std::vector<std::size_t> order = s->records.irTop;
    if (order.size() < std::min(n, records)) {
        order.resize(records);
        for (std::size_t i = 0; i < records; ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return s->records.ir[a] > s->records.ir[b];
        });
    }
    order.resize(std::min(n, order.size()));

    TableData t;
    t.key = QStringLiteral("top_risk_") + qTables(synthesizer);
    t.title = QStringLiteral("CONFIDENTIAL: the %1 records at highest risk under %2")
                  .arg(order.size())
                  .arg(qTables(synthesizer));
    t.caption = QStringLiteral(
        "Record-level values of the confidential data: for the data owner only, never to be "
        "released. Rows are numbered as in the data file (header excluded).");
    // Several sensitive variables with the run's table: every variable's value.
    std::vector<std::string> shown{run.config.data.target.empty() ? "y" : run.config.data.target};
    std::vector<std::vector<double>> values{std::vector<double>(
        run.inputs.yOriginal.data(), run.inputs.yOriginal.data() + run.inputs.yOriginal.size())};
    if (severalTargets(run) && table) {
        shown = sensitiveNames(run);
        values.clear();
        for (const auto& target : shown) {
            auto v = confidentialValues(run, *table, target);
            if (!v) return Error{"synthesizer '" + synthesizer + "': " + v.message()};
            if (v->size() != records)
                return Error{"the run's table gives " + std::to_string(v->size()) + " values of '" +
                             target + "' for " + std::to_string(records) + " records"};
            values.push_back(std::move(*v));
        }
        t.caption += QStringLiteral(
                         " IRᵢ is the risk of %1 together (a box); the values shown "
                         "are every variable's.")
                         .arg(variablesPhrase(run));
    } else if (severalTargets(run)) {
        t.caption += QStringLiteral(
                         " IRᵢ is the risk of %1 together (a box); the value shown is "
                         "%2's.")
                         .arg(variablesPhrase(run), qTables(run.config.data.target));
    }
    t.confidential = true;
    t.headers = {QStringLiteral("Rank"), QStringLiteral("Row in file")};
    for (const auto& name : shown) t.headers << qTables(name);
    t.headers << QStringLiteral("IRᵢ") << QStringLiteral("Weight αᵢ")
              << QStringLiteral("Bound Δ(α,xᵢ)");
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t i = order[k];
        const auto e = static_cast<Eigen::Index>(i);
        const std::size_t row = i < run.inputs.keptRows.size() ? run.inputs.keptRows[i] + 1 : i + 1;
        QStringList cells{count(k + 1), count(row)};
        for (const auto& v : values) cells << formatCell(v[i]);
        cells << formatCell(s->records.ir[i]) << formatCell(s->records.alpha[e])
              << formatCell(s->records.recordDelta[e]);
        t.rows.push_back(cells);
    }
    return t;
}

TableData convergenceTable(const RunResult& run) {
    TableData t;
    t.key = QStringLiteral("convergence");
    t.title = QStringLiteral("Convergence: R-hat and effective sample size");
    const int chains = std::max(1, run.config.mcmc.chains);
    const double essMin = kEssPerChain * chains;
    t.caption = QStringLiteral(
                    "R-hat near 1 (below %1) means the chains agree; ESS is how many independent "
                    "draws the chains are worth (at least %2 for %3 chains).")
                    .arg(formatCell(kRhatThreshold), formatCell(essMin))
                    .arg(chains);
    t.headers = {QStringLiteral("Synthesizer"), QStringLiteral("Quantity"),
                 QStringLiteral("Mean"),        QStringLiteral("SD"),
                 QStringLiteral("R-hat"),       QStringLiteral("Bulk ESS"),
                 QStringLiteral("Tail ESS"),    QStringLiteral("Verdict")};
    int unconverged = 0, quantities = 0;
    for (const auto& s : run.synthesizers) {
        for (const auto& qd : s.diagnostics.quantities) {
            const auto& c = qd.summary;
            QStringList problems;
            if (std::isnan(c.rhat)) {
                problems << QStringLiteral("undefined");
            } else {
                if (c.rhat > kRhatThreshold) problems << QStringLiteral("chains disagree");
                if (c.essBulk < essMin || c.essTail < essMin)
                    problems << QStringLiteral("too few effective draws");
            }
            // Diagnostics computed on the sampler's unconstrained scale (older run folders)
            // name parameters by position: say which parameter, and on which scale.
            QString quantity = qTables(qd.name);
            if (const auto j = parameterIndex(run, qd.name);
                j && qTables(run.parameterNames[*j]) != quantity)
                quantity = qTables(run.parameterNames[*j]) + QStringLiteral(" (sampler scale)");
            if (!problems.isEmpty()) ++unconverged;
            ++quantities;
            t.rows.push_back(
                {qTables(s.name), quantity, formatCell(c.mean), formatCell(c.sd),
                 formatCell(c.rhat), formatCell(c.essBulk), formatCell(c.essTail),
                 problems.isEmpty() ? QStringLiteral("ok") : problems.join(QStringLiteral("; "))});
        }
        // D_s, the chain epsilon is the maximum of, judged by the epsilon verdict's own
        // (calibrated) thresholds.
        const auto& e = s.epsilonDiagnostics;
        if (e.diagnosed) {
            t.rows.push_back(
                {qTables(s.name), QStringLiteral("D_s = max_i α_i |l_i| (sets ε)"),
                 QStringLiteral("–"), QStringLiteral("–"),
                 formatCell(std::max(e.rhatBulk, e.rhatTail)), formatCell(e.essBulk),
                 formatCell(e.essTail),
                 e.converged ? QStringLiteral("ε converged") : QStringLiteral("ε not converged")});
        }
    }
    // One sentence instead of a warning per quantity: the Verdict column says which.
    if (unconverged > 0) {
        t.warnings << QStringLiteral(
                          "%1 of %2 quantities have not converged (see Verdict): run longer "
                          "(more warm-up and draws) before relying on these results.")
                          .arg(unconverged)
                          .arg(quantities);
    }
    return t;
}

TableData samplerTable(const RunResult& run) {
    TableData t;
    t.key = QStringLiteral("sampler");
    t.title = QStringLiteral("Sampler checks: divergences, tree depth, E-BFMI");
    t.caption = QStringLiteral(
        "Divergences mean the sampler could not follow the posterior and estimates may be "
        "biased; tree-depth hits mean slow exploration; E-BFMI below 0.3 means the tails may "
        "be missed. Exact (conjugate) draws have none of these.");
    t.headers = {QStringLiteral("Synthesizer"),
                 QStringLiteral("Draws"),
                 QStringLiteral("Divergences"),
                 QStringLiteral("Per chain"),
                 QStringLiteral("Tree-depth hits"),
                 QStringLiteral("Lowest E-BFMI"),
                 QStringLiteral("Fits"),
                 QStringLiteral("Seconds"),
                 QStringLiteral("Draws per chain"),
                 QStringLiteral("Length")};
    for (const auto& s : run.synthesizers) {
        const auto& d = s.diagnostics;
        QStringList perChain;
        for (int v : d.divergencesPerChain) perChain << QString::number(v);
        const double ebfmi =
            d.ebfmi.empty() ? std::nan("") : *std::min_element(d.ebfmi.begin(), d.ebfmi.end());
        t.rows.push_back(
            {qTables(s.name), QString::number(d.draws), QString::number(d.divergences),
             perChain.isEmpty() ? QStringLiteral("–") : perChain.join(QStringLiteral(", ")),
             QString::number(d.treeDepthSaturated), formatCell(ebfmi), QString::number(s.fits),
             formatCell(s.seconds),
             QString::number(
                 mcmc::keptDrawsPerChain(d, run.config.mcmc.chains, run.config.mcmc.draws)),
             qTables(study::lengthText(d))});
        for (const auto& w : d.warnings)
            if (w.find("R-hat") == std::string::npos && w.find("ESS") == std::string::npos)
                t.warnings << qTables(s.name) + QStringLiteral(": ") + qTables(w);
    }
    return t;
}

QString intervalCell(const study::EstimateInterval& e) {
    return QStringLiteral("[%1, %2]").arg(formatCell(e.lower), formatCell(e.upper));
}

namespace {

Status hasUtility(const RunResult& run) {
    for (const auto& s : run.synthesizers)
        if (s.utility) return {};
    std::string why = "the run has no utility report";
    if (!run.config.utility.enabled) why += ": the configuration's utility block is off";
    for (const auto& s : run.synthesizers)
        if (!s.utilityError.empty()) why += " (" + s.name + ": " + s.utilityError + ")";
    return Error{why};
}

// The report's own warnings and failed reports, prefixed by the synthesizer.
void utilityWarnings(const RunResult& run, TableData& t) {
    for (const auto& s : run.synthesizers) {
        if (!s.utilityError.empty())
            t.warnings << QStringLiteral("%1: no utility report: %2")
                              .arg(qTables(s.name), qTables(s.utilityError));
        if (!s.utility) continue;
        for (const auto& w : s.utility->warnings)
            t.warnings << qTables(s.name) + QStringLiteral(": ") + qTables(w);
    }
    t.warnings.removeDuplicates();
}

}  // namespace

Expected<TableData> utilityTable(const RunResult& run) {
    if (auto st = hasUtility(run); !st) return st.error();
    TableData t;
    t.key = QStringLiteral("utility");
    // The variable the utility measures name (with several sensitive variables, core
    // measures the first today).
    std::string measured = run.config.data.target;
    for (const auto& s : run.synthesizers)
        if (s.utility && !s.utility->target.empty()) {
            measured = s.utility->target;
            break;
        }
    t.title = QStringLiteral("Utility: statistics of %1, confidential against synthetic")
                  .arg(qTables(measured));
    double level = 0.95;
    for (const auto& s : run.synthesizers)
        if (s.utility) level = s.utility->level;
    const QString pct = formatCell(100 * level) + QLatin1Char('%');
    t.caption = QStringLiteral(
                    "Intervals are %1 bootstrap intervals (synthetic: pooled over the m "
                    "datasets); the CI overlap is 1 when the intervals coincide and 0 or less "
                    "when they do not meet.")
                    .arg(pct);
    t.headers = {QStringLiteral("Synthesizer"),  QStringLiteral("Statistic"),
                 QStringLiteral("Confidential"), QStringLiteral("%1 interval").arg(pct),
                 QStringLiteral("Synthetic"),    QStringLiteral("%1 interval").arg(pct),
                 QStringLiteral("CI overlap")};
    for (const auto& s : run.synthesizers) {
        if (!s.utility) continue;
        for (const auto& st : s.utility->statistics) {
            t.rows.push_back({qTables(s.name), qTables(st.name), formatCell(st.original.estimate),
                              intervalCell(st.original), formatCell(st.synthetic.estimate),
                              intervalCell(st.synthetic), formatCell(st.ciOverlap)});
        }
    }
    utilityWarnings(run, t);
    return t;
}

Expected<TableData> distributionTable(const RunResult& run) {
    if (auto st = hasUtility(run); !st) return st.error();
    TableData t;
    t.key = QStringLiteral("distribution");
    // Several sensitive variables: each variable has this table (utility_view.hpp).
    t.title = severalTargets(run)
                  ? QStringLiteral("Utility of %1: whole distribution and regression")
                        .arg(qTables(run.config.data.target))
                  : QStringLiteral("Utility: whole distribution and regression");
    t.caption = QStringLiteral(
        "ECDF distances (Um the largest gap, Ua the mean squared gap between the confidential "
        "and synthetic distribution functions) and pMSE are 0 for a perfect copy; compare "
        "S_pMSE with the value a correct synthesizer gives, not with 1.");
    t.headers = {QStringLiteral("Synthesizer"),
                 QStringLiteral("ECDF Um"),
                 QStringLiteral("ECDF Ua"),
                 QStringLiteral("pMSE"),
                 QStringLiteral("S_pMSE"),
                 QStringLiteral("S_pMSE if correct"),
                 QStringLiteral("Regression: mean CI overlap")};
    for (const auto& s : run.synthesizers) {
        if (!s.utility) continue;
        const auto& u = *s.utility;
        const QString none = QStringLiteral("–");
        t.rows.push_back({qTables(s.name), formatCell(u.ecdf.Um), formatCell(u.ecdf.Ua),
                          u.pmse.computed ? formatCell(u.pmse.pmse) : none,
                          u.pmse.computed ? formatCell(u.pmse.sPmse) : none,
                          u.pmse.computed ? formatCell(u.pmse.sPmseReference) : none,
                          u.regression.empty() ? none : formatCell(u.regressionMeanOverlap)});
    }
    for (const auto& s : run.synthesizers) {
        if (s.utility && !s.utility->pmse.referenceNote.empty()) {
            t.caption += QStringLiteral(" ") + qTables(s.utility->pmse.referenceNote);
            break;
        }
    }
    return t;
}

Expected<TableData> regressionTable(const RunResult& run, const std::string& synthesizer) {
    const auto* s = run.find(synthesizer);
    if (!s) return Error{"the run has no synthesizer '" + synthesizer + "'"};
    if (!s->utility)
        return Error{"synthesizer '" + synthesizer + "' has no utility report" +
                     (s->utilityError.empty() ? std::string() : ": " + s->utilityError)};
    if (s->utility->regression.empty())
        return Error{"the utility report has no regression (no predictors were asked for)"};
    TableData t;
    t.key = QStringLiteral("regression_") + qTables(synthesizer);
    t.title = QStringLiteral("Regression of %1 under %2")
                  .arg(qTables(run.config.data.target), qTables(synthesizer));
    t.caption = QStringLiteral(
        "Synthetic estimates combine the m datasets by the rules for partially synthetic "
        "data (t intervals with df degrees of freedom); a high CI overlap means an analyst "
        "would draw the same conclusion from the synthetic data.");
    t.headers = {QStringLiteral("Term"),     QStringLiteral("Confidential"),
                 QStringLiteral("Interval"), QStringLiteral("Synthetic"),
                 QStringLiteral("Interval"), QStringLiteral("CI overlap"),
                 QStringLiteral("df")};
    for (const auto& r : s->utility->regression) {
        t.rows.push_back({qTables(r.term), formatCell(r.original.estimate),
                          intervalCell(r.original), formatCell(r.synthetic.estimate),
                          intervalCell(r.synthetic), formatCell(r.ciOverlap), formatCell(r.df)});
    }
    return t;
}

Expected<TableData> posteriorTable(const RunResult& run, const std::string& synthesizer) {
    const auto* s = run.find(synthesizer);
    if (!s) return Error{"the run has no synthesizer '" + synthesizer + "'"};
    if (!s->utility || s->utility->parameters.empty())
        return Error{"synthesizer '" + synthesizer +
                     "' has no posterior comparison with the unweighted fit"};
    TableData t;
    t.key = QStringLiteral("posterior_") + qTables(synthesizer);
    t.title =
        QStringLiteral("Posterior under %1 against the unweighted fit").arg(qTables(synthesizer));
    t.caption = QStringLiteral(
        "Medians with 90% intervals; a width ratio above 1 is information lost to the "
        "weights (scalar weighting widens every interval alike).");
    t.headers = {QStringLiteral("Parameter"),      QStringLiteral("Weighted median"),
                 QStringLiteral("Weighted 90%"),   QStringLiteral("Unweighted median"),
                 QStringLiteral("Unweighted 90%"), QStringLiteral("Width ratio")};
    for (const auto& p : s->utility->parameters) {
        auto iv = [](const study::ParameterSummary& x) {
            return QStringLiteral("[%1, %2]").arg(formatCell(x.q05), formatCell(x.q95));
        };
        t.rows.push_back({qTables(p.name), formatCell(p.weighted.median), iv(p.weighted),
                          formatCell(p.unweighted.median), iv(p.unweighted),
                          formatCell(p.widthRatio)});
    }
    return t;
}

namespace {

// Settings that make the two runs' numbers measure different things, in words.
QStringList comparabilityWarnings(const RunResult& a, const RunResult& b) {
    QStringList out;
    if (a.config.synthesis.m != b.config.synthesis.m)
        out << QStringLiteral(
                   "The runs release different numbers of datasets (m = %1 and %2): each "
                   "dataset costs ε again, so compare ε for all m datasets, not ε per dataset.")
                   .arg(a.config.synthesis.m)
                   .arg(b.config.synthesis.m);
    if (a.config.lipschitz.quantile != b.config.lipschitz.quantile)
        out << QStringLiteral(
                   "The runs estimate Δ differently (%1 and %2): their ε are not comparable.")
                   .arg(qTables(a.synthesizers.empty() ? std::string()
                                                       : a.synthesizers[0].deltaMethod),
                        qTables(b.synthesizers.empty() ? std::string()
                                                       : b.synthesizers[0].deltaMethod));
    const auto& ra = a.config.risk;
    const auto& rb = b.config.risk;
    auto radius = [](const study::RunConfig::Risk& r) {
        return r.percentage ? QStringLiteral("r = %1 of the value").arg(formatCell(r.radius))
                            : QStringLiteral("r = %1 (absolute)").arg(formatCell(r.radius));
    };
    if (ra.L != rb.L || ra.radius != rb.radius || ra.percentage != rb.percentage)
        out << QStringLiteral(
                   "The runs measure identification risk differently (L = %1, %2 against L = "
                   "%3, %4): their risks are not comparable.")
                   .arg(QString::number(ra.L), radius(ra), QString::number(rb.L), radius(rb));
    return out;
}

}  // namespace

TableData comparisonTable(const RunResult& a, const QString& labelA, const RunResult& b,
                          const QString& labelB) {
    TableData t;
    t.key = QStringLiteral("comparison");
    t.title = QStringLiteral("%1 against %2").arg(labelA, labelB);
    t.caption = QStringLiteral(
        "The same synthesizer in two runs: releasing all m datasets spends ε for all m, so "
        "compare that total (a lower one is a stronger guarantee), estimated the same way; a "
        "lower mean risk means fewer identifiable records, a higher mean weight more "
        "information kept.");
    // Two-line headers (measure, then run) keep the table narrow enough to read.
    t.headers = {QStringLiteral("Synthesizer")};
    for (const char* measure : {"ε per dataset", "ε converged", "m", "ε for all m datasets",
                                "Δ estimated as", "Mean IR", "Mean weight", "High-risk records"}) {
        for (const QString& label : {labelA, labelB})
            t.headers << QStringLiteral("%1\n%2").arg(QString::fromUtf8(measure), label);
    }
    // Several sensitive variables (in either run): the CI overlap of each variable's mean.
    std::vector<std::string> variables;
    if (severalTargets(a) || severalTargets(b)) {
        for (const auto* run : {&a, &b})
            for (const auto& v : sensitiveNames(*run))
                if (std::find(variables.begin(), variables.end(), v) == variables.end())
                    variables.push_back(v);
    }
    QStringList overlaps;
    for (const auto& v : variables)
        overlaps << QStringLiteral("CI overlap of the mean of %1").arg(qTables(v));
    if (variables.empty()) overlaps << QStringLiteral("CI overlap of the mean");
    for (const QString& measure : overlaps)
        for (const QString& label : {labelA, labelB})
            t.headers << QStringLiteral("%1\n%2").arg(measure, label);
    std::vector<std::string> names;
    for (const auto* run : {&a, &b})
        for (const auto& s : run->synthesizers)
            if (std::find(names.begin(), names.end(), s.name) == names.end())
                names.push_back(s.name);
    const QString none = QStringLiteral("–");
    for (const auto& name : names) {
        const auto* x = a.find(name);
        const auto* y = b.find(name);
        auto cell = [&](const SynthesizerResult* s, auto value) { return s ? value(*s) : none; };
        auto eps = [](const SynthesizerResult& s) { return formatCell(s.epsilon.perDataset); };
        auto conv = [](const SynthesizerResult& s) {
            return epsilonConvergedCell(s.epsilonDiagnostics);
        };
        auto m = [](const SynthesizerResult& s) { return QString::number(s.epsilon.m); };
        auto total = [](const SynthesizerResult& s) { return formatCell(s.epsilon.total); };
        auto delta = [](const SynthesizerResult& s) { return qTables(s.deltaMethod); };
        auto ir = [](const SynthesizerResult& s) { return formatCell(s.irSummary.mean); };
        auto w = [](const SynthesizerResult& s) { return formatCell(s.weights.mean); };
        auto high = [](const SynthesizerResult& s) { return count(s.irSummary.aboveThreshold); };
        auto meanOverlap = [&](const study::UtilityReport& u) {
            for (const auto& st : u.statistics)
                if (st.statistic.kind == utility::StatisticKind::Mean)
                    return formatCell(st.ciOverlap);
            return none;
        };
        auto overlap = [&](const SynthesizerResult& s) {
            return s.utility ? meanOverlap(*s.utility) : none;
        };
        QStringList row{qTables(name),  cell(x, eps),   cell(y, eps),   cell(x, conv),
                        cell(y, conv),  cell(x, m),     cell(y, m),     cell(x, total),
                        cell(y, total), cell(x, delta), cell(y, delta), cell(x, ir),
                        cell(y, ir),    cell(x, w),     cell(y, w),     cell(x, high),
                        cell(y, high)};
        if (variables.empty()) {
            row << cell(x, overlap) << cell(y, overlap);
        } else {
            for (const auto& v : variables) {
                // A variable's own report: utility.variables, or a one-variable run's report.
                auto of = [&](const SynthesizerResult& s) {
                    if (!s.utility) return none;
                    for (const auto& r : s.utility->variables)
                        if (r.target == v) return meanOverlap(r);
                    return s.utility->variables.empty() && s.utility->target == v
                               ? meanOverlap(*s.utility)
                               : none;
                };
                row << cell(x, of) << cell(y, of);
            }
        }
        t.rows.push_back(std::move(row));
    }
    t.warnings << comparabilityWarnings(a, b);
    if (sensitiveNames(a) != sensitiveNames(b)) {
        t.warnings << QStringLiteral(
                          "The runs synthesize different sensitive variables (%1; %2): their "
                          "epsilons and risks are those of different releases.")
                          .arg(variablesPhrase(a), variablesPhrase(b));
    } else if (a.inputs.yOriginal.size() != b.inputs.yOriginal.size() ||
               a.config.data.target != b.config.data.target) {
        t.warnings << QStringLiteral(
            "The runs use different data (target or number of records): compare with care.");
    }
    return t;
}

}  // namespace ppsynth::ui::results
