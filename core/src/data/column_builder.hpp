// Builds one column of a CSV file cell by cell in a single pass. It keeps doubles while
// every cell is a number, switches to a level dictionary (interned strings, int32 codes)
// on the first non-number, and to plain strings once there are more than maxLevels
// distinct values; finish() picks the column type from what it saw.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ppsynth/data/table.hpp"

namespace ppsynth::data::detail {

class ColumnBuilder {
  public:
    explicit ColumnBuilder(std::size_t maxLevels) : maxLevels_(maxLevels) {}

    // Expected number of rows, so storage is allocated once.
    void reserve(std::size_t rows);
    void addMissing();
    void add(std::string_view cell);  // a present (non-missing) cell, already trimmed
    std::size_t rows() const { return rows_; }

    // Numbers -> Count (all non-negative whole) or Numeric; levels -> Categorical sorted
    // (numbers by value first, then texts by bytes); more than maxLevels -> Text.
    // `latin1` converts every string from Latin-1 to UTF-8. Leaves the builder empty.
    Column finish(std::string name, bool latin1);

  private:
    enum class Mode { Numbers, Levels, Texts };
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };

    std::int32_t intern(std::string_view s);
    void switchToLevels();
    void switchToTexts();

    std::size_t maxLevels_;
    Mode mode_ = Mode::Numbers;
    std::size_t rows_ = 0;
    std::size_t reserved_ = 0;
    std::size_t present_ = 0;            // non-missing cells
    bool allWhole_ = true;               // every number a non-negative whole number
    std::vector<std::uint8_t> missing_;  // empty until the first missing cell
    std::vector<double> numbers_;
    std::vector<std::int32_t> codes_;
    std::vector<std::string> levels_;  // in order of first appearance
    std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> index_;
    std::vector<std::string> texts_;
};

}  // namespace ppsynth::data::detail
