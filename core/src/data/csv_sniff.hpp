// Guesses a CSV file's delimiter from its first bytes.
#pragma once

#include <optional>
#include <string_view>

namespace ppsynth::data::detail {

struct SniffResult {
    char delimiter = ',';
    bool confident = false;  // every sampled row had the header's field count (> 1)
};

// Tries , ; TAB | on `sample` (the start of the file, BOM removed), respecting quotes.
// A candidate qualifies when the header splits into more than one field and every complete
// sampled row has the same count; among those the most fields wins, ties in the order
// above. `wholeFile` says the sample is the entire file (its last record is complete).
SniffResult sniffDelimiter(std::string_view sample, bool wholeFile, char quote);

// The separator of a cell written as digits, one '.' or ',' and digits ("-1,5" -> ','),
// else nullopt.
std::optional<char> decimalSeparatorOf(std::string_view cell);

// ',' when the sample's data cells (after the header when `header`) have decimal commas
// and no decimal points, else '.'. A ',' delimiter always gives '.'.
char sniffDecimal(std::string_view sample, bool wholeFile, char delimiter, char quote, bool header);

}  // namespace ppsynth::data::detail
