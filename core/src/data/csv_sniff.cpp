#include "data/csv_sniff.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "data/csv_record.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data::detail {

namespace {
constexpr std::size_t kMaxSampledRecords = 200;

struct CandidateScore {
    std::size_t headerFields = 0;
    std::size_t rows = 0;
    bool consistent = true;
};

CandidateScore score(std::string_view sample, bool wholeFile, char delimiter, char quote) {
    RecordTokenizer tokenizer(delimiter, quote);
    std::vector<CsvField> fields;
    CandidateScore s;
    bool haveHeader = false;
    while (!sample.empty() && s.rows < kMaxSampledRecords) {
        const RecordResult r = tokenizer.next(sample, wholeFile, fields);
        if (r.status != RecordStatus::Complete) break;  // cut-off record or bad quoting
        sample.remove_prefix(r.consumed);
        if (RecordTokenizer::isBlank(fields)) continue;
        if (!haveHeader) {
            s.headerFields = fields.size();
            haveHeader = true;
            continue;
        }
        ++s.rows;
        if (fields.size() != s.headerFields) s.consistent = false;
    }
    return s;
}
}  // namespace

SniffResult sniffDelimiter(std::string_view sample, bool wholeFile, char quote) {
    constexpr char kCandidates[] = {',', ';', '\t', '|'};
    SniffResult best;
    std::size_t bestFields = 1;
    std::size_t fallbackFields = 1;
    for (char d : kCandidates) {
        const CandidateScore s = score(sample, wholeFile, d, quote);
        if (s.consistent && s.headerFields > bestFields) {
            best = {d, true};
            bestFields = s.headerFields;
        } else if (!best.confident && s.headerFields > fallbackFields) {
            // No consistent candidate yet: the one splitting the header most, so the
            // reader's ragged-row error points at the offending line.
            best.delimiter = d;
            fallbackFields = s.headerFields;
        }
    }
    return best;
}

std::optional<char> decimalSeparatorOf(std::string_view cell) {
    if (!cell.empty() && (cell.front() == '-' || cell.front() == '+')) cell.remove_prefix(1);
    const auto sep = cell.find_first_not_of("0123456789");
    if (sep == 0 || sep == std::string_view::npos || sep + 1 == cell.size()) return std::nullopt;
    if (cell[sep] != '.' && cell[sep] != ',') return std::nullopt;
    if (cell.find_first_not_of("0123456789", sep + 1) != std::string_view::npos)
        return std::nullopt;
    return cell[sep];
}

DecimalSniff sniffDecimal(std::string_view sample, bool wholeFile, char delimiter, char quote,
                          bool header, char thousands) {
    if (delimiter == ',') return {};
    RecordTokenizer tokenizer(delimiter, quote);
    std::vector<CsvField> fields;
    std::size_t records = 0, commas = 0, points = 0, groupLike = 0;
    bool skipHeader = header;
    char buffer[kLongestNumber];
    while (!sample.empty() && records < kMaxSampledRecords) {
        const RecordResult r = tokenizer.next(sample, wholeFile, fields);
        if (r.status != RecordStatus::Complete) break;
        sample.remove_prefix(r.consumed);
        if (RecordTokenizer::isBlank(fields)) continue;
        ++records;
        if (std::exchange(skipHeader, false)) continue;
        for (const auto& f : fields) {
            std::string_view text = f.text;
            if (thousands != 0) {
                const auto plain = ungrouped(text, thousands, buffer);
                if (!plain) continue;
                text = *plain;
            }
            const auto sep = decimalSeparatorOf(text);
            commas += sep == ',';
            points += sep == '.';
            if (sep == ',') {
                // "1,250" or "-12,500": as much a grouped whole number as a decimal one.
                std::string_view digits = text;
                if (digits.front() == '-' || digits.front() == '+') digits.remove_prefix(1);
                const auto comma = digits.find(',');
                groupLike += comma >= 1 && comma <= 3 && digits.size() - comma - 1 == 3;
            }
        }
    }
    if (commas == 0 || points > 0) return {};
    return {',', thousands == 0 && groupLike == commas};
}

namespace {
bool isDigitChar(char c) {
    return c >= '0' && c <= '9';
}

// The length of the thousands separator at s[i], 0 when there is none.
std::size_t separatorAt(std::string_view s, std::size_t i, char thousands) {
    if (s[i] == thousands) return 1;
    if (thousands != ' ') return 0;
    const std::string_view rest = s.substr(i);
    if (rest.starts_with("\xC2\xA0")) return 2;      // U+00A0 no-break space
    if (rest.starts_with("\xE2\x80\xAF")) return 3;  // U+202F narrow no-break space
    return 0;
}
}  // namespace

std::optional<std::string_view> ungrouped(std::string_view cell, char thousands,
                                          char (&buffer)[kLongestNumber]) {
    std::size_t i = 0;
    if (i < cell.size() && (cell[i] == '-' || cell[i] == '+')) ++i;
    // The integer digits: groups of three after a first group of one to three.
    std::size_t inGroup = 0, groups = 0;
    char firstDigit = 0;
    while (i < cell.size()) {
        if (isDigitChar(cell[i])) {
            if (groups == 0 && inGroup == 0) firstDigit = cell[i];
            ++inGroup;
            ++i;
            continue;
        }
        const std::size_t length = separatorAt(cell, i, thousands);
        if (length == 0) break;
        const bool fits = groups == 0
                              ? inGroup >= 1 && inGroup <= 3 && !(inGroup == 1 && firstDigit == '0')
                              : inGroup == 3;
        if (!fits) return std::nullopt;
        ++groups;
        inGroup = 0;
        i += length;
    }
    if (groups > 0 && inGroup != 3) return std::nullopt;
    // None in the decimals or the exponent.
    for (std::size_t j = i; j < cell.size(); ++j)
        if (separatorAt(cell, j, thousands) != 0) return std::nullopt;
    if (groups == 0) return cell;
    std::size_t n = 0;
    for (std::size_t j = 0; j < cell.size();) {
        const std::size_t length = j < i ? separatorAt(cell, j, thousands) : 0;
        if (length != 0) {
            j += length;
            continue;
        }
        if (n == kLongestNumber) return std::nullopt;
        buffer[n++] = cell[j++];
    }
    return std::string_view(buffer, n);
}

std::optional<double> parseSeparated(std::string_view cell, char decimal, char thousands) {
    char plain[kLongestNumber];
    if (thousands != 0) {
        const auto u = ungrouped(cell, thousands, plain);
        if (!u) return std::nullopt;
        cell = *u;
    }
    if (decimal != ',') return parseNumber(cell);
    // A point is no separator here, and parseNumber reads only points: swap the comma.
    if (cell.find('.') != std::string_view::npos || cell.size() > kLongestNumber)
        return std::nullopt;
    const auto comma = cell.find(',');
    if (comma == std::string_view::npos) return parseNumber(cell);
    char buffer[kLongestNumber];
    std::copy(cell.begin(), cell.end(), buffer);
    buffer[comma] = '.';
    return parseNumber({buffer, cell.size()});
}

}  // namespace ppsynth::data::detail
