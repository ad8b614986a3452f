#include "ui/run/worker_priority.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace ppsynth::ui {

int lowerThreadPriority(int nice) {
#if defined(__linux__)
    // On Linux PRIO_PROCESS with a thread id addresses that one thread.
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno != 0) return 0;
    if (current >= nice) return current;
    if (setpriority(PRIO_PROCESS, tid, nice) != 0) return current;
    return nice;
#else
    (void)nice;
    return 0;
#endif
}

}  // namespace ppsynth::ui
