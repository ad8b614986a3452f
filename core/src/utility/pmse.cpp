#include "ppsynth/utility/pmse.hpp"

#include <atomic>
#include <cmath>

#include "ols_solver.hpp"
#include "ppsynth/common/parallel.hpp"

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
    if (!fit) return Error{"pMSE: " + fit.message()};

    PmseResult r;
    r.N = static_cast<std::size_t>(N);
    r.k = static_cast<int>(Z->cols());
    const double Nd = static_cast<double>(N);
    r.c = static_cast<double>(synthetic.rows()) / Nd;
    r.pmse = (fit->fitted.array() - r.c).square().mean();
    const double nullMean = (r.k - 1) * (1 - r.c) * (1 - r.c) * r.c / Nd;
    r.standardized = r.pmse / nullMean;
    r.iterations = fit->iterations;
    r.converged = fit->converged;
    r.separation = fit->separation;
    r.warning = fit->warning;
    return r;
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

    Eigen::MatrixXd original(n, q + 1);
    original.leftCols(q) = predictors;
    original.col(q) = Eigen::Map<const Eigen::VectorXd>(y.data(), n);

    const std::size_t m = synthetic.size();
    std::vector<Expected<PmseResult>> results(m, Error{"not run"});
    std::atomic<std::size_t> done{0};
    std::atomic<bool> cancelled{false};
    parallelFor(m, options.threads, [&](std::size_t l) {
        Eigen::MatrixXd syn(n, q + 1);
        syn.leftCols(q) = predictors;
        syn.col(q) = Eigen::Map<const Eigen::VectorXd>(synthetic[l].data(), n);
        results[l] = pmse(original, syn, names, options.logistic);
        const Progress p{"pmse", 0, static_cast<double>(++done), static_cast<double>(m)};
        if (report(options.progress, p) == Continue::Stop) {
            cancelled = true;
            return false;
        }
        return true;
    });
    if (cancelled) return Error{"pMSE cancelled"};

    PmseUtility u;
    std::size_t flagged = 0;
    std::string firstWarning;
    for (std::size_t l = 0; l < m; ++l) {
        if (!results[l])
            return Error{"synthetic dataset " + std::to_string(l + 1) + ": " +
                         results[l].message()};
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
