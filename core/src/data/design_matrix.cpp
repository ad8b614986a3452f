#include "ppsynth/data/design_matrix.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/OrderingMethods>
#include <Eigen/QR>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseQR>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>
#include <string_view>

#include "data/message_text.hpp"
#include "ppsynth/common/cancel.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data {

namespace {

using detail::quotedList;

Status checkNotMissing(const Column& c, std::span<const std::size_t> rows) {
    for (std::size_t r : rows)
        if (c.isMissing(r))
            return Error{"predictor '" + c.name() + "' row " + std::to_string(r + 1) +
                         " is missing; choose listwise deletion or fix the file"};
    return {};
}

// A level label that reads as a number: not a code a number would change ("01", "02134").
std::optional<double> numberLabel(const std::string& label) {
    auto v = parseNumber(label);
    if (!v) return std::nullopt;
    std::string_view t(label);
    while (!t.empty() && (t.front() == ' ' || t.front() == '+' || t.front() == '-'))
        t.remove_prefix(1);
    if (t.size() > 1 && t[0] == '0' && t[1] >= '0' && t[1] <= '9') return std::nullopt;
    return v;
}

// The rule of DesignOptions::maxWholeNumberLevels: a categorical predictor whose every
// level is a number was probably meant to be numeric. A few whole-number codes (regions
// 1-12) are kept, with a note; decimals, or more whole numbers than the limit, are refused.
Status checkNumberLevels(const Column& c, const std::vector<std::size_t>& present,
                         const DesignOptions& options, std::vector<std::string>& notes) {
    const auto& levels = c.levels();
    std::vector<double> values;
    std::string decimal;  // the first level with a fractional part
    for (std::size_t k : present) {
        auto v = numberLabel(levels[k].label);
        if (!v) return {};
        if (decimal.empty() && *v != std::floor(*v)) decimal = levels[k].label;
        values.push_back(*v);
    }
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const std::string n = std::to_string(present.size());
    const std::string fix =
        "set its type to numeric (data.types: {\"" + c.name() +
        "\": \"numeric\"} in a configuration, the Type column on the Data page); if they "
        "really are category codes, relabel them as text (such as 'group " +
        levels[present.front()].label + "')";
    const std::string cost = "as categorical it adds " + std::to_string(present.size() - 1) +
                             " dummy columns to the model instead of one slope";
    if (!decimal.empty())
        return Error{"predictor '" + c.name() + "' is categorical but its " + n +
                     " levels are all numbers, some with decimals (such as '" + decimal +
                     "'): it was probably meant to be numeric, and " + cost + "; " + fix};
    if (present.size() > options.maxWholeNumberLevels)
        return Error{"predictor '" + c.name() + "' is categorical but its " + n +
                     " levels are all whole numbers (" + formatNumber(*lo) + " to " +
                     formatNumber(*hi) + "), more than the " +
                     std::to_string(options.maxWholeNumberLevels) +
                     " a set of category codes usually has: it was probably meant to be "
                     "numeric, and " +
                     cost + "; " + fix};
    notes.push_back("the levels of '" + c.name() + "' are the whole numbers " + formatNumber(*lo) +
                    " to " + formatNumber(*hi) + ": they are treated as " + n +
                    " categories (codes); if they are quantities, set its type to numeric");
    return {};
}

// Fits the dummy coding of one categorical predictor; appends notes.
Expected<PredictorCoding> fitCategorical(const Column& c, const Roles& roles,
                                         std::span<const std::size_t> rows,
                                         const DesignOptions& options,
                                         std::vector<std::string>& notes) {
    const auto& levels = c.levels();
    std::vector<std::size_t> counts(levels.size(), 0);
    for (std::size_t r : rows) {
        const auto code = c.code(r);
        if (code < 0 || static_cast<std::size_t>(code) >= levels.size())
            return Error{"predictor '" + c.name() + "' row " + std::to_string(r + 1) +
                         " has no valid level"};
        ++counts[static_cast<std::size_t>(code)];
    }
    std::vector<std::size_t> present;  // level indices with records, in level order
    std::vector<std::string> absent;
    for (std::size_t k = 0; k < levels.size(); ++k)
        (counts[k] > 0 ? present.push_back(k) : absent.push_back(levels[k].label));

    if (present.size() > options.maxLevels)
        return Error{"predictor '" + c.name() + "' has " + std::to_string(present.size()) +
                     " levels, more than the limit of " + std::to_string(options.maxLevels) +
                     "; merge levels, remove it from the predictors, or raise the level limit "
                     "(data.max_levels)"};
    if (auto s = checkNumberLevels(c, present, options, notes); !s) return s.error();
    if (present.size() == 1)
        return Error{"predictor '" + c.name() + "' has the single level '" +
                     levels[present.front()].label +
                     "' in every used record, so it is constant; remove it from the predictors"};
    std::set<std::string> labels;
    for (std::size_t k : present)
        if (!labels.insert(levels[k].label).second)
            return Error{"predictor '" + c.name() + "' has two levels labelled '" +
                         levels[k].label + "'; give them distinct labels or merge them"};

    std::size_t ref = present.front();
    if (auto it = roles.referenceLevels.find(c.name()); it != roles.referenceLevels.end()) {
        auto match = std::find_if(present.begin(), present.end(),
                                  [&](std::size_t k) { return levels[k].label == it->second; });
        if (match == present.end())
            return Error{"reference level '" + it->second + "' of '" + c.name() +
                         "' has no records among the used rows; pick a level that occurs"};
        ref = *match;
    } else if (ref != 0) {
        notes.push_back("reference level of '" + c.name() + "' is '" + levels[ref].label +
                        "', the first level with records ('" + levels[0].label + "' has none)");
    }
    if (!absent.empty())
        notes.push_back((absent.size() == 1 ? "level " : "levels ") + quotedList(absent) + " of '" +
                        c.name() + "' " + (absent.size() == 1 ? "has" : "have") +
                        " no records and get" + (absent.size() == 1 ? "s" : "") + " no column");

    PredictorCoding pc;
    pc.name = c.name();
    pc.type = ColumnType::Categorical;
    pc.referenceLabel = levels[ref].label;
    for (std::size_t k : present)
        if (k != ref) pc.dummyLabels.push_back(levels[k].label);
    pc.columnCount = pc.dummyLabels.size();
    return pc;
}

Expected<PredictorCoding> fitNumeric(const Column& c, std::span<const std::size_t> rows) {
    double mean = 0.0;
    for (std::size_t r : rows) mean += c.value(r);
    mean /= static_cast<double>(rows.size());
    double ss = 0.0;  // two passes: the sum of squares about the mean, not sum x^2 - n mean^2
    for (std::size_t r : rows) ss += (c.value(r) - mean) * (c.value(r) - mean);
    const double sd = rows.size() > 1 ? std::sqrt(ss / static_cast<double>(rows.size() - 1)) : 0.0;
    if (!(sd > 0.0) || !std::isfinite(sd))
        return Error{"predictor '" + c.name() + "' is constant (every used record has " +
                     formatNumber(c.value(rows.front())) + "); remove it from the predictors"};
    PredictorCoding pc;
    pc.name = c.name();
    pc.type = c.type();
    pc.mean = mean;
    pc.sd = sd;
    pc.columnCount = 1;
    return pc;
}

// Fills X's columns for one predictor from a column (already checked to match the coding).
Status fillColumns(const PredictorCoding& pc, const Column& c, std::span<const std::size_t> rows,
                   Eigen::MatrixXd& X) {
    if (pc.type != ColumnType::Categorical) {
        for (std::size_t i = 0; i < rows.size(); ++i)
            X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(pc.firstColumn)) =
                (c.value(rows[i]) - pc.mean) / pc.sd;
        return {};
    }
    // Map this column's level codes to design columns: -1 reference, -2 unknown.
    const auto& levels = c.levels();
    std::vector<std::ptrdiff_t> target(levels.size(), -2);
    for (std::size_t k = 0; k < levels.size(); ++k) {
        if (levels[k].label == pc.referenceLabel) target[k] = -1;
        auto it = std::find(pc.dummyLabels.begin(), pc.dummyLabels.end(), levels[k].label);
        if (it != pc.dummyLabels.end())
            target[k] = static_cast<std::ptrdiff_t>(pc.firstColumn) + (it - pc.dummyLabels.begin());
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto code = c.code(rows[i]);
        const std::ptrdiff_t t = code >= 0 && static_cast<std::size_t>(code) < levels.size()
                                     ? target[static_cast<std::size_t>(code)]
                                     : -3;
        if (t >= 0) X(static_cast<Eigen::Index>(i), t) = 1.0;
        if (t == -2)
            return Error{"predictor '" + pc.name + "' row " + std::to_string(rows[i] + 1) +
                         ": level '" + levels[static_cast<std::size_t>(code)].label +
                         "' had no records in the data the model was fitted on, so the model "
                         "has no coefficient for it"};
        if (t == -3)
            return Error{"predictor '" + pc.name + "' row " + std::to_string(rows[i] + 1) +
                         " has no valid level"};
    }
    return {};
}

