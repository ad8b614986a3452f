#include "data/csv_record.hpp"

#include <algorithm>
#include <cstring>

namespace ppsynth::data::detail {

RecordTokenizer::RecordTokenizer(char delimiter, char quote)
    : delimiter_(delimiter), quote_(quote) {
    special_[static_cast<unsigned char>(delimiter)] = true;
    special_[static_cast<unsigned char>('\n')] = true;
    special_[static_cast<unsigned char>('\r')] = true;
}

namespace {
// Line ends inside a quoted field: LF, CRLF (counted once) and a lone CR.
std::size_t countLineEnds(const char* b, const char* e) {
    std::size_t n = 0;
    for (const char* p = b; p < e; ++p) {
        if (*p == '\n')
            ++n;
        else if (*p == '\r' && (p + 1 == e || p[1] != '\n'))
            ++n;
    }
    return n;
}
}  // namespace

RecordResult RecordTokenizer::next(std::string_view window, bool atEof,
                                   std::vector<CsvField>& fields) {
    fields.clear();
    RecordResult r;
    const char* const begin = window.data();
    const char* const end = begin + window.size();
    const char* p = begin;
    const auto needMore = [&]() {
        r.status = RecordStatus::NeedMore;
        return r;
    };
    // Ends the record at the line end at p (or at the end of the input).
    const auto finish = [&](const char* at) -> bool {
        if (at == end) {
            r.consumed = window.size();
            return true;
        }
        if (*at == '\r') {
            if (at + 1 == end && !atEof) return false;
            if (at + 1 < end && at[1] == '\n') ++at;
        }
        r.consumed = static_cast<std::size_t>(at + 1 - begin);
        ++r.lines;
        return true;
    };

    for (;;) {
        const std::size_t index = fields.size();
        while (p < end && isSpace(*p)) ++p;
        if (p < end && *p == quote_) {
            const std::size_t openLine = r.lines;
            const char* content = ++p;
            bool escaped = false;
            const char* close = nullptr;
            while (!close) {
                const auto* q = static_cast<const char*>(
                    std::memchr(p, quote_, static_cast<std::size_t>(end - p)));
                if (!q) {
                    if (!atEof) return needMore();
                    r.status = RecordStatus::UnterminatedQuote;
                    r.problemLine = openLine;
                    r.problemField = index;
                    return r;
                }
                if (q + 1 == end && !atEof) return needMore();
                if (q + 1 < end && q[1] == quote_) {
                    escaped = true;
                    p = q + 2;
                } else {
                    close = q;
                }
            }
            r.lines += countLineEnds(content, close);
            std::string_view text(content, static_cast<std::size_t>(close - content));
            if (escaped) {
                if (scratch_.size() <= index) scratch_.resize(index + 1);
                std::string& s = scratch_[index];
                s.clear();
                for (std::size_t i = 0; i < text.size(); ++i) {
                    s.push_back(text[i]);
                    if (text[i] == quote_) ++i;  // the second of a doubled quote
                }
                text = s;
            }
            fields.push_back({text, true});
            p = close + 1;
            while (p < end && isSpace(*p)) ++p;
            if (p == end) {
                if (!atEof) return needMore();
                finish(p);
                return r;
            }
            if (*p == delimiter_) {
                ++p;
                continue;
            }
            if (*p == '\n' || *p == '\r') {
                if (!finish(p)) return needMore();
                return r;
            }
            r.status = RecordStatus::TextAfterQuote;
            r.problemLine = r.lines;
            r.problemField = index;
            return r;
        }
        const char* start = p;
        while (p < end && !special_[static_cast<unsigned char>(*p)]) ++p;
        if (p == end && !atEof) return needMore();
        const char* stop = p;
        while (stop > start && isSpace(stop[-1])) --stop;
        fields.push_back({std::string_view(start, static_cast<std::size_t>(stop - start)), false});
        if (p < end && *p == delimiter_) {
            ++p;
            continue;
        }
        if (!finish(p)) return needMore();
        return r;
    }
}

}  // namespace ppsynth::data::detail
