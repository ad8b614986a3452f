#include "ui/results/joint_utility_tables.hpp"

#include <algorithm>

#include "ui/results/results_tables.hpp"
#include "ui/results/run_charts.hpp"
#include "ui/results/run_variables.hpp"

namespace ppsynth::ui::results {

namespace {

QString qJoint(const std::string& s) {
    return QString::fromStdString(s);
}

// Why a run has no joint measures, in words.
std::string noJoint(const study::RunResult& run) {
    std::string why = "the run's utility reports have no joint measures";
    if (!severalTargets(run)) return why + " (it has one sensitive variable)";
    if (!run.config.utility.enabled) return why + " (the configuration's utility block is off)";
    for (const auto& s : run.synthesizers)
        if (!s.utilityError.empty()) why += " (" + s.name + ": " + s.utilityError + ")";
    return why;
}

Expected<const study::JointUtility*> jointOf(const study::RunResult& run,
                                             const std::string& synthesizer) {
    const auto* s = run.find(synthesizer);
    if (!s) return Error{"the run has no synthesizer '" + synthesizer + "'"};
    if (!s->utility || !s->utility->joint)
        return Error{"synthesizer '" + synthesizer + "': " + noJoint(run)};
    return &*s->utility->joint;
}

}  // namespace

Expected<TableData> jointUtilityTable(const study::RunResult& run) {
    const study::JointUtility* first = nullptr;
    for (const auto& s : run.synthesizers)
        if (s.utility && s.utility->joint && !first) first = &*s.utility->joint;
    if (!first) return Error{noJoint(run)};
    TableData t;
    t.key = QStringLiteral("joint_utility");
    t.title = QStringLiteral("Joint utility of %1").arg(variablesPhrase(run));
    t.caption = QStringLiteral(
        "pMSE of a propensity model on the predictors and every sensitive variable (0 for a "
        "perfect copy; compare S_pMSE with the value a correct synthesizer gives); the "
        "Frobenius norm of the correlation-matrix difference (0 when the synthetic data keep "
        "every correlation); the mean CI overlap of each variable's regression on the "
        "predictors and the others (1 when the intervals coincide).");
    // Two-line headers keep the table narrow enough to read with three or more variables.
    t.headers = {QStringLiteral("Synthesizer"),   QStringLiteral("Joint pMSE"),
                 QStringLiteral("S_pMSE"),        QStringLiteral("S_pMSE\nif correct"),
                 QStringLiteral("‖R_s − R_o‖_F"), QStringLiteral("Largest\n|r_s − r_o|")};
    for (const auto& r : first->regressions)
        t.headers << QStringLiteral("CI overlap\n%1 on the others").arg(qJoint(r.target));
    const QString none = QStringLiteral("–");
    for (const auto& s : run.synthesizers) {
        if (!s.utility || !s.utility->joint) {
            if (!s.utilityError.empty())
                t.warnings << QStringLiteral("%1: no utility report: %2")
                                  .arg(qJoint(s.name), qJoint(s.utilityError));
            continue;
        }
        const auto& j = *s.utility->joint;
        QStringList row{qJoint(s.name),
                        j.pmse.computed ? formatCell(j.pmse.pmse) : none,
                        j.pmse.computed ? formatCell(j.pmse.sPmse) : none,
                        j.pmse.computed ? formatCell(j.pmse.sPmseReference) : none,
                        j.correlationComputed ? formatCell(j.correlation.frobenius) : none,
                        j.correlationComputed ? formatCell(j.correlation.maxAbs) : none};
        for (const auto& target : first->regressions) {
            QString cell = none;
            for (const auto& r : j.regressions)
                if (r.target == target.target && !r.terms.empty()) cell = formatCell(r.meanOverlap);
            row << cell;
        }
        t.rows.push_back(std::move(row));
        for (const auto& w : j.warnings)
            t.warnings << qJoint(s.name) + QStringLiteral(": ") + qJoint(w);
    }
    t.warnings.removeDuplicates();
    if (!first->pmse.referenceNote.empty()) {
        QString note = qJoint(first->pmse.referenceNote);
        note[0] = note[0].toUpper();
        t.caption += QStringLiteral(" ") + note + QLatin1Char('.');
    }
    return t;
}

Expected<TableData> crossRegressionTable(const study::RunResult& run,
                                         const std::string& synthesizer) {
    auto joint = jointOf(run, synthesizer);
    if (!joint) return joint.error();
    const auto& j = **joint;
    if (j.regressions.empty())
        return Error{"synthesizer '" + synthesizer + "' has no cross-regressions"};
    const auto variables = sensitiveNames(run);
    TableData t;
    t.key = QStringLiteral("cross_regression_") + keyPart(synthesizer);
    t.title = QStringLiteral("Each sensitive variable on the predictors and the others, under %1")
                  .arg(qJoint(synthesizer));
    t.caption = QStringLiteral(
        "The relationships between the sensitive variables the release must keep: each "
        "variable regressed on the chosen predictors and the other sensitive variables (OLS); "
        "synthetic estimates combine the m datasets by the rules for partially synthetic data "
        "(t intervals with df degrees of freedom); a high CI overlap means an analyst would "
        "draw the same conclusion from the synthetic data. The other sensitive variables' "
        "coefficients come first in each regression.");
    t.headers = {QStringLiteral("Response"),
                 QStringLiteral("Term"),
                 QStringLiteral("Confidential"),
                 QStringLiteral("Interval"),
                 QStringLiteral("Synthetic (combined)"),
                 QStringLiteral("Interval"),
                 QStringLiteral("CI overlap"),
                 QStringLiteral("df")};
    for (const auto& r : j.regressions) {
        if (r.terms.empty())
            t.warnings << QStringLiteral("%1: no regression: %2")
                              .arg(qJoint(r.target), r.warning.empty() ? QStringLiteral("no terms")
                                                                       : qJoint(r.warning));
        // The other sensitive variables' coefficients first: the joint relationships are what
        // this table adds to each variable's own regression.
        std::vector<const study::RegressionTerm*> terms;
        for (const auto& term : r.terms)
            if (std::find(variables.begin(), variables.end(), term.term) != variables.end())
                terms.push_back(&term);
        for (const auto& term : r.terms)
            if (std::find(variables.begin(), variables.end(), term.term) == variables.end())
                terms.push_back(&term);
        for (const auto* term : terms)
            t.rows.push_back({qJoint(r.target), qJoint(term->term),
                              formatCell(term->original.estimate), intervalCell(term->original),
                              formatCell(term->synthetic.estimate), intervalCell(term->synthetic),
                              formatCell(term->ciOverlap), formatCell(term->df)});
    }
    return t;
}

Expected<TableData> correlationTable(const study::RunResult& run, const std::string& synthesizer) {
    auto joint = jointOf(run, synthesizer);
    if (!joint) return joint.error();
    const auto& j = **joint;
    if (!j.correlationComputed) {
        std::string why = "synthesizer '" + synthesizer + "': the correlations were not computed";
        for (const auto& w : j.warnings) why += " (" + w + ")";
        return Error{why};
    }
    const auto& c = j.correlation;
    TableData t;
    t.key = QStringLiteral("correlation_") + keyPart(synthesizer);
    t.title = QStringLiteral("Correlations under %1: ‖R_s − R_o‖_F = %2")
                  .arg(qJoint(synthesizer), formatCell(c.frobenius));
    t.caption = QStringLiteral(
                    "Pearson correlations of the sensitive variables on the confidential data "
                    "(R_o) and in the synthetic datasets (R_s, averaged over the %1 datasets); "
                    "the Frobenius norm ‖R_s − R_o‖_F (averaged over the datasets) sums every "
                    "difference of the matrix, 0 when every correlation is kept.")
                    .arg(c.perDatasetFrobenius.size());
    t.headers = {QStringLiteral("Pair"), QStringLiteral("Confidential r"),
                 QStringLiteral("Synthetic r"), QStringLiteral("Difference"),
                 QStringLiteral("Mean |difference|")};
    for (const auto& p : c.pairs)
        t.rows.push_back({QStringLiteral("%1 – %2").arg(qJoint(p.a), qJoint(p.b)),
                          formatCell(p.original), formatCell(p.synthetic), formatCell(p.difference),
                          formatCell(p.meanAbsDifference)});
    return t;
}

}  // namespace ppsynth::ui::results