Status checkColumn(const PredictorCoding& pc, const Column* c, std::span<const std::size_t> rows) {
    if (!c) return Error{"predictor '" + pc.name + "' is not a column of the table"};
    const bool wantCategorical = pc.type == ColumnType::Categorical;
    const bool isCategorical = c->type() == ColumnType::Categorical;
    const bool isNumber = c->type() == ColumnType::Numeric || c->type() == ColumnType::Count;
    if (wantCategorical ? !isCategorical : !isNumber)
        return Error{"predictor '" + pc.name + "' is " + std::string(toString(c->type())) +
                     " but the model was fitted with it " +
                     (wantCategorical ? "categorical" : "numeric") + "; change its type back"};
    for (std::size_t r : rows)
        if (r >= c->size())
            return Error{"row " + std::to_string(r + 1) + " is beyond the table's " +
                         std::to_string(c->size()) + " rows"};
    return checkNotMissing(*c, rows);
}

}  // namespace

std::ptrdiff_t DesignCoding::ownerOf(std::size_t j) const {
    for (std::size_t k = 0; k < predictors.size(); ++k)
        if (j >= predictors[k].firstColumn &&
            j < predictors[k].firstColumn + predictors[k].columnCount)
            return static_cast<std::ptrdiff_t>(k);
    return -1;
}

