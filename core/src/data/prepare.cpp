#include "ppsynth/data/prepare.hpp"

#include <algorithm>
#include <cmath>

#include "data/message_text.hpp"
#include "ppsynth/common/cancel.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data {

namespace {

using detail::counted;
using detail::quotedList;
using detail::rowList;

struct MissingInColumn {
    std::string column;
    std::vector<std::size_t> rows;  // 0-based
};

std::vector<MissingInColumn> missingByColumn(const Table& table, const Roles& roles) {
    std::vector<std::string> used{roles.target};
    used.insert(used.end(), roles.predictors.begin(), roles.predictors.end());
    for (const auto& name : roles.alsoComplete)
        if (table.find(name)) used.push_back(name);
    std::vector<MissingInColumn> out;
    for (const auto& name : used) {
        const Column& c = *table.find(name);
        if (c.missingCount() == 0) continue;
        MissingInColumn m{name, {}};
        for (std::size_t r = 0; r < c.size(); ++r)
            if (c.isMissing(r)) m.rows.push_back(r);
        out.push_back(std::move(m));
    }
    return out;
}

Status checkCounts(const std::string& target, const Eigen::VectorXd& y,
                   const std::vector<std::size_t>& rows) {
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const double v = y(i);
        if (v < 0 || v != std::floor(v) || !std::isfinite(v))
            return Error{"column '" + target + "' row " +
                         std::to_string(rows[static_cast<std::size_t>(i)] + 1) + ": " +
                         formatNumber(v) +
                         " is not a non-negative whole number; a count model needs counts: "
                         "choose a continuous model or fix the file"};
    }
    return {};
}

// A used column read with cells that were no numbers: the reader's message names them.
Status checkReadCells(const Table& table, const Roles& roles) {
    std::vector<std::string> used{roles.target};
    used.insert(used.end(), roles.predictors.begin(), roles.predictors.end());
    used.insert(used.end(), roles.known.begin(), roles.known.end());
    for (const auto& name : used)
        if (const Column* c = table.find(name); c && !c->unreadMessage().empty())
            return Error{c->unreadMessage()};
    return {};
}

// inf, -inf and NaN read from a file are values, but no model takes them.
Status checkFinite(const Table& table, const Roles& roles, const std::vector<std::size_t>& rows) {
    std::vector<std::string> used{roles.target};
    used.insert(used.end(), roles.predictors.begin(), roles.predictors.end());
    for (const auto& name : used) {
        const Column& c = *table.find(name);
        if (c.type() != ColumnType::Numeric && c.type() != ColumnType::Count) continue;
        std::vector<std::size_t> bad;
        for (std::size_t r : rows)
            if (!std::isfinite(c.value(r))) bad.push_back(r);
        if (bad.empty()) continue;
        return Error{"column '" + name + "' row " + std::to_string(bad.front() + 1) + ": " +
                     formatNumber(c.value(bad.front())) + " is not a finite number (" +
                     counted(bad.size(), "such value", "such values") + ": " +
                     detail::rowsPhrase(bad) +
                     "); a model needs finite numbers: fix the file, or read such cells as "
                     "missing (add their spelling, such as inf or NaN, to the missing-value "
                     "tokens) and choose listwise deletion"};
    }
    return {};
}

// Found here, before any chain starts: a value so large on the model's scale that the models
// overflow (the normal model's starting values square y and sum over the records, a count
// model's log-likelihood takes lgamma(y + 1)).
Status checkMagnitude(const std::string& target, const ModelInputs& in, bool countModel) {
    for (Eigen::Index i = 0; i < in.y.size(); ++i) {
        if (std::abs(in.y(i)) <= kMaxModelledMagnitude) continue;
        const std::string where = "column '" + target + "' row " +
                                  std::to_string(in.keptRows[static_cast<std::size_t>(i)] + 1) +
                                  ": " + formatNumber(in.yOriginal(i));
        const std::string limit = formatNumber(kMaxModelledMagnitude);
        if (countModel)
            return Error{where + " is too large for a count model (counts up to " + limit +
                         "); choose a continuous model with the 'log' transform or fix the file"};
        return Error{where + " is too large to model on this scale (values up to " + limit +
                     " in absolute value, or the model's sums of squares overflow); choose the "
                     "'log', 'log-shift' or 'asinh' transform, or rescale the column (divide it "
                     "by a power of ten)"};
    }
    return {};
}

// A constant target has nothing to synthesize: its f_i, weights and epsilon would describe
// a degenerate fit (a predictor is refused the same way in the design matrix).
Status checkNotConstant(const std::string& target, const Eigen::VectorXd& y) {
    if (y.size() < 2 || y.minCoeff() != y.maxCoeff()) return {};
    return Error{"target '" + target + "' is constant (every used record has " +
                 formatNumber(y(0)) +
                 "), so there is nothing to synthesize and no risk to measure; pick another "
                 "target or check the file"};
}

