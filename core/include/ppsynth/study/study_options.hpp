// Progress and cancellation for the long studies (simulation, sweep).
#pragma once

#include <atomic>

#include "ppsynth/common/progress.hpp"

namespace ppsynth::study {

struct StudyOptions {
    ProgressCallback progress;  // stage "simulate" / "sweep" in finished items, and finer stages
    const std::atomic<bool>* cancel = nullptr;
};

}  // namespace ppsynth::study
