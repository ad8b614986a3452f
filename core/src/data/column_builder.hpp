// Builds one column of a CSV file cell by cell in a single pass. It keeps doubles while
// every cell is a number, switches to a level dictionary (interned strings, int32 codes)
// on the first non-number, and to plain strings once there are more than maxLevels
// distinct values; finish() picks the column type from what it saw.
//
// A column whose cells are all numbers but for a few (at most one in twenty of its present
// cells: "12abc", "0x1A", a NUL byte) is read as numbers with those cells apart
// (settle(), takeUnreadCells()), so that one bad cell does not make a quantity a category.
//
// Levels and texts are the cells' own text: a number column that turns categorical gets
// back each earlier cell's exact text ("1.50" and "1.5" stay two levels). So that this
// costs no string per number, a cell whose text is the number's canonical form, or that
// form with trailing zeros, is rebuilt from its double; only rarer spellings ("1e3", "+2")
// are kept aside until the column's type is decided.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ppsynth/data/table.hpp"

namespace ppsynth::data::detail {

class ColumnBuilder {
  public:
    // What a type override asks of the column, before any cell is seen.
    enum class Intent {
        Detect,   // decide from the cells
        Text,     // categorical or text: keep every cell's text, never numbers
        Numbers,  // numeric or count: a cell that is no number is refused
    };

    // `decimal` is the decimal separator numbers are written with, '.' or ','; `thousands`
    // the separator of their digit groups ("1,234.5"), 0 for none.
    explicit ColumnBuilder(std::size_t maxLevels, Intent intent = Intent::Detect,
                           char decimal = '.', char thousands = 0);

    // Expected number of rows, so storage is allocated once.
    void reserve(std::size_t rows);
    void addMissing();
    // A present (non-missing) cell, already trimmed. False (and nothing added) only when
    // the intent is Numbers and the cell is no number.
    [[nodiscard]] bool add(std::string_view cell);
    std::size_t rows() const { return rows_; }
    std::size_t presentCells() const { return present_; }

    // Why a column of numbers was kept as text ("'02134' has a leading zero ..."); empty
    // when it was not. Valid until finish().
    const std::string& keptAsTextReason() const { return keptAsTextReason_; }
    // What a person should know about a number read ("'1234567890123456789' is a whole
    // number beyond ..."), first such cell only; empty when nothing. Valid until finish().
    const std::string& numberNote() const { return numberNote_; }

    // Once every cell is added: a detected column whose present cells are numbers but for
    // at most one in twenty becomes numbers, its other cells missing and kept aside for
    // takeUnreadCells(). Otherwise counts what share are numbers (numberShare()).
    void settle();
    // The cells settle() kept aside, in row order (as the file has them, Windows-1252 when
    // read so: finish() converts only the column).
    std::vector<UnreadCell> takeUnreadCells() { return std::move(unread_); }
    // After settle() left the column as text or categories: its present cells that are
    // numbers, and the first that is not (its row and text). numbers == 0 when not counted.
    struct NumberShare {
        std::size_t numbers = 0;
        std::size_t present = 0;
        std::size_t firstOtherRow = 0;
        std::string firstOther;
    };
    const NumberShare& numberShare() const { return share_; }
    // Rows of the text or categories finish() made, whose NUL bytes it removed: how many
    // and the first (0-based). Valid after finish() until the next.
    std::size_t nulCells() const { return nulCells_; }
    std::size_t firstNulRow() const { return firstNulRow_; }

    // A column read as categories or text although every present cell is a number written
    // with a thousands separator: the separator, the decimal separator it goes with, and a
    // cell that has it ("1,234.5"). Only for a detected type without a thousands separator;
    // `decimalChosen` keeps the builder's decimal separator, else both are tried (its own
    // first). nullopt when there is none. Valid until finish().
    struct GroupingHint {
        char thousands = 0;
        char decimal = '.';
        std::string example;
    };
    std::optional<GroupingHint> groupingHint(bool decimalChosen) const;

    // Numbers -> Count (all non-negative whole) or Numeric; levels -> Categorical sorted
    // (numbers by value first, then texts by bytes); more than maxLevels -> Text.
    // `latin1` converts every string from Windows-1252 (Latin-1) to UTF-8. Leaves the builder
    // empty.
    Column finish(std::string name, bool latin1);

  private:
    enum class Mode { Numbers, Levels, Texts };
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };

    // A code written in digits (ZIP 02134, an 18-digit ID) that a number would change;
    // records why in keptAsTextReason_.
    bool isCode(std::string_view cell, double value);
    // Notes (numberNote_) a cell whose number is not what it writes: more than 17
    // significant digits, or a whole number beyond what a double holds exactly.
    void noteDigits(std::string_view cell, double value);
    void stripNulBytes();
    std::optional<double> parse(std::string_view cell) const;
    std::string canonical(double value) const;
    void addNumber(std::string_view cell, double value);
    std::string cellText(std::size_t row) const;
    std::int32_t intern(std::string_view s);
    void switchToLevels();
    void switchToTexts();

    std::size_t maxLevels_;
    Intent intent_;
    char decimal_;
    char thousands_;
    Mode mode_ = Mode::Numbers;
    std::size_t rows_ = 0;
    std::size_t reserved_ = 0;
    std::size_t present_ = 0;            // non-missing cells
    bool allWhole_ = true;               // every number a non-negative whole number
    std::vector<std::uint8_t> missing_;  // empty until the first missing cell
    std::vector<double> numbers_;
    // How each number was written (see spellingOf in the .cpp); empty while every one was
    // canonical. Rarer spellings are in oddSpellings_ by row.
    std::vector<std::uint8_t> spellings_;
    std::vector<std::pair<std::size_t, std::string>> oddSpellings_;
    std::string keptAsTextReason_;
    std::string numberNote_;
    std::vector<UnreadCell> unread_;
    NumberShare share_;
    std::size_t nulCells_ = 0;
    std::size_t firstNulRow_ = 0;
    std::vector<std::int32_t> codes_;
    std::vector<std::string> levels_;  // in order of first appearance
    std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> index_;
    std::vector<std::string> texts_;
};

}  // namespace ppsynth::data::detail
