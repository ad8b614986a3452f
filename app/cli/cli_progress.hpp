// Shared by the long-running commands: Ctrl-C asks for a clean stop (the run winds down,
// nothing half-written stays), and progress goes to stderr, throttled.
#pragma once

#include <atomic>

#include "ppsynth/common/progress.hpp"

namespace ppsynth::cli {

// Installs a SIGINT/SIGTERM handler that sets the returned flag (once per process).
const std::atomic<bool>& installCancelHandler();

// Prints "stage: done/total" lines to stderr at most every half second per stage, and
// answers Stop once the cancel flag is set.
ProgressCallback stderrProgress(const std::atomic<bool>& cancel);

}  // namespace ppsynth::cli
