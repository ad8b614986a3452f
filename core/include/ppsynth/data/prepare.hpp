// From a validated table and column roles to model inputs (METHOD.md section 1): missing
// values handled, the target checked and transformed, the design matrix X built and checked
// for rank, and the risk patterns of the known variables.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/design_matrix.hpp"
#include "ppsynth/data/patterns.hpp"
#include "ppsynth/data/roles.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/data/transform.hpp"

namespace ppsynth::data {

enum class MissingPolicy {
    Error,     // a missing value in the target or a predictor is an error
    Listwise,  // drop every row with a missing value in the target or a predictor
};
// "error", "listwise" (names used in configs).
std::string_view toString(MissingPolicy policy);
std::optional<MissingPolicy> missingPolicyFromString(std::string_view name);

// The largest |y| the models take on their scale (after the transform): beyond it their sums
// of squares and log-likelihoods overflow, so preparation refuses the record.
inline constexpr double kMaxModelledMagnitude = 1e100;

struct PrepareOptions {
    TransformKind transform = TransformKind::None;  // continuous models only
    MissingPolicy missing = MissingPolicy::Error;
    std::size_t maxLevels = 100;  // per categorical predictor, among the kept rows
    // Poisson / negative binomial: y must be non-negative whole numbers, transform "none".
    bool countModel = false;
    double rankTolerance = 1e-7;                // see DesignOptions
    const std::atomic<bool>* cancel = nullptr;  // polled between steps and in the rank check
};

// What preparation did that a person should know. Rows are reported 1-based.
struct PrepareReport {
    std::size_t rowsInTable = 0;
    std::size_t rowsDropped = 0;     // by listwise deletion
    std::vector<std::string> notes;  // deletion per column, levels without records, shift s
};

struct ModelInputs {
    Eigen::MatrixXd X;          // n x p, row r is table row keptRows[r]
    DesignCoding coding;        // how X was made; apply() builds X for new data the same way
    Eigen::VectorXd y;          // transformed target (the models' scale)
    Eigen::VectorXd yOriginal;  // target as in the table (the risk measures' scale)
    Transform transform;
    std::vector<std::size_t> keptRows;  // 0-based indices into the original table
    Patterns patterns;                  // over records 0..n-1 (the rows of X)
    PrepareReport report;

    const std::vector<std::string>& columnNames() const { return coding.columnNames; }
    std::size_t recordCount() const { return keptRows.size(); }
};

// Every failure names the column and row(s) and says what to change.
Expected<ModelInputs> prepareModelInputs(const Table& table, const Roles& roles,
                                         const PrepareOptions& options = {});

}  // namespace ppsynth::data
