// The last step of writing an output folder (a release bundle, a run folder): the finished
// temporary folder takes the target's place, and an earlier folder there is never half
// deleted nor lost. Private to core; tests reach it to make a chosen rename or the deletion
// fail.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <system_error>

#include "ppsynth/common/expected.hpp"

namespace ppsynth {

// Renames `from` to `to`, setting `ec` on failure (std::filesystem::rename's contract).
using RenameFolder = std::function<void(const std::filesystem::path& from,
                                        const std::filesystem::path& to, std::error_code& ec)>;

// Deletes a folder and what is in it, setting `ec` on failure (std::filesystem::remove_all's).
using RemoveFolder = std::function<void(const std::filesystem::path& dir, std::error_code& ec)>;

// Moves the finished folder `temp` to `target`; `what` names such a folder in messages
// ("bundle", "run folder"). When `exists`, the old target is moved aside to a
// "<target>.old-<pid>-<n>" name first, the new folder renamed in, and only then the old one
// deleted: a failure never leaves a half-deleted folder at `target`. If the new folder cannot
// move in, the old one is moved back, and if even that fails the message names where it was
// left. Once the new folder is in place the result is a warning for the person, empty unless
// the old folder could not be deleted: then it says where it was left and that it must be
// removed by hand. `temp` is left to the caller when this fails.
Expected<std::string> replaceFolder(const std::filesystem::path& temp,
                                    const std::filesystem::path& target, bool exists,
                                    const std::string& what, const RenameFolder& rename = {},
                                    const RemoveFolder& remove = {});

}  // namespace ppsynth