std::string transformNote(const Transform& t, const Eigen::VectorXd& y,
                          const std::vector<std::size_t>& rows) {
    if (t.kind != TransformKind::LogShift || y.size() == 0) return {};
    Eigen::Index at = 0;
    const double lo = y.minCoeff(&at);
    const std::string where = "row " + std::to_string(rows[static_cast<std::size_t>(at)] + 1);
    if (t.shift == 0.0)
        return "log-shift transform: min(y) = " + formatNumber(lo) + " (" + where +
               ") is positive, so s = 0 and z = log(y)";
    return "log-shift transform: s = 1 - min(y) = " + formatNumber(t.shift) +
           " (min(y) = " + formatNumber(lo) + ", " + where + "); z = log(y + " +
           formatNumber(t.shift) + ")";
}

}  // namespace

std::string_view toString(MissingPolicy policy) {
    return policy == MissingPolicy::Listwise ? "listwise" : "error";
}

std::optional<MissingPolicy> missingPolicyFromString(std::string_view name) {
    for (auto p : {MissingPolicy::Error, MissingPolicy::Listwise})
        if (toString(p) == name) return p;
    return std::nullopt;
}

Expected<ModelInputs> prepareModelInputs(const Table& table, const Roles& roles,
                                         const PrepareOptions& options) {
    if (auto s = validateRoles(roles, table); !s) return s.error();
    if (auto s = checkReadCells(table, roles); !s) return s.error();
    if (options.countModel && options.transform != TransformKind::None)
        return Error{
            "a count model takes the target as it is: set the transform to 'none' "
            "(it is '" +
            std::string(toString(options.transform)) + "')"};
    const std::size_t nTable = table.rowCount();
    if (nTable == 0) return Error{"the table has no rows"};

    ModelInputs in;
    in.report.rowsInTable = nTable;

    // Missing values in the used columns: an error, or listwise deletion.
    const auto missing = missingByColumn(table, roles);
    std::vector<std::uint8_t> keep(nTable, 1);
    if (!missing.empty()) {
        if (options.missing == MissingPolicy::Error) {
            const auto& m = missing.front();
            return Error{"column '" + m.column + "' has " +
                         counted(m.rows.size(), "missing value", "missing values") + " (" +
                         detail::rowsPhrase(m.rows) +
                         "); choose listwise deletion or fix the file"};
        }
        for (const auto& m : missing)
            for (std::size_t r : m.rows) keep[r] = 0;
    }
    for (std::size_t r = 0; r < nTable; ++r)
        if (keep[r]) in.keptRows.push_back(r);
    in.report.rowsDropped = nTable - in.keptRows.size();
    if (!missing.empty()) {
        std::vector<std::string> cols, parts;
        for (const auto& m : missing) {
            cols.push_back(m.column);
            parts.push_back("'" + m.column + "' " + std::to_string(m.rows.size()) + " (" +
                            detail::rowsPhrase(m.rows) + ")");
        }
        if (in.keptRows.empty())
            return Error{"no rows left after listwise deletion: each of the " +
                         std::to_string(nTable) + " rows has a missing value in " +
                         quotedList(cols, "or") +
                         "; fix the file or remove predictors with many missing values"};
        std::string note = "listwise deletion dropped " + std::to_string(in.report.rowsDropped) +
                           " of " + std::to_string(nTable) + " rows; missing values per column: ";
        for (std::size_t k = 0; k < parts.size(); ++k) note += (k ? ", " : "") + parts[k];
        in.report.notes.push_back(std::move(note));
    }

    if (auto s = checkFinite(table, roles, in.keptRows); !s) return s.error();

    // The target: counts checked, transform fixed on the kept rows.
    const Column& target = *table.find(roles.target);
    const auto n = static_cast<Eigen::Index>(in.keptRows.size());
    in.yOriginal.resize(n);
    for (Eigen::Index i = 0; i < n; ++i)
        in.yOriginal(i) = target.value(in.keptRows[static_cast<std::size_t>(i)]);
    if (auto s = checkNotConstant(roles.target, in.yOriginal); !s) return s.error();
    if (options.countModel)
        if (auto s = checkCounts(roles.target, in.yOriginal, in.keptRows); !s) return s.error();
    auto t = fitTransform(options.transform,
                          std::span<const double>(in.yOriginal.data(), in.keptRows.size()),
                          roles.target, in.keptRows);
    if (!t) return t.error();
    in.transform = *t;
    in.y = in.transform.forward(in.yOriginal);
    if (auto s = checkMagnitude(roles.target, in, options.countModel); !s) return s.error();
    if (auto note = transformNote(in.transform, in.yOriginal, in.keptRows); !note.empty())
        in.report.notes.push_back(std::move(note));

    // The design matrix and the patterns.
    auto design = buildDesignMatrix(table, roles, in.keptRows,
                                    DesignOptions{.maxLevels = options.maxLevels,
                                                  .rankTolerance = options.rankTolerance,
                                                  .cancel = options.cancel});
    if (!design) return design.error();
    in.X = std::move(design->X);
    in.coding = std::move(design->coding);
    for (auto& note : design->notes) in.report.notes.push_back(std::move(note));

    if (stopRequested(options.cancel)) return Error::cancelled();
    auto patterns = computePatterns(table, roles.known, in.keptRows);
    if (!patterns) return patterns.error();
    in.patterns = std::move(*patterns);
    return in;
}

}  // namespace ppsynth::data
