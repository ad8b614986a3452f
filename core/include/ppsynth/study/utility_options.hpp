// What the utility report of a run measures (METHOD.md section 6) and how: the run
// configuration's "utility" block and the options of `ppsynth-cli utility`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::study {

struct UtilityOptions {
    // false skips the whole report (long simulations that only need the risk side).
    bool enabled = true;
    // Quantiles compared besides the mean and the median (METHOD.md default 0.15, 0.90);
    // empty compares the mean and the median only.
    std::vector<double> quantiles{0.15, 0.90};
    // Bootstrap replicates B, on the confidential data and within each synthetic dataset.
    int bootstrap = 1000;
    // Predictors of the regression of y (table column names). nullopt: every predictor of
    // the model; an empty list: no regression.
    std::optional<std::vector<std::string>> regress;
    bool pmse = true;     // the propensity-score measure (one logistic fit per dataset)
    double level = 0.95;  // coverage of every interval
    // Points j / (gridPoints - 1) of the quantile functions kept for the violins (the
    // distribution of a statistic across datasets as averaged quantiles).
    int gridPoints = 101;

    // Quantiles in [0, 1], bootstrap >= 2, level in (0, 1), gridPoints >= 2.
    Status validate() const;
};

}  // namespace ppsynth::study
