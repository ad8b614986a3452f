#include "data/stat_dates.hpp"

#include <algorithm>
#include <array>
#include <cctype>

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

}  // namespace ppsynth::data::detail
