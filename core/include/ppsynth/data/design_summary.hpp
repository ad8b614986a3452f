// What a run fits, said before it fits it: every predictor with its type, the columns it
// contributes to X, its reference level or its standardization, and the number of
// coefficients. Built once from the prepared inputs; the CLI prints it, the GUI's Run page
// and the report show it and run.json keeps it under "design", so a predictor that became
// an 83-column dummy block instead of one slope is seen, not discovered later.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/data/prepare.hpp"

namespace ppsynth::data {

struct PredictorDesign {
    std::string name;
    std::string type;                  // "categorical", "numeric" or "count"
    std::vector<std::string> columns;  // its columns of X, in order
    // Categorical: the levels with records (the reference included) and the reference.
    std::size_t levels = 0;
    std::string reference;
    // Numeric and count: standardized as (x - mean) / sd over the used records.
    std::optional<double> mean, sd;

    bool operator==(const PredictorDesign&) const = default;
};

struct DesignSummary {
    std::string target;
    std::string transform = "none";  // TransformKind's name
    double shift = 0.0;              // log-shift's s
    std::size_t records = 0;
    std::vector<PredictorDesign> predictors;  // in X's column order (categorical first)
    std::size_t columns = 0;                  // columns of X, the intercept included
    // Mixture components, each with its own coefficients (1 for every other model).
    std::size_t components = 1;
    // False for a model that fits one mean and ignores X (Poisson means): the predictors
    // then stay in the synthetic data but not in the model, and there are no coefficients.
    bool predictorsUsed = true;

    std::size_t coefficients() const { return predictorsUsed ? columns * components : 0; }
    bool operator==(const DesignSummary&) const = default;
};

DesignSummary summarizeDesign(const ModelInputs& inputs, const std::string& target,
                              std::size_t components = 1, bool predictorsUsed = true);

// The summary as lines a person reads: a headline, then one line per predictor
// ("  education: categorical, 4 levels, reference 'HS', 3 columns: education[BA], ...").
// A long list of dummy columns is cut after `maxNames` names (the count stays exact).
std::vector<std::string> describeDesign(const DesignSummary& design, std::size_t maxNames = 6);

}  // namespace ppsynth::data
