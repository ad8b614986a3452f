#include "data/column_builder.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include "data/csv_sniff.hpp"
#include "data/text_encoding.hpp"
#include "ppsynth/common/not_a_number.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data::detail {

namespace {
// How a number's cell was written, one byte per cell: kCanonical is formatNumber's text,
// 1..kMaxPadding that text plus so many characters of trailing zeros ("1.50", "7.0"),
// kOdd anything else ("1e3", "+2", ".5"), whose text is kept apart.
constexpr std::uint8_t kCanonical = 0;
constexpr std::uint8_t kOdd = 255;
constexpr std::size_t kMaxPadding = 254;
// A double holds every decimal of up to 15 significant digits exactly (DBL_DIG); 17 tell
// every double from its neighbours (DBL_DECIMAL_DIG), so exporters write up to 17.
constexpr std::size_t kExactDigits = 15;
constexpr std::size_t kRoundTripDigits = 17;
// A column is numbers with a few unread cells when at most one present cell in this many
// is no number.
constexpr std::size_t kCellsPerUnread = 20;

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// Also the first letters of inf, infinity and nan.
bool mayBeNumber(char c, char decimal) {
    return isDigit(c) || c == '-' || c == '+' || c == decimal || c == 'i' || c == 'I' || c == 'n' ||
           c == 'N';
}

// An integer formatNumber writes the same way; the common case, checked without it.
bool isPlainInteger(std::string_view s) {
    if (!s.empty() && s.front() == '-') s.remove_prefix(1);
    if (s.empty() || s.size() > kExactDigits || (s.front() == '0' && s.size() > 1)) return false;
    return std::all_of(s.begin(), s.end(), isDigit);
}

std::uint8_t spellingOf(std::string_view cell, std::string_view canonical, char decimal) {
    if (cell == canonical) return kCanonical;
    if (cell.size() <= canonical.size() || cell.size() - canonical.size() > kMaxPadding ||
        !cell.starts_with(canonical) || canonical.find('e') != std::string_view::npos)
        return kOdd;
    std::string_view tail = cell.substr(canonical.size());
    if (canonical.find(decimal) == std::string_view::npos) {
        if (tail.front() != decimal) return kOdd;
        tail.remove_prefix(1);
    }
    if (tail.find_first_not_of('0') != std::string_view::npos) return kOdd;
    return static_cast<std::uint8_t>(cell.size() - canonical.size());
}

std::string respelled(std::string canonical, std::uint8_t padding, char decimal) {
    if (padding == kCanonical) return canonical;
    if (canonical.find(decimal) == std::string::npos) {
        canonical += decimal;
        --padding;
    }
    canonical.append(padding, '0');
    return canonical;
}

// From the first non-zero digit to the last, without sign, point or exponent:
// "-0.01250e3" -> "125".
std::string significantDigits(std::string_view s) {
    std::string digits;
    for (char c : s) {
        if (c == 'e' || c == 'E') break;
        if (isDigit(c) && !(digits.empty() && c == '0')) digits.push_back(c);
    }
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    return digits;
}

bool hasLeadingZero(std::string_view s) {
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
    return s.size() >= 2 && s[0] == '0' && isDigit(s[1]);
}

// Drops spare capacity left by a generous reservation, which would otherwise count as
// table memory for the rest of the session.
template <typename V>
void trimCapacity(V& v) {
    if (v.capacity() > v.size() + v.size() / 8 + 64) v.shrink_to_fit();
}
}  // namespace

ColumnBuilder::ColumnBuilder(std::size_t maxLevels, Intent intent, char decimal, char thousands)
    : maxLevels_(maxLevels),
      intent_(intent),
      decimal_(decimal),
      thousands_(thousands),
      mode_(intent == Intent::Text ? Mode::Levels : Mode::Numbers) {}

