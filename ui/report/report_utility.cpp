#include "ui/report/report_utility.hpp"

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
        const auto& u = *r.utility;
        double sum = 0;
        int count = 0;
        for (const auto& st : u.statistics)
            if (std::isfinite(st.ciOverlap)) sum += st.ciOverlap, ++count;
        overview.rows.push_back({strUtility(r.name), num(u.regressionMeanOverlap),
                                 num(count ? sum / count : study::kUndefined), num(u.ecdf.Um),
                                 num(u.ecdf.Ua), u.pmse.computed ? num(u.pmse.pmse) : "-",
                                 u.pmse.computed ? num(u.pmse.sPmse) : "-",
                                 u.pmse.computed ? num(u.pmse.sPmseReference) : "-"});
    }
    if (!missing.isEmpty()) overview.note = missing.join(QStringLiteral("; "));
    s.blocks.push_back(ReportBlock::tableBlock(overview));

    for (const auto& r : run.synthesizers) {
        if (!r.utility) continue;
        const auto& u = *r.utility;
        const QString level = num(100 * u.level, 3) + QLatin1Char('%');
        ReportTable st;
        st.caption = QStringLiteral("%1: summary statistics of %2 (%3 intervals)")
                         .arg(strUtility(r.name), strUtility(u.target), level);
        st.header = {QStringLiteral("Statistic"), QStringLiteral("confidential [interval]"),
                     QStringLiteral("synthetic [interval]"), QStringLiteral("CI overlap")};
        st.alignRight = {false, true, true, true};
        for (const auto& x : u.statistics)
            st.rows.push_back({strUtility(x.name), interval(x.original), interval(x.synthetic),
                               num(x.ciOverlap)});
        st.note = QStringLiteral("B = %1 bootstrap replicates; m = %2 datasets.")
                      .arg(u.bootstrap)
                      .arg(u.datasets);
        s.blocks.push_back(ReportBlock::tableBlock(st));

        if (!u.regression.empty()) {
            ReportTable rt;
            rt.caption = QStringLiteral("%1: regression of %2 (%3 intervals)")
                             .arg(strUtility(r.name), strUtility(u.target), level);
            rt.header = {QStringLiteral("Term"), QStringLiteral("confidential [interval]"),
                         QStringLiteral("synthetic, combined [interval]"),
                         QStringLiteral("CI overlap")};
            rt.alignRight = {false, true, true, true};
            for (const auto& t : u.regression)
                rt.rows.push_back({strUtility(t.term), interval(t.original), interval(t.synthetic),
                                   num(t.ciOverlap)});
            rt.note = QStringLiteral("Mean CI overlap over the terms: %1.")
                          .arg(num(u.regressionMeanOverlap));
            s.blocks.push_back(ReportBlock::tableBlock(rt));
        }
        QStringList warnings;
        for (const auto& w : u.warnings) warnings << strUtility(w);
        if (!warnings.isEmpty())
            s.blocks.push_back(ReportBlock::paragraph(
                QStringLiteral("%1, utility warnings: %2")
                    .arg(strUtility(r.name), warnings.join(QStringLiteral("; ")))));
    }
    return s;
}

}  // namespace ppsynth::ui::report
