// A minimal parallel loop for independent work items. Items write to their own slots and
// the caller combines slots in index order, so results never depend on the thread count.
#pragma once

#include <cstddef>
#include <functional>

namespace ppsynth {

// Runs body(i) for i in [0, count) on up to `threads` threads (the calling thread is one
// of them). body returns false to ask the loop to stop early; parallelFor then returns
// false once running items have finished. body must not throw.
bool parallelFor(std::size_t count, int threads, const std::function<bool(std::size_t)>& body);

}  // namespace ppsynth
