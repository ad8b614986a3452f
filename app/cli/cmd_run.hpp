// The `run` command's body, shared with `demo`, and the table reading shared with `sweep`.
#pragma once

#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::cli {

struct RunArgs {
    std::string config, out;
    bool keepDraws = false, overwrite = false;
};

// Returns the process exit code: 0, 1 on error, 130 when cancelled.
int runRun(const RunArgs& args);

}  // namespace ppsynth::cli
