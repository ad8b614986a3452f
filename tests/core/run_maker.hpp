// A run made as `ppsynth-cli run` makes one, for tests that need a real run or run folder:
// a fixture, so a failure aborts the test binary instead of being a test result.
#pragma once

#include <QtGlobal>
#include <cstdint>
#include <filesystem>
#include <string>

#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"

namespace fixture {

struct MadeRun {
    ppsynth::study::RunResult run;
    ppsynth::data::Table table;  // as read from the configuration's data file
};

// The configuration at `configPath`, read and run; a seed other than 0 replaces its own.
inline MadeRun runConfig(const std::string& configPath, std::uint64_t seed = 0) {
    namespace study = ppsynth::study;
    auto c = study::loadRunConfig(configPath);
    if (!c) qFatal("%s", c.message().c_str());
    if (seed != 0) c->mcmc.seed = seed;
    auto input = study::readRunData(*c);
    if (!input) qFatal("%s", input.message().c_str());
    auto run = study::runStudy(*c, input->table);
    if (!run) qFatal("%s", run.message().c_str());
    run->dataSha256 = input->sha256;
    return {std::move(*run), std::move(input->table)};
}

inline void writeRun(const MadeRun& made, const std::filesystem::path& out,
                     const ppsynth::study::OutputOptions& options = {}) {
    if (auto s = ppsynth::study::writeRunOutput(made.run, made.table, out.string(), options); !s)
        qFatal("%s", s.message().c_str());
}

}  // namespace fixture
