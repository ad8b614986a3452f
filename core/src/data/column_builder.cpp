#include "data/column_builder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include "data/text_encoding.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data::detail {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool mayBeNumber(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
}

// Drops spare capacity left by a generous reservation, which would otherwise count as
// table memory for the rest of the session.
template <typename V>
void trimCapacity(V& v) {
    if (v.capacity() > v.size() + v.size() / 8 + 64) v.shrink_to_fit();
}
}  // namespace

void ColumnBuilder::reserve(std::size_t rows) {
    reserved_ = rows;
    switch (mode_) {
        case Mode::Numbers:
            numbers_.reserve(rows);
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

void ColumnBuilder::add(std::string_view cell) {
    if (!missing_.empty()) missing_.push_back(0);
    ++present_;
    ++rows_;
    std::optional<double> number;
    if (!cell.empty() && mayBeNumber(cell.front())) number = parseNumber(cell);
    if (mode_ == Mode::Numbers) {
        if (number) {
            numbers_.push_back(*number);
            if (*number < 0 || *number != std::floor(*number)) allWhole_ = false;
            return;
        }
        --rows_;  // the switch converts the rows before this one
        switchToLevels();
        ++rows_;
    }
    // A number in a text column is kept in its canonical form so "1.50" and "1.5" (before
    // and after the switch) are the same level.
    std::string canonical;
    if (number) {
        canonical = formatNumber(*number);
        cell = canonical;
    }
    if (mode_ == Mode::Levels) {
        codes_.push_back(intern(cell));
        if (levels_.size() > maxLevels_) switchToTexts();
        return;
    }
    texts_.emplace_back(cell);
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
                                                          : intern(formatNumber(numbers_[i])));
    std::vector<double>().swap(numbers_);
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

Column ColumnBuilder::finish(std::string name, bool latin1) {
    Column c;
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
                for (auto& l : levels_) l = latin1ToUtf8(l);
            // Numbers first by value, then texts by bytes: a predictable reference level.
            std::vector<std::optional<double>> asNumber(levels_.size());
            for (std::size_t i = 0; i < levels_.size(); ++i) asNumber[i] = parseNumber(levels_[i]);
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
                for (auto& t : texts_) t = latin1ToUtf8(t);
            trimCapacity(texts_);
            trimCapacity(missing_);
            c = Column::text(std::move(name), std::move(texts_), std::move(missing_));
            break;
    }
    *this = ColumnBuilder(maxLevels_);
    return c;
}

}  // namespace ppsynth::data::detail
