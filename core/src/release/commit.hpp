// The last step of writing a bundle: the finished temporary folder takes the target's place
// (common/replace_folder.hpp, the same as for run folders). Private to the release writer;
// tests reach it to make a chosen rename or the deletion fail.
#pragma once

#include <filesystem>
#include <string>

#include "common/replace_folder.hpp"
#include "ppsynth/common/expected.hpp"

namespace ppsynth::release::detail {

using ppsynth::RemoveFolder;
using ppsynth::RenameFolder;

// ppsynth::replaceFolder for a bundle: when `exists`, the old bundle is moved aside to
// a ".old-" name first and deleted after; if the new bundle cannot move in, the old one is
// moved back, and if even that fails the message names where it was left. Once the new bundle
// is in place the result is a warning for the person, empty unless the old bundle could not
// be deleted: then it says where it was left and that it must be removed by hand.
Expected<std::string> commitBundle(const std::filesystem::path& temp,
                                   const std::filesystem::path& target, bool exists,
                                   const RenameFolder& rename = {},
                                   const RemoveFolder& remove = {});

}  // namespace ppsynth::release::detail
