// A release bundle is made to be handed out as a whole: whatever sits in its folder goes with
// it. So confidential output (a run folder, per-record risks, a sweep, the disclosure-review
// report, charts) is never written inside one, nor a bundle inside another. Every place that
// takes such a destination, in the CLI and in the GUI, asks here before doing any work.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace ppsynth::release {

// Whether `dir` holds a manifest.json that ppsynth's release writer made: one carrying the
// bundle's format mark (notAReleaseManifest), since other programs use that name too.
bool holdsReleaseManifest(const std::filesystem::path& dir);

// The release bundle folder `path` is in (or is): the nearest folder, from `path` up to the
// root, holding ppsynth's manifest.json. An existing folder is checked from itself, a file or
// a name not yet written from its folder up (folders not yet made are passed over). Relative
// paths are taken from the current folder; a path through a symbolic link is also checked
// where the link leads. nullopt when there is none.
std::optional<std::filesystem::path> releaseBundleAround(const std::filesystem::path& path);

// Why `path` may not receive confidential output, in words a person can act on; empty when it
// may. `what` names the output ("the disclosure-review report").
std::string confidentialDestinationProblem(const std::filesystem::path& path,
                                           const std::string& what);

// Why a release bundle may not be written at `bundleDir`: the folder it would go in is inside
// another bundle. Replacing a bundle at `bundleDir` itself is not a problem. Empty when it may.
std::string nestedBundleProblem(const std::filesystem::path& bundleDir);

}  // namespace ppsynth::release
