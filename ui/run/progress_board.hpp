// Where a run's worker threads leave their progress for the GUI: report() is called from
// the chains (often, cheaply, under a mutex), snapshot() by the GUI on a timer. Polling at a
// fixed rate keeps the GUI's cost independent of how often core reports (a signal per
// report flooded the event loop). Qt-free on purpose: plain data behind a mutex.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/progress.hpp"

namespace ppsynth::ui {

class ProgressBoard {
  public:
    struct Chain {
        std::string phase;  // "warmup", "sampling", ... (core's stage after "<name>: ")
        double done = 0, total = 0;
    };
    struct Snapshot {
        std::string fit;   // the synthesizer being fitted ("Unweighted", "LW", ...)
        std::string step;  // a step after its sampling ("utility", ...); empty while sampling
        int fitIndex = 0;  // 0-based count of fits started before this one
        int expectedFits = 1;
        std::vector<Chain> chains;
        double overall = 0;  // estimate in [0, 1)
        double elapsedSeconds = 0;
        double remainingSeconds = -1;  // < 0 while unknown
        long long reports = 0;         // how many reports arrived (for tests)
    };

    // `expectedFits`: at least one per synthesizer plus the unweighted fit (EM and
    // re-weighting may refit more often; the estimate then stretches).
    void reset(int chains, int warmup, int draws, int expectedFits);
    void report(const Progress& p);
    Snapshot snapshot() const;
    // The GUI's read: never waits for a worker that holds the lock (a worker preempted
    // while holding it, at its lower priority, would stall the GUI thread); nullopt then.
    std::optional<Snapshot> trySnapshot() const;

  private:
    Snapshot snapshotLocked() const;
    double chainFraction(const Chain& c) const;

    mutable std::mutex mutex_;
    std::chrono::steady_clock::time_point start_;
    Snapshot s_;
    int warmup_ = 1, draws_ = 1;
};

}  // namespace ppsynth::ui
