// Study benchmarks for the README: the Poisson local-to-global simulation (4 sizes x 400
// replicates x 3 mechanisms, resources/examples/simulate_poisson.json) and the risk-utility
// sweep on income_survey (resources/examples/sweep_income.json, the CE study's six points).
// Usage: bench_studies [simulate|sweep|all] [--points N] [--threads T]
//   --points N runs only the first N grid points (a reduced sweep; the unweighted fit is
//   shared, so the full figure is about unweighted + 6/N x the points' time).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/sweep.hpp"

using namespace ppsynth;

namespace {

std::string freshDir(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir);
    return dir.string();
}

int benchSimulate(int threads) {
    auto config = study::loadSimulateConfig(PPSYNTH_EXAMPLES_DIR "/simulate_poisson.json");
    if (!config) return std::fprintf(stderr, "%s\n", config.message().c_str()), 1;
    if (threads > 0) config->threads = threads;
    const auto t0 = std::chrono::steady_clock::now();
    auto s = study::runSimulation(*config, freshDir("bench_studies_simulate"));
    if (!s) return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
    std::printf(
        "simulate poisson: %zu sizes x %d replicates x %zu mechanisms, %d draws, %d threads: "
        "%.1f s wall\n",
        config->sizes.size(), config->replicates, config->mechanisms.size(),
        config->mcmc.draws * config->mcmc.chains, config->threads, secondsSince(t0));
    for (const auto& d : s->distributions)
        std::printf("  n = %5zu %-10s min %.3f median %.3f max %.3f\n", d.n, d.mechanism.c_str(),
                    d.min, d.median, d.max);
    return 0;
}

int benchSweep(int threads, int points) {
    auto config = study::loadSweepConfig(PPSYNTH_EXAMPLES_DIR "/sweep_income.json");
    if (!config) return std::fprintf(stderr, "%s\n", config.message().c_str()), 1;
    if (threads > 0) config->threads = threads;
    const std::size_t all = config->points.size();
    if (points > 0 && static_cast<std::size_t>(points) < all)
        config->points.resize(static_cast<std::size_t>(points));
    auto input = study::readRunData(config->run);
    if (!input) return std::fprintf(stderr, "%s\n", input.message().c_str()), 1;
    const auto t0 = std::chrono::steady_clock::now();
    auto s = study::runSweep(*config, *input, freshDir("bench_studies_sweep"));
    if (!s) return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
    const double wall = secondsSince(t0);
    double pointSeconds = 0;  // CPU-side sum of the points' own fits (run in parallel)
    for (const auto& r : s->rows)
        if (r.point > 0) pointSeconds += r.seconds;
    std::printf(
        "sweep income_survey: %zu of %zu points, m = %d, %d chains x (%d + %d), %d threads: "
        "%.1f s wall (unweighted fit %.1f s, points' fits %.1f s summed)\n",
        config->points.size(), all, config->run.synthesis.m, config->run.mcmc.chains,
        config->run.mcmc.warmup, config->run.mcmc.draws, config->threads, wall, s->preparedSeconds,
        pointSeconds);
    if (config->points.size() < all)
        std::printf("  extrapolated to all %zu points: %.1f s wall\n", all,
                    s->preparedSeconds + (wall - s->preparedSeconds) * static_cast<double>(all) /
                                             static_cast<double>(config->points.size()));
    for (const auto& r : s->rows)
        std::printf("  point %d (c %.1f, g %.1f) %-10s Delta %8.3f  fits %d  %.1f s\n", r.point,
                    r.knobs.c, r.knobs.g, r.mechanism.c_str(), r.deltaAlphaX, r.fits, r.seconds);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string what = argc > 1 ? argv[1] : "all";
    int points = 0, threads = 0;
    for (int i = 2; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--points")) points = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    }
    int rc = 0;
    if (what == "simulate" || what == "all") rc |= benchSimulate(threads);
    if (what == "sweep" || what == "all") rc |= benchSweep(threads, points);
    return rc;
}
