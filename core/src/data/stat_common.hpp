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
// Each line carries a fingerprint of the column names, so a note that no longer fits the
// file (columns renamed, added or reordered in another program) is ignored. Lines stay
// within SPSS's 80-character document limit:
//   "ppsynth column types 1f2e3d4c: nnckt"
inline constexpr std::string_view kTypeNotePrefix = "ppsynth column types ";
std::vector<std::string> encodeTypeNotes(const Table& table);
// The letters, one per name, or nullopt when the notes are absent or do not fit `names`.
std::optional<std::string> decodeTypeNotes(const std::vector<std::string>& notes,
                                           const std::vector<std::string>& names);

}  // namespace ppsynth::data::detail
