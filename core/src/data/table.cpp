#include "ppsynth/data/table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "data/text_encoding.hpp"
#include "ppsynth/common/not_a_number.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data {

namespace {
std::vector<std::uint8_t> normalizedMask(std::vector<std::uint8_t> mask) {
    // An all-zero mask carries no information; keep the "none missing" form canonical.
    if (std::none_of(mask.begin(), mask.end(), [](std::uint8_t m) { return m != 0; })) return {};
    return mask;
}
}  // namespace

std::string_view toString(ColumnType t) {
    switch (t) {
        case ColumnType::Numeric:
            return "numeric";
        case ColumnType::Count:
            return "count";
        case ColumnType::Categorical:
            return "categorical";
        case ColumnType::Text:
            return "text";
    }
    return "numeric";
}

std::optional<ColumnType> columnTypeFromString(std::string_view s) {
    for (auto t :
         {ColumnType::Numeric, ColumnType::Count, ColumnType::Categorical, ColumnType::Text})
        if (toString(t) == s) return t;
    return std::nullopt;
}

Column Column::numeric(std::string name, std::vector<double> values,
                       std::vector<std::uint8_t> missing) {
    Column c;
    c.name_ = std::move(name);
    c.type_ = ColumnType::Numeric;
    c.size_ = values.size();
    c.missing_ = normalizedMask(std::move(missing));
    c.values_ = std::move(values);
    for (std::size_t i = 0; i < c.missing_.size(); ++i)
        if (c.missing_[i]) c.values_[i] = kNaN;
    return c;
}

Column Column::count(std::string name, std::vector<double> values,
                     std::vector<std::uint8_t> missing) {
    Column c = numeric(std::move(name), std::move(values), std::move(missing));
    c.type_ = ColumnType::Count;
    return c;
}

Column Column::categorical(std::string name, std::vector<std::int32_t> codes,
                           std::vector<Level> levels) {
    Column c;
    c.name_ = std::move(name);
    c.type_ = ColumnType::Categorical;
    c.size_ = codes.size();
    std::vector<std::uint8_t> mask(codes.size(), 0);
    for (std::size_t i = 0; i < codes.size(); ++i) mask[i] = codes[i] < 0 ? 1 : 0;
    c.missing_ = normalizedMask(std::move(mask));
    c.codes_ = std::move(codes);
    c.levels_ = std::move(levels);
    return c;
}

Column Column::text(std::string name, std::vector<std::string> values,
                    std::vector<std::uint8_t> missing) {
    Column c;
    c.name_ = std::move(name);
    c.type_ = ColumnType::Text;
    c.size_ = values.size();
    c.missing_ = normalizedMask(std::move(missing));
    c.texts_ = std::move(values);
    for (std::size_t i = 0; i < c.missing_.size(); ++i)
        if (c.missing_[i]) c.texts_[i].clear();
    return c;
}

void Column::setUnreadCells(std::vector<UnreadCell> cells, std::string message) {
    unread_ = std::move(cells);
    unreadMessage_ = unread_.empty() ? std::string() : std::move(message);
}

std::size_t Column::missingCount() const {
    return static_cast<std::size_t>(std::count(missing_.begin(), missing_.end(), std::uint8_t{1}));
}

std::string Column::display(std::size_t row) const {
    if (isMissing(row)) return {};
    switch (type_) {
        case ColumnType::Numeric:
        case ColumnType::Count:
            return formatNumber(values_[row]);
        case ColumnType::Categorical:
            return levels_[static_cast<std::size_t>(codes_[row])].label;
        case ColumnType::Text:
            return texts_[row];
    }
    return {};
}

