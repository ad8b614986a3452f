// The No-U-Turn sampler as in Stan (2.21+): multinomial sampling over the trajectory with
// biased progressive sampling between subtrees, the generalized no-U-turn criterion with
// the extra checks across merged subtrees, a diagonal Euclidean metric, dual-averaging
// step-size adaptation and Stan's windowed metric adaptation. Chains run in parallel on
// std::threads; every chain's randomness comes from makeRng(seed, chain, Purpose::Sampler)
// (initial points from Purpose::Init), so draws are bit-identical for any thread count.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/mcmc/log_density.hpp"

namespace ppsynth::mcmc {

// Where a chain starts. Any field may be left empty: q empty -> uniform(-2, 2) on the
// unconstrained space (Stan's default), stepSize <= 0 -> the doubling/halving heuristic,
// invMetric empty -> identity. A previous run's ChainResult gives all three (warm start).
struct ChainStart {
    Eigen::VectorXd q;
    double stepSize = 0;
    Eigen::VectorXd invMetric;
    // Tempering (SamplerOptions::tempering): the other replicas' states and the ladder to
    // start from (t_1 = 1 first); empty: every replica starts at q, the ladder at its default.
    std::vector<Eigen::VectorXd> replicas;
    std::vector<double> ladder;
    // A continued chain (ChainResult::continuation): the sampler stream where it stopped.
    // With it, warm-up 0 and the step size, metric, replicas and ladder of the same result,
    // a run of N more draws continues the chain exactly: the draws are those a single run
    // of the combined length would have made (tst_run_until_converged).
    std::optional<Rng> rng;
    int swapParity = 0;  // with rng: which neighbour pairs propose swaps next (0 even, 1 odd)
};

// Parallel tempering for Kernel::Gibbs (replica exchange): `replicas` copies of each chain
// sweep tempered relatives of the target whose likelihood part is raised to the power t_j
// (LogDensity::temperedSweep; t_1 = 1 is the target and the only replica whose draws are
// kept); after every iteration neighbours (alternately the even and the odd pairs) propose
// to swap states, accepted with probability min(1, exp((t_j - t_{j+1}) (l(x_{j+1}) - l(x_j))))
// (l the likelihood part, LogDensity::temperedLogLik), so the product of the tempered
// densities stays invariant and replica 1 samples the target exactly. During warm-up the
// ladder adapts (Robbins-Monro on the log gaps) towards swap acceptance `targetSwap` for every
// pair; it is fixed while draws are kept.
struct TemperingOptions {
    int replicas = 1;         // 1: no tempering
    double hottest = 0.1;     // t_R of the starting geometric ladder
    double targetSwap = 0.3;  // warm-up adapts every pair's swap acceptance towards this
    bool adapt = true;        // false keeps the starting ladder (tests)
};

// Called for every retained (post-warm-up) draw, from the worker thread running that chain:
// calls for different chains run CONCURRENTLY, calls for one chain are sequential and in
// iteration order. The hook must be thread-safe across chains (e.g. write only to per-chain
// slots) and cheap; q is the unconstrained draw and is only valid during the call.
using DrawHook = std::function<void(int chain, int iteration, const Eigen::VectorXd& q)>;

// The largest maximum tree depth the sampler accepts (2^30 leapfrog steps per iteration).
inline constexpr int kMaxTreeDepth = 30;

struct SamplerOptions {
    Kernel kernel = Kernel::Nuts;
    int chains = 4;
    int warmup = 1000;  // iterations per chain; may be short when warm-starting
    int draws = 1000;   // retained iterations per chain
    // Iterations per retained draw (Stan's thin): draws x thin iterations follow the warm-up.
    // For cheap, strongly autocorrelated kernels (Kernel::Moves) it keeps memory at
    // draws x dimension while the chain runs longer.
    int thin = 1;
    std::uint64_t seed = 1;
    int threads = 1;               // worker threads (capped at chains); 0 = hardware concurrency
    int maxTreeDepth = 10;         // 1 to kMaxTreeDepth
    double adaptDelta = 0.8;       // target mean acceptance statistic
    double maxEnergyError = 1000;  // energy error that marks a divergence
    // Windowed metric adaptation (Stan's defaults). With adaptMetric false only the step
    // size adapts during warm-up (useful after a warm start with a good metric).
    bool adaptMetric = true;
    int initBuffer = 75;
    int termBuffer = 50;
    int baseWindow = 25;
    double initRadius = 2;           // random inits are uniform(-initRadius, initRadius)
    std::vector<ChainStart> starts;  // empty, or one per chain
    TemperingOptions tempering;      // Kernel::Gibbs only

    ProgressCallback
        progress;  // per chain per iteration: {"warmup"|"sampling", chain, done, total}
    const std::atomic<bool>* cancel = nullptr;  // set by the caller to stop all chains
    DrawHook onDraw;                            // see DrawHook
};

// Per retained draw, as Stan's sampler parameters.
struct DrawStats {
    double stepSize = 0;
    int treeDepth = 0;
    int nLeapfrog = 0;
    bool divergent = false;
    double energy = 0;  // Hamiltonian at the draw
    double acceptStat = 0;
    double lp = 0;  // log density at the draw
};

struct ChainResult {
    Eigen::MatrixXd draws;         // draws x dimension, unconstrained q
    std::vector<DrawStats> stats;  // one per draw
    double stepSize = 0;           // adapted step size
    Eigen::VectorXd invMetric;     // adapted diagonal inverse metric
    Eigen::VectorXd lastQ;         // final state, for warm starts
    double warmupSeconds = 0;
    double samplingSeconds = 0;
    std::int64_t gradientEvaluations = 0;
    int warmupDivergences = 0;
    // Tempering: the other replicas' final states, the ladder, and per neighbouring pair the
    // share of swap proposals accepted while draws were kept.
    std::vector<Eigen::VectorXd> replicas;
    std::vector<double> ladder;
    std::vector<double> swapAcceptance;
    Rng rng;  // the sampler stream after the last draw
    int swapParity = 0;

    // A start for a nearby target (a weighted refit): state, step size, metric, replicas.
    ChainStart warmStart() const { return {lastQ, stepSize, invMetric, replicas, ladder, {}, 0}; }
    // A start that continues this chain exactly (warm-up 0, same target).
    ChainStart continuation() const {
        return {lastQ, stepSize, invMetric, replicas, ladder, rng, swapParity};
    }
};

struct SamplerResult {
    std::vector<ChainResult> chains;
    std::int64_t gradientEvaluations = 0;  // over all chains, warm-up included
};

// Runs options.chains chains of NUTS on target. Errors: invalid options, no finite starting
// point, a step size that cannot be found (improper target), or "sampling cancelled" when
// the progress callback returns Stop or *options.cancel becomes true (all chains stop
// within a leapfrog step of noticing).
Expected<SamplerResult> sampleNuts(const LogDensity& target, const SamplerOptions& options);

}  // namespace ppsynth::mcmc
