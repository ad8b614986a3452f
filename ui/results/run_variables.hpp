// A run's sensitive variables as the results views name them (METHOD.md section 9): their
// names in synthesis order, the phrase "income and doctor_visits", the identification risk's
// box in words, and the first variable's part of a synthetic dataset (datasets hold the
// variables one after another; the run's confidential y, inputs.yOriginal, is the first's).
#pragma once

#include <QString>
#include <string>
#include <vector>

#include "ppsynth/study/runner.hpp"

namespace ppsynth::ui::results {

// data.targets, or the one data.target.
std::vector<std::string> sensitiveNames(const study::RunResult& run);
bool severalTargets(const study::RunResult& run);
// "income", "income and doctor_visits", "income, food and rent".
QString variablesPhrase(const study::RunResult& run);
// The closeness the identification risk counts: "within 0.2 of the record's value" for one
// variable; for several "a box: income within 0.2, doctor_visits within 0.5 (fractions of the
// record's values)".
QString closenessPhrase(const study::RunResult& run);
// Each variable's model in words ("normal regression on log-shift"), in synthesis order.
QString modelsPhrase(const study::RunResult& run);
// `target` as a part of a chart's key (a file name): keyPart() of the name, with the
// suffix "_<k>" (1-based position) when another of the run's variables maps to the same part,
// so two variables never share a file.
QString variableKey(const study::RunResult& run, const std::string& target);
// The first sensitive variable's values of a synthetic dataset (all of it for one variable).
std::vector<double> firstVariable(const study::RunResult& run, const std::vector<double>& dataset);

}  // namespace ppsynth::ui::results
