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

// The time format a column read from `format` with `displayFormat` keeps, or nullopt when the
// display format is no date, date-time or time format.
std::optional<TimeFormat> timeFormatOf(FileFormat format, std::string_view displayFormat);

// What the numbers of a date, date-time or time column count.
enum class TimeScale {
    Days1960,       // SAS dates, Stata %td
    Seconds1960,    // SAS date-times
    Millis1960,     // Stata %tc (leap seconds not counted)
    Seconds1582,    // SPSS dates and date-times (since 14 October 1582 00:00)
    SecondsOfDay,   // SAS and SPSS times
    Weeks1960,      // Stata %tw: 52 weeks a year, the last one 8 or 9 days long
    Months1960,     // Stata %tm
    Quarters1960,   // Stata %tq
    HalfYears1960,  // Stata %th
};

struct WrittenTime {
    std::string format;
    TimeScale from = TimeScale::Days1960, to = TimeScale::Days1960;
    // The number written for `value`: a whole week, month, quarter or half-year becomes its
    // first day; a fraction of one lies as far into it.
    double convert(double value) const;
};

// How a column with time format `source` is written to `target` (.sav or .dta): the display
// format there and the numbers as that program counts them. The same program keeps the
// format and the numbers as they are. Across programs a date becomes a date, a date-time a
// date-time and a time of day a time, converted between origins and units (Stata %td days
// since 1960 = SPSS seconds since 14 October 1582 / 86400 - 137775), keeping the look where
// both have it (SPSS ADATE10 and Stata %tdNN/DD/CCYY). nullopt when the target has no such
// format (a Stata %tC date-time with leap seconds, %ty years, %tb business days; an SPSS
// DTIME duration): the column is written as the plain numbers it holds.
std::optional<WrittenTime> writtenTime(const TimeFormat& source, FileFormat target);

}  // namespace ppsynth::data::detail
