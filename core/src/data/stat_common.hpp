// Shared by the ReadStat reader and writer (private to core): format names for messages
// and the column-type note ppsynth writes into its own .sav/.dta files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsynth/data/io.hpp"

namespace ppsynth::data::detail {

// "SPSS", "Stata", "SAS", "SAS transport (XPORT)": how a person names the format.
std::string_view statFormatName(FileFormat format);

// SPSS and Stata cannot say "this whole-number column is real-valued" or "this string
// column is free text", so ppsynth records its column types in file notes (SPSS document
// lines, Stata notes), one letter per column: n numeric, c count, k categorical, t text.
// Lines stay within SPSS's 80-character document limit.
inline constexpr std::string_view kTypeNotePrefix = "ppsynth column types: ";
std::vector<std::string> encodeTypeNotes(const Table& table);
// The letters from the notes in file order, or nullopt when there are none or they do not
// describe exactly `columnCount` columns (a note edited or copied from another file).
std::optional<std::string> decodeTypeNotes(const std::vector<std::string>& notes,
                                           std::size_t columnCount);

}  // namespace ppsynth::data::detail
