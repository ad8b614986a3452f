#include "data/csv_sniff.hpp"

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

}  // namespace ppsynth::data::detail