void ColumnBuilder::reserve(std::size_t rows) {
    reserved_ = rows;
    switch (mode_) {
        case Mode::Numbers:
            numbers_.reserve(rows);
            if (!spellings_.empty()) spellings_.reserve(rows);
            break;
        case Mode::Levels:
            codes_.reserve(rows);
            break;
        case Mode::Texts:
            texts_.reserve(rows);
            break;
    }
    if (!missing_.empty()) missing_.reserve(rows);
}

void ColumnBuilder::addMissing() {
    if (missing_.empty()) {
        missing_.reserve(std::max(reserved_, rows_ + 1));
        missing_.assign(rows_, 0);
    }
    missing_.push_back(1);
    switch (mode_) {
        case Mode::Numbers:
            numbers_.push_back(kNaN);
            if (!spellings_.empty()) spellings_.push_back(kCanonical);
            break;
        case Mode::Levels:
            codes_.push_back(Column::kMissingCode);
            break;
        case Mode::Texts:
            texts_.emplace_back();
            break;
    }
    ++rows_;
}

bool ColumnBuilder::add(std::string_view cell) {
    if (mode_ == Mode::Numbers) {
        std::optional<double> number;
        if (!cell.empty() && mayBeNumber(cell.front(), decimal_)) number = parse(cell);
        if (!number && intent_ == Intent::Numbers) return false;
        if (number && !(intent_ == Intent::Detect && isCode(cell, *number))) {
            addNumber(cell, *number);
        } else {
            switchToLevels();
        }
    }
    if (mode_ == Mode::Levels) {
        codes_.push_back(intern(cell));
        if (levels_.size() > maxLevels_) switchToTexts();
    } else if (mode_ == Mode::Texts) {
        texts_.emplace_back(cell);
    }
    if (!missing_.empty()) missing_.push_back(0);
    ++present_;
    ++rows_;
    return true;
}

bool ColumnBuilder::isCode(std::string_view cell, double value) {
    if (hasLeadingZero(cell)) {
        keptAsTextReason_ = "'" + std::string(cell) + "' has a leading zero, which a number drops";
        return true;
    }
    // However many digits a number has, it is a number: 17 significant digits are what
    // exporters write to keep a double exact (2.0499999523162842). Only a note for
    // numbers the double cannot hold.
    if (numberNote_.empty() && std::count_if(cell.begin(), cell.end(), isDigit) >
                                   static_cast<std::ptrdiff_t>(kExactDigits))
        noteDigits(cell, value);
    return false;
}

void ColumnBuilder::noteDigits(std::string_view cell, double value) {
    const std::string digits = significantDigits(cell);
    const bool whole = cell.find_first_of(".,eE") == std::string_view::npos;
    if (whole && std::isfinite(value)) {
        char buffer[400];
        const auto [end, ec] =
            std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
        if (ec == std::errc() && significantDigits({buffer, end}) != digits)
            numberNote_ = "'" + std::string(cell) +
                          "' is a whole number with more digits than a number holds exactly "
                          "(up to 9007199254740992); it is read as " +
                          std::string(buffer, end) +
                          ". If the column is an identifier or a code, set its type to text to "
                          "keep every digit";
        return;
    }
    if (digits.size() > kRoundTripDigits)
        numberNote_ = "'" + std::string(cell) + "' has " + std::to_string(digits.size()) +
                      " significant digits; it is read as the nearest number, " +
                      formatNumber(value) + " (17 significant digits tell every number apart)";
}

std::optional<double> ColumnBuilder::parse(std::string_view cell) const {
    auto v = decimal_ == '.' && thousands_ == 0 ? parseNumber(cell)
                                                : parseSeparated(cell, decimal_, thousands_);
    if (!v) v = parseNonFinite(cell);
    return v;
}