Expected<Eigen::MatrixXd> DesignCoding::apply(const Table& table, std::span<const std::size_t> rows,
                                              const std::atomic<bool>* cancel) const {
    const auto p = static_cast<Eigen::Index>(columnCount());
    Eigen::MatrixXd X(static_cast<Eigen::Index>(rows.size()), p);
    for (Eigen::Index j = 0; j < p; j += 64) {
        if (stopRequested(cancel)) return Error::cancelled();
        X.middleCols(j, std::min<Eigen::Index>(64, p - j)).setZero();
    }
    if (p > 0) X.col(0).setOnes();
    for (const auto& pc : predictors) {
        const Column* c = table.find(pc.name);
        if (auto s = checkColumn(pc, c, rows); !s) return s.error();
        if (auto s = fillColumns(pc, *c, rows, X); !s) return s.error();
    }
    return X;
}

Expected<Eigen::MatrixXd> DesignCoding::apply(const Table& table) const {
    std::vector<std::size_t> all(table.rowCount());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return apply(table, all);
}

namespace {

// The message for a minimal dependent set of design columns (indices into X).
Error dependentSetError(std::vector<std::size_t> involved, const DesignCoding& coding) {
    std::sort(involved.begin(), involved.end());
    std::vector<std::string> columns, owners;
    std::vector<std::ptrdiff_t> ownerIdx;
    for (std::size_t j : involved) {
        columns.push_back(j < coding.columnNames.size() ? coding.columnNames[j]
                                                        : "column " + std::to_string(j + 1));
        const auto o = coding.ownerOf(j);
        if (o >= 0 && std::find(ownerIdx.begin(), ownerIdx.end(), o) == ownerIdx.end())
            ownerIdx.push_back(o);
    }
    std::sort(ownerIdx.begin(), ownerIdx.end());
    for (auto o : ownerIdx) owners.push_back(coding.predictors[static_cast<std::size_t>(o)].name);

    if (involved.size() == 1)  // an all-zero column (a coding built elsewhere)
        return Error{"design column " + columns.front() + " is zero in every used record" +
                     (owners.empty() ? std::string()
                                     : "; remove '" + owners.front() + "' from the predictors")};
    const std::string subject = owners.size() == 1 ? "predictor " + quotedList(owners) + " is"
                                                   : "predictors " + quotedList(owners) + " are";
    const std::string remedy =
        owners.size() == 1 ? "remove it or merge its levels" : "drop one of them";
    // A level nested in another predictor's levels involves hundreds of dummy columns.
    constexpr std::size_t kShown = 8;
    std::string list;
    if (columns.size() > kShown + 2) {
        const std::size_t more = columns.size() - kShown;
        columns.resize(kShown);
        list = detail::plainList(columns);
        list.replace(list.rfind(" and "), 5, ", ");
        list += " and " + std::to_string(more) + " more";
    } else {
        list = detail::plainList(columns);
    }
    return Error{subject + " collinear: the design columns " + list +
                 " are linear combinations of each other; " + remedy};
}

// The first dependent pivot column of a QR (A P = Q R, rank < p), written in the independent
// ones: c = R11^-1 r12. Its support plus the column itself is a minimal dependent set.
std::vector<std::size_t> dependentSet(const Eigen::VectorXd& coef, Eigen::Index rank,
                                      const Eigen::VectorXi& perm) {
    std::vector<std::size_t> involved{static_cast<std::size_t>(perm(rank))};
    for (Eigen::Index i = 0; i < rank; ++i)
        if (std::abs(coef(i)) > 1e-6) involved.push_back(static_cast<std::size_t>(perm(i)));
    return involved;
}

// Designs this wide are mostly dummy columns: the sparse route costs about nnz(X) instead of
// n p^2 (a 5000-level predictor: a second instead of a minute that could not be cancelled).
constexpr Eigen::Index kSparseRankColumns = 256;

Status checkFullRankDense(const Eigen::MatrixXd& X, const Eigen::VectorXd& inv,
                          const DesignCoding& coding, double rankTolerance, double margin) {
    const Eigen::Index p = X.cols();
    // Fast path: the sine of the angle between a unit column and the span of the others is
    // at least sigma_min of the column-scaled X, i.e. sqrt(lambda_min) of its Gram matrix
    // (p x p, one BLAS-3 pass over X, about 10x cheaper than the pivoted QR for large n).
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(p, p);
    G.selfadjointView<Eigen::Lower>().rankUpdate(X.transpose());
    G = G.selfadjointView<Eigen::Lower>();
    G = inv.asDiagonal() * G * inv.asDiagonal();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(G, Eigen::EigenvaluesOnly);
    if (eig.info() == Eigen::Success && eig.eigenvalues()(0) > margin) return {};

    // Unit-length columns make the pivots read as sines of angles (see the header).
    Eigen::MatrixXd Xs = X * inv.asDiagonal();
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Xs);
    qr.setThreshold(rankTolerance);
    const Eigen::Index rank = qr.rank();
    if (rank == p) return {};
    const Eigen::MatrixXd R = qr.matrixQR().topRows(p).triangularView<Eigen::Upper>();
    const Eigen::VectorXd coef =
        R.topLeftCorner(rank, rank).triangularView<Eigen::Upper>().solve(R.block(0, rank, rank, 1));
    return dependentSetError(dependentSet(coef, rank, qr.colsPermutation().indices()), coding);
}

