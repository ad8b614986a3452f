// How much memory a reader may use, and sizes as a person reads them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace ppsynth::data::detail {

// MemAvailable from /proc/meminfo in bytes; nullopt where there is none.
std::optional<std::size_t> availableMemoryBytes();

// "512 bytes", "3.4 KB", "812.0 MB", "1.6 GB" (powers of 1024).
std::string humanBytes(std::size_t bytes);

}  // namespace ppsynth::data::detail
