#include "data/csv_sniff.hpp"

#include <utility>
#include <vector>

#include "data/csv_record.hpp"

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

char sniffDecimal(std::string_view sample, bool wholeFile, char delimiter, char quote,
                  bool header) {
    if (delimiter == ',') return '.';
    RecordTokenizer tokenizer(delimiter, quote);
    std::vector<CsvField> fields;
    std::size_t records = 0, commas = 0, points = 0;
    bool skipHeader = header;
    while (!sample.empty() && records < kMaxSampledRecords) {
        const RecordResult r = tokenizer.next(sample, wholeFile, fields);
        if (r.status != RecordStatus::Complete) break;
        sample.remove_prefix(r.consumed);
        if (RecordTokenizer::isBlank(fields)) continue;
        ++records;
        if (std::exchange(skipHeader, false)) continue;
        for (const auto& f : fields) {
            const auto sep = decimalSeparatorOf(f.text);
            commas += sep == ',';
            points += sep == '.';
        }
    }
    return commas > 0 && points == 0 ? ',' : '.';
}

}  // namespace ppsynth::data::detail