// X with unit-length columns, as a sparse matrix: one pass over X, polling the flag.
std::optional<Eigen::SparseMatrix<double>> unitColumnsSparse(const Eigen::MatrixXd& X,
                                                             const std::atomic<bool>* cancel) {
    const Eigen::Index n = X.rows(), p = X.cols();
    std::vector<int> outer{0}, inner;
    std::vector<double> values;
    for (Eigen::Index j = 0; j < p; ++j) {
        if (j % 64 == 0 && stopRequested(cancel)) return std::nullopt;
        const std::size_t first = values.size();
        double squares = 0;
        const double* col = X.col(j).data();
        for (Eigen::Index i = 0; i < n; ++i)
            if (col[i] != 0.0) {
                inner.push_back(static_cast<int>(i));
                values.push_back(col[i]);
                squares += col[i] * col[i];
            }
        const double scale = 1.0 / std::sqrt(squares);
        for (std::size_t k = first; k < values.size(); ++k) values[k] *= scale;
        outer.push_back(static_cast<int>(values.size()));
    }
    return Eigen::SparseMatrix<double>(Eigen::Map<const Eigen::SparseMatrix<double>>(
        n, p, static_cast<Eigen::Index>(values.size()), outer.data(), inner.data(), values.data()));
}

Status checkFullRankSparse(const Eigen::MatrixXd& X, const DesignCoding& coding,
                           double rankTolerance, double margin, const std::atomic<bool>* cancel) {
    using Sparse = Eigen::SparseMatrix<double>;
    const Eigen::Index p = X.cols();
    auto unit = unitColumnsSparse(X, cancel);
    if (!unit) return Error::cancelled();
    const Sparse& Xs = *unit;

    // lambda_min(G) > margin exactly when G - margin I has a Cholesky factor (Sylvester's
    // law of inertia): the same test as the dense eigenvalues, on a sparse Gram matrix.
    Sparse G = Sparse(Xs.transpose() * Xs);
    Sparse shift(p, p);
    shift.setIdentity();
    G -= margin * shift;
    if (stopRequested(cancel)) return Error::cancelled();
    const Eigen::SimplicialLLT<Sparse, Eigen::Lower, Eigen::AMDOrdering<int>> llt(G);
    if (llt.info() == Eigen::Success) return {};
    if (stopRequested(cancel)) return Error::cancelled();

    // Close to dependent or dependent: a rank-revealing sparse QR moves columns whose
    // remaining norm (a sine, columns being unit length) is below the tolerance to the end.
    Eigen::SparseQR<Sparse, Eigen::COLAMDOrdering<int>> qr;
    qr.setPivotThreshold(rankTolerance);
    qr.compute(Xs);
    if (qr.info() != Eigen::Success)
        return Error{"the rank check of the design matrix failed: " + qr.lastErrorMessage()};
    const Eigen::Index rank = qr.rank();
    if (rank == p) return {};
    const Sparse R = qr.matrixR().topLeftCorner(p, p);
    const Sparse R11 = R.topLeftCorner(rank, rank);
    const Eigen::VectorXd r12 = Eigen::VectorXd(R.col(rank)).head(rank);
    const Eigen::VectorXd coef = R11.triangularView<Eigen::Upper>().solve(r12);
    const Eigen::VectorXi perm = qr.colsPermutation().indices().cast<int>();
    return dependentSetError(dependentSet(coef, rank, perm), coding);
}

}  // namespace

