// Small text helpers shared by the data-preparation messages, so every message lists
// names and rows the same way. Internal to core/src/data.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ppsynth::data::detail {

// "'a'", "'a' and 'b'", "'a', 'b' and 'c'" (or "or" as the last joint).
std::string quotedList(const std::vector<std::string>& names, const std::string& last = "and");
// "a", "a and b", "a, b and c" (no quotes; for design column names).
std::string plainList(const std::vector<std::string>& names);
// 1-based row numbers of the first `shown` 0-based indices: "4, 18, 77, ..." (the ellipsis
// when more exist).
std::string rowList(std::span<const std::size_t> indices, std::size_t shown = 3);
// "row 4" or "rows 4, 18, 77, ...".
std::string rowsPhrase(std::span<const std::size_t> indices, std::size_t shown = 3);
// "1 missing value" / "12 missing values".
std::string counted(std::size_t n, const std::string& singular, const std::string& plural);

// Whether a cell is a spreadsheet's error value, as Excel ('#N/A', '#DIV/0!', '#VALUE!', ...)
// and LibreOffice ('Err:502') write a failed formula into the CSV they save.
bool isSpreadsheetError(std::string_view cell);
// " ('#N/A' is a spreadsheet error value: ...)" for the first such cell of `cells`, or "".
std::string spreadsheetErrorAdvice(const std::vector<std::string_view>& cells);

}  // namespace ppsynth::data::detail
