// The `run` command's body, shared with `demo`.
#pragma once

#include <string>

namespace ppsynth::cli {

struct RunArgs {
    std::string config, out;
    bool keepDraws = false, overwrite = false;
};

// Returns the process exit code: 0, 1 on error, 130 when cancelled.
int runRun(const RunArgs& args);

}  // namespace ppsynth::cli