Status checkFullRank(const Eigen::MatrixXd& X, const DesignCoding& coding, double rankTolerance,
                     const std::atomic<bool>* cancel) {
    const Eigen::Index n = X.rows(), p = X.cols();
    if (p == 0) return {};
    if (n < p)
        return Error{"the design has " + std::to_string(p) + " columns but only " +
                     std::to_string(n) + (n == 1 ? " record is" : " records are") +
                     " used; a regression needs at least as many records as columns: remove "
                     "predictors or merge levels"};
    // lambda_min carries an absolute error of order p^2 eps, so only a clear margin skips
    // the QR; anything closer is decided by the QR.
    const double margin = std::max(1e-8, 4 * rankTolerance * rankTolerance);
    if (stopRequested(cancel)) return Error::cancelled();
    if (p >= kSparseRankColumns)
        return checkFullRankSparse(X, coding, rankTolerance, margin, cancel);
    const Eigen::VectorXd norms = X.colwise().norm().transpose();
    const Eigen::VectorXd inv = norms.unaryExpr([](double v) { return v > 0 ? 1.0 / v : 0.0; });
    return checkFullRankDense(X, inv, coding, rankTolerance, margin);
}

Expected<DesignMatrix> buildDesignMatrix(const Table& table, const Roles& roles,
                                         std::span<const std::size_t> rows,
                                         const DesignOptions& options) {
    if (rows.empty()) return Error{"no records to build the design matrix from"};
    DesignMatrix out;
    std::vector<PredictorCoding> categorical, numeric;
    for (const auto& name : roles.predictors) {
        const Column* c = table.find(name);
        if (!c) return Error{"predictor '" + name + "' is not a column of the table"};
        for (std::size_t r : rows)
            if (r >= c->size())
                return Error{"row " + std::to_string(r + 1) + " is beyond the table's " +
                             std::to_string(c->size()) + " rows"};
        if (auto s = checkNotMissing(*c, rows); !s) return s.error();
        switch (c->type()) {
            case ColumnType::Categorical: {
                auto pc = fitCategorical(*c, roles, rows, options, out.notes);
                if (!pc) return pc.error();
                categorical.push_back(std::move(*pc));
                break;
            }
            case ColumnType::Numeric:
            case ColumnType::Count: {
                auto pc = fitNumeric(*c, rows);
                if (!pc) return pc.error();
                numeric.push_back(std::move(*pc));
                break;
            }
            case ColumnType::Text:
                return Error{"predictor '" + name +
                             "' is text, which no model can use; change its type to categorical "
                             "or remove it from the predictors"};
        }
    }

    DesignCoding& coding = out.coding;
    coding.columnNames.push_back("(Intercept)");
    for (auto* group : {&categorical, &numeric})
        for (auto& pc : *group) {
            pc.firstColumn = coding.columnNames.size();
            if (pc.type == ColumnType::Categorical)
                for (const auto& label : pc.dummyLabels)
                    coding.columnNames.push_back(pc.name + "[" + label + "]");
            else
                coding.columnNames.push_back(pc.name + "_z");
            coding.predictors.push_back(std::move(pc));
        }

    if (stopRequested(options.cancel)) return Error::cancelled();
    auto X = coding.apply(table, rows, options.cancel);
    if (!X) return X.error();
    if (stopRequested(options.cancel)) return Error::cancelled();
    out.X = std::move(*X);
    if (auto s = checkFullRank(out.X, coding, options.rankTolerance, options.cancel); !s)
        return s.error();
    return out;
}

Expected<Eigen::MatrixXd> copyDesign(const Eigen::MatrixXd& X, const std::atomic<bool>* cancel) {
    Eigen::MatrixXd copy(X.rows(), X.cols());
    for (Eigen::Index j0 = 0; j0 < X.cols(); j0 += kColumnsPerPoll) {
        if (stopRequested(cancel)) return Error::cancelled();
        const Eigen::Index w = std::min<Eigen::Index>(kColumnsPerPoll, X.cols() - j0);
        copy.middleCols(j0, w) = X.middleCols(j0, w);
    }
    return copy;
}

}  // namespace ppsynth::data
