// Recognising the date, date-time and time display formats of SPSS, Stata and SAS (private to
// core). Those programs store such values as plain numbers counted from a format-specific
// origin; only the display format says so, and a person reading the column in ppsynth must
// be told what the numbers mean.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ppsynth/data/io.hpp"

namespace ppsynth::data::detail {

// What a number in a column with this display format counts ("days since 1 January 1960"),
// or nullopt when the format is not a date, date-time or time format. `displayFormat` is
// ReadStat's format string: "DATE9" or "DATETIME20" (SAS), "ADATE10" (SPSS), "%td" (Stata).
std::optional<std::string> temporalUnits(FileFormat format, std::string_view displayFormat);

}  // namespace ppsynth::data::detail
