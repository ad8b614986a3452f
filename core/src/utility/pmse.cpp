#include "ppsynth/utility/pmse.hpp"

#include <atomic>
#include <cmath>
#include <functional>

#include "ols_solver.hpp"
#include "ppsynth/common/parallel.hpp"
#include "sparse_normal.hpp"

namespace ppsynth::utility {

namespace {

// [1, standardized columns] of the stacked samples; errors name a constant column.
Expected<Eigen::MatrixXd> stackedDesign(const Eigen::MatrixXd& original,
                                        const Eigen::MatrixXd& synthetic,
                                        const std::vector<std::string>& names) {
    const Eigen::Index no = original.rows(), ns = synthetic.rows(), q = original.cols();
    Eigen::MatrixXd Z(no + ns, q + 1);
    Z.col(0).setOnes();
    Z.block(0, 1, no, q) = original;
    Z.block(no, 1, ns, q) = synthetic;
    for (Eigen::Index j = 1; j <= q; ++j) {
        auto col = Z.col(j);
        const double mu = col.mean();
        const double sd =
            std::sqrt((col.array() - mu).square().sum() / static_cast<double>(no + ns));
        if (!std::isfinite(mu) || !std::isfinite(sd))
            return Error{"pMSE: column '" + names[static_cast<std::size_t>(j)] +
                         "' holds a value that is not a finite number"};
        if (!(sd > 0))
            return Error{"pMSE: column '" + names[static_cast<std::size_t>(j)] +
                         "' is constant in the stacked data, so it is collinear with the "
                         "intercept the pMSE model adds; drop it"};
        col = (col.array() - mu) / sd;
    }
    return Z;
}

// Column j's mean and population sd over both samples; errors as stackedDesign's.
Expected<std::pair<double, double>> stackedMoments(std::span<const double> o,
                                                   std::span<const double> s,
                                                   const std::string& name) {
    double sum = 0;
    for (double v : o) sum += v;
    for (double v : s) sum += v;
    const double N = static_cast<double>(o.size() + s.size());
    const double mu = sum / N;
    double ss = 0;
    for (double v : o) ss += (v - mu) * (v - mu);
    for (double v : s) ss += (v - mu) * (v - mu);
    const double sd = std::sqrt(ss / N);
    if (!std::isfinite(mu) || !std::isfinite(sd))
        return Error{"pMSE: column '" + name + "' holds a value that is not a finite number"};
    if (!(sd > 0))
        return Error{"pMSE: column '" + name +
                     "' is constant in the stacked data, so it is collinear with the intercept "
                     "the pMSE model adds; drop it"};
    return std::pair{mu, sd};
}

// The sparse form of stackedDesign: [1, columns] over the original rows then the synthetic
// ones, every column scaled by its sd; a column that is mostly non-zero is also centred as in
// the dense form, a mostly-zero one (a dummy) is not, which keeps it sparse. With the
// intercept in the model both span the same space, so the fitted propensities are the same.
Expected<detail::SparseMatrix> sparseStackedDesign(
    Eigen::Index q, std::size_t no, std::size_t ns,
    const std::function<std::span<const double>(Eigen::Index)>& originalColumn,
    const std::function<std::span<const double>(Eigen::Index)>& syntheticColumn,
    const std::vector<std::string>& names) {
    const auto N = static_cast<Eigen::Index>(no + ns);
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(static_cast<std::size_t>(N) * 4);
    for (Eigen::Index i = 0; i < N; ++i) entries.emplace_back(i, 0, 1.0);
    for (Eigen::Index j = 0; j < q; ++j) {
        const auto o = originalColumn(j), s = syntheticColumn(j);
        auto moments = stackedMoments(o, s, names[static_cast<std::size_t>(j + 1)]);
        if (!moments) return moments.error();
        const auto [mu, sd] = *moments;
        std::size_t nonZero = 0;
        for (double v : o) nonZero += v != 0;
        for (double v : s) nonZero += v != 0;
        const bool centre = 2 * nonZero > static_cast<std::size_t>(N);
        const double shift = centre ? mu : 0.0;
        auto add = [&, scale = sd](std::span<const double> values, Eigen::Index first) {
            for (std::size_t i = 0; i < values.size(); ++i)
                if (centre || values[i] != 0)
                    entries.emplace_back(first + static_cast<Eigen::Index>(i), j + 1,
                                         (values[i] - shift) / scale);
        };
        add(o, 0);
        add(s, static_cast<Eigen::Index>(no));
    }
    detail::SparseMatrix Z(N, q + 1);
    Z.setFromTriplets(entries.begin(), entries.end());
    return Z;
}

PmseResult resultOf(const LogisticFit& fit, std::size_t N, int k, std::size_t synthetic) {
    PmseResult r;
    r.N = N;
    r.k = k;
    const double Nd = static_cast<double>(N);
    r.c = static_cast<double>(synthetic) / Nd;
    r.pmse = (fit.fitted.array() - r.c).square().mean();
    const double nullMean = (r.k - 1) * (1 - r.c) * (1 - r.c) * r.c / Nd;
    r.standardized = r.pmse / nullMean;
    r.iterations = fit.iterations;
    r.converged = fit.converged;
    r.separation = fit.separation;
    r.warning = fit.warning;
    return r;
}

}  // namespace

Expected<PmseResult> pmse(const Eigen::MatrixXd& original, const Eigen::MatrixXd& synthetic,
                          const std::vector<std::string>& names, const LogisticOptions& options) {
    if (original.cols() != synthetic.cols())
        return Error{"pMSE: the original sample has " + std::to_string(original.cols()) +
                     " columns but the synthetic one has " + std::to_string(synthetic.cols())};
    if (original.rows() == 0 || synthetic.rows() == 0)
        return Error{"pMSE: both samples need at least one record"};
    std::vector<std::string> all{"(intercept)"};
    const auto given = detail::columnNames(names, original.cols());
    all.insert(all.end(), given.begin(), given.end());
    auto Z = stackedDesign(original, synthetic, all);
    if (!Z) return Z.error();

    const Eigen::Index N = Z->rows();
    Eigen::VectorXd t(N);
    t.head(original.rows()).setZero();
    t.tail(synthetic.rows()).setOnes();
    auto fit = fitLogistic(*Z, t, options, all);
    if (!fit) return fit.error().prefixed("pMSE: ");
    return resultOf(*fit, static_cast<std::size_t>(N), static_cast<int>(Z->cols()),
                    static_cast<std::size_t>(synthetic.rows()));
}

Expected<PmseResult> pmse(const Eigen::MatrixXd& originalPredictors, std::span<const double> y,
                          const Eigen::MatrixXd& syntheticPredictors,
                          std::span<const double> ySynthetic, const std::vector<std::string>& names,
                          const PmseOptions& options) {
    const Eigen::Index q = originalPredictors.cols();
    const auto no = static_cast<Eigen::Index>(y.size()),
               ns = static_cast<Eigen::Index>(ySynthetic.size());
    if (syntheticPredictors.cols() != q)
        return Error{"pMSE: the original sample has " + std::to_string(q + 1) +
                     " columns but the synthetic one has " +
                     std::to_string(syntheticPredictors.cols() + 1)};
    if (originalPredictors.rows() != no || syntheticPredictors.rows() != ns)
        return Error{"pMSE: the predictors and y of a sample have different lengths"};
    if (no == 0 || ns == 0) return Error{"pMSE: both samples need at least one record"};
    if (static_cast<std::size_t>(q) + 2 < options.sparseColumns) {
        Eigen::MatrixXd o(no, q + 1), s(ns, q + 1);
        o.leftCols(q) = originalPredictors;
        o.col(q) = Eigen::Map<const Eigen::VectorXd>(y.data(), no);
        s.leftCols(q) = syntheticPredictors;
        s.col(q) = Eigen::Map<const Eigen::VectorXd>(ySynthetic.data(), ns);
        return pmse(o, s, names, options.logistic);
    }
    std::vector<std::string> all{"(intercept)"};
    const auto given = detail::columnNames(names, q + 1);
    all.insert(all.end(), given.begin(), given.end());
    auto column = [&](const Eigen::MatrixXd& P, std::span<const double> yy, Eigen::Index j) {
        return j < q ? std::span<const double>(P.col(j).data(), static_cast<std::size_t>(P.rows()))
                     : yy;
    };
    auto Z = sparseStackedDesign(
        q + 1, y.size(), ySynthetic.size(),
        [&](Eigen::Index j) { return column(originalPredictors, y, j); },
        [&](Eigen::Index j) { return column(syntheticPredictors, ySynthetic, j); }, all);
    if (!Z) return Z.error();
    Eigen::VectorXd t(no + ns);
    t.head(no).setZero();
    t.tail(ns).setOnes();
    auto fit = fitLogistic(*Z, t, options.logistic, all);
    if (!fit) return fit.error().prefixed("pMSE: ");
    return resultOf(*fit, static_cast<std::size_t>(no + ns), static_cast<int>(Z->cols()),
                    static_cast<std::size_t>(ns));
}

Expected<PmseUtility> pmseUtility(const Eigen::MatrixXd& predictors, std::span<const double> y,
                                  const std::vector<std::vector<double>>& synthetic,
                                  const std::vector<std::string>& predictorNames,
                                  const std::string& yName, const PmseOptions& options) {
    const Eigen::Index n = predictors.rows(), q = predictors.cols();
    if (static_cast<Eigen::Index>(y.size()) != n)
        return Error{"pMSE: y has " + std::to_string(y.size()) +
                     " values but the predictors have " + std::to_string(n) + " rows"};
    if (synthetic.empty()) return Error{"pMSE needs at least one synthetic dataset"};
    for (std::size_t l = 0; l < synthetic.size(); ++l)
        if (synthetic[l].size() != y.size())
            return Error{"pMSE: synthetic dataset " + std::to_string(l + 1) + " has " +
                         std::to_string(synthetic[l].size()) + " records but the original has " +
                         std::to_string(y.size())};
    auto names = detail::columnNames(predictorNames, q);
    names.push_back(yName);

    const std::size_t m = synthetic.size();
    std::vector<Expected<PmseResult>> results(m, Error{"not run"});
    std::atomic<std::size_t> done{0};
    std::atomic<bool> cancelled{false};
    // Asked between datasets and inside every fit, so a Stop is honoured within one Newton
    // iteration.
    auto stop = [&] {
        if (cancelled.load()) return true;
        const Progress p{"pmse", 0, static_cast<double>(done.load()), static_cast<double>(m)};
        if (report(options.progress, p) == Continue::Stop) cancelled = true;
        return cancelled.load();
    };
    PmseOptions perDataset = options;
    perDataset.logistic.progress = [&](const Progress&) {
        return stop() ? Continue::Stop : Continue::Yes;
    };
    parallelFor(m, options.threads, [&](std::size_t l) {
        if (stop()) return false;
        results[l] = pmse(predictors, y, predictors, synthetic[l], names, perDataset);
        ++done;
        return !stop();
    });
    if (cancelled) return Error::cancelled("pMSE cancelled");

    PmseUtility u;
    std::size_t flagged = 0;
    std::string firstWarning;
    for (std::size_t l = 0; l < m; ++l) {
        if (!results[l])
            return results[l].error().prefixed("synthetic dataset " + std::to_string(l + 1) + ": ");
        const PmseResult& r = *results[l];
        u.pmse += r.pmse / static_cast<double>(m);
        u.standardized += r.standardized / static_cast<double>(m);
        if (!r.warning.empty()) {
            if (flagged++ == 0)
                firstWarning = "dataset " + std::to_string(l + 1) + ": " + r.warning;
        }
        u.perDataset.push_back(r);
    }
    if (flagged > 0)
        u.warning = "pMSE is unreliable for " + std::to_string(flagged) + " of " +
                    std::to_string(m) + " synthetic datasets (first, " + firstWarning + ")";
    return u;
}

}  // namespace ppsynth::utility
