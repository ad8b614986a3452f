// Small study configurations for the item-by-item CLI and cluster tests: a sweep on the
// bundled poisson example with the conjugate model and a poisson simulation (exact draws),
// each item in about a second; and comparing a folder with a local run's.
#pragma once

#include <QByteArray>
#include <QString>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ppsynth/study/study_options.hpp"
#include "test_files.hpp"

namespace ppsynth::test {

inline std::string itemsSweepConfig() {
    return R"({"data": {"path": ")" PPSYNTH_EXAMPLES_DIR R"(/poisson.csv", "target": "y"},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 5},
      "synthesis": {"m": 3}, "risk": {"L": 4}, "utility": {"bootstrap": 40},
      "sweep": {"points": [{"c": 0.7, "g": 0.0}, {"c": 0.5, "g": -0.3},
                           {"c": 1.0, "g": 0.0, "M": 3.5}]}})";
}

// `draws` sets how long an item takes (the tests that cancel an item mid-way want seconds).
inline std::string itemsSimulateConfig(int draws = 120, int replicates = 6) {
    return R"({"model": "poisson", "sizes": [30, 80], "replicates": )" +
           std::to_string(replicates) + R"(, "block_size": 2, "mcmc": {"draws": )" +
           std::to_string(draws) + R"(}, "seed": 13, "epsilon_grid": [4, 8, 12, 16]})";
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// Plans a study folder, computing nothing.
inline study::StudyOptions planOnly() {
    study::StudyOptions o;
    o.planOnly = true;
    return o;
}

// Computes items a to b of a study folder.
inline study::StudyOptions itemRange(std::size_t a, std::size_t b) {
    study::StudyOptions o;
    o.items = study::StudyOptions::ItemRange{a, b};
    return o;
}

// Drops every "seconds" key (timings differ from run to run), at any depth.
inline void eraseSeconds(nlohmann::json& j) {
    if (j.is_object()) j.erase("seconds");
    if (j.is_structured())
        for (auto& v : j) eraseSeconds(v);
}

// A sweep item without its timings (the seconds a point and its utility took).
inline std::string sweepItemWithoutSeconds(const std::string& text) {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) return "(damaged) " + text;
    eraseSeconds(j);
    return j.dump(1);
}

// Every item file of `dir` equals the local run's (sweeps: but for timings), and so do the
// assembled outputs that carry no timings.
inline void compareWithLocal(const std::filesystem::path& dir, const std::filesystem::path& local,
                             bool sweep) {
    QCOMPARE(filesUnder(dir / "items"), filesUnder(local / "items"));
    for (const auto& f : filesUnder(local / "items")) {
        const std::string a = slurp(dir / "items" / f), b = slurp(local / "items" / f);
        if (sweep)
            QCOMPARE(sweepItemWithoutSeconds(a), sweepItemWithoutSeconds(b));
        else
            QCOMPARE(a, b);
    }
    const std::vector<std::string> outputs =
        sweep ? std::vector<std::string>{"sweep.csv", "config.json"}
              : std::vector<std::string>{"replicates.csv", "distribution.csv", "delta_hat.csv",
                                         "config.json"};
    for (const auto& f : outputs) QVERIFY2(slurp(dir / f) == slurp(local / f), f.c_str());
}

}  // namespace ppsynth::test
