#include "ui/results/joint_utility_charts.hpp"

#include "ppsynth/utility/kde.hpp"
#include "ui/charts/violin_chart.hpp"
#include "ui/results/run_variables.hpp"
#include "ui/results/utility_view.hpp"

namespace ppsynth::ui::results {

namespace {

QString qJointChart(const std::string& s) {
    return QString::fromStdString(s);
}

const study::JointUtility* firstJoint(const study::RunResult& run) {
    for (const auto& s : run.synthesizers)
        if (s.utility && s.utility->joint && s.utility->joint->correlationComputed)
            return &*s.utility->joint;
    return nullptr;
}

Error noCorrelations(const study::RunResult& run) {
    std::string why = "the run's utility reports have no correlations of the sensitive variables";
    if (!severalTargets(run)) return Error{why + " (it has one sensitive variable)"};
    for (const auto& s : run.synthesizers) {
        if (!s.utilityError.empty()) why += " (" + s.name + ": " + s.utilityError + ")";
        if (s.utility && s.utility->joint)
            for (const auto& w : s.utility->joint->warnings) why += " (" + s.name + ": " + w + ")";
    }
    return Error{why};
}

// One violin per synthesizer with joint correlations, of `values(joint)`, marked at `mark`.
template <typename Values, typename Mark>
Expected<BuiltChart> jointViolins(const study::RunResult& run, Values values, Mark mark,
                                  const QString& markLabel, const QString& valueTitle,
                                  const utility::KdeOptions& kde, QString key, QString title,
                                  QString caption) {
    std::vector<charts::Violin> violins;
    for (const auto& s : run.synthesizers) {
        if (!s.utility || !s.utility->joint || !s.utility->joint->correlationComputed) continue;
        const auto& j = *s.utility->joint;
        const std::vector<double> v = values(j);
        auto summary = utility::violinSummary(v, kde);
        if (!summary)
            return summary.error().prefixed("synthesizer '" + s.name + "', " +
                                            valueTitle.toStdString() + ": ");
        violins.push_back({qJointChart(s.name), std::move(*summary), mark(j), markLabel});
    }
    if (violins.empty()) return noCorrelations(run);
    auto chart = std::make_unique<charts::ViolinChart>();
    chart->setValueTitle(valueTitle);
    chart->setViolins(std::move(violins));
    chart->setTitle(title);
    return BuiltChart{std::move(key), std::move(title), std::move(caption), false,
                      std::move(chart)};
}

}  // namespace

std::vector<std::pair<std::string, std::string>> correlationPairs(const study::RunResult& run) {
    std::vector<std::pair<std::string, std::string>> out;
    if (const auto* j = firstJoint(run))
        for (const auto& p : j->correlation.pairs) out.emplace_back(p.a, p.b);
    return out;
}

Expected<BuiltChart> correlationViolins(const study::RunResult& run, std::size_t pair) {
    const auto pairs = correlationPairs(run);
    if (pairs.empty()) return noCorrelations(run);
    if (pair >= pairs.size())
        return Error{"the run has " + std::to_string(pairs.size()) +
                     " pairs of sensitive variables; pair " + std::to_string(pair + 1) +
                     " does not exist"};
    const auto& [a, b] = pairs[pair];
    const auto find =
        [&first = a, &second = b](const study::JointUtility& j) -> const utility::CorrelationPair* {
        for (const auto& p : j.correlation.pairs)
            if (p.a == first && p.b == second) return &p;
        return nullptr;
    };
    utility::KdeOptions kde;
    kde.lower = -1.0;
    kde.upper = 1.0;
    const QString qa = qJointChart(a), qb = qJointChart(b);
    return jointViolins(
        run,
        [&](const study::JointUtility& j) {
            const auto* p = find(j);
            return p ? p->perDataset : std::vector<double>{};
        },
        [&](const study::JointUtility& j) {
            const auto* p = find(j);
            return p ? std::optional<double>(p->original) : std::nullopt;
        },
        QStringLiteral("confidential r"), QStringLiteral("Correlation r"), kde,
        QStringLiteral("violin_correlation_%1_%2").arg(variableKey(run, a), variableKey(run, b)),
        QStringLiteral("Joint utility: correlation of %1 and %2").arg(qa, qb),
        QStringLiteral("Each violin is the correlation of %1 and %2 in one synthesizer's "
                       "synthetic datasets; a synthesizer keeps the relationship when its "
                       "violin sits on the dashed confidential correlation.")
            .arg(qa, qb));
}

Expected<BuiltChart> correlationNormViolins(const study::RunResult& run) {
    utility::KdeOptions kde;
    kde.lower = 0.0;
    return jointViolins(
        run, [](const study::JointUtility& j) { return j.correlation.perDatasetFrobenius; },
        [](const study::JointUtility& j) { return std::optional<double>(j.correlation.frobenius); },
        QStringLiteral("mean over datasets"), QStringLiteral("‖R_l − R_o‖_F"), kde,
        QStringLiteral("violin_correlation_frobenius"),
        QStringLiteral("Joint utility: correlation-matrix difference"),
        QStringLiteral("Each violin is how far one synthesizer's datasets move the sensitive "
                       "variables' correlation matrix from the confidential one (Frobenius "
                       "norm, 0 = every correlation kept); the dashed line is its mean, the "
                       "number the tables report."));
}

std::vector<ChartRecipe> severalUtilityRecipes(const study::RunResult& run) {
    std::vector<ChartRecipe> out;
    const study::RunResult* r = &run;
    for (const auto& variable : sensitiveNames(run)) {
        auto view = utilityOfVariable(run, variable);
        const auto statistics = view ? utilityStatistics(*view) : std::vector<std::string>{};
        if (statistics.empty()) {
            out.push_back({QStringLiteral("Utility violins of %1").arg(qJointChart(variable)),
                           [r, variable]() -> Expected<BuiltChart> {
                               auto v = utilityOfVariable(*r, variable);
                               if (!v) return v.error();
                               return utilityViolins(*v, 0);
                           }});
            continue;
        }
        for (std::size_t k = 0; k < statistics.size(); ++k)
            out.push_back({QStringLiteral("Utility violins of %1, %2")
                               .arg(qJointChart(variable), qJointChart(statistics[k])),
                           [r, variable, k]() -> Expected<BuiltChart> {
                               auto v = utilityOfVariable(*r, variable);
                               if (!v) return v.error();
                               return utilityViolins(*v, k);
                           }});
    }
    out.push_back({QStringLiteral("Correlation-matrix difference violins"),
                   [r] { return correlationNormViolins(*r); }});
    const auto pairs = correlationPairs(run);
    for (std::size_t p = 0; p < pairs.size(); ++p)
        out.push_back({QStringLiteral("Correlation violins of %1 and %2")
                           .arg(qJointChart(pairs[p].first), qJointChart(pairs[p].second)),
                       [r, p] { return correlationViolins(*r, p); }});
    return out;
}

}  // namespace ppsynth::ui::results
