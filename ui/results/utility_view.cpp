#include "ui/results/utility_view.hpp"

#include <algorithm>

#include "ui/results/run_variables.hpp"

namespace ppsynth::ui::results {

Expected<study::RunResult> utilityOfVariable(const study::RunResult& run,
                                             const std::string& target) {
    const auto names = sensitiveNames(run);
    if (std::find(names.begin(), names.end(), target) == names.end())
        return Error{"'" + target + "' is not a sensitive variable of the run"};
    study::RunResult view;
    view.config = run.config;
    view.config.data.target = target;
    for (const auto& s : run.synthesizers) {
        study::SynthesizerResult v;
        v.name = s.name;
        v.scheme = s.scheme;
        v.utilityError = s.utilityError;
        if (s.utility) {
            const auto& reports = s.utility->variables;
            const auto it = std::find_if(reports.begin(), reports.end(),
                                         [&](const auto& r) { return r.target == target; });
            if (it != reports.end()) {
                v.utility = *it;
            } else if (v.utilityError.empty()) {
                v.utilityError =
                    "the utility report has no measures of '" + target +
                    "' (run.json's utility.variables lacks it: a run made before ppsynth "
                    "measured each variable; run it again to see them)";
            }
        }
        view.synthesizers.push_back(std::move(v));
    }
    return view;
}

}  // namespace ppsynth::ui::results