namespace {
// "1,5" is a number written with a decimal comma: the file was read with the wrong setting.
std::string decimalCommaAdvice(std::string_view text) {
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
    const auto comma = text.find(',');
    const auto isDigits = [](std::string_view d) {
        return !d.empty() && d.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (comma == std::string_view::npos || !isDigits(text.substr(0, comma)) ||
        !isDigits(text.substr(comma + 1)))
        return {};
    return " (if ',' is the decimal separator, read the file again with the decimal separator "
           "option set to ',')";
}
}  // namespace

Expected<Column> Column::convertedTo(ColumnType target, std::size_t maxLevels) const {
    if (target == type_) return *this;
    const auto fail = [&](const std::string& why) {
        return Error{"column '" + name_ + "' cannot be " + std::string(toString(target)) + ": " +
                     why};
    };
    // Gather each cell as a number where possible.
    std::vector<double> nums(size_, kNaN);
    std::vector<std::uint8_t> miss(size_, 0);
    for (std::size_t i = 0; i < size_; ++i) {
        if (isMissing(i)) {
            miss[i] = 1;
            continue;
        }
        if (type_ == ColumnType::Numeric || type_ == ColumnType::Count) {
            nums[i] = values_[i];
            continue;
        }
        const std::string& s = type_ == ColumnType::Text
                                   ? texts_[i]
                                   : levels_[static_cast<std::size_t>(codes_[i])].value;
        if (target == ColumnType::Numeric || target == ColumnType::Count) {
            auto v = parseNumber(s);
            if (!v) v = parseNonFinite(s);
            if (!v)
                return fail("row " + std::to_string(i + 1) + ": '" + display(i) +
                            "' is not a number" + decimalCommaAdvice(s));
            nums[i] = *v;
        }
    }
    // Cells that were no numbers get their text back as text or levels; they stay apart
    // (missing, and named) in numbers.
    std::vector<const std::string*> unreadText;
    if (!unread_.empty() && (target == ColumnType::Text || target == ColumnType::Categorical)) {
        unreadText.assign(size_, nullptr);
        for (const auto& u : unread_) {
            unreadText[u.row] = &u.text;
            miss[u.row] = 0;
        }
    }
    const auto isUnread = [&](std::size_t i) { return !unreadText.empty() && unreadText[i]; };
    switch (target) {
        case ColumnType::Numeric: {
            Column c = numeric(name_, std::move(nums), std::move(miss));
            c.timeFormat_ = timeFormat_;  // between numeric and count: still dates
            c.setUnreadCells(unread_, unreadMessage_);
            return c;
        }
        case ColumnType::Count: {
            for (std::size_t i = 0; i < size_; ++i)
                if (!miss[i] && (nums[i] < 0 || nums[i] != std::floor(nums[i])))
                    return fail("row " + std::to_string(i + 1) + ": " + formatNumber(nums[i]) +
                                " is not a non-negative whole number");
            Column c = count(name_, std::move(nums), std::move(miss));
            c.timeFormat_ = timeFormat_;
            c.setUnreadCells(unread_, unreadMessage_);
            return c;
        }
        case ColumnType::Text: {
            std::vector<std::string> out(size_);
            for (std::size_t i = 0; i < size_; ++i)
                out[i] = isUnread(i) ? detail::withoutNulBytes(*unreadText[i]) : display(i);
            return text(name_, std::move(out), std::move(miss));
        }
        case ColumnType::Categorical: {
            // Distinct values sorted numerically (numbers) or by text, so the reference
            // level (the first) is predictable.
            const bool numericSource = type_ == ColumnType::Numeric || type_ == ColumnType::Count;
            std::map<double, std::int32_t> numLevels;
            std::map<std::string, std::int32_t> textLevels;
            for (std::size_t i = 0; i < size_; ++i) {
                if (miss[i]) continue;
                if (isUnread(i))
                    textLevels.emplace(detail::withoutNulBytes(*unreadText[i]), 0);
                else if (numericSource)
                    numLevels.emplace(nums[i], 0);
                else
                    textLevels.emplace(display(i), 0);
                if (numLevels.size() + textLevels.size() > maxLevels)
                    return fail("more than " + std::to_string(maxLevels) +
                                " distinct values (raise the level limit if this is intended)");
            }
            std::vector<Level> levels;
            std::int32_t k = 0;
            for (auto& [v, code] : numLevels) {
                code = k++;
                levels.push_back({formatNumber(v), formatNumber(v)});
            }
            for (auto& [s, code] : textLevels) {
                code = k++;
                levels.push_back({s, s});
            }
            std::vector<std::int32_t> codes(size_, kMissingCode);
            for (std::size_t i = 0; i < size_; ++i) {
                if (miss[i]) continue;
                if (isUnread(i))
                    codes[i] = textLevels[detail::withoutNulBytes(*unreadText[i])];
                else
                    codes[i] = numericSource ? numLevels[nums[i]] : textLevels[display(i)];
            }
            return categorical(name_, std::move(codes), std::move(levels));
        }
    }
    return fail("unknown type");
}

Column Column::filtered(const std::vector<std::uint8_t>& keep) const {
    Column c;
    c.name_ = name_;
    c.type_ = type_;
    c.levels_ = levels_;
    c.timeFormat_ = timeFormat_;
    std::vector<std::uint8_t> miss;
    for (std::size_t i = 0; i < size_; ++i) {
        if (!keep[i]) continue;
        miss.push_back(isMissing(i) ? 1 : 0);
        switch (type_) {
            case ColumnType::Numeric:
            case ColumnType::Count:
                c.values_.push_back(values_[i]);
                break;
            case ColumnType::Categorical:
                c.codes_.push_back(codes_[i]);
                break;
            case ColumnType::Text:
                c.texts_.push_back(texts_[i]);
                break;
        }
    }
    c.size_ = miss.size();
    c.missing_ = normalizedMask(std::move(miss));
    if (!unread_.empty()) {
        // Unread cells keep their place among the rows kept.
        std::vector<UnreadCell> kept;
        std::size_t row = 0, u = 0;
        for (std::size_t i = 0; i < size_ && u < unread_.size(); ++i) {
            if (unread_[u].row == i) {
                if (keep[i]) kept.push_back({row, unread_[u].text});
                ++u;
            }
            if (keep[i]) ++row;
        }
        c.setUnreadCells(std::move(kept), unreadMessage_);
    }
    return c;
}

std::size_t Column::memoryBytes() const {
    std::size_t bytes = missing_.capacity() + values_.capacity() * sizeof(double) +
                        codes_.capacity() * sizeof(std::int32_t);
    for (const auto& l : levels_) bytes += sizeof(Level) + l.value.capacity() + l.label.capacity();
    for (const auto& t : texts_)
        bytes += sizeof(std::string) + (t.capacity() > 15 ? t.capacity() : 0);
    for (const auto& u : unread_) bytes += sizeof(UnreadCell) + u.text.capacity();
    return bytes;
}

bool Column::operator==(const Column& o) const {
    if (name_ != o.name_ || type_ != o.type_ || size_ != o.size_ || missing_ != o.missing_ ||
        timeFormat_ != o.timeFormat_ || unread_ != o.unread_)
        return false;
    switch (type_) {
        case ColumnType::Numeric:
        case ColumnType::Count:
            for (std::size_t i = 0; i < size_; ++i)
                if (!isMissing(i) && values_[i] != o.values_[i]) return false;
            return true;
        case ColumnType::Categorical:
            return codes_ == o.codes_ && levels_ == o.levels_;
        case ColumnType::Text:
            return texts_ == o.texts_;
    }
    return false;
}

std::optional<std::size_t> Table::indexOf(std::string_view name) const {
    for (std::size_t i = 0; i < columns_.size(); ++i)
        if (columns_[i].name() == name) return i;
    return std::nullopt;
}

const Column* Table::find(std::string_view name) const {
    auto i = indexOf(name);
    return i ? &columns_[*i] : nullptr;
}

Status Table::addColumn(Column c) {
    if (!columns_.empty() && c.size() != rowCount())
        return Error{"column '" + c.name() + "' has " + std::to_string(c.size()) +
                     " rows but the table has " + std::to_string(rowCount())};
    if (indexOf(c.name())) return Error{"there are two columns named '" + c.name() + "'"};
    columns_.push_back(std::move(c));
    return {};
}

Status Table::replaceColumn(std::size_t index, Column c) {
    if (c.size() != rowCount())
        return Error{"column '" + c.name() + "' has " + std::to_string(c.size()) +
                     " rows but the table has " + std::to_string(rowCount())};
    auto other = indexOf(c.name());
    if (other && *other != index) return Error{"there are two columns named '" + c.name() + "'"};
    columns_[index] = std::move(c);
    return {};
}

Table Table::filteredRows(const std::vector<std::uint8_t>& keep) const {
    Table t;
    for (const auto& c : columns_) t.columns_.push_back(c.filtered(keep));
    return t;
}

std::size_t Table::memoryBytes() const {
    return std::accumulate(columns_.begin(), columns_.end(), std::size_t{0},
                           [](std::size_t s, const Column& c) { return s + c.memoryBytes(); });
}

}  // namespace ppsynth::data