std::string ColumnBuilder::canonical(double value) const {
    std::string text = formatNumber(value);
    const std::size_t point = std::min(text.find('.'), text.size());
    if (decimal_ != '.' && point < text.size()) text[point] = decimal_;
    // Digits grouped by three, as the file writes them: 1,234,567.5.
    if (thousands_ != 0 && text.find('e') == std::string::npos) {
        const std::size_t first = text.front() == '-' ? 1 : 0;
        for (std::size_t at = point; at > first + 3; at -= 3) text.insert(at - 3, 1, thousands_);
    }
    return text;
}

std::optional<ColumnBuilder::GroupingHint> ColumnBuilder::groupingHint(bool decimalChosen) const {
    if (intent_ != Intent::Detect || thousands_ != 0 || mode_ == Mode::Numbers) return std::nullopt;
    struct Candidate {
        GroupingHint hint;
        bool alive = true;
    };
    std::vector<Candidate> candidates;
    const char otherDecimal = decimal_ == '.' ? ',' : '.';
    for (char d : {decimal_, otherDecimal}) {
        if (d != decimal_ && decimalChosen) continue;
        for (char t : kThousandsSeparators)
            if (t != d) candidates.push_back({{t, d, {}}});
    }
    std::size_t alive = candidates.size();
    char buffer[kLongestNumber];
    // False once no candidate is left.
    const auto visit = [&](std::string_view cell) {
        for (auto& c : candidates) {
            if (!c.alive) continue;
            const auto plain = ungrouped(cell, c.hint.thousands, buffer);
            if (!plain || !parseSeparated(*plain, c.hint.decimal, 0)) {
                c.alive = false;
                --alive;
            } else if (c.hint.example.empty() && plain->data() != cell.data()) {
                c.hint.example = cell;
            }
        }
        return alive > 0;
    };
    if (mode_ == Mode::Levels) {
        for (const auto& level : levels_)
            if (!visit(level)) return std::nullopt;
    } else {
        for (std::size_t i = 0; i < texts_.size(); ++i)
            if ((missing_.empty() || !missing_[i]) && !visit(texts_[i])) return std::nullopt;
    }
    for (const auto& c : candidates)
        if (c.alive && !c.hint.example.empty()) return c.hint;
    return std::nullopt;
}

void ColumnBuilder::addNumber(std::string_view cell, double value) {
    numbers_.push_back(value);
    if (value < 0 || value != std::floor(value) || !std::isfinite(value)) allWhole_ = false;
    // Below 1000 a grouped number has no separator to write.
    const bool plain = isPlainInteger(cell) && (thousands_ == 0 || std::abs(value) < 1000);
    const std::uint8_t spelling = plain ? kCanonical : spellingOf(cell, canonical(value), decimal_);
    if (spellings_.empty()) {
        if (spelling == kCanonical) return;
        spellings_.reserve(std::max(reserved_, rows_ + 1));
        spellings_.assign(rows_, kCanonical);
    }
    spellings_.push_back(spelling);
    if (spelling == kOdd) oddSpellings_.emplace_back(rows_, cell);
}

std::string ColumnBuilder::cellText(std::size_t row) const {
    const std::uint8_t spelling = spellings_.empty() ? kCanonical : spellings_[row];
    if (spelling != kOdd) return respelled(canonical(numbers_[row]), spelling, decimal_);
    const auto it = std::lower_bound(oddSpellings_.begin(), oddSpellings_.end(), row,
                                     [](const auto& odd, std::size_t r) { return odd.first < r; });
    return it->second;
}

std::int32_t ColumnBuilder::intern(std::string_view s) {
    if (auto it = index_.find(s); it != index_.end()) return it->second;
    const auto code = static_cast<std::int32_t>(levels_.size());
    levels_.emplace_back(s);
    index_.emplace(levels_.back(), code);
    return code;
}

