// Single-pass streaming CSV parser: a window of the file, a record tokenizer over it and
// one ColumnBuilder per column, so memory stays near the size of the finished table.
#include "data/csv_parse.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "data/column_builder.hpp"
#include "data/csv_record.hpp"
#include "data/csv_sniff.hpp"
#include "data/message_text.hpp"
#include "data/text_encoding.hpp"

namespace ppsynth::data::detail {

namespace {

constexpr std::size_t kSniffBytes = std::size_t{64} << 10;
// Records (header included) the delimiter guess sees at least, however wide the file.
constexpr std::size_t kSniffRecords = 6;
constexpr std::size_t kRowsBeforeEstimate = 1024;

enum class Encoding { Auto, Utf8, Latin1 };

std::optional<Encoding> encodingFromName(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (s == "auto" || s.empty()) return Encoding::Auto;
    if (s == "utf-8" || s == "utf8") return Encoding::Utf8;
    // Latin-1 is read as its superset Windows-1252: files labelled Latin-1 hold its
    // printable 0x80..0x9F characters far more often than C1 control codes.
    if (s == "latin-1" || s == "latin1" || s == "iso-8859-1" || s == "windows-1252" ||
        s == "cp1252")
        return Encoding::Latin1;
    return std::nullopt;
}

// How notes name a thousands separator.
std::string thousandsName(char t) {
    switch (t) {
        case ',':
            return "',' (comma)";
        case '.':
            return "'.' (point)";
        case ' ':
            return "' ' (space)";
        case '\'':
            return "\"'\" (apostrophe)";
        default:
            return std::string(1, t);
    }
}

std::string delimiterName(char d) {
    switch (d) {
        case ',':
            return "',' (comma)";
        case ';':
            return "';' (semicolon)";
        case '\t':
            return "tab";
        case '|':
            return "'|' (pipe)";
        default: {
            // Built in place: GCC 12 at -O3 misreports "'" + std::string as overlapping.
            std::string s = "'x'";
            s[1] = d;
            return s;
        }
    }
}

// Columns overridden to categorical or text keep every cell's text; to numeric or count
// they must hold numbers.
ColumnBuilder::Intent intentFor(std::optional<ColumnType> type) {
    if (!type) return ColumnBuilder::Intent::Detect;
    return *type == ColumnType::Numeric || *type == ColumnType::Count
               ? ColumnBuilder::Intent::Numbers
               : ColumnBuilder::Intent::Text;
}

class MemorySource final : public ByteSource {
  public:
    explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
    Expected<std::size_t> read(char* buffer, std::size_t n) override {
        n = std::min(n, bytes_.size());
        std::memcpy(buffer, bytes_.data(), n);
        bytes_.remove_prefix(n);
        return n;
    }
    std::size_t totalBytes() const override { return total_; }

  private:
    std::string_view bytes_;
    std::size_t total_ = bytes_.size();
};

class Parser {
  public:
    Parser(ByteSource& source, const std::string& name, const ReadOptions& options,
           ReadReport* report)
        : source_(source),
          quoted_("'" + name + "'"),
          options_(options),
          report_(report),
          chunk_(std::max<std::size_t>(options.csv.chunkBytes, 1)) {}

    Expected<Table> run();

  private:
    Status fill(std::size_t want);
    std::string_view window() const { return {buffer_.data() + begin_, end_ - begin_}; }
    std::string columnLabel(std::size_t field) const;
    void note(std::string text) {
        if (report_) report_->notes.push_back(std::move(text));
    }
    Expected<std::string_view> sniffSample(char quote);
    Status checkOneColumn(const std::vector<CsvField>& fields, char delimiter) const;
    Status takeHeader(const std::vector<CsvField>& fields, std::size_t line);
    Status takeRow(const std::vector<CsvField>& fields, std::string_view raw, std::size_t line);
    std::optional<ColumnType> typeOverride(const std::string& name) const;
    Status notANumber(std::string_view cell, std::size_t line, std::size_t field) const;
    Status checkEncoding(std::string_view text, std::size_t line, std::size_t field);
    bool isMissing(const CsvField& f) const;
    std::string groupingNote(const ColumnBuilder::GroupingHint& hint, const std::string& column,
                             ColumnType type) const;
    std::string separatorAdvice(std::string_view cell) const;
    void markLine(std::size_t row, std::size_t line);
    std::size_t lineOf(std::size_t row) const;
    std::string unreadMessage(const std::vector<UnreadCell>& cells, const std::string& column,
                              std::size_t present) const;
    void noteColumn(const std::string& name, const Column& column, const std::string& numberNote,
                    const ColumnBuilder::NumberShare& share, bool grouped, std::size_t nulCells,
                    std::size_t firstNulRow);
    void estimateRows();

