// Wall-clock seconds since a start point, for the timings runs report.
#pragma once

#include <chrono>

namespace ppsynth {

inline double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace ppsynth
