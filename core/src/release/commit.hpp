// The last step of writing a bundle: the finished temporary folder takes the target's place.
// Private to the release writer; tests reach it to make a chosen rename or the deletion fail.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <system_error>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::release::detail {

// Renames `from` to `to`, setting `ec` on failure (std::filesystem::rename's contract).
using RenameFolder = std::function<void(const std::filesystem::path& from,
                                        const std::filesystem::path& to, std::error_code& ec)>;

// Deletes a folder and what is in it, setting `ec` on failure (std::filesystem::remove_all's).
using RemoveFolder = std::function<void(const std::filesystem::path& dir, std::error_code& ec)>;

// Moves `temp` to `target`. When `exists`, the old target is moved aside to a ".old-" name
// first and deleted after; if the new bundle cannot move in, the old one is moved back, and
// if even that fails the message names where it was left. Once the new bundle is in place
// the result is a warning for the person, empty unless the old bundle could not be deleted:
// then it says where it was left and that it must be removed by hand.
Expected<std::string> commitBundle(const std::filesystem::path& temp,
                                   const std::filesystem::path& target, bool exists,
                                   const RenameFolder& rename = {},
                                   const RemoveFolder& remove = {});

}  // namespace ppsynth::release::detail
