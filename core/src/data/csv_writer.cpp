// CSV writer: header, one line per row, quoting only where a reader would misread a cell.
#include <algorithm>
#include <string>

#include "data/csv_parse.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data::detail {

namespace {

constexpr char kQuote = '"';

// Quotes are needed for delimiters, quotes and line ends inside the cell, for spaces at
// either end (readers trim unquoted cells) and for text equal to a missing token.
bool needsQuotes(std::string_view s, char delimiter, bool isTextCell) {
    if (s.empty()) return isTextCell;
    if (s.substr(0, 3) == "\xEF\xBB\xBF") return true;  // a reader would strip it as a BOM
    if (s.front() == ' ' || s.back() == ' ' || s.front() == '\t' || s.back() == '\t') return true;
    if (isTextCell) {
        const CsvOptions defaults;
        const auto& tokens = defaults.missingTokens;
        if (std::find(tokens.begin(), tokens.end(), s) != tokens.end()) return true;
    }
    return s.find_first_of(std::string{delimiter, kQuote, '\r', '\n'}) != std::string_view::npos;
}

void appendCell(std::string& line, std::string_view s, char delimiter, bool isTextCell) {
    if (!needsQuotes(s, delimiter, isTextCell)) {
        line += s;
        return;
    }
    line += kQuote;
    for (char c : s) {
        if (c == kQuote) line += kQuote;
        line += c;
    }
    line += kQuote;
}

}  // namespace

Status writeCsvTo(const Table& table, std::ostream& out, const WriteOptions& options) {
    const char d = options.delimiter;
    if (d == kQuote || d == '\r' || d == '\n' || d == 0)
        return Error{"the CSV delimiter cannot be a quote, a line end or empty"};
    std::string line;
    for (std::size_t c = 0; c < table.columnCount(); ++c) {
        if (c > 0) line += d;
        appendCell(line, table.column(c).name(), d, false);
    }
    line += '\n';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        line.clear();
        for (std::size_t c = 0; c < table.columnCount(); ++c) {
            if (c > 0) line += d;
            const Column& col = table.column(c);
            if (col.isMissing(r)) {
                // A lone empty cell would be a blank line, which readers skip.
                if (table.columnCount() == 1) line += "\"\"";
                continue;
            }
            switch (col.type()) {
                case ColumnType::Numeric:
                case ColumnType::Count:
                    line += formatNumber(col.value(r));
                    break;
                case ColumnType::Categorical:
                    appendCell(line, col.levels()[static_cast<std::size_t>(col.code(r))].label, d,
                               true);
                    break;
                case ColumnType::Text:
                    appendCell(line, col.texts()[r], d, true);
                    break;
            }
        }
        line += '\n';
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
        if (!out) return Error{"writing the CSV text failed"};
    }
    return {};
}

}  // namespace ppsynth::data::detail
