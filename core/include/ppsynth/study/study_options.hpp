// Progress and cancellation for the long studies (simulation, sweep).
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>

#include "ppsynth/common/progress.hpp"

namespace ppsynth::study {

struct StudyOptions {
    ProgressCallback progress;  // stage "simulate" / "sweep" in finished items, and finer stages
    const std::atomic<bool>* cancel = nullptr;

    // A study run item by item, one process per item (a cluster job array):
    // planOnly: create the output folder, write DIR/plan.json (every item in order, with
    //   the items each depends on) and compute nothing;
    // items: compute only items first..last (0-based, inclusive) into a planned folder and
    //   write no summary; other processes may be filling the same folder at the same time.
    // Without either, the study runs (or resumes, or only assembles) every item.
    struct ItemRange {
        std::size_t first = 0, last = 0;
    };
    bool planOnly = false;
    std::optional<ItemRange> items;
};

}  // namespace ppsynth::study
