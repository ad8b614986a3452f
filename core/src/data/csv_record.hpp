// Splits CSV records into fields (RFC 4180 quoting, CRLF/LF/CR line ends, spaces around
// unquoted cells trimmed). Works on a window of bytes so the reader can stream: when a
// record runs past the window it answers NeedMore and the caller supplies more bytes.
#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace ppsynth::data::detail {

struct CsvField {
    std::string_view text;  // trimmed; quotes removed and "" unescaped for quoted fields
    bool quoted = false;
};

enum class RecordStatus {
    Complete,           // fields filled, `consumed` bytes used (including the line end)
    NeedMore,           // the record runs past the window: call again with more bytes
    UnterminatedQuote,  // a quote opened at (problemLine, problemField) never closes
    TextAfterQuote,     // characters between a closing quote and the next delimiter
};

struct RecordResult {
    RecordStatus status = RecordStatus::Complete;
    std::size_t consumed = 0;
    std::size_t lines = 0;         // line ends consumed (inside quotes and the record's own)
    std::size_t problemLine = 0;   // lines after the record's first line where it went wrong
    std::size_t problemField = 0;  // 0-based field index of the problem
};

class RecordTokenizer {
  public:
    RecordTokenizer(char delimiter, char quote);

    // Splits the record at the start of `window`; `atEof` says no more bytes will follow.
    // Field texts point into `window` or into the tokenizer's scratch space and stay valid
    // until the next call.
    RecordResult next(std::string_view window, bool atEof, std::vector<CsvField>& fields);

    // A record that is one empty unquoted field: an empty or all-space line.
    static bool isBlank(const std::vector<CsvField>& fields) {
        return fields.size() == 1 && !fields[0].quoted && fields[0].text.empty();
    }

  private:
    bool isSpace(char c) const { return c == ' ' || (c == '\t' && delimiter_ != '\t'); }

    char delimiter_;
    char quote_;
    std::array<bool, 256> special_{};  // delimiter and line-end bytes
    // Unescaped text per field index, reused; a deque so growing it never moves a string
    // an earlier field of the same record still points into.
    std::deque<std::string> scratch_;
};

}  // namespace ppsynth::data::detail
