// How well the K = 20 normal mixture's Gibbs sampler mixes on income_survey, unweighted, with
// and without parallel tempering (mcmc::TemperingOptions) and with "draws": "auto"
// (study::UntilConverged): per seed the wall and CPU seconds (user + sys, all threads), split
// R-hat and bulk ESS of the total log-likelihood and of D_s, ESS per CPU second, epsilon =
// 2 Delta, the swap acceptance of each neighbouring pair and the epsilon verdict; per setting
// the spread of epsilon over the seeds (largest |epsilon - median| / median).
//
//   bench_mixture_mixing [options]
//     --replicas R[,R...]  settings to compare (default 1,4; 1 = no tempering)
//     --seeds N            seeds 1..N (default 3)
//     --first-seed S       seeds S..N instead (one more seed for an earlier table)
//     --warmup N --draws N --thin N --chains N --threads N   (default 4 x (1000 + 1000 x 5), 2)
//     --hottest T --target A   the starting ladder's smallest power, the swap target
//     --auto SECONDS       run until converged with this budget, in blocks of --draws
//     --every K            keep every K-th record (quick looks; the targets use K = 1)
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/study/fit.hpp"
#include "ppsynth/study/record_bounds.hpp"

using namespace ppsynth;

namespace {

double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
    return s(u.ru_utime) + s(u.ru_stime);
}

std::unique_ptr<models::Model> build(int every) {
    auto table = data::makeExample("income_survey");
    if (!table) {
        std::fprintf(stderr, "%s\n", table.message().c_str());
        std::exit(1);
    }
    data::Roles roles;
    roles.target = "income";
    roles.predictors = {"gender",  "age",        "education", "region",      "urban",
                        "marital", "urban_type", "cbsa",      "family_size", "earners"};
    data::PrepareOptions po;
    po.transform = *data::transformKindFromString("log-shift");
    auto in = data::prepareModelInputs(*table, roles, po);
    if (!in) {
        std::fprintf(stderr, "%s\n", in.message().c_str());
        std::exit(1);
    }
    Eigen::MatrixXd X = in->X;
    Eigen::VectorXd y = in->y;
    if (every > 1) {
        const Eigen::Index n = (y.size() + every - 1) / every;
        X.resize(n, in->X.cols());
        y.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            X.row(i) = in->X.row(i * every);
            y(i) = in->y(i * every);
        }
    }
    models::ModelSpec spec;
    spec.family = "normal-mixture";
    auto m = models::makeModel(spec, X, y, in->columnNames());
    if (!m) {
        std::fprintf(stderr, "%s\n", m.message().c_str());
        std::exit(1);
    }
    return std::move(*m);
}