void ColumnBuilder::switchToLevels() {
    codes_.reserve(std::max(reserved_, rows_ + 1));
    for (std::size_t i = 0; i < rows_; ++i)
        codes_.push_back(!missing_.empty() && missing_[i] ? Column::kMissingCode
                                                          : intern(cellText(i)));
    std::vector<double>().swap(numbers_);
    std::vector<std::uint8_t>().swap(spellings_);
    std::vector<std::pair<std::size_t, std::string>>().swap(oddSpellings_);
    mode_ = Mode::Levels;
}

void ColumnBuilder::switchToTexts() {
    texts_.reserve(std::max(reserved_, codes_.size() + 1));
    for (std::int32_t code : codes_)
        texts_.push_back(code < 0 ? std::string() : levels_[static_cast<std::size_t>(code)]);
    std::vector<std::int32_t>().swap(codes_);
    std::vector<std::string>().swap(levels_);
    index_ = {};
    mode_ = Mode::Texts;
}

void ColumnBuilder::settle() {
    if (mode_ == Mode::Numbers || intent_ != Intent::Detect || !keptAsTextReason_.empty() ||
        present_ == 0)
        return;
    // Each present cell as a number, or nullopt; a code (leading zero) keeps the column text.
    std::vector<std::optional<double>> levelNumber;
    bool code = false;
    const auto number = [&](std::string_view text) {
        auto v = parse(text);
        if (v && hasLeadingZero(text)) code = true;
        return v;
    };
    const auto present = [&](std::size_t r) {
        return mode_ == Mode::Levels ? codes_[r] >= 0 : missing_.empty() || !missing_[r];
    };
    const auto textOf = [&](std::size_t r) -> const std::string& {
        return mode_ == Mode::Levels ? levels_[static_cast<std::size_t>(codes_[r])] : texts_[r];
    };
    if (mode_ == Mode::Levels) {
        levelNumber.reserve(levels_.size());
        for (const auto& l : levels_) levelNumber.push_back(number(l));
    }
    const auto numberAt = [&](std::size_t r) {
        return mode_ == Mode::Levels ? levelNumber[static_cast<std::size_t>(codes_[r])]
                                     : number(texts_[r]);
    };
    share_ = {};
    share_.present = present_;
    // First only count, so that a column of text costs no second copy.
    bool seenOther = false;
    for (std::size_t r = 0; r < rows_; ++r) {
        if (!present(r)) continue;
        if (numberAt(r)) {
            ++share_.numbers;
        } else if (!seenOther) {
            seenOther = true;
            share_.firstOtherRow = r;
            share_.firstOther = textOf(r);
        }
    }
    const std::size_t others = present_ - share_.numbers;
    if (code || others == 0 || others * kCellsPerUnread > present_) return;

    // Numbers, with the other cells missing and kept aside.
    std::vector<double> values(rows_, kNaN);
    if (missing_.empty()) missing_.assign(rows_, 0);
    allWhole_ = true;
    for (std::size_t r = 0; r < rows_; ++r) {
        if (!present(r)) {
            missing_[r] = 1;
        } else if (const auto v = numberAt(r)) {
            values[r] = *v;
            if (*v < 0 || *v != std::floor(*v) || !std::isfinite(*v)) allWhole_ = false;
        } else {
            missing_[r] = 1;
            unread_.push_back({r, textOf(r)});
        }
    }
    numbers_ = std::move(values);
    std::vector<std::int32_t>().swap(codes_);
    std::vector<std::string>().swap(levels_);
    index_ = {};
    std::vector<std::string>().swap(texts_);
    share_ = {};
    mode_ = Mode::Numbers;
}

