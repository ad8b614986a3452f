// The whole utility report of one synthesizer (study/utility_report.hpp) on the bundled
// income_survey example: n = 6208, m = 20 synthetic datasets, B = 1000, the regression and
// the propensity model on all ten predictors. y* is the confidential income times lognormal
// noise (the report's cost does not depend on how y* was made). Prints seconds by part.
// Usage: bench_utility_report [threads] [m] [B]
#include <boost/random/normal_distribution.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/study/utility_json.hpp"
#include "ppsynth/study/utility_report.hpp"

using namespace ppsynth;

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int m = argc > 2 ? std::atoi(argv[2]) : 20;
    const int B = argc > 3 ? std::atoi(argv[3]) : 1000;
    auto table = data::readTable(PPSYNTH_EXAMPLES_DIR "/income_survey.csv");
    if (!table) return std::fprintf(stderr, "%s\n", table.message().c_str()), 1;
    const std::vector<std::string> predictors{"gender",      "age",     "education",  "region",
                                              "urban",       "marital", "urban_type", "cbsa",
                                              "family_size", "earners"};
    auto in = study::utilityInputsFromTables(*table, {}, "income", predictors);
    if (!in) return std::fprintf(stderr, "%s\n", in.message().c_str()), 1;
    auto rng = makeRng(3, 0, Purpose::Test);
    boost::random::normal_distribution<double> z;
    for (int l = 0; l < m; ++l) {
        std::vector<double> y(in->original.size());
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = in->original[i] * std::exp(0.3 * z(rng));
        in->synthetic.push_back(std::move(y));
    }
    study::UtilityOptions o;
    o.bootstrap = B;
    const auto t0 = std::chrono::steady_clock::now();
    auto r = study::computeUtility(*in, o, 7, threads);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r) return std::fprintf(stderr, "%s\n", r.message().c_str()), 1;
    std::printf("utility report income_survey n=%zu m=%d B=%d threads=%d design=%ld columns\n",
                r->records, m, B, threads, static_cast<long>(in->regressionDesign.cols()));
    std::printf("  bootstrap (4 statistics, confidential + %d datasets): %.3f s\n", m,
                r->seconds.bootstrap);
    std::printf("  regression + combining rules:                        %.3f s\n",
                r->seconds.regression);
    std::printf("  ECDF distances:                                      %.3f s\n", r->seconds.ecdf);
    std::printf("  pMSE (%d logistic fits, k = %d):                      %.3f s\n", m, r->pmse.k,
                r->seconds.pmse);
    std::printf("  total:                                               %.3f s (wall %.3f s)\n",
                r->seconds.total, wall);
    std::printf("  S_pMSE %.3f, U_m %.4f, mean regression CI overlap %.3f, %zu warnings\n",
                r->pmse.sPmse, r->ecdf.Um, r->regressionMeanOverlap, r->warnings.size());
    std::printf("  JSON %zu bytes\n", study::toJson(*r).size());
    return 0;
}
