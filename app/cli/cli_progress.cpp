#include "cli_progress.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace ppsynth::cli {

namespace {
std::atomic<bool> gCancel{false};
extern "C" void onSignal(int) {
    gCancel.store(true);
}
}  // namespace

const std::atomic<bool>& installCancelHandler() {
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    return gCancel;
}

ProgressCallback stderrProgress(const std::atomic<bool>& cancel) {
    struct State {
        std::mutex mutex;
        std::map<std::string, std::chrono::steady_clock::time_point> last;
    };
    auto state = std::make_shared<State>();
    return [state, &cancel](const Progress& p) {
        if (cancel.load()) return Continue::Stop;
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(state->mutex);
        auto& last = state->last[p.stage];
        const bool finished = p.total > 0 && p.done >= p.total;
        if (!finished && now - last < std::chrono::milliseconds(500)) return Continue::Yes;
        last = now;
        if (p.total > 0)
            std::fprintf(stderr, "%s [%d]: %.0f/%.0f\n", p.stage.c_str(), p.worker, p.done,
                         p.total);
        else
            std::fprintf(stderr, "%s\n", p.stage.c_str());
        return Continue::Yes;
    };
}

}  // namespace ppsynth::cli
