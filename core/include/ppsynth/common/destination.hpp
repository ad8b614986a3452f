// Where a command writes (a run folder, a study folder, a bundle, a file) is proven writable
// before any data is read or any chain runs: a read-only mount, a path under a file or a
// folder without write permission is said at once, not after the whole fit.
#pragma once

#include <string>

#include "ppsynth/common/expected.hpp"

namespace ppsynth {

// How a command writes at its destination.
enum class DestinationUse {
    // Written beside it and renamed into place (a run folder, a release bundle, a file): the
    // folder that holds the destination must take new entries.
    Replaced,
    // Filled in place (a sweep or simulation folder resumed, a folder of example files): an
    // existing destination folder must take new entries itself.
    Filled,
};

// Proves that `path` can be written as `use` says, by creating and removing a probe folder
// (".ppsynth-probe-PID-N") where the first new entry would go: in the destination when it is
// an existing folder that is filled, otherwise in the nearest existing folder above it (the
// folders between are made later by the command). The destination itself is never created.
// The message names `path` and the reason ("'/mnt/cd' is on a read-only file system",
// "permission denied in '/srv/out'", "'notes.txt' is a file, not a folder") and says what to
// do.
Status checkWritableDestination(const std::string& path,
                                DestinationUse use = DestinationUse::Replaced);

}  // namespace ppsynth
