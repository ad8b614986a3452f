// Identification-risk benchmark: marginal IR for n = 1,000,000 records in one pattern and
// pairwise weights for a pattern of 6,000 records, L = 20 synthetic datasets each.
// Usage: bench_risk [threads]
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/privacy/identification_risk.hpp"

using namespace ppsynth;

namespace {
struct Data {
    std::vector<double> y;
    std::vector<std::vector<double>> synth;
    std::vector<std::int32_t> pattern;
};

// Income-like values and synthetic copies that stay near them (a worst case for the
// counting, as most records are close to themselves).
Data make(std::size_t n, std::size_t L) {
    auto rng = makeRng(11, 0, Purpose::Test);
    boost::random::lognormal_distribution<double> income(10.5, 1.0);
    boost::random::normal_distribution<double> noise(0.0, 0.15);
    Data d;
    d.y.resize(n);
    for (auto& v : d.y) v = income(rng);
    d.synth.assign(L, std::vector<double>(n));
    for (auto& s : d.synth)
        for (std::size_t i = 0; i < n; ++i) s[i] = d.y[i] * std::exp(noise(rng));
    d.pattern.assign(n, 0);
    return d;
}

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
    privacy::RiskOptions o;
    o.threads = argc > 1 ? std::atoi(argv[1]) : 2;
    {
        auto d = make(1'000'000, 20);
        auto t0 = std::chrono::steady_clock::now();
        auto ir = privacy::marginalRisk(d.y, d.synth, d.pattern, o);
        const double s = seconds(t0);
        if (!ir) return std::fprintf(stderr, "%s\n", ir.message().c_str()), 1;
        std::printf("marginal IR   n=1000000 one pattern L=20 threads=%d: %.2f s (mean IR %.4f)\n",
                    o.threads, s, privacy::summarizeRisk(*ir).mean);
    }
    {
        auto d = make(6'000, 20);
        auto t0 = std::chrono::steady_clock::now();
        auto pr = privacy::pairwiseRisk(d.y, d.synth, d.pattern, o);
        const double s = seconds(t0);
        if (!pr) return std::fprintf(stderr, "%s\n", pr.message().c_str()), 1;
        std::printf("pairwise IR   |M|=6000 L=20 threads=%d: %.2f s (mean at %.4f)\n", o.threads, s,
                    privacy::summarizeRisk(pr->at).mean);
    }
    return 0;
}
