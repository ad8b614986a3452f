#include "ui/run/run_record.hpp"

#include <QStringList>

#include "ui/charts/plot_chart.hpp"
#include "ui/counted.hpp"

namespace ppsynth::ui {

using charts::formatValue;

QString epsilonSummary(const study::RunResult& run) {
    QStringList parts;
    for (const auto& s : run.synthesizers)
        parts << QStringLiteral("%1: ε %2")
                     .arg(QString::fromStdString(s.name), formatValue(s.epsilon.perDataset));
    return parts.join(QStringLiteral("; "));
}

QString RunRecord::epsilonSummary() const {
    return result ? ui::epsilonSummary(*result) : savedSummary;
}

QString recordsSummary(const study::RunResult& run) {
    const auto& report = run.inputs.report;
    QString text = QObject::tr("%1 of %2 modelled")
                       .arg(run.inputs.recordCount())
                       .arg(counted(static_cast<long long>(report.rowsInTable), QObject::tr("row"),
                                    QObject::tr("rows")));
    if (report.rowsDropped > 0)
        text += QObject::tr(", %1 dropped by listwise deletion (missing values)")
                    .arg(report.rowsDropped);
    return text;
}

QString detailedSummary(const study::RunResult& run) {
    QStringList lines;
    lines << QObject::tr("%1; m = %2 datasets, %3 s in all.")
                 .arg(recordsSummary(run))
                 .arg(run.config.synthesis.m)
                 .arg(run.seconds, 0, 'f', 1);
    for (const auto& s : run.synthesizers) {
        lines << QObject::tr(
                     "%1 (%2): ε = %3 per dataset, %4 in total over m = %5; "
                     "Δ(α,x) = %6 (unweighted Δx = %7, %8).")
                     .arg(QString::fromStdString(s.name),
                          QString::fromUtf8(study::toString(s.scheme).data()),
                          formatValue(s.epsilon.perDataset), formatValue(s.epsilon.total))
                     .arg(s.epsilon.m)
                     .arg(formatValue(s.deltaAlphaX), formatValue(s.deltaX),
                          QString::fromStdString(s.deltaMethod));
        lines << QObject::tr(
                     "    weights: median %1, mean %2, %3 left out; identification "
                     "risk: mean %4, max %5.")
                     .arg(formatValue(s.weights.median), formatValue(s.weights.mean))
                     .arg(qulonglong(s.weights.zeros))
                     .arg(formatValue(s.irSummary.mean), formatValue(s.irSummary.max));
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ppsynth::ui
