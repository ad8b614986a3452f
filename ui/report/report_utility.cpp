#include "ui/report/report_utility.hpp"

#include <algorithm>
#include <cmath>

#include "ui/report/report_sections.hpp"

namespace ppsynth::ui::report {

namespace {

QString strUtility(const std::string& s) {
    return QString::fromStdString(s);
}

QString interval(const study::EstimateInterval& e) {
    return QStringLiteral("%1 [%2, %3]").arg(num(e.estimate), num(e.lower), num(e.upper));
}

// The summary statistics and the regression of one sensitive variable (`u.target`).
void variableTables(ReportSection& s, const std::string& name, const study::UtilityReport& u) {
    const QString level = num(100 * u.level, 3) + QLatin1Char('%');
    ReportTable st;
    st.caption = QStringLiteral("%1: summary statistics of %2 (%3 intervals)")
                     .arg(strUtility(name), strUtility(u.target), level);
    st.header = {QStringLiteral("Statistic"), QStringLiteral("confidential [interval]"),
                 QStringLiteral("synthetic [interval]"), QStringLiteral("CI overlap")};
    st.alignRight = {false, true, true, true};
    for (const auto& x : u.statistics)
        st.rows.push_back(
            {strUtility(x.name), interval(x.original), interval(x.synthetic), num(x.ciOverlap)});
    st.note = QStringLiteral("B = %1 bootstrap replicates; m = %2 datasets.")
                  .arg(u.bootstrap)
                  .arg(u.datasets);
    s.blocks.push_back(ReportBlock::tableBlock(st));

    if (!u.regression.empty()) {
        ReportTable rt;
        rt.caption = QStringLiteral("%1: regression of %2 (%3 intervals)")
                         .arg(strUtility(name), strUtility(u.target), level);
        rt.header = {QStringLiteral("Term"), QStringLiteral("confidential [interval]"),
                     QStringLiteral("synthetic, combined [interval]"),
                     QStringLiteral("CI overlap")};
        rt.alignRight = {false, true, true, true};
        for (const auto& t : u.regression)
            rt.rows.push_back({strUtility(t.term), interval(t.original), interval(t.synthetic),
                               num(t.ciOverlap)});
        rt.note =
            QStringLiteral("Mean CI overlap over the terms: %1.").arg(num(u.regressionMeanOverlap));
        s.blocks.push_back(ReportBlock::tableBlock(rt));
    }
}

// Several sensitive variables: one row per synthesizer with the joint measures.
ReportTable jointOverview(const study::RunResult& run) {
    ReportTable t;
    QStringList targets;
    for (const auto& v : run.config.data.targets) targets << strUtility(v);
    t.caption = QStringLiteral("Joint utility of %1").arg(targets.join(QStringLiteral(", ")));
    t.header = {QStringLiteral("Synthesizer"),
                QStringLiteral("||R_syn - R_conf||_F"),
                QStringLiteral("largest |r difference|"),
                QStringLiteral("joint S_pMSE"),
                QStringLiteral("S_pMSE reference"),
                QStringLiteral("mean CI overlap, each on the others")};
    t.alignRight = {false, true, true, true, true, false};
    for (const auto& r : run.synthesizers) {
        if (!r.utility || !r.utility->joint) continue;
        const auto& j = *r.utility->joint;
        QStringList overlaps;
        for (const auto& g : j.regressions)
            overlaps << QStringLiteral("%1 %2").arg(strUtility(g.target), num(g.meanOverlap));
        t.rows.push_back({strUtility(r.name),
                          j.correlationComputed ? num(j.correlation.frobenius) : "-",
                          j.correlationComputed ? num(j.correlation.maxAbs) : "-",
                          j.pmse.computed ? num(j.pmse.sPmse) : "-",
                          j.pmse.computed ? num(j.pmse.sPmseReference) : "-",
                          overlaps.join(QStringLiteral("; "))});
    }
    t.note = QStringLiteral(
        "R is the sensitive variables' Pearson correlation matrix on the released scale; the "
        "Frobenius norm of R_syn - R_conf (every pair counted twice) is averaged over the m "
        "datasets. The joint pMSE's propensity model has the predictors and every sensitive "
        "variable; its reference is 2q/(k-1) for q synthesized columns. Each sensitive "
        "variable is regressed on the predictors and the other sensitive variables.");
    return t;
}

// The correlation pairs and the regressions of each variable on the others.
void jointTables(ReportSection& s, const std::string& name, const study::JointUtility& j,
                 double levelValue) {
    const QString level = num(100 * levelValue, 3) + QLatin1Char('%');
    if (j.correlationComputed) {
        ReportTable c;
        c.caption =
            QStringLiteral("%1: correlations of the sensitive variables").arg(strUtility(name));
        c.header = {QStringLiteral("Pair"), QStringLiteral("confidential r"),
                    QStringLiteral("synthetic r (mean)"), QStringLiteral("difference"),
                    QStringLiteral("mean |difference|")};
        c.alignRight = {false, true, true, true, true};
        for (const auto& p : j.correlation.pairs)
            c.rows.push_back({strUtility(p.a) + QStringLiteral(" - ") + strUtility(p.b),
                              num(p.original), num(p.synthetic), num(p.difference),
                              num(p.meanAbsDifference)});
        c.note = QStringLiteral(
                     "||R_syn - R_conf||_F = %1 (mean over datasets); largest |r "
                     "difference| %2.")
                     .arg(num(j.correlation.frobenius), num(j.correlation.maxAbs));
        s.blocks.push_back(ReportBlock::tableBlock(c));
    }
    for (const auto& g : j.regressions) {
        if (g.terms.empty()) continue;
        ReportTable rt;
        rt.caption = QStringLiteral(
                         "%1: regression of %2 on the predictors and the other "
                         "sensitive variables (%3 intervals)")
                         .arg(strUtility(name), strUtility(g.target), level);
        rt.header = {QStringLiteral("Term"), QStringLiteral("confidential [interval]"),
                     QStringLiteral("synthetic, combined [interval]"),
                     QStringLiteral("CI overlap")};
        rt.alignRight = {false, true, true, true};
        for (const auto& t : g.terms)
            rt.rows.push_back({strUtility(t.term), interval(t.original), interval(t.synthetic),
                               num(t.ciOverlap)});
        rt.note = QStringLiteral("Mean CI overlap over the terms: %1.").arg(num(g.meanOverlap));
        s.blocks.push_back(ReportBlock::tableBlock(rt));
    }
}

}  // namespace

ReportSection utilitySection(const study::RunResult& run) {
    ReportSection s{QStringLiteral("utility"), QStringLiteral("Utility"), {}};
    s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
        "How well the m synthetic datasets reproduce what the confidential data say. Intervals "
        "are 95% unless stated: percentile bootstrap for summary statistics, the combining "
        "rules for partially synthetic data (Reiter 2003) for regression coefficients. CI "
        "overlap is 1 for identical intervals, 0 when they only touch and negative when they "
        "are apart. U_m and U_a are the largest and the mean squared ECDF differences; S_pMSE "
        "should be close to its reference for a synthesizer that reproduces the data.")));
    ReportTable overview;
    overview.caption = QStringLiteral("Utility overview");
    overview.header = {QStringLiteral("Synthesizer"),
                       QStringLiteral("mean CI overlap (regression)"),
                       QStringLiteral("mean CI overlap (statistics)"),
                       QStringLiteral("U_m"),
                       QStringLiteral("U_a"),
                       QStringLiteral("pMSE"),
                       QStringLiteral("S_pMSE"),
                       QStringLiteral("S_pMSE reference")};
    overview.alignRight = {false, true, true, true, true, true, true, true};
    QStringList missing;
    for (const auto& r : run.synthesizers) {
        if (!r.utility) {
            missing << strUtility(r.name) +
                           (r.utilityError.empty()
                                ? QStringLiteral(": not measured (utility disabled in the run)")
                                : QStringLiteral(": ") + strUtility(r.utilityError));
            continue;
        }
        // Several sensitive variables: a row per variable, "<synthesizer>: <variable>".
        const bool perVariable = !r.utility->variables.empty();
        for (const auto& u :
             perVariable ? r.utility->variables : std::vector<study::UtilityReport>{*r.utility}) {
            double sum = 0;
            int count = 0;
            for (const auto& st : u.statistics)
                if (std::isfinite(st.ciOverlap)) sum += st.ciOverlap, ++count;
            const QString row =
                perVariable ? strUtility(r.name) + QStringLiteral(": ") + strUtility(u.target)
                            : strUtility(r.name);
            overview.rows.push_back({row, num(u.regressionMeanOverlap),
                                     num(count ? sum / count : study::kUndefined), num(u.ecdf.Um),
                                     num(u.ecdf.Ua), u.pmse.computed ? num(u.pmse.pmse) : "-",
                                     u.pmse.computed ? num(u.pmse.sPmse) : "-",
                                     u.pmse.computed ? num(u.pmse.sPmseReference) : "-"});
        }
    }
    if (!missing.isEmpty()) overview.note = missing.join(QStringLiteral("; "));
    s.blocks.push_back(ReportBlock::tableBlock(overview));

    const bool several = std::any_of(run.synthesizers.begin(), run.synthesizers.end(),
                                     [](const auto& r) { return r.utility && r.utility->joint; });
    if (several) s.blocks.push_back(ReportBlock::tableBlock(jointOverview(run)));
    for (const auto& r : run.synthesizers) {
        if (!r.utility) continue;
        const auto& all = *r.utility;
        if (all.variables.empty()) {
            variableTables(s, r.name, all);
        } else {
            for (const auto& v : all.variables) variableTables(s, r.name, v);
            jointTables(s, r.name, *all.joint, all.level);
        }
        QStringList warnings;
        for (const auto& w : all.warnings) warnings << strUtility(w);
        if (!warnings.isEmpty())
            s.blocks.push_back(ReportBlock::paragraph(
                QStringLiteral("%1, utility warnings: %2")
                    .arg(strUtility(r.name), warnings.join(QStringLiteral("; ")))));
    }
    return s;
}

}  // namespace ppsynth::ui::report
