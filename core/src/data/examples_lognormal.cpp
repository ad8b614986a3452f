// SIMULATED skewed outcome imitating the simulation study of Hu, Savitsky & Williams,
// "Bayesian pseudo posterior synthesis for data privacy protection" (paper 002, sec. 5):
// 1000 values from a two-component lognormal mixture with 15 categorical predictors, an
// intruder who knows 5 of them, and synthetic-data densities with modes near 0.1 and 1 and
// largest values about 1.7 to 3.4. The paper gives no further settings; these are assumed:
// - x1..x15 uniform over 2, 3 or 4 levels (x1 2, x2 3, x3 4, x4 2, ...), labels "a".."d";
// - components: weight 0.4 with log-mean log(0.12) and sd 0.45 (mode near 0.1), and weight
//   0.6 with log-mean 0 and sd 0.30 (mode near 1);
// - x1..x8 shift the log outcome by a slope per level step (centred, so the component
//   means stay put; the same in both components); x9..x15 have no effect.
#include <array>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <string>

#include "data/examples_detail.hpp"

namespace ppsynth::data::detail {

namespace {
constexpr std::size_t kLognormalRows = 1000;
constexpr std::size_t kPredictors = 15;
constexpr std::array<double, kPredictors> kSlope = {
    0.10, -0.08, 0.12, -0.10, 0.08, 0.08, -0.06, 0.10, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};

std::int32_t levelCount(std::size_t j) {
    return 2 + static_cast<std::int32_t>(j % 3);
}
}  // namespace

Table makeLognormalMixtureExample(Rng& rng) {
    std::array<std::vector<std::int32_t>, kPredictors> x;
    for (std::size_t j = 0; j < kPredictors; ++j) x[j].resize(kLognormalRows);
    std::vector<double> y(kLognormalRows);

    boost::random::bernoulli_distribution<double> lowComponent(0.4);
    boost::random::normal_distribution<double> low(std::log(0.12), 0.45);
    boost::random::normal_distribution<double> high(0.0, 0.30);
    for (std::size_t i = 0; i < kLognormalRows; ++i) {
        double shift = 0;
        for (std::size_t j = 0; j < kPredictors; ++j) {
            const std::int32_t levels = levelCount(j);
            const std::int32_t code =
                boost::random::uniform_int_distribution<std::int32_t>(0, levels - 1)(rng);
            x[j][i] = code;
            shift += kSlope[j] * (code - 0.5 * (levels - 1));
        }
        const double logY = lowComponent(rng) ? low(rng) : high(rng);
        y[i] = std::round(std::exp(logY + shift) * 1e6) / 1e6;  // 6 decimals, as a file would
    }

    Table t;
    const auto add = [&t](Column c) { (void)t.addColumn(std::move(c)); };  // names are distinct
    add(Column::numeric("y", std::move(y)));
    const std::vector<Level> all = textLevels({"a", "b", "c", "d"});
    for (std::size_t j = 0; j < kPredictors; ++j) {
        std::vector<Level> levels(all.begin(), all.begin() + levelCount(j));
        add(Column::categorical("x" + std::to_string(j + 1), std::move(x[j]), std::move(levels)));
    }
    return t;
}

}  // namespace ppsynth::data::detail
