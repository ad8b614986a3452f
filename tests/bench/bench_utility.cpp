// Utility benchmark (METHOD.md section 6) on data of the CE example's shape: n = 6208
// records, m = 20 synthetic datasets, B = 1000 bootstrap replicates, a design with an
// intercept, 2 numeric predictors and 3 dummies. Prints seconds per measure.
// Usage: bench_utility [threads]
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/bootstrap.hpp"
#include "ppsynth/utility/ecdf.hpp"
#include "ppsynth/utility/ols.hpp"
#include "ppsynth/utility/pmse.hpp"

using namespace ppsynth;
using namespace ppsynth::utility;

namespace {
double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int fail(const std::string& what, const std::string& message) {
    std::fprintf(stderr, "%s: %s\n", what.c_str(), message.c_str());
    return 1;
}
}  // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const Eigen::Index n = 6208, q = 5;
    const std::size_t m = 20;

    auto rng = makeRng(12, 0, Purpose::Test);
    boost::random::normal_distribution<double> z;
    boost::random::uniform_int_distribution<int> level(0, 3);
    Eigen::MatrixXd predictors(n, q);  // 2 numeric, one 4-level categorical as 3 dummies
    std::vector<double> y(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        predictors(i, 0) = z(rng);
        predictors(i, 1) = z(rng);
        const int g = level(rng);
        for (int d = 0; d < 3; ++d) predictors(i, 2 + d) = g == d + 1 ? 1 : 0;
        const double eta = 10.5 + 0.4 * predictors(i, 0) - 0.2 * predictors(i, 1) + 0.1 * g;
        y[static_cast<std::size_t>(i)] = std::exp(eta + 0.8 * z(rng));
    }
    std::vector<std::vector<double>> synthetic(m, std::vector<double>(y.size()));
    for (auto& s : synthetic)
        for (std::size_t i = 0; i < y.size(); ++i) s[i] = y[i] * std::exp(0.3 * z(rng));
    Eigen::MatrixXd X(n, q + 1);
    X << Eigen::VectorXd::Ones(n), predictors;

    std::printf("utility n=%ld m=%zu B=1000 threads=%d\n", static_cast<long>(n), m, threads);
    const auto tAll = std::chrono::steady_clock::now();

    BootstrapOptions bo;
    bo.threads = threads;
    bo.seed = 5;
    auto t0 = std::chrono::steady_clock::now();
    auto bOrig = bootstrapOriginal(y, defaultStatistics(), bo);
    if (!bOrig) return fail("bootstrap original", bOrig.message());
    std::printf("  bootstrap, confidential (4 statistics):    %.3f s\n", seconds(t0));
    t0 = std::chrono::steady_clock::now();
    auto bSyn = bootstrapSynthetic(synthetic, defaultStatistics(), bo);
    if (!bSyn) return fail("bootstrap synthetic", bSyn.message());
    std::printf("  bootstrap, 20 synthetic + barycenter:      %.3f s  (mean %.1f vs %.1f)\n",
                seconds(t0), (*bSyn)[0].estimate, (*bOrig)[0].estimate);

    t0 = std::chrono::steady_clock::now();
    auto reg = regressionUtility(X, y, synthetic);
    if (!reg) return fail("regression", reg.message());
    std::printf("  OLS + combining rules + CI overlap (p=6):  %.3f s  (mean overlap %.3f)\n",
                seconds(t0), reg->meanOverlap);

    t0 = std::chrono::steady_clock::now();
    auto ecdf = ecdfUtility(y, synthetic);
    if (!ecdf) return fail("ecdf", ecdf.message());
    std::printf("  ECDF U_m, U_a:                             %.3f s  (U_m %.4f)\n", seconds(t0),
                ecdf->maxAbs);

    PmseOptions po;
    po.threads = threads;
    t0 = std::chrono::steady_clock::now();
    auto pm = pmseUtility(predictors, y, synthetic, {}, "y", po);
    if (!pm) return fail("pmse", pm.message());
    int iterations = 0;
    for (const auto& r : pm->perDataset) iterations += r.iterations;
    std::printf(
        "  pMSE (k=7, N=12416, IRLS):                 %.3f s  (S_pMSE %.3f, %.1f iterations)\n",
        seconds(t0), pm->standardized, iterations / static_cast<double>(m));
    std::printf("  all utility measures:                      %.3f s\n", seconds(tAll));
    return 0;
}
