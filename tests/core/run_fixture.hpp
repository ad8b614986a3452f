// A small finished-run fixture for the loader, release and report tests: a labelled SPSS
// data file (categorical predictors with value labels, a numeric predictor, a count target
// and a column that is not modelled) and a configuration with every weighting scheme on the
// conjugate Poisson-means model, so a whole run takes well under a second.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/table.hpp"

namespace fixture {

constexpr std::size_t kRows = 240;

// y values carry no decimals (counts); household ids are far from any y.
inline ppsynth::data::Table runTable() {
    using ppsynth::data::Column;
    std::vector<std::int32_t> region, sex;
    std::vector<double> age, visits, household;
    ppsynth::Rng rng(20261123);
    for (std::size_t i = 0; i < kRows; ++i) {
        region.push_back(static_cast<std::int32_t>(i % 3));
        sex.push_back(static_cast<std::int32_t>((i / 3) % 2));
        age.push_back(18.5 + static_cast<double>((i * 7) % 60));
        // Counts around 30 with a long right tail: a few records stand out.
        const double u = static_cast<double>(rng() % 1000) / 1000.0;
        visits.push_back(std::floor(20 + 15 * u + (i % 37 == 0 ? 60.0 + double(i % 5) : 0.0)));
        household.push_back(900000 + 17.0 * static_cast<double>(i));
    }
    ppsynth::data::Table t;
    auto add = [&t](Column c) { [[maybe_unused]] auto s = t.addColumn(std::move(c)); };
    add(Column::categorical("region", region, {{"1", "North"}, {"2", "Süd"}, {"3", "East, far"}}));
    add(Column::categorical("sex", sex, {{"1", "female"}, {"2", "male"}}));
    add(Column::numeric("age", age));
    add(Column::count("visits", visits));
    add(Column::numeric("household", household));
    return t;
}

inline std::string configJson(const std::string& dataPath, int m = 3) {
    return R"({
      "data": {"path": ")" +
           dataPath + R"(", "target": "visits",
               "predictors": ["region", "sex", "age"], "known": ["region", "sex"],
               "types": {"household": "numeric", "age": "numeric"}},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 11},
      "synthesis": {"m": )" +
           std::to_string(m) + R"(}, "risk": {"L": 4}, "utility": {"bootstrap": 200},
      "synthesizers": [
        {"name": "Unweighted", "scheme": "unweighted"},
        {"name": "LW", "scheme": "lipschitz", "c": 0.7, "g": 0.0},
        {"name": "CW", "scheme": "marginal", "source": "data"},
        {"name": "Pairwise", "scheme": "pairwise", "source": "synthetic"},
        {"name": "EM", "scheme": "scalar", "match": "LW"},
        {"name": "LW_final", "scheme": "reweight", "base": "LW"}
      ]})";
}

// Writes data.sav and config.json into `dir`; returns the configuration's path.
inline std::string writeInputs(const std::filesystem::path& dir, int m = 3) {
    std::filesystem::create_directories(dir);
    const auto data = (dir / "data.sav").string();
    if (auto s = ppsynth::data::writeTable(runTable(), data); !s) return {};
    const auto config = (dir / "config.json").string();
    std::ofstream(config) << configJson(data, m);
    return config;
}

// A continuous variant for leak scans: incomes with four decimals, so every confidential
// value's text and bytes are distinctive. Normal model on log(y + s), short NUTS chains.
inline double income(std::size_t i) {
    return std::round(1e4 * (31000.0 + 913.37 * static_cast<double>((i * 37) % kRows) +
                             0.1234 * static_cast<double>(i))) /
           1e4;
}

inline ppsynth::data::Table incomeTable() {
    using ppsynth::data::Column;
    ppsynth::data::Table t = runTable();
    std::vector<double> y;
    for (std::size_t i = 0; i < kRows; ++i) y.push_back(income(i));
    [[maybe_unused]] auto s = t.addColumn(Column::numeric("income", y));
    return t;
}

inline std::string incomeConfigJson(const std::string& dataPath, int m) {
    return R"({
      "data": {"path": ")" +
           dataPath + R"(", "target": "income",
               "predictors": ["region", "sex", "age", "visits"], "known": ["region", "sex"],
               "transform": "log-shift"},
      "model": {"family": "normal"},
      "mcmc": {"chains": 2, "warmup": 150, "draws": 150, "seed": 5, "threads": 2},
      "synthesis": {"m": )" +
           std::to_string(m) + R"(}, "risk": {"L": 4}, "utility": {"bootstrap": 200},
      "synthesizers": [
        {"name": "Unweighted", "scheme": "unweighted"},
        {"name": "LW", "scheme": "lipschitz", "c": 0.7, "g": 0.0},
        {"name": "CW", "scheme": "marginal", "source": "data"}
      ]})";
}

inline std::string writeIncomeInputs(const std::filesystem::path& dir, int m) {
    std::filesystem::create_directories(dir);
    const auto data = (dir / "income.sav").string();
    if (auto s = ppsynth::data::writeTable(incomeTable(), data); !s) return {};
    const auto config = (dir / "config.json").string();
    std::ofstream(config) << incomeConfigJson(data, m);
    return config;
}

// Many records, many datasets: a release that takes long enough to be interrupted.
inline std::string writeLargeInputs(const std::filesystem::path& dir, std::size_t rows, int m) {
    using ppsynth::data::Column;
    std::filesystem::create_directories(dir);
    std::vector<std::int32_t> region;
    std::vector<double> age, visits;
    for (std::size_t i = 0; i < rows; ++i) {
        region.push_back(static_cast<std::int32_t>(i % 3));
        age.push_back(18.5 + static_cast<double>((i * 7) % 60));
        visits.push_back(static_cast<double>(10 + (i * 13) % 40));
    }
    ppsynth::data::Table t;
    [[maybe_unused]] auto s1 = t.addColumn(
        Column::categorical("region", region, {{"1", "North"}, {"2", "Süd"}, {"3", "East"}}));
    [[maybe_unused]] auto s2 = t.addColumn(Column::numeric("age", age));
    [[maybe_unused]] auto s3 = t.addColumn(Column::count("visits", visits));
    const auto data = (dir / "large.csv").string();
    if (auto s = ppsynth::data::writeTable(t, data); !s) return {};
    const auto config = (dir / "config.json").string();
    std::ofstream(config) << R"({"data": {"path": ")" << data
                          << R"(", "target": "visits", "predictors": ["region", "age"],
        "known": ["region"]}, "model": {"family": "poisson-means"},
        "mcmc": {"chains": 2, "warmup": 0, "draws": 200, "seed": 3},
        "synthesis": {"m": )"
                          << m << R"(}, "risk": {"L": 2}, "utility": {"enabled": false},
        "synthesizers": [{"name": "Unweighted", "scheme": "unweighted"}]})";
    return config;
}

}  // namespace fixture
