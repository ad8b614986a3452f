// NUTS throughput on the 100-d standard normal: 4 chains, 1000 warm-up + 1000 draws,
// 2 threads. Prints wall and CPU seconds (the machine may be shared, so CPU time is the
// steadier figure), gradient evaluations, min bulk ESS, ESS per second, diagnostics time.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "ppsynth/mcmc/diagnostics.hpp"
#include "ppsynth/mcmc/nuts.hpp"

namespace {

class StdNormal : public ppsynth::mcmc::LogDensity {
  public:
    explicit StdNormal(std::size_t d) : d_(d) {}
    std::size_t dimension() const override { return d_; }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        grad = -q;
        return -0.5 * q.squaredNorm();
    }

  private:
    std::size_t d_;
};

}  // namespace

// Usage: bench_nuts [repeats=3] [threads=2]
int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
    StdNormal target(100);
    ppsynth::mcmc::SamplerOptions o;
    o.chains = 4;
    o.warmup = 1000;
    o.draws = 1000;
    o.threads = argc > 2 ? std::atoi(argv[2]) : 2;
    std::printf("100-d standard normal, 4 chains x (1000 + 1000), %d threads\n", o.threads);
    std::printf("%6s %8s %8s %10s %10s %12s %10s %10s %8s\n", "seed", "wall s", "cpu s", "sample s",
                "gradients", "min bulk ESS", "ESS/s", "ESS/cpu s", "diag s");
    for (int rep = 0; rep < repeats; ++rep) {
        o.seed = static_cast<std::uint64_t>(rep + 1);
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        auto r = ppsynth::mcmc::sampleNuts(target, o);
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            std::fprintf(stderr, "%s\n", r.message().c_str());
            return 1;
        }
        const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        const auto t1 = std::chrono::steady_clock::now();
        const auto d = ppsynth::mcmc::diagnose(*r);
        const double diag =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        double sampling = 0;  // the slowest chain's sampling phase
        for (const auto& c : r->chains) sampling = std::max(sampling, c.samplingSeconds);
        std::printf("%6d %8.3f %8.3f %10.3f %10lld %12.0f %10.0f %10.0f %8.3f\n", rep + 1, wall,
                    cpu, sampling, static_cast<long long>(r->gradientEvaluations), d.minEssBulk,
                    d.minEssBulk / wall, d.minEssBulk / cpu, diag);
    }
    return 0;
}