const mcmc::ConvergenceSummary* find(const mcmc::RunDiagnostics& d, const std::string& name) {
    for (const auto& q : d.quantities)
        if (q.name == name) return &q.summary;
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> replicas{1, 4};
    int seeds = 3, firstSeed = 1, warmup = 1000, draws = 1000, thin = 5, chains = 4, threads = 2,
        every = 1;
    double hottest = 0.1, target = 0.3, budget = 0;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        const char* v = a + 1 < argc ? argv[a + 1] : "0";
        ++a;
        if (arg == "--replicas") {
            replicas.clear();
            std::stringstream ss(v);
            for (std::string item; std::getline(ss, item, ',');)
                replicas.push_back(std::stoi(item));
        } else if (arg == "--seeds") {
            seeds = std::atoi(v);
        } else if (arg == "--first-seed") {
            firstSeed = std::atoi(v);
        } else if (arg == "--warmup") {
            warmup = std::atoi(v);
        } else if (arg == "--draws") {
            draws = std::atoi(v);
        } else if (arg == "--thin") {
            thin = std::atoi(v);
        } else if (arg == "--chains") {
            chains = std::atoi(v);
        } else if (arg == "--threads") {
            threads = std::atoi(v);
        } else if (arg == "--every") {
            every = std::atoi(v);
        } else if (arg == "--hottest") {
            hottest = std::atof(v);
        } else if (arg == "--target") {
            target = std::atof(v);
        } else if (arg == "--auto") {
            budget = std::atof(v);
        } else {
            std::fprintf(stderr, "unknown option %s (see the file's header)\n", arg.c_str());
            return 2;
        }
    }
    const auto model = build(every);
    const Eigen::VectorXd alpha =
        Eigen::VectorXd::Ones(static_cast<Eigen::Index>(model->recordCount()));
    std::printf(
        "income_survey n=%zu, K=20 unweighted, %d chains x (%d + %d x thin %d), %d threads%s\n",
        model->recordCount(), chains, warmup, draws, thin, threads,
        budget > 0 ? (", until converged, budget " + std::to_string(budget) + " s").c_str() : "");
    std::printf("%-3s %4s %8s %8s %9s %9s %8s %8s %9s %9s %8s %6s  %s\n", "R", "seed", "wall s",
                "cpu s", "Rhat ll", "Rhat D_s", "ESS ll", "ESS D_s", "ESS/cpu s", "epsilon",
                "draws", "blocks", "eps halves  swap acceptance / verdict");
    for (int R : replicas) {
        std::vector<double> eps, eps99;
        for (int seed = firstSeed; seed <= seeds; ++seed) {
            study::FitOptions fo;
            fo.sampler.chains = chains;
            fo.sampler.warmup = warmup;
            fo.sampler.draws = draws;
            fo.sampler.thin = thin;
            fo.sampler.threads = threads;
            fo.sampler.seed = static_cast<std::uint64_t>(seed);
            fo.sampler.tempering.replicas = R;
            fo.sampler.tempering.hottest = hottest;
            fo.sampler.tempering.targetSwap = target;
            if (budget > 0) {
                fo.untilConverged = study::UntilConverged{};
                fo.untilConverged->budgetSeconds = budget;
            }
            const double c0 = cpuSeconds();
            const auto t0 = std::chrono::steady_clock::now();
            auto fit = study::fitModel(*model, alpha, fo);
            const double wall = secondsSince(t0), cpu = cpuSeconds() - c0;
            if (!fit) {
                std::fprintf(stderr, "R=%d seed %d: %s\n", R, seed, fit.message().c_str());
                return 1;
            }
            const auto bound = privacy::lipschitzBound(fit->lipschitz);
            const auto halves =
                study::chainRecordBounds(*model, fit->draws, static_cast<std::size_t>(chains),
                                         bound.keptDraws, alpha, threads)
                    .halves;
            const auto d = privacy::diagnoseEpsilon(study::epsilonChains(*fit, bound, halves));
            const auto* ll = find(fit->diagnostics, "total log-likelihood");
            const double epsilon = 2.0 * bound.delta;
            eps.push_back(epsilon);
            eps99.push_back(2.0 * privacy::lipschitzBound(fit->lipschitz, 0.99).delta);
            std::string swaps;
            for (const auto& c : fit->swapAcceptance) {
                char b[16];
                for (double x : c) {
                    std::snprintf(b, sizeof b, "%.2f ", x);
                    swaps += b;
                }
                swaps += "| ";
            }
            const double essMin = std::min(ll ? ll->essBulk : 0.0, d.essBulk);
            std::printf(
                "%-3d %4d %8.1f %8.1f %9.3f %9.3f %8.0f %8.0f %9.3f %9.3f %8lld %6d  %.2f/%.2f  "
                "%s%s%s\n",
                R, seed, wall, cpu, ll ? ll->rhat : 0.0, std::max(d.rhatBulk, d.rhatTail),
                ll ? ll->essBulk : 0.0, d.essBulk, essMin / cpu, epsilon,
                static_cast<long long>(fit->draws.rows()),
                fit->untilConverged ? fit->untilConverged->blocks : 0, 2 * d.deltaFirstHalf,
                2 * d.deltaSecondHalf, swaps.c_str(), privacy::verdictLine(d).c_str(),
                fit->untilConverged && fit->untilConverged->budgetReached ? " [budget reached]"
                                                                          : "");
            std::fflush(stdout);
        }
        for (const auto* v : {&eps, &eps99}) {
            std::vector<double> sorted = *v;
            std::sort(sorted.begin(), sorted.end());
            const double median = sorted[sorted.size() / 2];
            double spread = 0;
            for (double e : sorted) spread = std::max(spread, std::abs(e - median) / median);
            std::printf("R=%d, q = %s: epsilon median %.3f, largest deviation from it %.1f%%\n", R,
                        v == &eps ? "1" : "0.99", median, 100 * spread);
        }
    }
    return 0;
}