void ColumnBuilder::stripNulBytes() {
    const auto hasNul = [](const std::string& t) { return t.find('\0') != std::string::npos; };
    if (mode_ == Mode::Texts) {
        for (std::size_t r = 0; r < texts_.size(); ++r) {
            if (!hasNul(texts_[r])) continue;
            if (nulCells_++ == 0) firstNulRow_ = r;
            texts_[r] = withoutNulBytes(texts_[r]);
        }
        return;
    }
    // Levels that differ only by NUL bytes become one.
    std::vector<std::int32_t> merged(levels_.size());
    std::vector<std::uint8_t> hadNul(levels_.size(), 0);
    std::vector<std::string> kept;
    std::unordered_map<std::string, std::int32_t> at;
    bool any = false;
    for (std::size_t k = 0; k < levels_.size(); ++k) {
        hadNul[k] = hasNul(levels_[k]) ? 1 : 0;
        any = any || hadNul[k];
    }
    if (!any) return;
    for (std::size_t k = 0; k < levels_.size(); ++k) {
        std::string text = hadNul[k] ? withoutNulBytes(levels_[k]) : levels_[k];
        const auto [it, fresh] = at.emplace(text, static_cast<std::int32_t>(kept.size()));
        if (fresh) kept.push_back(std::move(text));
        merged[k] = it->second;
    }
    for (std::size_t r = 0; r < codes_.size(); ++r) {
        const auto code = codes_[r];
        if (code < 0) continue;
        if (hadNul[static_cast<std::size_t>(code)] && nulCells_++ == 0) firstNulRow_ = r;
        codes_[r] = merged[static_cast<std::size_t>(code)];
    }
    levels_ = std::move(kept);
}

Column ColumnBuilder::finish(std::string name, bool latin1) {
    Column c;
    nulCells_ = 0;
    firstNulRow_ = 0;
    if (mode_ != Mode::Numbers) stripNulBytes();
    switch (mode_) {
        case Mode::Numbers:
            trimCapacity(numbers_);
            trimCapacity(missing_);
            c = present_ > 0 && allWhole_
                    ? Column::count(std::move(name), std::move(numbers_), std::move(missing_))
                    : Column::numeric(std::move(name), std::move(numbers_), std::move(missing_));
            break;
        case Mode::Levels: {
            index_ = {};
            if (latin1)
                for (auto& l : levels_) l = windows1252ToUtf8(l);
            // Numbers first by value, then texts by bytes: a predictable reference level.
            // NaN orders with no number: it goes with the texts.
            std::vector<std::optional<double>> asNumber(levels_.size());
            for (std::size_t i = 0; i < levels_.size(); ++i)
                if (auto v = parse(levels_[i]); v && !std::isnan(*v)) asNumber[i] = v;
            std::vector<std::size_t> order(levels_.size());
            std::iota(order.begin(), order.end(), std::size_t{0});
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                if (asNumber[a] && asNumber[b] && *asNumber[a] != *asNumber[b])
                    return *asNumber[a] < *asNumber[b];
                if (asNumber[a] && asNumber[b]) return levels_[a] < levels_[b];  // 0 and -0
                if (asNumber[a] || asNumber[b]) return asNumber[a].has_value();
                return levels_[a] < levels_[b];
            });
            std::vector<std::int32_t> newCode(levels_.size());
            std::vector<Level> levels;
            levels.reserve(levels_.size());
            for (std::size_t k = 0; k < order.size(); ++k) {
                newCode[order[k]] = static_cast<std::int32_t>(k);
                levels.push_back({levels_[order[k]], levels_[order[k]]});
            }
            for (auto& code : codes_)
                if (code >= 0) code = newCode[static_cast<std::size_t>(code)];
            trimCapacity(codes_);
            c = Column::categorical(std::move(name), std::move(codes_), std::move(levels));
            break;
        }
        case Mode::Texts:
            if (latin1)
                for (auto& t : texts_) t = windows1252ToUtf8(t);
            trimCapacity(texts_);
            trimCapacity(missing_);
            c = Column::text(std::move(name), std::move(texts_), std::move(missing_));
            break;
    }
    const std::size_t nulCells = nulCells_, firstNulRow = firstNulRow_;
    *this = ColumnBuilder(maxLevels_);
    nulCells_ = nulCells;
    firstNulRow_ = firstNulRow;
    return c;
}

}  // namespace ppsynth::data::detail
