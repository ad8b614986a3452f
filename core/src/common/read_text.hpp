// Reading a whole file into memory (private to core): what the study folders and the
// cluster status read (configurations, items, plans, logs).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace ppsynth {

// The bytes of the file at `path`, or nullopt when it cannot be opened (absent, unreadable).
std::optional<std::string> readFileText(const std::filesystem::path& path);

}  // namespace ppsynth
