#include "data/stat_dates.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <utility>

namespace ppsynth::data::detail {

namespace {

constexpr std::string_view kSasDays = "days since 1 January 1960";
constexpr std::string_view kSasSeconds = "seconds since 1 January 1960 00:00";
constexpr std::string_view kSasTimeOfDay = "seconds since midnight (a time of day)";
constexpr std::string_view kSpssSeconds = "seconds since 14 October 1582 00:00";
constexpr std::string_view kSpssDuration = "seconds (a time of day or a duration)";

struct NamedFormat {
    std::string_view name;
    bool isPrefix;  // a family: MMDDYY covers MMDDYYB, MMDDYYS, ...
    std::string_view units;
};

// SAS's date, date-time and time formats (SAS 9.4 Formats and Informats reference).
constexpr std::array kSasFormats{
    NamedFormat{"DATE", false, kSasDays},          NamedFormat{"DAY", false, kSasDays},
    NamedFormat{"DOWNAME", false, kSasDays},       NamedFormat{"JULDAY", false, kSasDays},
    NamedFormat{"JULIAN", false, kSasDays},        NamedFormat{"MINGUO", false, kSasDays},
    NamedFormat{"MONNAME", false, kSasDays},       NamedFormat{"MONTH", false, kSasDays},
    NamedFormat{"MONYY", false, kSasDays},         NamedFormat{"NENGO", false, kSasDays},
    NamedFormat{"QTR", false, kSasDays},           NamedFormat{"QTRR", false, kSasDays},
    NamedFormat{"WEEKDATE", false, kSasDays},      NamedFormat{"WEEKDATX", false, kSasDays},
    NamedFormat{"WEEKDAY", false, kSasDays},       NamedFormat{"WEEKU", false, kSasDays},
    NamedFormat{"WEEKV", false, kSasDays},         NamedFormat{"WEEKW", false, kSasDays},
    NamedFormat{"WORDDATE", false, kSasDays},      NamedFormat{"WORDDATX", false, kSasDays},
    NamedFormat{"YEAR", false, kSasDays},          NamedFormat{"YYMON", false, kSasDays},
    NamedFormat{"E8601DA", false, kSasDays},       NamedFormat{"B8601DA", false, kSasDays},
    NamedFormat{"DDMMYY", true, kSasDays},         NamedFormat{"MMDDYY", true, kSasDays},
    NamedFormat{"YYMMDD", true, kSasDays},         NamedFormat{"MMYY", true, kSasDays},
    NamedFormat{"YYMM", true, kSasDays},           NamedFormat{"YYQ", true, kSasDays},
    NamedFormat{"EURDF", true, kSasDays},          NamedFormat{"NLDATE", true, kSasDays},
    NamedFormat{"DATETIME", false, kSasSeconds},   NamedFormat{"DATEAMPM", false, kSasSeconds},
    NamedFormat{"DTDATE", false, kSasSeconds},     NamedFormat{"DTMONYY", false, kSasSeconds},
    NamedFormat{"DTWKDATX", false, kSasSeconds},   NamedFormat{"DTYEAR", false, kSasSeconds},
    NamedFormat{"DTYYQC", false, kSasSeconds},     NamedFormat{"MDYAMPM", false, kSasSeconds},
    NamedFormat{"E8601DT", false, kSasSeconds},    NamedFormat{"B8601DT", false, kSasSeconds},
    NamedFormat{"E8601DZ", false, kSasSeconds},    NamedFormat{"B8601DZ", false, kSasSeconds},
    NamedFormat{"NLDATM", true, kSasSeconds},      NamedFormat{"TIME", false, kSasTimeOfDay},
    NamedFormat{"TOD", false, kSasTimeOfDay},      NamedFormat{"HHMM", false, kSasTimeOfDay},
    NamedFormat{"HOUR", false, kSasTimeOfDay},     NamedFormat{"MMSS", false, kSasTimeOfDay},
    NamedFormat{"TIMEAMPM", false, kSasTimeOfDay}, NamedFormat{"E8601TM", false, kSasTimeOfDay},
    NamedFormat{"B8601TM", false, kSasTimeOfDay},  NamedFormat{"NLTIM", true, kSasTimeOfDay},
};

// SPSS's date and time formats. WKDAY and MONTH hold small whole numbers (1-7, 1-12), no
// count from an origin, so they are left out.
constexpr std::array kSpssFormats{
    NamedFormat{"DATE", false, kSpssSeconds},     NamedFormat{"ADATE", false, kSpssSeconds},
    NamedFormat{"EDATE", false, kSpssSeconds},    NamedFormat{"JDATE", false, kSpssSeconds},
    NamedFormat{"SDATE", false, kSpssSeconds},    NamedFormat{"QYR", false, kSpssSeconds},
    NamedFormat{"MOYR", false, kSpssSeconds},     NamedFormat{"WKYR", false, kSpssSeconds},
    NamedFormat{"DATETIME", false, kSpssSeconds}, NamedFormat{"YMDHMS", false, kSpssSeconds},
    NamedFormat{"TIME", false, kSpssDuration},    NamedFormat{"MTIME", false, kSpssDuration},
    NamedFormat{"DTIME", false, kSpssDuration},
};

// "date9." -> "DATE", "B8601DT19.3" -> "B8601DT": SAS and SPSS formats end in width.decimals.
std::string formatName(std::string_view displayFormat) {
    std::string name(displayFormat);
    while (!name.empty() &&
           (std::isdigit(static_cast<unsigned char>(name.back())) || name.back() == '.'))
        name.pop_back();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return name;
}

template <std::size_t N>
std::optional<std::string> lookUp(const std::array<NamedFormat, N>& table,
                                  std::string_view displayFormat) {
    const std::string name = formatName(displayFormat);
    if (name.empty()) return std::nullopt;
    for (const auto& f : table)
        if (f.isPrefix ? name.rfind(f.name, 0) == 0 : name == f.name) return std::string(f.units);
    return std::nullopt;
}

// Stata: %td, %tdCCYY-NN-DD, %-td, %tc, %tC, %tw, %tm, %tq, %th, %ty, %tb..., and the
// pre-Stata 10 daily format %d.
std::optional<std::string> stataUnits(std::string_view f) {
    if (f.empty() || f.front() != '%') return std::nullopt;
    f.remove_prefix(1);
    if (!f.empty() && f.front() == '-') f.remove_prefix(1);
    if (f.empty()) return std::nullopt;
    if (f.front() == 'd') return std::string(kSasDays);
    if (f.front() != 't' || f.size() < 2) return std::nullopt;
    switch (f[1]) {
        case 'd':
            return std::string(kSasDays);
        case 'c':
            return "milliseconds since 1 January 1960 00:00 (leap seconds not counted)";
        case 'C':
            return "milliseconds since 1 January 1960 00:00 (leap seconds counted)";
        case 'w':
            return "weeks since the first week of 1960";
        case 'm':
            return "months since January 1960";
        case 'q':
            return "quarters since the first quarter of 1960";
        case 'h':
            return "half-years since the first half of 1960";
        case 'y':
            return "calendar years";
        case 'b':
            return "days of a Stata business calendar";
        default:
            return std::nullopt;
    }
}

// How a date is shown, as far as SPSS and Stata both can show it.
enum class Look { Date, DateMdy, DateDmy, DateYmd, MonthYear, QuarterYear, DateTime, Time };

struct Meaning {
    TimeScale scale;
    Look look;
};

std::optional<Meaning> spssMeaning(std::string_view displayFormat) {
    const std::string name = formatName(displayFormat);
    constexpr auto s = TimeScale::Seconds1582;
    if (name == "DATE" || name == "JDATE" || name == "WKYR") return Meaning{s, Look::Date};
    if (name == "ADATE") return Meaning{s, Look::DateMdy};
    if (name == "EDATE") return Meaning{s, Look::DateDmy};
    if (name == "SDATE") return Meaning{s, Look::DateYmd};
    if (name == "MOYR") return Meaning{s, Look::MonthYear};
    if (name == "QYR") return Meaning{s, Look::QuarterYear};
    if (name == "DATETIME" || name == "YMDHMS") return Meaning{s, Look::DateTime};
    if (name == "TIME" || name == "MTIME") return Meaning{TimeScale::SecondsOfDay, Look::Time};
    return std::nullopt;  // DTIME: a duration in days, which Stata cannot show
}

// The Stata masks writtenTime gives SPSS's looks, read back to the same look.
constexpr std::array kStataDateMasks{
    std::pair{std::string_view("NN/DD/CCYY"), Look::DateMdy},
    std::pair{std::string_view("DD/NN/CCYY"), Look::DateDmy},
    std::pair{std::string_view("CCYY/NN/DD"), Look::DateYmd},
    std::pair{std::string_view("Mon_CCYY"), Look::MonthYear},
};

std::optional<Meaning> stataMeaning(std::string_view f) {
    if (f.empty() || f.front() != '%') return std::nullopt;
    f.remove_prefix(1);
    if (!f.empty() && f.front() == '-') f.remove_prefix(1);
    if (!f.empty() && f.front() == 'd') return Meaning{TimeScale::Days1960, Look::Date};
    if (f.size() < 2 || f.front() != 't') return std::nullopt;
    const std::string_view mask = f.substr(2);
    switch (f[1]) {
        case 'd':
            for (const auto& [m, look] : kStataDateMasks)
                if (mask == m) return Meaning{TimeScale::Days1960, look};
            return Meaning{TimeScale::Days1960, Look::Date};
        case 'c':
            if (mask == "HH:MM:SS" || mask == "HH:MM")
                return Meaning{TimeScale::Millis1960, Look::Time};
            return Meaning{TimeScale::Millis1960, Look::DateTime};
        case 'w':
            return Meaning{TimeScale::Weeks1960, Look::Date};
        case 'm':
            return Meaning{TimeScale::Months1960, Look::MonthYear};
        case 'q':
            return Meaning{TimeScale::Quarters1960, Look::QuarterYear};
        case 'h':
            return Meaning{TimeScale::HalfYears1960, Look::MonthYear};
        default:
            return std::nullopt;  // %tC (leap seconds), %ty (years), %tb (business calendars)
    }
}

std::optional<Meaning> sasMeaning(std::string_view displayFormat) {
    const auto units = lookUp(kSasFormats, displayFormat);
    if (!units) return std::nullopt;
    if (*units == kSasSeconds) return Meaning{TimeScale::Seconds1960, Look::DateTime};
    if (*units == kSasTimeOfDay) return Meaning{TimeScale::SecondsOfDay, Look::Time};
    const std::string name = formatName(displayFormat);
    const auto family = [&](std::string_view prefix) { return name.rfind(prefix, 0) == 0; };
    Look look = Look::Date;
    if (family("MMDDYY"))
        look = Look::DateMdy;
    else if (family("DDMMYY"))
        look = Look::DateDmy;
    else if (family("YYMMDD") || name == "E8601DA" || name == "B8601DA")
        look = Look::DateYmd;
    else if (name == "MONYY" || name == "YYMON" || family("MMYY") || family("YYMM"))
        look = Look::MonthYear;
    else if (family("YYQ"))
        look = Look::QuarterYear;
    return Meaning{TimeScale::Days1960, look};
}

std::optional<Meaning> meaningOf(const TimeFormat& f) {
    switch (f.family) {
        case TimeFormat::Family::Spss:
            return spssMeaning(f.name);
        case TimeFormat::Family::Stata:
            return stataMeaning(f.name);
        case TimeFormat::Family::Sas:
            return sasMeaning(f.name);
    }
    return std::nullopt;
}

// Days from 1 January 1970 to a date of the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil).
constexpr long long daysFromCivil(long long y, unsigned m, unsigned d) {
    y -= m <= 2 ? 1 : 0;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long long>(doe) - 719468;
}

constexpr long long kDay = 86400;
constexpr long long k1960 = daysFromCivil(1960, 1, 1);
// SPSS counts seconds from 14 October 1582, the eve of the Gregorian calendar.
constexpr double kSpssOrigin = static_cast<double>((k1960 - daysFromCivil(1582, 10, 14)) * kDay);
static_assert(kSpssOrigin == 11903760000.0);

long long floorDiv(long long a, long long b) {
    return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);
}

// Days since 1960 of the first day of month `k` (0: January 1960).
double monthStart(long long k) {
    const long long y = 1960 + floorDiv(k, 12);
    const auto m = static_cast<unsigned>(k - 12 * floorDiv(k, 12) + 1);
    return static_cast<double>(daysFromCivil(y, m, 1) - k1960);
}

// Days since 1960 of Stata's week `k` (0: the first week of 1960); weeks start on 1 January,
// 8 January, ..., and the 52nd runs to the end of its year.
double weekStart(long long k) {
    const long long y = 1960 + floorDiv(k, 52);
    const long long week = k - 52 * floorDiv(k, 52);
    return static_cast<double>(daysFromCivil(y, 1, 1) - k1960 + 7 * week);
}

// Days since 1960 of a value counted in weeks, months, quarters or half-years.
double periodDays(TimeScale scale, double v) {
    constexpr double kLongest = 1e9;  // periods; far beyond any calendar date
    const auto months = [](TimeScale s) {
        return s == TimeScale::Quarters1960 ? 3 : s == TimeScale::HalfYears1960 ? 6 : 1;
    };
    if (!(std::abs(v) < kLongest)) {
        const double averageDays =
            scale == TimeScale::Weeks1960 ? 365.2425 / 52 : 365.2425 / 12 * months(scale);
        return v * averageDays;
    }
    const double whole = std::floor(v);
    const auto k = static_cast<long long>(whole);
    double start = 0, next = 0;
    if (scale == TimeScale::Weeks1960) {
        start = weekStart(k);
        next = weekStart(k + 1);
    } else {
        start = monthStart(k * months(scale));
        next = monthStart((k + 1) * months(scale));
    }
    return start + (v - whole) * (next - start);
}

double secondsSince1960(TimeScale scale, double v) {
    switch (scale) {
        case TimeScale::Days1960:
            return v * kDay;
        case TimeScale::Seconds1960:
        case TimeScale::SecondsOfDay:
            return v;
        case TimeScale::Millis1960:
            return v / 1000;
        case TimeScale::Seconds1582:
            return v - kSpssOrigin;
        case TimeScale::Weeks1960:
        case TimeScale::Months1960:
        case TimeScale::Quarters1960:
        case TimeScale::HalfYears1960:
            return periodDays(scale, v) * kDay;
    }
    return v;
}

// The inverse of secondsSince1960 for the scales SPSS and Stata are written in.
double fromSecondsSince1960(TimeScale scale, double s) {
    switch (scale) {
        case TimeScale::Days1960:
            return s / kDay;
        case TimeScale::Millis1960:
            return s * 1000;
        case TimeScale::Seconds1582:
            return s + kSpssOrigin;
        default:
            return s;
    }
}

std::optional<WrittenTime> spssTarget(const Meaning& m) {
    constexpr auto s = TimeScale::Seconds1582;
    switch (m.look) {
        case Look::Date:
            return WrittenTime{"DATE11", m.scale, s};
        case Look::DateMdy:
            return WrittenTime{"ADATE10", m.scale, s};
        case Look::DateDmy:
            return WrittenTime{"EDATE10", m.scale, s};
        case Look::DateYmd:
            return WrittenTime{"SDATE10", m.scale, s};
        case Look::MonthYear:
            return WrittenTime{"MOYR8", m.scale, s};
        case Look::QuarterYear:
            return WrittenTime{"QYR8", m.scale, s};
        case Look::DateTime:
            return WrittenTime{"DATETIME20", m.scale, s};
        case Look::Time:
            return WrittenTime{"TIME8", m.scale, TimeScale::SecondsOfDay};
    }
    return std::nullopt;
}

std::optional<WrittenTime> stataTarget(const Meaning& m) {
    constexpr auto d = TimeScale::Days1960;
    switch (m.look) {
        case Look::Date:
        case Look::QuarterYear:  // a date in %td: %tq would lose the day
            return WrittenTime{"%td", m.scale, d};
        case Look::DateTime:
            return WrittenTime{"%tc", m.scale, TimeScale::Millis1960};
        case Look::Time:
            return WrittenTime{"%tcHH:MM:SS", m.scale, TimeScale::Millis1960};
        default:
            for (const auto& [mask, look] : kStataDateMasks)
                if (look == m.look) return WrittenTime{"%td" + std::string(mask), m.scale, d};
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> temporalUnits(FileFormat format, std::string_view displayFormat) {
    switch (format) {
        case FileFormat::Sav:
            return lookUp(kSpssFormats, displayFormat);
        case FileFormat::Dta:
            return stataUnits(displayFormat);
        case FileFormat::Sas7bdat:
        case FileFormat::Xpt:
            return lookUp(kSasFormats, displayFormat);
        case FileFormat::Csv:
            break;
    }
    return std::nullopt;
}

std::optional<TimeFormat> timeFormatOf(FileFormat format, std::string_view displayFormat) {
    if (!temporalUnits(format, displayFormat)) return std::nullopt;
    switch (format) {
        case FileFormat::Sav:
            return TimeFormat{TimeFormat::Family::Spss, std::string(displayFormat)};
        case FileFormat::Dta:
            return TimeFormat{TimeFormat::Family::Stata, std::string(displayFormat)};
        case FileFormat::Sas7bdat:
        case FileFormat::Xpt:
            return TimeFormat{TimeFormat::Family::Sas, std::string(displayFormat)};
        case FileFormat::Csv:
            break;
    }
    return std::nullopt;
}

double WrittenTime::convert(double value) const {
    if (from == to) return value;
    return fromSecondsSince1960(to, secondsSince1960(from, value));
}

std::optional<WrittenTime> writtenTime(const TimeFormat& source, FileFormat target) {
    if (target != FileFormat::Sav && target != FileFormat::Dta) return std::nullopt;
    const auto family =
        target == FileFormat::Sav ? TimeFormat::Family::Spss : TimeFormat::Family::Stata;
    if (source.family == family) return WrittenTime{source.name};  // as it came
    const auto meaning = meaningOf(source);
    if (!meaning) return std::nullopt;
    return target == FileFormat::Sav ? spssTarget(*meaning) : stataTarget(*meaning);
}

}  // namespace ppsynth::data::detail
