#include "ui/results/variable_view.hpp"

#include <algorithm>
#include <cmath>

#include "ui/results/run_variables.hpp"

namespace ppsynth::ui::results {

Expected<std::vector<double>> confidentialValues(const study::RunResult& run,
                                                 const data::Table& table,
                                                 const std::string& target) {
    const auto column = table.indexOf(target);
    if (!column)
        return Error{"the run's table has no column '" + target +
                     "': reopen the run with the data file it used"};
    const auto& c = table.column(*column);
    std::vector<double> values;
    values.reserve(run.inputs.keptRows.size());
    for (std::size_t row : run.inputs.keptRows) {
        if (row >= c.values().size())
            return Error{"the run's record in row " + std::to_string(row + 1) +
                         " is not in the table: reopen the run with the data file it used"};
        values.push_back(c.value(row));
    }
    return values;
}

Expected<study::RunResult> runOfVariable(const study::RunResult& run, const data::Table& table,
                                         const std::string& target) {
    const auto names = sensitiveNames(run);
    const auto it = std::find(names.begin(), names.end(), target);
    if (it == names.end()) return Error{"'" + target + "' is not a sensitive variable of the run"};
    const auto k = static_cast<std::size_t>(it - names.begin());
    auto values = confidentialValues(run, table, target);
    if (!values) return values.error();
    const std::size_t n = values->size();
    if (n != static_cast<std::size_t>(run.inputs.yOriginal.size()))
        return Error{"the run's table gives " + std::to_string(n) + " values of '" + target +
                     "' for " + std::to_string(run.inputs.yOriginal.size()) + " records"};
    study::RunResult view = run;
    view.config.data.target = target;
    view.inputs.yOriginal =
        Eigen::Map<const Eigen::VectorXd>(values->data(), static_cast<Eigen::Index>(n));
    for (auto& s : view.synthesizers)
        for (auto& d : s.synthetic) {
            if (d.size() != names.size() * n)
                return Error{"synthesizer '" + s.name + "': a synthetic dataset holds " +
                             std::to_string(d.size()) + " values, not " +
                             std::to_string(names.size() * n) + " (" +
                             std::to_string(names.size()) + " variables of " + std::to_string(n) +
                             " records)"};
            const auto first = d.begin() + static_cast<std::ptrdiff_t>(k * n);
            d = std::vector<double>(first, first + static_cast<std::ptrdiff_t>(n));
        }
    return view;
}

}  // namespace ppsynth::ui::results
