// The in-memory table: typed columns with explicit missing values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::data {

enum class ColumnType {
    Numeric,      // real numbers
    Count,        // non-negative integers (stored as double, checked on construction)
    Categorical,  // codes into a list of levels, each with a label
    Text,         // free text, never used by a model
};

std::string_view toString(ColumnType t);
std::optional<ColumnType> columnTypeFromString(std::string_view s);

// One level of a categorical column. `value` is what the source file stores (a code in
// SPSS/Stata/SAS, the string itself in CSV); `label` is what a person reads. Writers that
// need numeric codes use `value` when it is a number, else the 1-based level position.
struct Level {
    std::string value;
    std::string label;
    bool operator==(const Level&) const = default;
};

// The date, date-time or time display format a statistics file gave a number column (SPSS
// "DATE11", Stata "%td", SAS "DATE9"). Those programs store such values as plain numbers
// counted from an origin only the format names (days since 1960, seconds since 1582); the
// format travels with the column so that a written .sav or .dta shows dates again, converted
// when that program counts from another origin (see io.hpp's writeTable).
struct TimeFormat {
    enum class Family { Spss, Stata, Sas };  // whose format `name` is
    Family family = Family::Spss;
    std::string name;  // as the file gave it: "DATE11", "%tdCCYY-NN-DD", "DATETIME20"
    bool operator==(const TimeFormat&) const = default;
};

// A cell of a number column that holds no number ("12abc"): a column is read as numbers
// when nearly all its cells are (see ColumnBuilder), and its few other cells are kept here.
struct UnreadCell {
    std::size_t row = 0;  // 0-based
    std::string text;     // as the file has it
    bool operator==(const UnreadCell&) const = default;
};

class Column {
  public:
    static constexpr std::int32_t kMissingCode = -1;

    Column() = default;
    // Missing cells: `missing[i] != 0`; their stored value is NaN (numeric/count),
    // kMissingCode (categorical) or empty (text). An empty `missing` means none missing.
    static Column numeric(std::string name, std::vector<double> values,
                          std::vector<std::uint8_t> missing = {});
    static Column count(std::string name, std::vector<double> values,
                        std::vector<std::uint8_t> missing = {});
    static Column categorical(std::string name, std::vector<std::int32_t> codes,
                              std::vector<Level> levels);
    static Column text(std::string name, std::vector<std::string> values,
                       std::vector<std::uint8_t> missing = {});

    const std::string& name() const { return name_; }
    void setName(std::string name) { name_ = std::move(name); }
    ColumnType type() const { return type_; }
    std::size_t size() const { return size_; }

    bool isMissing(std::size_t row) const { return !missing_.empty() && missing_[row] != 0; }
    std::size_t missingCount() const;
    const std::vector<std::uint8_t>& missingMask() const { return missing_; }

    // Numeric and count columns.
    const std::vector<double>& values() const { return values_; }
    double value(std::size_t row) const { return values_[row]; }
    // Categorical columns.
    const std::vector<std::int32_t>& codes() const { return codes_; }
    std::int32_t code(std::size_t row) const { return codes_[row]; }
    const std::vector<Level>& levels() const { return levels_; }
    // Text columns.
    const std::vector<std::string>& texts() const { return texts_; }
    // Numeric and count columns read with a date/time display format; nullopt otherwise.
    // Kept by filtered() and by conversions between numeric and count.
    const std::optional<TimeFormat>& timeFormat() const { return timeFormat_; }
    void setTimeFormat(std::optional<TimeFormat> format) { timeFormat_ = std::move(format); }
    // Numeric and count columns read from cells of which a few are no numbers: those cells
    // (missing in the column, in row order) and a message naming the file, line and cell and
    // what to do, which a run that uses the column gives as its refusal. Empty otherwise.
    // Kept by filtered() and by conversions between numeric and count; a conversion to
    // categorical or text gives the cells back their text.
    const std::vector<UnreadCell>& unreadCells() const { return unread_; }
    const std::string& unreadMessage() const { return unreadMessage_; }
    void setUnreadCells(std::vector<UnreadCell> cells, std::string message);

    // A cell as a person would read it ("" when missing); for error messages and views.
    std::string display(std::size_t row) const;

    // Convert to another type (a user's type override). Numeric -> categorical makes one
    // level per distinct value; categorical -> numeric needs every level value numeric;
    // count needs non-negative integers; `maxLevels` bounds a new categorical.
    Expected<Column> convertedTo(ColumnType target, std::size_t maxLevels = 100) const;

    // Keep the rows whose mask entry is non-zero (listwise deletion).
    Column filtered(const std::vector<std::uint8_t>& keep) const;

    std::size_t memoryBytes() const;
    bool operator==(const Column& other) const;

  private:
    std::string name_;
    ColumnType type_ = ColumnType::Numeric;
    std::size_t size_ = 0;
    std::vector<std::uint8_t> missing_;
    std::vector<double> values_;
    std::vector<std::int32_t> codes_;
    std::vector<Level> levels_;
    std::vector<std::string> texts_;
    std::optional<TimeFormat> timeFormat_;
    std::vector<UnreadCell> unread_;
    std::string unreadMessage_;
};

class Table {
  public:
    Table() = default;

    std::size_t rowCount() const { return columns_.empty() ? 0 : columns_.front().size(); }
    std::size_t columnCount() const { return columns_.size(); }
    const std::vector<Column>& columns() const { return columns_; }
    const Column& column(std::size_t i) const { return columns_[i]; }
    Column& column(std::size_t i) { return columns_[i]; }
    // Index of the named column, or nullopt.
    std::optional<std::size_t> indexOf(std::string_view name) const;
    const Column* find(std::string_view name) const;

    // Fails when the length differs from the table's or the name is taken.
    Status addColumn(Column c);
    Status replaceColumn(std::size_t index, Column c);

    Table filteredRows(const std::vector<std::uint8_t>& keep) const;
    std::size_t memoryBytes() const;
    bool operator==(const Table& other) const = default;

  private:
    std::vector<Column> columns_;
};

}  // namespace ppsynth::data
