// Guesses a CSV file's delimiter from its first bytes.
#pragma once

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

}  // namespace ppsynth::data::detail
