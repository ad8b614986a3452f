#include "ppsynth/study/joint_utility.hpp"

#include <atomic>
#include <chrono>
#include <optional>

#include "ppsynth/common/parallel.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/utility/correlation_difference.hpp"
#include "ppsynth/utility/cross_regression.hpp"
#include "ppsynth/utility/pmse.hpp"
#include "study/pmse_average.hpp"

namespace ppsynth::study {

double jointSPmseReference(int k, std::size_t q, bool posteriorPredictive) {
    if (k < 2) return kUndefined;
    return (posteriorPredictive ? 2.0 : 1.0) * static_cast<double>(q) / (k - 1);
}

namespace {

Eigen::MatrixXd without(const Eigen::MatrixXd& Y, Eigen::Index k) {
    Eigen::MatrixXd out(Y.rows(), Y.cols() - 1);
    for (Eigen::Index j = 0, c = 0; j < Y.cols(); ++j)
        if (j != k) out.col(c++) = Y.col(j);
    return out;
}

Eigen::MatrixXd besides(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
    Eigen::MatrixXd out(A.rows(), A.cols() + B.cols());
    out << A, B;
    return out;
}

std::vector<double> column(const Eigen::MatrixXd& Y, Eigen::Index k) {
    return {Y.col(k).data(), Y.col(k).data() + Y.rows()};
}

// pMSE of [predictors, y^(1..q)] per dataset; the last sensitive variable plays pmse's y.
Expected<utility::PmseUtility> jointPmse(const JointUtilityInputs& in, const Eigen::MatrixXd& P,
                                         int threads, const ProgressCallback& progress) {
    const Eigen::Index q = in.original.cols();
    const std::size_t m = in.synthetic.size();
    std::vector<std::string> names = in.propensityNames;
    for (const auto& t : in.targets) names.push_back(t);
    const Eigen::MatrixXd original = besides(P, in.original.leftCols(q - 1));
    const auto yo = column(in.original, q - 1);
    std::vector<std::optional<Expected<utility::PmseResult>>> results(m);
    std::atomic<bool> cancelled{false};
    std::atomic<std::size_t> done{0};
    auto stop = [&] {
        if (cancelled.load()) return true;
        Progress p{"joint", 0, static_cast<double>(done.load()), static_cast<double>(m)};
        if (report(progress, p) == Continue::Stop) cancelled = true;
        return cancelled.load();
    };
    utility::PmseOptions po;
    po.logistic.progress = [&](const Progress&) { return stop() ? Continue::Stop : Continue::Yes; };
    parallelFor(m, threads, [&](std::size_t l) {
        if (stop()) return false;
        const auto& S = in.synthetic[l];
        const auto ys = column(S, q - 1);
        results[l] = utility::pmse(original, yo, besides(P, S.leftCols(q - 1)), ys, names, po);
        ++done;
        return !stop();
    });
    if (cancelled) return Error::cancelled("pMSE cancelled");
    return detail::averagePmse(results);
}

}  // namespace

Expected<JointUtility> computeJointUtility(const JointUtilityInputs& in,
                                           const UtilityOptions& options, int threads,
                                           const ProgressCallback& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    const Eigen::Index n = in.original.rows(), q = in.original.cols();
    if (q < 2 || static_cast<std::size_t>(q) != in.targets.size())
        return Error{"joint utility: give at least 2 sensitive variables, one name each"};
    if (in.synthetic.empty()) return Error{"joint utility: there are no synthetic datasets"};
    for (std::size_t l = 0; l < in.synthetic.size(); ++l)
        if (in.synthetic[l].rows() != n || in.synthetic[l].cols() != q)
            return Error{"joint utility: synthetic dataset " + std::to_string(l + 1) + " is " +
                         std::to_string(in.synthetic[l].rows()) + " x " +
                         std::to_string(in.synthetic[l].cols()) + ", the confidential data " +
                         std::to_string(n) + " x " + std::to_string(q)};
    const std::size_t m = in.synthetic.size();
    JointUtility j;
    j.targets = in.targets;
    auto stopped = [&] { return report(progress, {"joint", 0, 0, 1}) == Continue::Stop; };

    // Correlation-matrix difference.
    auto corr = utility::correlationDifference(in.original, in.synthetic, in.targets);
    if (corr) {
        j.correlation = std::move(*corr);
        j.correlationComputed = true;
    } else {
        j.warnings.push_back("correlation difference: " + corr.message());
    }

    // Each sensitive variable on the predictors and the others.
    if (stopped()) return Error::cancelled("utility cancelled");
    Eigen::MatrixXd X = in.regressionDesign;
    std::vector<std::string> xNames = in.regressionNames;
    if (X.cols() == 0) {
        X = Eigen::MatrixXd::Ones(n, 1);
        xNames = {"(Intercept)"};
    }
    for (Eigen::Index k = 0; k < q; ++k) {
        JointRegression reg;
        reg.target = in.targets[static_cast<std::size_t>(k)];
        if (m < 2) {
            reg.warning = "the combining rules need at least 2 synthetic datasets (m = 1); skipped";
            j.warnings.push_back("regression of " + reg.target + ": " + reg.warning);
            j.regressions.push_back(std::move(reg));
            continue;
        }
        auto names = xNames;
        for (Eigen::Index o = 0; o < q; ++o)
            if (o != k) names.push_back(in.targets[static_cast<std::size_t>(o)]);
        std::vector<Eigen::MatrixXd> xs;
        std::vector<std::vector<double>> ys;
        for (const auto& S : in.synthetic) {
            xs.push_back(besides(X, without(S, k)));
            ys.push_back(column(S, k));
        }
        auto r = utility::regressionUtilityPerDataset(besides(X, without(in.original, k)),
                                                      column(in.original, k), xs, ys, names,
                                                      options.level);
        if (!r) {
            reg.warning = r.message();
            j.warnings.push_back("regression of " + reg.target + ": " + r.message());
        } else {
            for (const auto& c : r->coefficients) {
                RegressionTerm t;
                t.term = c.name;
                t.original = {c.original, c.originalInterval.lower, c.originalInterval.upper};
                t.synthetic = {c.synthetic.qbar, c.synthetic.interval.lower,
                               c.synthetic.interval.upper};
                t.ciOverlap = c.overlap;
                t.df = c.synthetic.df;
                t.b = c.synthetic.b;
                t.ubar = c.synthetic.ubar;
                reg.terms.push_back(std::move(t));
            }
            reg.meanOverlap = r->meanOverlap;
        }
        j.regressions.push_back(std::move(reg));
    }

    // pMSE over the predictors and every sensitive variable.
    if (options.pmse) {
        if (stopped()) return Error::cancelled("utility cancelled");
        const Eigen::MatrixXd P =
            in.propensityPredictors.cols() == 0 ? Eigen::MatrixXd(n, 0) : in.propensityPredictors;
        if (P.rows() != n)
            return Error{"joint utility: the propensity predictors have " +
                         std::to_string(P.rows()) + " rows, the data " + std::to_string(n)};
        auto pm = jointPmse(in, P, threads, progress);
        if (auto st = detail::recordPmse(pm, j.pmse, j.warnings); !st) return st.error();
        if (j.pmse.computed) {
            j.pmse.sPmseReference =
                jointSPmseReference(j.pmse.k, static_cast<std::size_t>(q), in.posteriorPredictive);
            j.pmse.referenceNote =
                std::string("partial synthesis of ") + std::to_string(q) +
                " sensitive variables: E[S_pMSE] about " +
                (in.posteriorPredictive ? "2q/(k-1)" : "q/(k-1)") +
                " for a correct model (only the synthesized columns' scores remain)";
        }
    }
    j.seconds = secondsSince(t0);
    return j;
}

Expected<UtilityReport> computeSeveralUtility(const UtilityInputs& first,
                                              const std::vector<std::string>& targets,
                                              const UtilityOptions& options, std::uint64_t seed,
                                              const std::string& synthesizer, int threads,
                                              const ProgressCallback& progress) {
    const std::size_t q = targets.size();
    if (q < 2) return Error{"several-variable utility: give at least 2 sensitive variables"};
    if (first.original.size() % q != 0)
        return Error::internal("several-variable utility: the values are not q n long");
    const std::size_t n = first.original.size() / q;
    for (const auto& d : first.synthetic)
        if (d.size() != q * n)
            return Error::internal("several-variable utility: a dataset is not q n long");
    const std::size_t m = first.synthetic.size();
    auto slice = [&](const std::vector<double>& v, std::size_t k) {
        return std::vector<double>(v.begin() + static_cast<std::ptrdiff_t>(k * n),
                                   v.begin() + static_cast<std::ptrdiff_t>((k + 1) * n));
    };
    std::vector<UtilityReport> reports;
    for (std::size_t k = 0; k < q; ++k) {
        UtilityInputs in = first;
        in.target = targets[k];
        in.original = slice(first.original, k);
        for (std::size_t l = 0; l < m; ++l) in.synthetic[l] = slice(first.synthetic[l], k);
        const std::string prefix = targets[k] + ": ";
        auto own = [&](const std::vector<ParameterSummary>& all) {
            std::vector<ParameterSummary> out;
            for (const auto& p : all)
                if (p.name.rfind(prefix, 0) == 0) out.push_back(p);
            return out;
        };
        in.weightedParameters = own(first.weightedParameters);
        in.unweightedParameters = own(first.unweightedParameters);
        in.originalSeed = k == 0 ? utilitySeed(seed, "confidential data")
                                 : utilitySeed(seed, "confidential data: " + targets[k]);
        const std::uint64_t own_seed = k == 0 ? utilitySeed(seed, synthesizer)
                                              : utilitySeed(seed, synthesizer + ": " + targets[k]);
        auto r = computeUtility(in, options, own_seed, threads, progress);
        if (!r) return r.error().prefixed(targets[k] + ": ");
        reports.push_back(std::move(*r));
    }

    JointUtilityInputs j;
    j.targets = targets;
    const auto nn = static_cast<Eigen::Index>(n), qq = static_cast<Eigen::Index>(q);
    j.original = Eigen::Map<const Eigen::MatrixXd>(first.original.data(), nn, qq);
    for (const auto& d : first.synthetic)
        j.synthetic.emplace_back(Eigen::Map<const Eigen::MatrixXd>(d.data(), nn, qq));
    j.regressionDesign = first.regressionDesign;
    j.regressionNames = first.regressionNames;
    j.propensityPredictors = first.propensityPredictors;
    j.propensityNames = first.propensityNames;
    j.posteriorPredictive = first.posteriorPredictive;
    auto joint = computeJointUtility(j, options, threads, progress);
    if (!joint) return joint.error();

    UtilityReport out = reports.front();
    out.variables = std::move(reports);
    // Every variable's warnings, named by variable, then the joint measures'.
    out.warnings.clear();
    for (std::size_t k = 0; k < q; ++k)
        for (const auto& w : out.variables[k].warnings)
            out.warnings.push_back(targets[k] + ": " + w);
    for (const auto& w : joint->warnings) out.warnings.push_back("joint: " + w);
    out.seconds.total += joint->seconds;
    for (std::size_t k = 1; k < q; ++k) out.seconds.total += out.variables[k].seconds.total;
    out.joint = std::move(*joint);
    return out;
}

}  // namespace ppsynth::study
