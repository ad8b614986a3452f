#include "ui/results/run_variables.hpp"

#include <QStringList>

#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/study/targets.hpp"
#include "ui/results/results_tables.hpp"
#include "ui/results/run_charts.hpp"

namespace ppsynth::ui::results {

std::vector<std::string> sensitiveNames(const study::RunResult& run) {
    if (run.config.data.target.empty() && run.config.data.targets.empty()) return {};
    return study::sensitiveVariables(run.config);
}

bool severalTargets(const study::RunResult& run) {
    return run.config.data.targets.size() > 1;
}

QString variablesPhrase(const study::RunResult& run) {
    QStringList names;
    for (const auto& t : sensitiveNames(run)) names << QString::fromStdString(t);
    if (names.isEmpty()) return QStringLiteral("y");
    if (names.size() == 1) return names.front();
    const QString last = names.takeLast();
    return QObject::tr("%1 and %2").arg(names.join(QStringLiteral(", ")), last);
}

QString closenessPhrase(const study::RunResult& run) {
    const auto& risk = run.config.risk;
    const QString unit = risk.percentage ? QObject::tr("of the record's value")
                                         : QObject::tr("in the variable's units");
    if (!severalTargets(run)) return QObject::tr("within %1 %2").arg(formatCell(risk.radius), unit);
    QStringList parts;
    for (const auto& t : sensitiveNames(run)) {
        const auto it = risk.radii.find(t);
        parts << QObject::tr("%1 within %2")
                     .arg(QString::fromStdString(t),
                          formatCell(it == risk.radii.end() ? risk.radius : it->second));
    }
    return QObject::tr("in a box, every variable close: %1 (%2)")
        .arg(parts.join(QStringLiteral(", ")), unit);
}

QString modelsPhrase(const study::RunResult& run) {
    auto one = [&run](const std::string& target) {
        const auto m = target.empty() ? run.config.model : study::modelFor(run.config, target);
        const std::string transform =
            target.empty() ? run.config.data.transform : study::transformFor(run.config, target);
        QString text = QString::fromStdString(models::familyLabel(m.family, m.K));
        if (transform != "none")
            text += QObject::tr(" on %1").arg(QString::fromStdString(transform));
        return text;
    };
    if (!severalTargets(run))
        return one(run.config.data.target.empty() ? std::string() : run.config.data.target);
    QStringList parts;
    for (const auto& t : sensitiveNames(run))
        parts << QObject::tr("%1: %2").arg(QString::fromStdString(t), one(t));
    return parts.join(QStringLiteral("; "));
}

QString variableKey(const study::RunResult& run, const std::string& target) {
    const auto names = sensitiveNames(run);
    const QString key = keyPart(target);
    int same = 0;
    std::size_t position = 0;
    for (std::size_t k = 0; k < names.size(); ++k) {
        if (keyPart(names[k]) == key) ++same;
        if (names[k] == target) position = k + 1;
    }
    return same > 1 && position > 0 ? key + QStringLiteral("_%1").arg(position) : key;
}

std::vector<double> firstVariable(const study::RunResult& run, const std::vector<double>& dataset) {
    const auto n = static_cast<std::size_t>(run.inputs.yOriginal.size());
    const std::size_t q = sensitiveNames(run).size();
    if (q > 1 && n > 0 && dataset.size() == q * n)
        return {dataset.begin(), dataset.begin() + static_cast<std::ptrdiff_t>(n)};
    return dataset;
}

}  // namespace ppsynth::ui::results
