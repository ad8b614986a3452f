// Progress and cancellation for long synchronous core calls, without Qt (the idea of
// Ceres' IterationCallback): the callee reports, the caller answers continue or stop.
#pragma once

#include <functional>
#include <string>

namespace ppsynth {

enum class Continue { Yes, Stop };

struct Progress {
    std::string stage;  // e.g. "reading", "warmup", "sampling"
    int worker = 0;     // chain or thread index, 0 when there is only one
    double done = 0;    // units finished
    double total = 0;   // units expected; 0 when unknown
};

// Called often from worker threads; must be thread-safe and cheap. Returning Stop asks
// the callee to wind down promptly and return a "cancelled" error.
using ProgressCallback = std::function<Continue(const Progress&)>;

inline Continue report(const ProgressCallback& cb, const Progress& p) {
    return cb ? cb(p) : Continue::Yes;
}

}  // namespace ppsynth
