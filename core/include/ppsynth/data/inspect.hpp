// A first look at a table: per-column statistics and suggested roles, for `ppsynth-cli
// inspect` and the import page. Pure data; text and JSON rendering live with the caller.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/data/table.hpp"

namespace ppsynth::data {

struct LevelCount {
    std::string label;
    std::size_t count = 0;
};

struct ColumnSummary {
    std::string name;
    ColumnType type = ColumnType::Numeric;
    std::size_t missing = 0;  // cells that are no numbers (below) excepted
    // Numeric and count columns read with a few cells that are no numbers ("12abc"): how
    // many, and the reader's message naming them and what to do (see Column::unreadCells).
    std::size_t notNumbers = 0;
    std::string notNumbersMessage;
    // Numeric and count columns: values that are inf, -inf or NaN (read from the file so).
    std::size_t nonFinite = 0;
    // Numeric and count columns, over finite values (nullopt when there are none); sd is
    // the sample sd (n - 1), nullopt with fewer than two values.
    std::optional<double> min, max, mean, sd;
    // Also the median and the sample skewness g1 = m3 / m2^1.5 (nullopt below three values
    // or when every value is the same).
    std::optional<double> median, skewness;
    // Distinct non-missing values (levels present, for categorical columns), reported up to
    // `distinctCap`; `distinctCapped` says the true number is larger.
    std::size_t distinct = 0;
    bool distinctCapped = false;
    // Categorical columns: every level in level order with its count (missing excluded).
    std::vector<LevelCount> levels;
    // A record's label, not data about it: complete, whole numbers, all distinct, and either
    // a run like 1..n, named like an identifier (a word such as id, row, serial, record,
    // respondent) or the first column named as R and pandas name row names; or a categorical
    // column with a different level in every row. idReason says which, for people.
    bool looksLikeId = false;
    std::string idReason;
};

struct IgnoredColumn {
    std::string name;
    std::string reason;
};

struct SuggestedRoles {
    std::string target;  // empty when no column qualifies
    std::string targetReason;
    std::vector<std::string> predictors;
    std::vector<std::string> known;  // always empty: the user decides
    std::string knownNote;
    std::vector<IgnoredColumn> ignored;
    // A positive, strongly right-skewed target (an income: skewness above 2, or a maximum
    // more than 20 times the median with a skewness above 1): the transform the continuous models
    // should use, "log", or "log-shift" when it has zeros or negative values; empty when none is
    // needed. The reason says why, and names the normal mixture as the other remedy.
    std::string transform;
    std::string transformReason;
};

// The thresholds of SuggestedRoles::transform.
inline constexpr double kSkewnessForTransform = 2.0;
inline constexpr double kMaxOverMedianForTransform = 20.0;
inline constexpr double kSkewnessForRatio = 1.0;  // the ratio counts only above this skewness

struct TableSummary {
    std::size_t rows = 0;
    std::vector<ColumnSummary> columns;
    SuggestedRoles roles;
};

struct SummaryOptions {
    std::size_t distinctCap = 100000;
};

TableSummary summarize(const Table& table, const SummaryOptions& options = {});

}  // namespace ppsynth::data
