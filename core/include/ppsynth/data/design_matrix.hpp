// The design matrix X of the regression synthesizers (METHOD.md section 1).
//
// Column order: the intercept first; then every categorical predictor in the order of
// Roles::predictors, treatment (dummy) coded; then every numeric or count predictor in that
// order, standardized to mean 0 and sd 1.
// Column names:
//   "(Intercept)"
//   "<predictor>[<level label>]"  indicator of that level, e.g. "education[HS grad]"
//   "<predictor>_z"               the standardized numeric/count predictor, e.g. "age_z"
// Categorical coding: the reference level is Roles::referenceLevels[name] (by label), else
// the first level (in the column's level order) that a used record has. Levels that no used
// record has produce no column (noted). The reference gets no column.
// Standardization: mean and sd over the used records, sd with the n - 1 denominator
// (the sample sd); both are kept so new data gets the same coding.
// Rank: constant predictors, more columns than records, and collinear columns are errors.
// Collinearity is found by a column-pivoted QR (Eigen::ColPivHouseholderQR) of X with every
// column scaled to unit length, so the tolerance reads as "the sine of the angle between a
// column and the span of the others"; the error names the design columns of one minimal
// dependent set and the predictors they come from. A cheap Gram-matrix eigenvalue bound
// skips the QR when every column is clearly independent (the usual case on large data).
// Designs of 256 columns or more (many dummy columns) take the same two steps on sparse
// matrices: a Cholesky factor of the Gram matrix minus the margin (it exists exactly when the
// smallest eigenvalue exceeds it) and, only when that fails, a sparse rank-revealing QR.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <span>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/roles.hpp"
#include "ppsynth/data/table.hpp"

namespace ppsynth::data {

// How one predictor becomes design columns.
struct PredictorCoding {
    std::string name;
    ColumnType type = ColumnType::Numeric;  // Categorical, Numeric or Count
    std::size_t firstColumn = 0;            // index in X of its first column
    std::size_t columnCount = 0;
    // Categorical: the reference level's label and the labels of the levels that have a
    // column, in column order.
    std::string referenceLabel;
    std::vector<std::string> dummyLabels;
    // Numeric and count: mean and sample sd (n - 1) of the records the coding was fitted on.
    double mean = 0.0;
    double sd = 1.0;

    bool operator==(const PredictorCoding&) const = default;
};

struct DesignCoding {
    std::vector<PredictorCoding> predictors;  // in X's column order (categorical first)
    std::vector<std::string> columnNames;     // one per column of X

    std::size_t columnCount() const { return columnNames.size(); }
    // Index of the predictor that owns design column j, or -1 for the intercept.
    std::ptrdiff_t ownerOf(std::size_t j) const;

    // X for the given rows (0-based) of any table holding the same predictor columns, e.g.
    // new data for synthesis: levels are matched by label, numeric columns use the stored
    // mean and sd. Errors on a missing cell, a level the coding has never seen, or a level
    // that had no records when the coding was fitted (the model has no coefficient for it).
    // A set cancel flag stops it ("cancelled"): X of a wide design is gigabytes to clear.
    Expected<Eigen::MatrixXd> apply(const Table& table, std::span<const std::size_t> rows,
                                    const std::atomic<bool>* cancel = nullptr) const;
    // The same for every row of the table.
    Expected<Eigen::MatrixXd> apply(const Table& table) const;

    bool operator==(const DesignCoding&) const = default;
};

struct DesignOptions {
    // A categorical predictor with more levels than this (among the used records) is an
    // error: it would add that many columns.
    std::size_t maxLevels = 100;
    // A column whose angle to the span of the others has a sine below this is collinear
    // (exact dependencies come out near 1e-15; real data rarely below 1e-4).
    double rankTolerance = 1e-7;
    // A categorical predictor whose every level reads as a number (not a code with a
    // leading zero such as "01") was probably meant to be numeric: it is refused when a
    // level has decimals ("2.0499999523162842") or when there are more whole-number levels
    // than this; up to this many whole-number codes (regions 1 to 12) are kept, with a note.
    std::size_t maxWholeNumberLevels = 20;
    const std::atomic<bool>* cancel = nullptr;  // polled between the build's steps
};

struct DesignMatrix {
    Eigen::MatrixXd X;  // n x p, column-major; row r is table row rows[r]
    DesignCoding coding;
    std::vector<std::string> notes;  // levels without records, reference-level fallbacks
};

// Fits the coding on the given rows (0-based, e.g. the rows kept after listwise deletion)
// of the table's predictors and builds X. The roles must be valid (validateRoles) and the
// used cells not missing; violations are errors, not crashes.
Expected<DesignMatrix> buildDesignMatrix(const Table& table, const Roles& roles,
                                         std::span<const std::size_t> rows,
                                         const DesignOptions& options = {});

// The rank check on its own: more columns than rows, or a (numerically) dependent set of
// columns, is an error naming the columns and their predictors.
// Wide designs (many dummy columns) are checked on sparse matrices; cancel is polled between
// the steps.
Status checkFullRank(const Eigen::MatrixXd& X, const DesignCoding& coding,
                     double rankTolerance = 1e-7, const std::atomic<bool>* cancel = nullptr);

// A copy of X made a block of columns at a time, so a cancel during the copy of a wide design
// (hundreds of MB) is seen within milliseconds ("cancelled").
Expected<Eigen::MatrixXd> copyDesign(const Eigen::MatrixXd& X,
                                     const std::atomic<bool>* cancel = nullptr);

}  // namespace ppsynth::data
