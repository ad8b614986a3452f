// Runs a study's independent work items (simulation blocks, sweep points) in parallel with
// resume (private to core/study): items already saved in the folder are loaded instead of
// rerun, every finished item is saved at once, and results come back in item order, so
// they do not depend on the thread count or on how often the study was interrupted.
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "study/resumable_folder.hpp"

namespace ppsynth::study::detail {

struct BlockRunOptions {
    int threads = 1;
    std::string stage;  // progress stage, e.g. "simulate"
    ProgressCallback progress;
    const std::atomic<bool>* cancel = nullptr;
    // Only items first..last (inclusive): the others are neither loaded nor computed and
    // stay null in the results (one process of a job array).
    std::optional<std::pair<std::size_t, std::size_t>> only;
};

struct BlockRunStats {
    std::size_t run = 0;      // computed in this call
    std::size_t resumed = 0;  // loaded from the folder
};

// name(i): the item's file name (stable for a configuration); work(i): computes item i and
// returns its JSON. A saved item that cannot be read back is computed again.
Expected<std::vector<nlohmann::json>> runBlocks(
    const ResumableFolder& folder, std::size_t count,
    const std::function<std::string(std::size_t)>& name,
    const std::function<Expected<nlohmann::json>(std::size_t)>& work,
    const BlockRunOptions& options, BlockRunStats* stats = nullptr);

}  // namespace ppsynth::study::detail
