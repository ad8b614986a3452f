// Cost of several sensitive variables (METHOD.md section 9): the same run on the bundled
// household_spending example with q = 1 (income), 2 (income, exp_food) and 3 (income,
// exp_food, exp_housing) sensitive variables, each normal on its log-shifted scale, the
// synthesizers Unweighted and LW (c = 0.7), m = 5, utility on. Prints per q the wall and CPU
// seconds (user + sys of this process), the fits' and the utility measures' wall seconds, and
// the ratios to q = 1: the claim is that q variables cost about q times one, not more. The
// machine's load average is printed before and after (timings under load are inflated; CPU
// time less so). Never asserts a timing.
//   bench_several_targets [--draws N] [--warmup N] [--threads N]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/study/runner.hpp"

using namespace ppsynth;

namespace {

double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

std::string load() {
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    f >> a >> b >> c;
    return a + " " + b + " " + c;
}

struct Figures {
    double wall = 0, cpu = 0, fits = 0, utility = 0;
};

}  // namespace

int main(int argc, char** argv) {
    int draws = 300, warmup = 300, threads = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        const int v = std::atoi(argv[i + 1]);
        if (a == "--draws")
            draws = v;
        else if (a == "--warmup")
            warmup = v;
        else if (a == "--threads")
            threads = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    const data::Table table = data::makeExample(data::ExampleId::HouseholdSpending);
    const std::vector<std::string> all = {"income", "exp_food", "exp_housing"};
    std::printf(
        "household_spending: %zu records; 2 chains, %d warm-up + %d draws, %d threads; "
        "Unweighted and LW (c = 0.7), m = 5, utility on\n",
        table.rowCount(), warmup, draws, threads);
    std::printf("load before: %s\n", load().c_str());
    std::printf("%-3s %10s %10s %10s %12s %10s %10s\n", "q", "wall s", "CPU s", "fits s",
                "utility s", "wall/q1", "CPU/q1");
    std::vector<Figures> figures;
    for (std::size_t q = 1; q <= all.size(); ++q) {
        study::RunConfig c;
        c.data.path = "household_spending.csv";
        c.data.target = all[0];
        if (q > 1) c.data.targets.assign(all.begin(), all.begin() + static_cast<long>(q));
        c.data.predictors = {"gender", "age",         "education", "region",
                             "urban",  "family_size", "earners"};
        c.data.known = {"gender", "age", "region"};
        c.data.transform = "log-shift";
        c.model.family = "normal";
        c.mcmc.chains = 2;
        c.mcmc.warmup = warmup;
        c.mcmc.draws = draws;
        c.mcmc.threads = threads;
        c.mcmc.seed = 7;
        c.synthesis.m = 5;
        c.risk.L = 5;
        study::SynthesizerConfig u;
        u.name = "Unweighted";
        study::SynthesizerConfig lw;
        lw.name = "LW";
        lw.scheme = study::Scheme::Lipschitz;
        lw.c = 0.7;
        c.synthesizers = {u, lw};
        const double cpu0 = cpuSeconds();
        const auto t0 = std::chrono::steady_clock::now();
        auto run = study::runStudy(c, table);
        Figures f;
        f.wall = secondsSince(t0);
        f.cpu = cpuSeconds() - cpu0;
        if (!run) {
            std::fprintf(stderr, "q = %zu: %s\n", q, run.message().c_str());
            return 1;
        }
        for (const auto& s : run->synthesizers) {
            f.fits += s.stageSeconds.fits;
            f.utility += s.stageSeconds.utility;
        }
        figures.push_back(f);
        std::printf("%-3zu %10.1f %10.1f %10.1f %12.2f %10.2f %10.2f\n", q, f.wall, f.cpu, f.fits,
                    f.utility, f.wall / figures[0].wall, f.cpu / figures[0].cpu);
        std::fflush(stdout);
    }
    std::printf("load after: %s\n", load().c_str());
    return 0;
}
