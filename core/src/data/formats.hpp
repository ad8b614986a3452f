// Per-format readers and writers behind data/io.hpp's dispatch (private to core).
#pragma once

#include <string>

#include "ppsynth/data/io.hpp"

namespace ppsynth::data::detail {

Expected<Table> readCsv(const std::string& path, const ReadOptions& options, ReadReport* report);
Status writeCsv(const Table& table, const std::string& path, const WriteOptions& options);

// .sav, .dta, .sas7bdat and .xpt through ReadStat; value labels become categorical levels.
Expected<Table> readStatFile(const std::string& path, FileFormat format, const ReadOptions& options,
                             ReadReport* report);
// .sav and .dta.
Status writeStatFile(const Table& table, const std::string& path, FileFormat format);

// The file name's extension in lower case, dot included (".sav"; "" when it has none).
std::string lowerExtension(const std::string& path);

// Applies options.typeOverrides in place; shared by every reader.
Status applyTypeOverrides(Table& table, const ReadOptions& options);

}  // namespace ppsynth::data::detail
