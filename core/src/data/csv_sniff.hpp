// Guesses a CSV file's delimiter from its first bytes.
#pragma once

#include <cstddef>
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

struct DecimalSniff {
    char decimal = '.';
    // ',' was chosen and every number with a comma looks like a whole number grouped by
    // thousands as well ("1,250": one to three digits, a comma, three digits).
    bool commasMayGroupThousands = false;
};

// ',' when the sample's data cells (after the header when `header`) have decimal commas
// and no decimal points, else '.'. A ',' delimiter always gives '.'. With a thousands
// separator, cells are judged without it ("1 234,5" has a decimal comma).
DecimalSniff sniffDecimal(std::string_view sample, bool wholeFile, char delimiter, char quote,
                          bool header, char thousands = 0);

// The characters a thousands separator may be.
inline constexpr std::string_view kThousandsSeparators = ",. '";

// A number's text without its thousands separators, in `buffer`: "1,234,567.5" ->
// "1234567.5" with ','; "-12 345,5" -> "-12345,5" with ' ' (which also stands for the
// no-break spaces U+00A0 and U+202F that spreadsheets write). The integer digits must be
// grouped by three after a first group of one to three (not a lone 0); decimals and
// exponent hold none. The cell as it is when it has no separator; nullopt when one is
// misplaced ("1,23", "12,34,567", "1.5,000") or the cell is longer than the buffer.
inline constexpr std::size_t kLongestNumber = 64;
std::optional<std::string_view> ungrouped(std::string_view cell, char thousands,
                                          char (&buffer)[kLongestNumber]);

// `cell` as a number written with the `decimal` separator ('.' or ',') and the `thousands`
// separator (0: none), or nullopt.
std::optional<double> parseSeparated(std::string_view cell, char decimal, char thousands);

}  // namespace ppsynth::data::detail
