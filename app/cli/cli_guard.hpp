// Confidential outputs never go into a release bundle (core's release/bundle_guard.hpp): each
// command that writes one checks its destination first, before reading or computing anything.
#pragma once

#include <string>

#include "ppsynth/common/destination.hpp"

namespace ppsynth::cli {

// 0 when `out` (given as `flag`) may receive `what`; otherwise prints why on stderr and
// returns 2, the exit code of a usage error (nothing was read or written). An empty `out`
// (an optional output not asked for) is fine.
int refuseInsideBundle(const std::string& out, const std::string& flag, const std::string& what);

// The same for `release`: 2 when the bundle's folder would be inside another bundle.
int refuseBundleInBundle(const std::string& out, const std::string& flag);

// 0 when a file may be written at `out` (given as `flag`): nothing is there, or a file and
// `overwrite` (--overwrite). Otherwise prints why on stderr (with "--overwrite replaces it"
// when that would do) and returns 1, before anything is read or written. An empty `out` (an
// optional output not asked for) is fine.
int refuseExistingFile(const std::string& out, bool overwrite);

// 0 when `out` (given as `flag`) can be written as `use` says (checkWritableDestination: a
// read-only mount, a path under a file, a folder without write permission are refused);
// otherwise prints why on stderr and returns 1, before anything is read or computed. An
// empty `out` is fine.
int refuseUnwritable(const std::string& out, const std::string& flag, DestinationUse use);

// Says on stderr what an earlier ppsynth, stopped part-way, left beside `out` (which may hold
// confidential files) and how to remove it (`ppsynth-cli clean OUT`); silent when nothing.
void warnAboutLeftovers(const std::string& out);

}  // namespace ppsynth::cli
