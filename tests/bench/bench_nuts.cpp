// NUTS throughput on the 100-d standard normal: 4 chains, 1000 warm-up + 1000 draws,
// 2 threads. Prints wall seconds, gradient evaluations, min bulk ESS and ESS per second.
#include <chrono>
#include <cstdio>
#include <cstdlib>

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

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
    StdNormal target(100);
    ppsynth::mcmc::SamplerOptions o;
    o.chains = 4;
    o.warmup = 1000;
    o.draws = 1000;
    o.threads = 2;
    std::printf("100-d standard normal, 4 chains x (1000 + 1000), 2 threads\n");
    std::printf("%6s %9s %9s %10s %12s %10s %10s\n", "seed", "wall s", "sample s", "gradients",
                "min bulk ESS", "ESS/s", "ESS/grad");
    for (int rep = 0; rep < repeats; ++rep) {
        o.seed = static_cast<std::uint64_t>(rep + 1);
        const auto t0 = std::chrono::steady_clock::now();
        auto r = ppsynth::mcmc::sampleNuts(target, o);
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            std::fprintf(stderr, "%s\n", r.message().c_str());
            return 1;
        }
        const auto d = ppsynth::mcmc::diagnose(*r);
        double sampling = 0;
        for (const auto& c : r->chains) sampling = std::max(sampling, c.samplingSeconds);
        std::printf("%6d %9.3f %9.3f %10lld %12.0f %10.0f %10.4f\n", rep + 1, wall, sampling,
                    static_cast<long long>(r->gradientEvaluations), d.minEssBulk,
                    d.minEssBulk / wall, d.minEssBulk / static_cast<double>(r->gradientEvaluations));
    }
    return 0;
}
