// What a ppsynth process stopped part-way (SIGKILL, a crash, a power cut) leaves beside its
// destination OUT, which may hold confidential files:
//   OUT.partial-PID      an unfinished run folder (run.json, synthetic/, confidential/), or an
//                        unfinished PDF report
//   OUT.tmp-PID-N        an unfinished release bundle (data/, manifest.json, ...) or file
//   OUT.old-PID-N        an earlier run folder or bundle moved aside while being replaced
//   .ppsynth-probe-PID-N an empty folder left by a destination check
// An entry is taken for one only when both its name and its content are what ppsynth writes;
// anything else is never touched. One whose process is still running is left alone.
#pragma once

#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth {

struct Leftover {
    enum class State {
        Removable,  // its process is gone: nothing will finish or remove it
        InUse,      // its process (this one, or another still running) may be writing it
        OnlyCopy,   // an earlier folder moved aside whose replacement never arrived: restore it
    };
    std::string path;  // as the destination was given ("out.partial-999999" beside "out")
    std::string what;  // "an unfinished run folder", "an unfinished release bundle", ...
    long pid = 0;
    State state = State::Removable;
    std::string host;  // another machine's (a temporary on a shared disk); empty: this one
};

// The leftovers of `destination`: entries beside it named after it, and, when it is a sweep or
// simulation folder (config.json), temporary files inside it and its items/. Sorted by path.
std::vector<Leftover> findLeftovers(const std::string& destination);

// Every leftover directly in `folder`, whatever it was named after (a project's runs folder).
std::vector<Leftover> findLeftoversIn(const std::string& folder);

// One line for a person: "'out.partial-999999' (an unfinished run folder of process 999999,
// which is no longer running)"; for one not Removable, why it stays and what to do.
std::string describeLeftover(const Leftover& leftover);

// Removes a Removable leftover (and what is in it; links inside are removed, never followed).
// Anything else is refused. The message names the path.
Status removeLeftover(const Leftover& leftover);

}  // namespace ppsynth
