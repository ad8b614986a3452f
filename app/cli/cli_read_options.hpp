// The read options of the commands that take data files directly (inspect, utility, risk):
// the same keys as a run configuration's data.read, checked the same way.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/io.hpp"

namespace ppsynth::cli {

struct ReadFlags {
    std::optional<std::string> delimiter, quote, decimal, thousands, encoding, statEncoding;
    std::optional<std::vector<std::string>> missing;
    bool noHeader = false;
};

// `which` says what the options apply to in the help text (e.g. "the data file").
void addReadFlags(CLI::App* cmd, ReadFlags& flags, const std::string& which);
Expected<data::ReadOptions> readOptionsFrom(const ReadFlags& flags);

}  // namespace ppsynth::cli