    ByteSource& source_;
    std::string quoted_;  // the source's name in quotes, as messages show it
    const ReadOptions& options_;
    ReadReport* report_;
    std::size_t chunk_;

    std::vector<char> buffer_;
    std::size_t begin_ = 0, end_ = 0;  // unread bytes are buffer_[begin_, end_)
    bool eof_ = false;
    bool sampleIsFile_ = false;  // the sniff sample is the whole file
    std::size_t bytesRead_ = 0;

    Encoding encoding_ = Encoding::Auto;
    char decimal_ = '.';
    bool latin1_ = false;
    bool checkUtf8_ = true;
    std::size_t longestToken_ = 0;
    bool haveHeader_ = false;
    std::vector<std::string> names_;
    std::vector<ColumnBuilder> builders_;
    std::size_t dataRows_ = 0;
    std::size_t dataStart_ = 0;  // file offset of the first data record
    // (row, line) where a data row does not start on the line after the last one began
    // (a quoted line break, a blank line): the line of any row, for messages.
    std::vector<std::pair<std::size_t, std::size_t>> lineMarks_;
};

void Parser::markLine(std::size_t row, std::size_t line) {
    if (!lineMarks_.empty() && lineMarks_.back().second + (row - lineMarks_.back().first) == line)
        return;
    lineMarks_.emplace_back(row, line);
}

std::size_t Parser::lineOf(std::size_t row) const {
    auto it = std::upper_bound(lineMarks_.begin(), lineMarks_.end(), row,
                               [](std::size_t r, const auto& mark) { return r < mark.first; });
    if (it == lineMarks_.begin()) return row + 1;
    --it;
    return it->second + (row - it->first);
}

Status Parser::fill(std::size_t want) {
    if (begin_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (buffer_.size() < end_ + want) buffer_.resize(end_ + want);
    auto n = source_.read(buffer_.data() + end_, want);
    if (!n) return n.status();
    if (*n == 0) eof_ = true;
    end_ += *n;
    bytesRead_ += *n;
    const auto total = static_cast<double>(std::max(source_.totalBytes(), bytesRead_));
    if (report(options_.progress, {"reading", 0, static_cast<double>(bytesRead_), total}) ==
        Continue::Stop)
        return Error::cancelled(quoted_ + ": reading cancelled");
    return {};
}

std::string Parser::columnLabel(std::size_t field) const {
    if (haveHeader_ && options_.csv.header && field < names_.size())
        return "column '" + names_[field] + "'";
    return "column " + std::to_string(field + 1);
}

Status Parser::checkEncoding(std::string_view text, std::size_t line, std::size_t field) {
    if (isValidUtf8(text)) return {};
    const std::string where = quoted_ + " line " + std::to_string(line) + ", " + columnLabel(field);
    if (encoding_ == Encoding::Utf8)
        return Error{where +
                     ": the bytes are not valid UTF-8 (the file may be Latin-1; choose that "
                     "encoding)"};
    latin1_ = true;
    checkUtf8_ = false;
    note(quoted_ + " is not valid UTF-8 (first at line " + std::to_string(line) + ", " +
         columnLabel(field) + "); read it as Windows-1252 (Latin-1)");
    return {};
}

bool Parser::isMissing(const CsvField& f) const {
    // A quoted cell is literal text, except "" which stands for an empty cell.
    if (f.quoted && !f.text.empty()) return false;
    if (f.text.size() > longestToken_) return false;
    const auto& tokens = options_.csv.missingTokens;
    return std::find(tokens.begin(), tokens.end(), f.text) != tokens.end();
}

std::string Parser::groupingNote(const ColumnBuilder::GroupingHint& hint, const std::string& column,
                                 ColumnType type) const {
    std::string text = quoted_;
    text.append(": column '")
        .append(column)
        .append("' is read as ")
        .append(toString(type))
        .append(", but its cells are numbers if ")
        .append(thousandsName(hint.thousands))
        .append(" separates thousands (such as '")
        .append(latin1_ ? windows1252ToUtf8(hint.example) : hint.example)
        .append("'); to read them as numbers set the thousands separator option to ")
        .append(thousandsName(hint.thousands));
    if (hint.decimal != decimal_)
        text.append(" and the decimal separator option to '").append(1, hint.decimal).append("'");
    return text;
}

Expected<std::string_view> Parser::sniffSample(char quote) {
    // A wide file's header alone can be longer than kSniffBytes; the sample reaches on to
    // the end of its first records so the guess never sees a cut-off header. Where
    // records end does not depend on the delimiter, only on quotes.
    RecordTokenizer tokenizer(',', quote);
    std::vector<CsvField> fields;
    for (;;) {
        std::string_view rest = window();
        std::size_t records = 0;
        RecordStatus status = RecordStatus::Complete;
        while (records < kSniffRecords && !rest.empty()) {
            const RecordResult r = tokenizer.next(rest, eof_, fields);
            if ((status = r.status) != RecordStatus::Complete) break;
            rest.remove_prefix(r.consumed);
            ++records;
        }
        const std::size_t sampled = window().size() - rest.size();
        const bool badQuoting =
            status != RecordStatus::Complete && status != RecordStatus::NeedMore;
        if (records == kSniffRecords || eof_ || badQuoting ||
            (records >= 2 && sampled >= kSniffBytes)) {
            sampleIsFile_ = eof_ && std::max(sampled, kSniffBytes) >= window().size();
            return window().substr(0, std::max(sampled, kSniffBytes));
        }
        if (auto s = fill(std::max(chunk_, end_ - begin_)); !s) return s.error();
    }
}

Status Parser::checkOneColumn(const std::vector<CsvField>& fields, char delimiter) const {
    // One column whose name holds another delimiter is a wrong delimiter, not a table
    // with one column.
    if (fields.size() != 1 || fields[0].quoted) return {};
    for (char d : {';', '\t', '|'}) {
        if (d == delimiter || fields[0].text.find(d) == std::string_view::npos) continue;
        return Error{quoted_ + ": the " + (options_.csv.header ? "header" : "first line") +
                     " reads as one column with the delimiter " + delimiterName(delimiter) +
                     ", yet it contains " + delimiterName(d) + "; set the delimiter option to " +
                     delimiterName(d)};
    }
    return {};
}

Status Parser::takeHeader(const std::vector<CsvField>& fields, std::size_t line) {
    const std::size_t n = fields.size();
    names_.resize(n);
    std::vector<std::size_t> unnamed;
    for (std::size_t k = 0; k < n; ++k) {
        if (options_.csv.header) {
            if (checkUtf8_)
                if (auto s = checkEncoding(fields[k].text, line, k); !s) return s;
            names_[k] = std::string(fields[k].text);
        }
        if (names_[k].empty()) unnamed.push_back(k + 1);
    }
    // A generated name must not clash with one the file gives: "a,,column_2" names its
    // second column column_2_2.
    std::unordered_set<std::string> taken(names_.begin(), names_.end());
    bool renamed = false;
    for (std::size_t k : unnamed) {
        const std::string base = "column_" + std::to_string(k);
        std::string name = base;
        for (int i = 2; taken.count(name) > 0; ++i) name = base + "_" + std::to_string(i);
        renamed = renamed || name != base;
        names_[k - 1] = name;
        taken.insert(std::move(name));
    }
    std::unordered_map<std::string_view, std::size_t> seen;
    for (std::size_t b = 0; b < n; ++b) {
        const auto [it, fresh] = seen.emplace(names_[b], b);
        if (!fresh)
            return Error{quoted_ + ": columns " + std::to_string(it->second + 1) + " and " +
                         std::to_string(b + 1) + " are both named '" + names_[b] + "'; rename one"};
    }
    if (options_.csv.header && !unnamed.empty()) {
        std::string list, generated;
        for (std::size_t k : unnamed) {
            list += (list.empty() ? "" : ", ") + std::to_string(k);
            generated += (generated.empty() ? "" : ", ") + names_[k - 1];
        }
        note(quoted_ + ": column" + (unnamed.size() > 1 ? "s " : " ") + list +
             (unnamed.size() > 1 ? " have" : " has") + " no name in the header; named " +
             (renamed ? generated : "column_<k>"));
    }
    builders_.clear();
    builders_.reserve(n);
    for (std::size_t k = 0; k < n; ++k)
        builders_.emplace_back(options_.maxLevels, intentFor(typeOverride(names_[k])), decimal_,
                               options_.csv.thousands);
    haveHeader_ = true;
    return {};
}

Status Parser::notANumber(std::string_view cell, std::size_t line, std::size_t field) const {
    const auto type = typeOverride(names_[field]).value_or(ColumnType::Numeric);
    // Built with append: GCC 12 at -O2 misreports chains of std::string + as overflowing.
    std::string message = quoted_;
    message.append(" line ").append(std::to_string(line)).append(", ").append(columnLabel(field));
    message.append(": '").append(shownCell(latin1_ ? windows1252ToUtf8(cell) : std::string(cell)));
    message.append("' is not a number, and the column's type is set to ");
    message.append(toString(type));
    std::string advice = separatorAdvice(cell);
    if (advice.empty()) advice = detail::spreadsheetErrorAdvice({cell});
    message.append(advice.empty() ? " (add it to the missing-value tokens if it marks a missing "
                                    "value)"
                                  : advice);
    return Error{std::move(message)};
}

// How to read `cell` as a number when only a separator option stands in the way, in
// brackets after a space; empty when none would.
std::string Parser::separatorAdvice(std::string_view cell) const {
    std::string message;
    const auto grouping = [&]() -> std::optional<char> {
        if (options_.csv.thousands != 0) return std::nullopt;
        for (char t : kThousandsSeparators)
            if (t != decimal_ && parseSeparated(cell, decimal_, t)) return t;
        return std::nullopt;
    };
    if (const auto sep = decimalSeparatorOf(cell); sep && *sep != decimal_)
        message.append(" (if '")
            .append(1, *sep)
            .append("' is the decimal separator, set the ")
            .append("decimal separator option to '")
            .append(1, *sep)
            .append("')");
    else if (const auto t = grouping())
        message.append(" (if ")
            .append(thousandsName(*t))
            .append(" separates thousands, set the thousands separator option to ")
            .append(thousandsName(*t))
            .append(")");
    return message;
}

std::string Parser::unreadMessage(const std::vector<UnreadCell>& cells, const std::string& column,
                                  std::size_t present) const {
    constexpr std::size_t kShown = 3;
    const auto shown = [&](const UnreadCell& u) {
        return "'" + shownCell(latin1_ ? windows1252ToUtf8(u.text) : u.text) + "'";
    };
    std::string message = quoted_;
    if (cells.size() == 1) {
        message.append(" line ")
            .append(std::to_string(lineOf(cells.front().row)))
            .append(", column '")
            .append(column)
            .append("': ")
            .append(shown(cells.front()))
            .append(" is not a number, while the column's other ")
            .append(std::to_string(present - 1))
            .append(" cells are");
    } else {
        message.append(" column '")
            .append(column)
            .append("': ")
            .append(std::to_string(cells.size()))
            .append(" of its ")
            .append(std::to_string(present))
            .append(" cells are not numbers, while the others are: ");
        for (std::size_t i = 0; i < cells.size() && i < kShown; ++i)
            message.append(i ? ", line " : "line ")
                .append(std::to_string(lineOf(cells[i].row)))
                .append(" ")
                .append(shown(cells[i]));
        if (cells.size() > kShown)
            message.append(" and ").append(std::to_string(cells.size() - kShown)).append(" more");
    }
    message.append(separatorAdvice(cells.front().text));
    std::vector<std::string_view> texts;
    for (const auto& u : cells) texts.push_back(u.text);
    message.append(detail::spreadsheetErrorAdvice(texts));
    message.append(
        ". The column is read as numbers with these cells apart; a run that uses it is refused "
        "until the file is fixed, the cell text is added to the missing-value tokens (if it "
        "marks a missing value), or the column's type is set to categorical or text");
    return message;
}

// The notes a finished column needs: numbers read from it, unread cells, NUL bytes, and a
// column of text or categories whose cells are mostly numbers.
void Parser::noteColumn(const std::string& name, const Column& column,
                        const std::string& numberNote, const ColumnBuilder::NumberShare& share,
                        bool grouped, std::size_t nulCells, std::size_t firstNulRow) {
    const bool numbers = column.type() == ColumnType::Numeric || column.type() == ColumnType::Count;
    if (numbers && !numberNote.empty())
        note(quoted_ + ": column '" + name +
             "': " + (latin1_ ? windows1252ToUtf8(numberNote) : numberNote));
    if (!column.unreadMessage().empty()) note(column.unreadMessage());
    if (nulCells > 0)
        note(quoted_ + ": column '" + name + "': " + std::to_string(nulCells) +
             (nulCells == 1 ? " cell" : " cells") +
             " held NUL bytes (character 0, which text never holds; the file may be damaged), "
             "first at line " +
             std::to_string(lineOf(firstNulRow)) + "; they were removed from the text");
    // (A thousands separator that would make them all numbers has a note of its own.)
    if (!numbers && !grouped && share.numbers * 2 > share.present)
        note(quoted_ + ": column '" + name + "' is read as " +
             std::string(toString(column.type())) + ", although " + std::to_string(share.numbers) +
             " of its " + std::to_string(share.present) +
             " cells are numbers (the first that is not: line " +
             std::to_string(lineOf(share.firstOtherRow)) + ", '" +
             shownCell(latin1_ ? windows1252ToUtf8(share.firstOther) : share.firstOther) + "')" +
             detail::spreadsheetErrorAdvice({share.firstOther}) +
             "; to read it as numbers set its type to numeric, and each cell that is not a "
             "number is refused with its line");
}

std::optional<ColumnType> Parser::typeOverride(const std::string& name) const {
    // Overrides name columns in UTF-8; whether the header is Latin-1 may only show later,
    // so its names are compared both ways.
    for (const auto& [column, type] : options_.typeOverrides)
        if (column == name || column == windows1252ToUtf8(name)) return type;
    return std::nullopt;
}

Status Parser::takeRow(const std::vector<CsvField>& fields, std::string_view raw,
                       std::size_t line) {
    if (fields.size() != builders_.size())
        return Error{quoted_ + " line " + std::to_string(line) + " has " +
                     std::to_string(fields.size()) + " field" + (fields.size() == 1 ? "" : "s") +
                     " but the " + (options_.csv.header ? "header" : "first row") + " has " +
                     std::to_string(builders_.size())};
    // One UTF-8 check per record: the bytes between fields are ASCII, so the record is
    // valid exactly when every field is; only an invalid record is searched field by field.
    if (checkUtf8_ && !isValidUtf8(raw))
        for (std::size_t k = 0; k < fields.size() && checkUtf8_; ++k)
            if (!isMissing(fields[k]))
                if (auto s = checkEncoding(fields[k].text, line, k); !s) return s;
    markLine(dataRows_, line);
    for (std::size_t k = 0; k < fields.size(); ++k) {
        const CsvField& f = fields[k];
        if (isMissing(f))
            builders_[k].addMissing();
        else if (!builders_[k].add(f.text))
            return notANumber(f.text, line, k);
    }
    ++dataRows_;
    return {};
}

void Parser::estimateRows() {
    // Rows so far tell the average record length; reserve for the whole file once, so
    // columns are not regrown (and briefly held twice) as they fill.
    const std::size_t total = source_.totalBytes();
    const std::size_t offset = bytesRead_ - (end_ - begin_);
    if (total <= offset || offset <= dataStart_) return;
    const double perRow = static_cast<double>(offset - dataStart_) / static_cast<double>(dataRows_);
    const double remaining = static_cast<double>(total - offset) / perRow;
    const auto rows = dataRows_ + static_cast<std::size_t>(remaining * 1.03) + 64;
    for (auto& b : builders_) b.reserve(std::min(rows, total / 2 + 1));
}

Expected<Table> Parser::run() {
    const auto encoding = encodingFromName(options_.csv.encoding);
    if (!encoding)
        return Error{quoted_ + ": unknown encoding '" + options_.csv.encoding +
                     "'; use auto, utf-8 or latin-1"};
    encoding_ = *encoding;
    latin1_ = encoding_ == Encoding::Latin1;
    checkUtf8_ = !latin1_;
    for (const auto& t : options_.csv.missingTokens)
        longestToken_ = std::max(longestToken_, t.size());
    const char quote = options_.csv.quote;
    char delimiter = options_.csv.delimiter;
    if (delimiter == '\n' || delimiter == '\r' || (delimiter != 0 && delimiter == quote))
        return Error{quoted_ + ": the delimiter cannot be a line end or the quote character"};
    if (const char d = options_.csv.decimal; d != 0 && d != '.' && d != ',')
        return Error{quoted_ + ": the decimal separator must be '.', ',' or automatic"};
    const char thousands = options_.csv.thousands;
    if (thousands != 0 && kThousandsSeparators.find(thousands) == std::string_view::npos)
        return Error{quoted_ +
                     ": the thousands separator must be ',', '.', ' ' (space), \"'\" or none"};
    if (thousands != 0 && thousands == options_.csv.decimal)
        return Error{quoted_ + ": the thousands and the decimal separator are both " +
                     thousandsName(thousands) + "; they must differ"};
    if (thousands != 0 && thousands == quote)
        return Error{quoted_ + ": the thousands separator and the quote are both " +
                     thousandsName(thousands) + "; choose another quote"};

    while (!eof_ && end_ - begin_ < kSniffBytes)
        if (auto s = fill(chunk_); !s) return s.error();
    std::string_view head = window();
    if (const auto utf = unicodeBom(head))
        return Error{quoted_ + " is " + std::string(*utf) +
                     " text (as Excel's \"Unicode Text\" saves); save it as \"CSV UTF-8\" and "
                     "read that"};
    // The same without the byte order mark (some exporters leave it out): read as bytes it
    // would give a ragged-row or encoding error nobody can act on.
    if (const auto utf = unicodeWithoutBom(head)) {
        std::string message = quoted_;
        message.append(" is ")
            .append(*utf)
            .append(" text without a byte order mark (")
            .append(utf->starts_with("UTF-16") ? "every other byte is zero"
                                               : "three bytes in four are zero")
            .append("); save it as \"CSV UTF-8\" and read that");
        return Error{std::move(message)};
    }
    if (stripUtf8Bom(head)) begin_ += 3;
    auto sample = sniffSample(quote);
    if (!sample) return sample.error();
    if (delimiter == 0) {
        const SniffResult sniff = sniffDelimiter(*sample, sampleIsFile_, quote);
        delimiter = sniff.delimiter;
        if (sniff.confident)
            note(quoted_ + ": the delimiter is " + delimiterName(delimiter));
        else
            note(quoted_ + ": no delimiter found for certain; using " + delimiterName(delimiter));
    }

    decimal_ = options_.csv.decimal;
    if (decimal_ == delimiter)
        return Error{quoted_ + ": the decimal separator and the delimiter are both " +
                     delimiterName(delimiter) + "; choose another delimiter"};
    // A comma or point that separates thousands leaves the other for decimals.
    if (decimal_ == 0 && (thousands == ',' || thousands == '.'))
        decimal_ = thousands == ',' ? '.' : ',';
    if (decimal_ == 0) {
        const DecimalSniff sniff =
            sniffDecimal(*sample, sampleIsFile_, delimiter, quote, options_.csv.header, thousands);
        decimal_ = sniff.decimal;
        if (decimal_ == ',')
            note(quoted_ + ": the decimal separator is ',' (comma)" +
                 (sniff.commasMayGroupThousands
                      ? "; every number written with a comma has three digits after it, as "
                        "thousands do (1,250): if the comma separates thousands, set the "
                        "thousands separator option to ','"
                      : ""));
    }

    RecordTokenizer tokenizer(delimiter, quote);
    std::vector<CsvField> fields;
    std::size_t line = 1;  // where the next record starts, as a person counts lines
    for (;;) {
        if (begin_ == end_) {
            if (eof_) break;
            if (auto s = fill(chunk_); !s) return s.error();
            continue;
        }
        const RecordResult r = tokenizer.next(window(), eof_, fields);
        switch (r.status) {
            case RecordStatus::Complete:
                break;
            case RecordStatus::NeedMore:
                // Read at least as much again as is pending, so a very long record costs
                // a logarithmic number of re-scans.
                if (auto s = fill(std::max(chunk_, end_ - begin_)); !s) return s.error();
                continue;
            case RecordStatus::UnterminatedQuote:
                return Error{quoted_ + " line " + std::to_string(line + r.problemLine) + ", " +
                             columnLabel(r.problemField) +
                             ": a quote opens here and is never closed"};
            case RecordStatus::TextAfterQuote:
                return Error{quoted_ + " line " + std::to_string(line + r.problemLine) + ", " +
                             columnLabel(r.problemField) +
                             ": text after a closing quote (a quote inside a quoted cell must "
                             "be doubled)"};
        }
        const std::size_t recordLine = line;
        const std::string_view raw = window().substr(0, r.consumed);
        line += r.lines;
        begin_ += r.consumed;
        if (RecordTokenizer::isBlank(fields)) continue;  // writers mark a lone missing cell ""
        if (!haveHeader_) {
            if (auto s = checkOneColumn(fields, delimiter); !s) return s.error();
            if (auto s = takeHeader(fields, recordLine); !s) return s.error();
            dataStart_ = bytesRead_ - (end_ - begin_);
            if (options_.csv.header) continue;
            dataStart_ -= r.consumed;
        }
        if (auto s = takeRow(fields, raw, recordLine); !s) return s.error();
        if (dataRows_ == kRowsBeforeEstimate) estimateRows();
    }

    if (!haveHeader_) return Error{quoted_ + " is empty"};
    if (dataRows_ == 0) return Error{quoted_ + " has a header but no data rows"};

    Table table;
    for (std::size_t k = 0; k < builders_.size(); ++k) {
        std::string name = latin1_ ? windows1252ToUtf8(names_[k]) : std::move(names_[k]);
        if (const std::string& why = builders_[k].keptAsTextReason(); !why.empty())
            note(quoted_ + ": column '" + name + "' is read as text, not numbers: " + why +
                 "; set its type to numeric to read it as numbers");
        builders_[k].settle();
        auto unread = builders_[k].takeUnreadCells();
        std::string message = unread.empty()
                                  ? std::string()
                                  : unreadMessage(unread, name, builders_[k].presentCells());
        if (latin1_)
            for (auto& u : unread) u.text = windows1252ToUtf8(u.text);
        // Told, not guessed: "1,234" may be a thousand or one and a bit.
        const auto grouping = builders_[k].groupingHint(options_.csv.decimal != 0);
        const std::string noted = name;
        const std::string numberNote = builders_[k].numberNote();
        const auto share = builders_[k].numberShare();
        Column column = builders_[k].finish(std::move(name), latin1_);
        column.setUnreadCells(std::move(unread), std::move(message));
        noteColumn(noted, column, numberNote, share, grouping.has_value(), builders_[k].nulCells(),
                   builders_[k].firstNulRow());
        if (auto s = table.addColumn(std::move(column)); !s)
            return s.error().prefixed(quoted_ + ": ");
        if (grouping) note(groupingNote(*grouping, noted, table.column(k).type()));
    }
    return table;
}

}  // namespace

Expected<Table> parseCsv(ByteSource& source, const std::string& name, const ReadOptions& options,
                         ReadReport* report) {
    return Parser(source, name, options, report).run();
}

Expected<Table> parseCsvBuffer(std::string_view bytes, const std::string& name,
                               const ReadOptions& options, ReadReport* report) {
    MemorySource source(bytes);
    return parseCsv(source, name, options, report);
}

}  // namespace ppsynth::data::detail

namespace ppsynth::data {

bool isCsvEncoding(const std::string& name) {
    return detail::encodingFromName(name).has_value();
}

}  // namespace ppsynth::data
