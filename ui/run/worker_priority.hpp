// Runs compute on every core they are given; the GUI thread must still get the CPU at once
// when an event arrives. So run workers (and the chain threads core starts from them, which
// inherit it on Linux) run at a lower scheduling priority (nice) than the GUI thread.
#pragma once

namespace ppsynth::ui {

// Lowers the calling thread's priority to at least `nice` (Linux; elsewhere a no-op).
// Unprivileged processes cannot raise it back, so call it only on threads reserved for
// background work (the run page's own thread pool). Returns the thread's nice value after.
int lowerThreadPriority(int nice = 10);

}  // namespace ppsynth::ui
