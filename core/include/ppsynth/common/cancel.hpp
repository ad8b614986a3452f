// The cancel flag long work polls: a null pointer means "cannot be cancelled".
#pragma once

#include <atomic>

namespace ppsynth {

inline bool stopRequested(const std::atomic<bool>* cancel) {
    return cancel && cancel->load(std::memory_order_relaxed);
}

// Work over the columns of a wide matrix polls once per this many columns: often enough to
// stop within milliseconds, rarely enough to cost nothing.
inline constexpr long kColumnsPerPoll = 64;

}  // namespace ppsynth
