// Outputs are written atomically: into a temporary file beside the target, flushed, then
// renamed over it, so a reader never sees a half-written file and a failure leaves the
// old file (or nothing) in place.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "ppsynth/common/expected.hpp"

namespace ppsynth {

// Calls write(stream) on a temporary file and renames it to `path` when write returns ok
// and the stream is good; otherwise removes the temporary and returns the error.
// This machine's name as temporary files carry it ("out.csv.tmp-HOST-PID-N"), so two
// processes of one PID on two cluster nodes writing into one shared folder never share a
// temporary, and a leftover tells which machine's process made it.
std::string hostTag();

Status writeFileAtomically(const std::string& path,
                           const std::function<Status(std::ostream&)>& write);

// For writers that need a path (C libraries such as ReadStat): produce(tempPath) writes the
// file itself; on success the temporary is renamed to `path`, on failure removed.
Status commitFileAtomically(const std::string& path,
                            const std::function<Status(const std::string& tempPath)>& produce);

// Whether a file may be written at `path`: nothing is there, or, with `overwrite`, a file
// (a folder or anything else is never replaced). The message names the path and says what to
// do ("... already exists; choose another file or allow overwriting").
Status checkFileDestination(const std::string& path, bool overwrite);

// The path of `relative` (a '/'-separated path such as "synthetic/LW/synthetic_01.csv") under
// the folder `root`, proven to lie inside it: `relative` is not absolute and holds no "." or
// ".." component, every link among the folders on the way that exist is resolved and the
// file's folder is still `root` or below it, and the file itself is not a link. Every file a
// command writes into its destination takes its path from here, so a name that slipped
// through as a path cannot place a file anywhere else.
Expected<std::string> pathInside(const std::string& root, const std::string& relative);

}  // namespace ppsynth
