#include "ui/run/progress_board.hpp"

#include <algorithm>

namespace ppsynth::ui {

void ProgressBoard::reset(int chains, int warmup, int draws, int expectedFits) {
    std::lock_guard lock(mutex_);
    start_ = std::chrono::steady_clock::now();
    s_ = Snapshot{};
    s_.chains.assign(static_cast<std::size_t>(std::max(1, chains)), Chain{});
    s_.expectedFits = std::max(1, expectedFits);
    s_.fitIndex = -1;
    warmup_ = std::max(0, warmup);
    draws_ = std::max(1, draws);
}

double ProgressBoard::chainFraction(const Chain& c) const {
    const double part = c.total > 0 ? std::clamp(c.done / c.total, 0.0, 1.0) : 0.0;
    const double w = double(warmup_) / double(warmup_ + draws_);
    if (c.phase == "warmup") return part * w;
    if (c.phase == "sampling") return w + part * (1 - w);
    return 0;
}

void ProgressBoard::report(const Progress& p) {
    std::lock_guard lock(mutex_);
    ++s_.reports;
    // Stages look like "<synthesizer>: <phase>"; anything else is a step of the current fit.
    const auto colon = p.stage.find(": ");
    const std::string fit = colon == std::string::npos ? s_.fit : p.stage.substr(0, colon);
    const std::string phase = colon == std::string::npos ? p.stage : p.stage.substr(colon + 2);
    // Steps other than the sampler's (core's "<name>: utility", ...) say what is going on
    // but are not fits: they neither start a fit nor move the chains' bars.
    if (phase != "warmup" && phase != "sampling") {
        s_.step = phase;
        return;
    }
    s_.step.clear();
    const auto chain = static_cast<std::size_t>(std::max(0, p.worker));
    if (chain >= s_.chains.size()) s_.chains.resize(chain + 1);
    Chain& c = s_.chains[chain];
    // A new fit: another synthesizer, or the same one starting over (EM's and re-weighting's
    // refits): its chain goes back to warm-up.
    const bool restarted = phase == "warmup" && (c.phase == "sampling" || p.done < c.done);
    if (fit != s_.fit || restarted || s_.fitIndex < 0) {
        s_.fit = fit;
        ++s_.fitIndex;
        for (auto& other : s_.chains) other = Chain{};
    }
    c.phase = phase;
    c.done = p.done;
    c.total = p.total;
}

ProgressBoard::Snapshot ProgressBoard::snapshot() const {
    std::lock_guard lock(mutex_);
    return snapshotLocked();
}

std::optional<ProgressBoard::Snapshot> ProgressBoard::trySnapshot() const {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return std::nullopt;
    return snapshotLocked();
}

ProgressBoard::Snapshot ProgressBoard::snapshotLocked() const {
    Snapshot out = s_;
    out.fitIndex = std::max(0, s_.fitIndex);
    double sum = 0;
    for (const auto& c : s_.chains) sum += chainFraction(c);
    const double current = s_.chains.empty() ? 0 : sum / double(s_.chains.size());
    const int fits = std::max(out.expectedFits, out.fitIndex + 1);
    out.overall = std::min(0.99, (double(out.fitIndex) + current) / double(fits));
    out.elapsedSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    // Linear extrapolation; only once there is enough progress to extrapolate from.
    out.remainingSeconds =
        out.overall > 0.02 ? out.elapsedSeconds * (1 - out.overall) / out.overall : -1;
    return out;
}

}  // namespace ppsynth::ui
