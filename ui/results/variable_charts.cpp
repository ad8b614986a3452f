#include "ui/results/variable_charts.hpp"

#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "ui/results/run_variables.hpp"
#include "ui/results/variable_view.hpp"

namespace ppsynth::ui::results {

namespace {

using study::RunResult;

// One variable's view of the run (runOfVariable), made when its first chart is built and
// dropped after its last: a view copies the run's records and that variable's synthetic data.
class LazyVariableView {
  public:
    LazyVariableView(const RunResult& run, std::shared_ptr<const data::Table> table,
                     std::string target)
        : run_(&run), table_(std::move(table)), target_(std::move(target)) {}

    const Expected<RunResult>& get() {
        if (!view_) view_.emplace(runOfVariable(*run_, *table_, target_));
        return *view_;
    }
    void drop() { view_.reset(); }

  private:
    const RunResult* run_;
    std::shared_ptr<const data::Table> table_;
    std::string target_;
    std::optional<Expected<RunResult>> view_;
};

using DrawOfVariable = std::function<Expected<BuiltChart>(const RunResult&, const std::string&)>;

}  // namespace

std::vector<ChartRecipe> otherVariableRecipes(const RunResult& run,
                                              const RunChartOptions& options) {
    std::vector<ChartRecipe> out;
    if (!severalTargets(run)) return out;
    const double tail = options.tailQuantile;
    const std::vector<std::pair<QString, DrawOfVariable>> kinds = {
        {QStringLiteral("synthetic against confidential"),
         [](const RunResult& v, const std::string& s) {
             return syntheticVsConfidentialScatter(v, s);
         }},
        {QStringLiteral("weight against y"),
         [](const RunResult& v, const std::string& s) { return weightVsYScatter(v, s); }},
        {QStringLiteral("density"),
         [](const RunResult& v, const std::string& s) { return densityChart(v, s); }},
        {QStringLiteral("tail density"),
         [tail](const RunResult& v, const std::string& s) { return densityTailChart(v, s, tail); }},
    };
    for (const auto& target : sensitiveNames(run)) {
        if (target == run.config.data.target) continue;  // the run's own charts draw it
        const QString variable = QString::fromStdString(target);
        // Read once here, so a variable that cannot be drawn is one note, not one per chart.
        std::optional<Error> unreadable;
        if (!options.table) {
            unreadable = Error{"the confidential values of '" + target +
                               "' are in the data file the run used, which was not given: open "
                               "the run with its data file to chart them"};
        } else if (auto values = confidentialValues(run, *options.table, target); !values) {
            unreadable = values.error();
        }
        if (unreadable) {
            out.push_back({QStringLiteral("Charts of %1").arg(variable),
                           [e = *unreadable]() -> Expected<BuiltChart> { return e; }});
            continue;
        }
        auto view = std::make_shared<LazyVariableView>(run, options.table, target);
        const std::size_t count = run.synthesizers.size() * kinds.size();
        std::size_t made = 0;
        for (const auto& s : run.synthesizers)
            for (const auto& [kind, draw] : kinds) {
                const bool last = ++made == count;
                out.push_back(
                    {QStringLiteral("%1, %2 of %3")
                         .arg(QString::fromStdString(s.name), kind, variable),
                     [view, drawChart = draw, name = s.name, last]() -> Expected<BuiltChart> {
                         const auto& v = view->get();
                         if (!v) return v.error();
                         auto chart = drawChart(*v, name);
                         if (last) view->drop();
                         return chart;
                     }});
            }
    }
    return out;
}

}  // namespace ppsynth::ui::results
