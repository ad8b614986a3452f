#include "ppsynth/study/utility_report.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "ppsynth/common/parallel.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/data/design_matrix.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/utility/bootstrap.hpp"
#include "ppsynth/utility/ci_overlap.hpp"
#include "ppsynth/utility/ols.hpp"
#include "ppsynth/utility/pmse.hpp"
#include "study/pmse_average.hpp"

namespace ppsynth::study {

Status UtilityOptions::validate() const {
    for (double q : quantiles)
        if (!(q >= 0 && q <= 1)) return Error{"utility: every quantile must lie in [0, 1]"};
    if (bootstrap < 2) return Error{"utility: 'bootstrap' needs at least 2 replicates"};
    if (!(level > 0 && level < 1)) return Error{"utility: 'level' must be in (0, 1)"};
    if (gridPoints < 2) return Error{"utility: 'grid_points' must be at least 2"};
    return {};
}

double sPmseReference(int k, bool posteriorPredictive) {
    if (k < 2) return kUndefined;
    return (posteriorPredictive ? 2.0 : 1.0) / (k - 1);
}

std::vector<ParameterComparison> compareParameters(
    const std::vector<ParameterSummary>& weighted,
    const std::vector<ParameterSummary>& unweighted) {
    std::vector<ParameterComparison> out;
    for (const auto& w : weighted)
        for (const auto& u : unweighted) {
            if (u.name != w.name) continue;
            ParameterComparison c{w.name, w, u, kUndefined};
            const double wu = u.q95 - u.q05;
            if (wu > 0) c.widthRatio = (w.q95 - w.q05) / wu;
            out.push_back(std::move(c));
            break;
        }
    return out;
}

namespace {

// Design columns owned by the given predictors (plus the intercept), in X's order.
Expected<std::vector<Eigen::Index>> designColumnsOf(const data::DesignCoding& coding,
                                                    const std::vector<std::string>& predictors) {
    std::vector<Eigen::Index> cols;
    for (const auto& name : predictors) {
        bool found = false;
        for (const auto& p : coding.predictors) found = found || p.name == name;
        if (!found)
            return Error{"utility.regress: '" + name +
                         "' is not a predictor of the model (data.predictors)"};
    }
    for (std::size_t j = 0; j < coding.columnCount(); ++j) {
        const auto owner = coding.ownerOf(j);
        if (owner < 0) {
            cols.push_back(static_cast<Eigen::Index>(j));
            continue;
        }
        const auto& name = coding.predictors[static_cast<std::size_t>(owner)].name;
        for (const auto& p : predictors)
            if (p == name) {
                cols.push_back(static_cast<Eigen::Index>(j));
                break;
            }
    }
    return cols;
}

Eigen::MatrixXd selectColumns(const Eigen::MatrixXd& X, const std::vector<Eigen::Index>& cols) {
    Eigen::MatrixXd out(X.rows(), static_cast<Eigen::Index>(cols.size()));
    for (std::size_t j = 0; j < cols.size(); ++j)
        out.col(static_cast<Eigen::Index>(j)) = X.col(cols[j]);
    return out;
}

// Every design column but the intercept, for the propensity model (which adds its own).
void propensityFrom(const Eigen::MatrixXd& X, const data::DesignCoding& coding, UtilityInputs& in) {
    std::vector<Eigen::Index> cols;
    for (std::size_t j = 0; j < coding.columnCount(); ++j)
        if (coding.ownerOf(j) >= 0) {
            cols.push_back(static_cast<Eigen::Index>(j));
            in.propensityNames.push_back(coding.columnNames[j]);
        }
    in.propensityPredictors = selectColumns(X, cols);
}

Expected<std::vector<double>> numericTarget(const data::Table& t, const std::string& what,
                                            const std::string& target) {
    const auto* c = t.find(target);
    if (!c) return Error{what + " has no column '" + target + "'"};
    if (c->type() != data::ColumnType::Numeric && c->type() != data::ColumnType::Count)
        return Error{what + ": column '" + target + "' is " +
                     std::string(data::toString(c->type())) + ", not numbers"};
    for (std::size_t i = 0; i < c->size(); ++i)
        if (c->isMissing(i) || !std::isfinite(c->value(i)))
            return Error{what + ": column '" + target + "' row " + std::to_string(i + 1) +
                         " is missing or not finite; the utility measures need every value"};
    return c->values();
}

bool isNumber(const data::Column& c) {
    return c.type() == data::ColumnType::Numeric || c.type() == data::ColumnType::Count;
}

// Numbers compare as numbers (a CSV "35" and a Stata 35.0 are the same cell), anything else
// by its label.
bool sameCell(const data::Column& a, const data::Column& b, std::size_t i) {
    if (a.isMissing(i) || b.isMissing(i)) return a.isMissing(i) == b.isMissing(i);
    if (isNumber(a) && isNumber(b))
        return std::abs(a.value(i) - b.value(i)) <=
               1e-12 * std::max({1.0, std::abs(a.value(i)), std::abs(b.value(i))});
    return a.display(i) == b.display(i);
}

std::string shortNumber(double v) {
    std::ostringstream o;
    o << v;
    return o.str();
}

// The propensity predictors of the original records: n x 0 when there are none (a default
// UtilityInputs holds 0 x 0); computeUtility has checked any columns have n rows.
Eigen::MatrixXd propensityPredictorsOf(const UtilityInputs& in) {
    if (in.propensityPredictors.cols() == 0)
        return Eigen::MatrixXd(static_cast<Eigen::Index>(in.original.size()), 0);
    return in.propensityPredictors;
}

// pMSE of fully synthetic datasets: each stacked with its own predictors.
Expected<utility::PmseUtility> fullPmse(const UtilityInputs& in, const utility::PmseOptions& po) {
    const Eigen::MatrixXd original = propensityPredictorsOf(in);
    auto names = in.propensityNames;
    names.push_back(in.target);
    const std::size_t m = in.synthetic.size();
    std::vector<std::optional<Expected<utility::PmseResult>>> results(m);
    std::atomic<bool> cancelled{false};
    std::atomic<std::size_t> done{0};
    // Asked between datasets and inside every fit (each Newton iteration).
    auto stop = [&] {
        if (cancelled.load()) return true;
        Progress p{"pmse", 0, static_cast<double>(done.load()), static_cast<double>(m)};
        if (report(po.progress, p) == Continue::Stop) cancelled = true;
        return cancelled.load();
    };
    utility::PmseOptions perDataset = po;
    perDataset.logistic.progress = [&](const Progress&) {
        return stop() ? Continue::Stop : Continue::Yes;
    };
    parallelFor(m, po.threads, [&](std::size_t l) {
        if (stop()) return false;
        results[l] = utility::pmse(original, in.original, in.syntheticPropensityPredictors[l],
                                   in.synthetic[l], names, perDataset);
        ++done;
        return !stop();
    });
    if (cancelled) return Error::cancelled("pMSE cancelled");
    return detail::averagePmse(results);
}

}  // namespace

namespace detail {

Expected<utility::PmseUtility> averagePmse(
    const std::vector<std::optional<Expected<utility::PmseResult>>>& results) {
    const std::size_t m = results.size();
    utility::PmseUtility u;
    std::size_t flagged = 0;
    std::string firstWarning;
    for (std::size_t l = 0; l < m; ++l) {
        if (!results[l] || !*results[l])
            return (results[l] ? results[l]->error() : Error::internal("not computed"))
                .prefixed("synthetic dataset " + std::to_string(l + 1) + ": ");
        const auto& r = **results[l];
        u.pmse += r.pmse / static_cast<double>(m);
        u.standardized += r.standardized / static_cast<double>(m);
        if (!r.warning.empty() && flagged++ == 0)
            firstWarning = "dataset " + std::to_string(l + 1) + ": " + r.warning;
        u.perDataset.push_back(r);
    }
    if (flagged > 0)
        u.warning = "pMSE is unreliable for " + std::to_string(flagged) + " of " +
                    std::to_string(m) + " synthetic datasets (first, " + firstWarning + ")";
    return u;
}

Status recordPmse(const Expected<utility::PmseUtility>& pm, PmseReport& to,
                  std::vector<std::string>& warnings) {
    if (!pm) {
        if (pm.kind() == ErrorKind::Cancelled) return Error::cancelled("utility cancelled");
        to.warnings.push_back(pm.message());
        warnings.push_back("pMSE: " + pm.message());
        return {};
    }
    to.computed = true;
    to.pmse = pm->pmse;
    to.sPmse = pm->standardized;
    const auto& first = pm->perDataset.front();
    to.k = first.k;
    to.c = first.c;
    to.N = first.N;
    for (const auto& d : pm->perDataset) {
        to.perDatasetPmse.push_back(d.pmse);
        to.perDatasetSPmse.push_back(d.standardized);
    }
    if (!pm->warning.empty()) {
        to.warnings.push_back(pm->warning);
        warnings.push_back("pMSE: " + pm->warning);
    }
    return {};
}

}  // namespace detail

Expected<UtilityInputs> utilityInputs(const RunResult& run, const SynthesizerResult& s,
                                      const UtilityOptions& options,
                                      const std::vector<ParameterSummary>& unweighted) {
    UtilityInputs in;
    in.target = run.config.data.target;
    const auto& yo = run.inputs.yOriginal;
    in.original.assign(yo.data(), yo.data() + yo.size());
    in.synthetic = s.synthetic;
    const auto& coding = run.inputs.coding;
    const auto predictors = options.regress ? *options.regress : run.config.data.predictors;
    if (!options.regress || !options.regress->empty()) {
        auto cols = designColumnsOf(coding, predictors);
        if (!cols) return cols.error();
        in.regressionDesign = selectColumns(run.inputs.X, *cols);
        for (auto j : *cols)
            in.regressionNames.push_back(coding.columnNames[static_cast<std::size_t>(j)]);
    }
    propensityFrom(run.inputs.X, coding, in);
    in.posteriorPredictive = true;
    in.weightedParameters = s.parameters;
    in.unweightedParameters = unweighted;
    return in;
}

Expected<UtilityInputs> utilityInputsFromTables(const data::Table& original,
                                                const std::vector<data::Table>& synthetic,
                                                const std::string& target,
                                                const std::vector<std::string>& predictors,
                                                bool fullySynthetic) {
    UtilityInputs in;
    in.target = target;
    in.posteriorPredictive = false;
    auto y = numericTarget(original, "the original", target);
    if (!y) return y.error();
    in.original = std::move(*y);
    for (std::size_t l = 0; l < synthetic.size(); ++l) {
        const std::string what = "synthetic file " + std::to_string(l + 1);
        const auto& t = synthetic[l];
        if (!fullySynthetic && t.rowCount() != original.rowCount())
            return Error{what + " has " + std::to_string(t.rowCount()) +
                         " rows but the original has " + std::to_string(original.rowCount()) +
                         "; the utility measures compare records row by row"};
        auto ys = numericTarget(t, what, target);
        if (!ys) return ys.error();
        in.synthetic.push_back(std::move(*ys));
        for (const auto& p : predictors) {
            if (fullySynthetic) break;
            if (p == target)
                return Error{"'" + p + "' is the target; it cannot be a predictor too"};
            const auto* co = original.find(p);
            if (!co) return Error{"the original has no column '" + p + "'"};
            const auto* cs = t.find(p);
            if (!cs) return Error{what + " has no column '" + p + "'"};
            for (std::size_t i = 0; i < co->size(); ++i)
                if (!sameCell(*co, *cs, i))
                    return Error{what + ": column '" + p + "' differs from the original in row " +
                                 std::to_string(i + 1) + " ('" + cs->display(i) + "' vs '" +
                                 co->display(i) +
                                 "'); partially synthetic data release the predictors unchanged "
                                 "(for fully synthetic files use --full)"};
        }
    }
    if (!predictors.empty()) {
        data::Roles roles;
        roles.target = target;
        roles.predictors = predictors;
        std::vector<std::size_t> rows(original.rowCount());
        for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
        auto design = data::buildDesignMatrix(original, roles, rows);
        if (!design) return design.error();
        in.regressionDesign = design->X;
        in.regressionNames = design->coding.columnNames;
        propensityFrom(design->X, design->coding, in);
        if (fullySynthetic)
            for (std::size_t l = 0; l < synthetic.size(); ++l) {
                auto X = design->coding.apply(synthetic[l]);
                if (!X) return X.error().prefixed("synthetic file " + std::to_string(l + 1) + ": ");
                UtilityInputs own;
                propensityFrom(*X, design->coding, own);
                in.syntheticPropensityPredictors.push_back(std::move(own.propensityPredictors));
            }
    } else {
        in.propensityPredictors.resize(static_cast<Eigen::Index>(in.original.size()), 0);
        if (fullySynthetic)
            for (const auto& ys : in.synthetic)
                in.syntheticPropensityPredictors.emplace_back(static_cast<Eigen::Index>(ys.size()),
                                                              0);
    }
    return in;
}

Expected<UtilityReport> computeUtility(const UtilityInputs& in, const UtilityOptions& options,
                                       std::uint64_t seed, int threads,
                                       const ProgressCallback& progress) {
    if (auto s = options.validate(); !s) return s.error();
    const auto tAll = std::chrono::steady_clock::now();
    const std::size_t n = in.original.size(), m = in.synthetic.size();
    if (n == 0) return Error{"utility: the original data have no records"};
    if (m == 0) return Error{"utility: there are no synthetic datasets"};
    const bool full = in.fullySynthetic();
    if (full && in.syntheticPropensityPredictors.size() != m)
        return Error{"utility: fully synthetic data need the predictors of every dataset"};
    // Dropping mismatched predictors would quietly report a pMSE of y alone.
    if (const auto& P = in.propensityPredictors;
        P.cols() > 0 && static_cast<std::size_t>(P.rows()) != n)
        return Error{"utility: the propensity model's predictors have " + std::to_string(P.rows()) +
                     " rows, the original data " + std::to_string(n) +
                     " records: give one row per record"};
    for (std::size_t l = 0; l < m; ++l) {
        if (!full && in.synthetic[l].size() != n)
            return Error{"utility: synthetic dataset " + std::to_string(l + 1) + " has " +
                         std::to_string(in.synthetic[l].size()) + " records, the original " +
                         std::to_string(n)};
        if (full && static_cast<std::size_t>(in.syntheticPropensityPredictors[l].rows()) !=
                        in.synthetic[l].size())
            return Error{"utility: synthetic dataset " + std::to_string(l + 1) +
                         ": its predictors and y have different lengths"};
    }
    UtilityReport r;
    r.target = in.target;
    r.records = n;
    r.datasets = m;
    r.fullySynthetic = full;
    r.level = options.level;
    r.bootstrap = options.bootstrap;
    r.grid = utility::quantileGrid(options.gridPoints);
    auto stopped = [&](const std::string& stage) {
        return report(progress, {stage, 0, 0, 1}) == Continue::Stop;
    };

    // Summary statistics: bootstrap on the confidential data and within each dataset.
    auto t0 = std::chrono::steady_clock::now();
    const auto statistics = utility::defaultStatistics(options.quantiles);
    utility::BootstrapOptions bo;
    bo.replicates = options.bootstrap;
    bo.level = options.level;
    bo.seed = seed;
    bo.gridPoints = options.gridPoints;
    bo.threads = threads;
    bo.progress = progress;
    utility::BootstrapOptions bOriginal = bo;
    bOriginal.seed = in.originalSeed.value_or(seed);
    auto orig = utility::bootstrapOriginal(in.original, statistics, bOriginal);
    if (!orig) return orig.error().prefixed("utility: ");
    auto syn = utility::bootstrapSynthetic(in.synthetic, statistics, bo);
    if (!syn) return syn.error().prefixed("utility: ");
    for (std::size_t s = 0; s < statistics.size(); ++s) {
        const auto& o = (*orig)[s];
        const auto& y = (*syn)[s];
        StatisticUtility su;
        su.statistic = statistics[s];
        su.name = statistics[s].name();
        su.original = {o.estimate, o.interval.lower, o.interval.upper};
        su.originalSe = o.standardError;
        su.synthetic = {y.estimate, y.interval.lower, y.interval.upper};
        su.syntheticSe = y.standardError;
        su.perDataset = y.perDataset;
        su.originalQuantiles = o.quantileFunction;
        su.syntheticQuantiles = y.quantileFunction;
        auto ov = utility::ciOverlap(o.interval, y.interval);
        if (ov)
            su.ciOverlap = *ov;
        else
            r.warnings.push_back(su.name + ": no CI overlap (" + ov.message() + ")");
        r.statistics.push_back(std::move(su));
    }
    r.seconds.bootstrap = secondsSince(t0);

    // Regression with the combining rules for partially synthetic data.
    t0 = std::chrono::steady_clock::now();
    if (in.regressionDesign.cols() > 0) {
        if (stopped("regression")) return Error::cancelled("utility cancelled");
        if (full) {
            r.warnings.push_back(
                "regression: skipped for fully synthetic data (the combining rules here are "
                "those for partially synthetic data)");
        } else if (m < 2) {
            r.warnings.push_back(
                "regression: the combining rules need at least 2 synthetic "
                "datasets (m = 1); skipped");
        } else {
            utility::RegressionOptions ro;
            ro.level = options.level;
            ro.progress = progress;
            auto reg = utility::regressionUtility(in.regressionDesign, in.original, in.synthetic,
                                                  in.regressionNames, ro);
            if (!reg && reg.kind() == ErrorKind::Cancelled)
                return Error::cancelled("utility cancelled");
            if (!reg) {
                r.warnings.push_back("regression: " + reg.message());
            } else {
                for (const auto& c : reg->coefficients) {
                    RegressionTerm t;
                    t.term = c.name;
                    t.original = {c.original, c.originalInterval.lower, c.originalInterval.upper};
                    t.synthetic = {c.synthetic.qbar, c.synthetic.interval.lower,
                                   c.synthetic.interval.upper};
                    t.ciOverlap = c.overlap;
                    t.df = c.synthetic.df;
                    t.b = c.synthetic.b;
                    t.ubar = c.synthetic.ubar;
                    r.regression.push_back(std::move(t));
                }
                r.regressionMeanOverlap = reg->meanOverlap;
            }
        }
    }
    r.seconds.regression = secondsSince(t0);

    t0 = std::chrono::steady_clock::now();
    if (stopped("ecdf")) return Error::cancelled("utility cancelled");
    auto ecdf = utility::ecdfUtility(in.original, in.synthetic, progress);
    if (!ecdf && ecdf.kind() == ErrorKind::Cancelled) return Error::cancelled("utility cancelled");
    if (!ecdf) return ecdf.error().prefixed("utility: ");
    r.ecdf = {ecdf->maxAbs, ecdf->meanSquare, ecdf->perDataset};
    r.seconds.ecdf = secondsSince(t0);

    t0 = std::chrono::steady_clock::now();
    if (options.pmse) {
        if (stopped("pmse")) return Error::cancelled("utility cancelled");
        utility::PmseOptions po;
        po.threads = threads;
        po.progress = progress;
        auto pm = full ? fullPmse(in, po)
                       : utility::pmseUtility(propensityPredictorsOf(in), in.original, in.synthetic,
                                              in.propensityNames, in.target, po);
        if (auto st = detail::recordPmse(pm, r.pmse, r.warnings); !st) return st.error();
        if (r.pmse.computed) {
            r.pmse.sPmseReference = full ? 1.0 : sPmseReference(r.pmse.k, in.posteriorPredictive);
            r.pmse.referenceNote =
                full ? "fully synthetic: E[S_pMSE] = 1 for records drawn from the original's own "
                       "distribution (Snoke et al.), 1/(1-c) for a sample independent of it"
                : in.posteriorPredictive
                    ? "partial synthesis from posterior predictive draws: E[S_pMSE] = 2/(k-1) = " +
                          shortNumber(r.pmse.sPmseReference) +
                          " for a correct model (Snoke et al.'s 1 assumes fully synthetic data)"
                    : "partial synthesis: E[S_pMSE] = 1/(k-1) = " +
                          shortNumber(r.pmse.sPmseReference) +
                          " when y* is drawn from the original's fitted parameters, 2/(k-1) from "
                          "posterior predictive draws (Snoke et al.'s 1 assumes fully synthetic "
                          "data)";
        }
    }
    r.seconds.pmse = secondsSince(t0);

    if (!in.weightedParameters.empty() && !in.unweightedParameters.empty())
        r.parameters = compareParameters(in.weightedParameters, in.unweightedParameters);
    r.seconds.total = secondsSince(tAll);
    return r;
}

}  // namespace ppsynth::study
