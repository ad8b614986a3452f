#include "ppsynth/mcmc/nuts.hpp"

#include <algorithm>
#include <boost/random/uniform_real_distribution.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <thread>

#include "mcmc/adaptation.hpp"
#include "mcmc/nuts_kernel.hpp"
#include "mcmc/tempering.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/stopwatch.hpp"

namespace ppsynth::mcmc {
namespace {

const char* const kCancelled = "sampling cancelled";
constexpr int kInitAttempts = 100;

std::string chainPrefix(int chain) {
    return "chain " + std::to_string(chain + 1) + ": ";
}

Status validate(const LogDensity& target, const SamplerOptions& o) {
    const auto d = static_cast<Eigen::Index>(target.dimension());
    if (d < 1) return Error{"the target has no parameters to sample"};
    if (o.chains < 1) return Error{"the number of chains must be at least 1"};
    if (o.warmup < 0 || o.draws < 0) return Error{"warm-up and draw counts must not be negative"};
    if (o.thin < 1) return Error{"thin (iterations per retained draw) must be at least 1"};
    if (o.maxTreeDepth < 1 || o.maxTreeDepth > kMaxTreeDepth)
        return Error{"the maximum tree depth must be between 1 and " +
                     std::to_string(kMaxTreeDepth) + ", not " + std::to_string(o.maxTreeDepth)};
    if (!(o.adaptDelta > 0 && o.adaptDelta < 1))
        return Error{"adaptDelta (target acceptance) must lie strictly between 0 and 1"};
    if (o.threads < 0) return Error{"the thread count must not be negative"};
    if (!(o.initRadius > 0) || !(o.maxEnergyError > 0))
        return Error{"the initial radius and the divergence threshold must be positive"};
    if (o.initBuffer < 0 || o.termBuffer < 0 || o.baseWindow < 1)
        return Error{"adaptation buffers must not be negative and the base window positive"};
    if (!o.starts.empty() && o.starts.size() != static_cast<std::size_t>(o.chains))
        return Error{"give one start per chain (" + std::to_string(o.chains) + "), not " +
                     std::to_string(o.starts.size())};
    const TemperingOptions& pt = o.tempering;
    if (pt.replicas < 1) return Error{"tempering needs at least 1 replica (1: no tempering)"};
    if (pt.replicas > 1 && o.kernel != Kernel::Gibbs)
        return Error{"tempering (replicas > 1) works with the Gibbs sampler only"};
    if (!(pt.hottest > 0 && pt.hottest < 1) || !(pt.targetSwap > 0 && pt.targetSwap < 1))
        return Error{
            "tempering: the hottest temperature and the target swap acceptance must "
            "lie strictly between 0 and 1"};
    for (std::size_t c = 0; c < o.starts.size(); ++c) {
        const ChainStart& s = o.starts[c];
        const std::string where = chainPrefix(static_cast<int>(c));
        if (s.q.size() != 0 && (s.q.size() != d || !s.q.allFinite()))
            return Error{where + "the initial point must have " + std::to_string(d) +
                         " finite values"};
        if (s.invMetric.size() != 0 &&
            (s.invMetric.size() != d || !s.invMetric.allFinite() || s.invMetric.minCoeff() <= 0))
            return Error{where + "the inverse metric must have " + std::to_string(d) +
                         " positive finite values"};
        if (!std::isfinite(s.stepSize) || s.stepSize < 0)
            return Error{where + "the step size must be a positive finite number"};
        // Replicas and a ladder of another size (a start from an untempered run) are not
        // used: the replicas then start at q, the ladder at its default.
        if (s.ladder.size() == static_cast<std::size_t>(pt.replicas) &&
            (s.ladder.front() != 1.0 || !std::is_sorted(s.ladder.rbegin(), s.ladder.rend()) ||
             !(s.ladder.back() > 0)))
            return Error{where + "the tempering ladder must start at 1 and decrease to above 0"};
    }
    return Status::ok();
}

struct ChainContext {
    const LogDensity& target;
    const SamplerOptions& options;
    std::atomic<bool>& stop;
};

Status findInitialPoint(detail::NutsKernel& kernel, const ChainContext& ctx, int chain) {
    const SamplerOptions& o = ctx.options;
    const ChainStart* start =
        o.starts.empty() ? nullptr : &o.starts[static_cast<std::size_t>(chain)];
    if (start != nullptr && start->q.size() != 0) {
        if (!kernel.setState(start->q))
            return Error{chainPrefix(chain) +
                         "the given initial point has a non-finite log density or gradient"};
        return Status::ok();
    }
    Rng initRng = makeRng(o.seed, static_cast<std::uint64_t>(chain), Purpose::Init);
    boost::random::uniform_real_distribution<double> u(-o.initRadius, o.initRadius);
    Eigen::VectorXd q(static_cast<Eigen::Index>(ctx.target.dimension()));
    for (int attempt = 0; attempt < kInitAttempts; ++attempt) {
        for (Eigen::Index i = 0; i < q.size(); ++i) q[i] = u(initRng);
        if (kernel.setState(q)) return Status::ok();
    }
    return Error{chainPrefix(chain) + "no point with a finite log density and gradient in " +
                 std::to_string(kInitAttempts) + " random starts within (-" +
                 std::to_string(o.initRadius) + ", " + std::to_string(o.initRadius) +
                 "); check the model or give initial values"};
}

Status stepSizeStatus(detail::NutsKernel::StepSizeSearch r, int chain) {
    switch (r) {
        case detail::NutsKernel::StepSizeSearch::Ok:
            return Status::ok();
        case detail::NutsKernel::StepSizeSearch::Cancelled:
            return Error::cancelled(kCancelled);
        case detail::NutsKernel::StepSizeSearch::Improper:
            break;
    }
    return Error{chainPrefix(chain) +
                 "no usable step size was found; the posterior may be improper"};
}

bool stopRequested(const ChainContext& ctx) {
    return ctx.stop.load() || (ctx.options.cancel != nullptr && ctx.options.cancel->load());
}

// Reports progress; on Stop raises the shared stop flag.
bool keepGoing(const ChainContext& ctx, const char* stage, int chain, int done, int total) {
    if (ctx.options.progress &&
        ctx.options.progress(Progress{stage, chain, static_cast<double>(done),
                                      static_cast<double>(total)}) == Continue::Stop)
        ctx.stop.store(true);
    return !stopRequested(ctx);
}

// The target's own exact move after a transition: a composition of kernels that each leave
// the target invariant still does.
Status exactMove(const ChainContext& ctx, detail::NutsKernel& kernel, Rng& rng,
                 Eigen::VectorXd& scratch, int chain) {
    scratch = kernel.q();
    if (!ctx.target.exactMove(scratch, rng) || kernel.setState(scratch)) return Status::ok();
    return Error{chainPrefix(chain) +
                 "the model's exact move left the support (a bug in the model; please report "
                 "it with the configuration)"};
}

// What a finished chain hands on: sampling time and the state a warm start needs.
void finishChain(detail::NutsKernel& kernel, std::chrono::steady_clock::time_point t1,
                 ChainResult& out) {
    out.samplingSeconds = secondsSince(t1);
    out.stepSize = kernel.stepSize();
    out.invMetric = kernel.invMetric();
    out.lastQ = kernel.q();
    out.gradientEvaluations = kernel.gradientEvaluations();
}

// One Gibbs sweep of the target from the kernel's state.
Status gibbsSweep(const ChainContext& ctx, detail::NutsKernel& kernel, Rng& rng,
                  Eigen::VectorXd& scratch, int chain, double anneal) {
    scratch = kernel.q();
    if (!ctx.target.gibbsSweep(
            scratch, rng, [&ctx] { return stopRequested(ctx); }, anneal))
        return Error{"the model has no Gibbs sampler; use NUTS (\"sampler\": \"nuts\")"};
    if (kernel.setState(scratch)) return Status::ok();
    return Error{chainPrefix(chain) +
                 "the model's Gibbs sweep left the support (a bug in the model; please report "
                 "it with the configuration)"};
}

// Kernel::Gibbs: the target's sweep is the whole transition. The NUTS kernel only keeps the
// state and its log density (one evaluation per sweep). With tempering, every iteration also
// sweeps the other replicas and proposes swaps (detail::Tempering).
Status runGibbsChain(const ChainContext& ctx, int chain, detail::NutsKernel& kernel, Rng& rng,
                     const ChainStart* start, ChainResult& out) {
    const SamplerOptions& o = ctx.options;
    const auto d = static_cast<Eigen::Index>(ctx.target.dimension());
    Eigen::VectorXd moved(d);
    detail::Tempering tempering(ctx.target, o.tempering, start, kernel.q());
    const StopCheck stop = [&ctx] { return stopRequested(ctx); };
    // One iteration: the target's sweep, then (tempering) the others' sweeps and the swaps.
    auto iterate = [&](double anneal, bool learn) -> Status {
        if (Status s = gibbsSweep(ctx, kernel, rng, moved, chain, anneal); !s) return s;
        if (!tempering.active()) return Status::ok();
        if (Status s = tempering.sweepOthers(rng, stop, anneal); !s) return s;
        moved = kernel.q();
        if (tempering.swap(moved, anneal, rng, learn) && !kernel.setState(moved))
            return Error{chainPrefix(chain) +
                         "a tempering swap left the support (a bug; please "
                         "report it with the configuration)"};
        return Status::ok();
    };
    const auto t0 = std::chrono::steady_clock::now();
    const double annealed = 0.5 * o.warmup;  // sweeps over which anneal rises to 1
    for (int it = 0; it < o.warmup; ++it) {
        const double anneal = std::min(1.0, (it + 1) / annealed);
        if (Status s = iterate(anneal, true); !s) return s;
        if (!keepGoing(ctx, "warmup", chain, it + 1, o.warmup)) return Error::cancelled(kCancelled);
    }
    out.warmupSeconds = secondsSince(t0);
    const auto t1 = std::chrono::steady_clock::now();
    out.draws.resize(o.draws, d);
    out.stats.resize(static_cast<std::size_t>(o.draws));
    for (int it = 0; it < o.draws; ++it) {
        for (int t = 0; t < o.thin; ++t) {  // a cancel is noticed between sweeps
            if (stopRequested(ctx)) return Error::cancelled(kCancelled);
            if (Status s = iterate(1.0, false); !s) return s;
        }
        out.draws.row(it) = kernel.q().transpose();
        DrawStats& st = out.stats[static_cast<std::size_t>(it)];
        st.energy = std::numeric_limits<double>::quiet_NaN();
        st.acceptStat = 1.0;
        st.lp = kernel.lp();
        if (o.onDraw) o.onDraw(chain, it, kernel.q());
        if (!keepGoing(ctx, "sampling", chain, it + 1, o.draws))
            return Error::cancelled(kCancelled);
    }
    finishChain(kernel, t1, out);
    if (tempering.active()) {
        out.replicas = tempering.replicas();
        out.ladder = tempering.ladder();
        out.swapAcceptance = tempering.acceptance();
        out.swapParity = tempering.parity();
    }
    return Status::ok();
}

Status runChain(const ChainContext& ctx, int chain, ChainResult& out) {
    const SamplerOptions& o = ctx.options;
    const auto d = static_cast<Eigen::Index>(ctx.target.dimension());
    const ChainStart* start =
        o.starts.empty() ? nullptr : &o.starts[static_cast<std::size_t>(chain)];
    // A continued chain picks up its stream where it stopped (ChainStart::rng).
    Rng rng = start != nullptr && start->rng
                  ? *start->rng
                  : makeRng(o.seed, static_cast<std::uint64_t>(chain), Purpose::Sampler);
    detail::NutsKernel kernel(ctx.target, rng, ctx.stop, o.cancel, o.maxTreeDepth,
                              o.maxEnergyError);
    if (start != nullptr && start->invMetric.size() == d) kernel.invMetric() = start->invMetric;

    const auto t0 = std::chrono::steady_clock::now();
    if (Status s = findInitialPoint(kernel, ctx, chain); !s) return s;
    if (o.kernel == Kernel::Gibbs) {
        kernel.setStepSize(start != nullptr && start->stepSize > 0 ? start->stepSize : 1.0);
        Status s = runGibbsChain(ctx, chain, kernel, rng, start, out);
        out.rng = rng;
        return s;
    }

    const bool givenStepSize = start != nullptr && start->stepSize > 0;
    kernel.setStepSize(givenStepSize ? start->stepSize : 1.0);
    if (!givenStepSize) {
        if (Status s = stepSizeStatus(kernel.initStepSize(), chain); !s) return s;
    }

    // Warm-up: dual averaging of the step size, windowed variance for the metric.
    detail::StepSizeAdaptation stepAdapt(o.adaptDelta);
    stepAdapt.setMu(std::log(10 * kernel.stepSize()));
    detail::WindowedVarianceAdaptation metricAdapt;
    if (o.adaptMetric)
        (void)metricAdapt.configure(o.warmup, o.initBuffer, o.termBuffer, o.baseWindow);
    Eigen::VectorXd moved(d);
    for (int it = 0; it < o.warmup; ++it) {
        const detail::TransitionInfo info = kernel.transition();
        if (info.cancelled) return Error::cancelled(kCancelled);
        if (Status s = exactMove(ctx, kernel, rng, moved, chain); !s) return s;
        if (info.divergent) ++out.warmupDivergences;
        kernel.setStepSize(stepAdapt.learn(info.acceptStat));
        if (metricAdapt.enabled() &&
            metricAdapt.learn(kernel.q(), kernel.invMetric(), &ctx.target)) {
            // New metric: search a step size afresh and restart dual averaging around it.
            if (Status s = stepSizeStatus(kernel.initStepSize(), chain); !s) return s;
            stepAdapt.setMu(std::log(10 * kernel.stepSize()));
            stepAdapt.restart();
        }
        if (!keepGoing(ctx, "warmup", chain, it + 1, o.warmup)) return Error::cancelled(kCancelled);
    }
    if (o.warmup > 0) kernel.setStepSize(stepAdapt.final());
    out.warmupSeconds = secondsSince(t0);

    const auto t1 = std::chrono::steady_clock::now();
    out.draws.resize(o.draws, d);
    out.stats.resize(static_cast<std::size_t>(o.draws));
    for (int it = 0; it < o.draws; ++it) {
        DrawStats& st = out.stats[static_cast<std::size_t>(it)];
        detail::TransitionInfo info;
        for (int t = 0; t < o.thin; ++t) {  // thinned-out transitions count as the draw's
            info = kernel.transition();
            if (info.cancelled) return Error::cancelled(kCancelled);
            if (Status s = exactMove(ctx, kernel, rng, moved, chain); !s) return s;
            st.nLeapfrog += info.nLeapfrog;
            st.divergent = st.divergent || info.divergent;
            st.treeDepth = std::max(st.treeDepth, info.depth);
        }
        out.draws.row(it) = kernel.q().transpose();
        st.stepSize = kernel.stepSize();
        st.energy = info.energy;
        st.acceptStat = info.acceptStat;
        st.lp = kernel.lp();
        if (o.onDraw) o.onDraw(chain, it, kernel.q());
        if (!keepGoing(ctx, "sampling", chain, it + 1, o.draws))
            return Error::cancelled(kCancelled);
    }
    finishChain(kernel, t1, out);
    out.rng = rng;
    return Status::ok();
}

}  // namespace

Expected<SamplerResult> sampleNuts(const LogDensity& target, const SamplerOptions& options) {
    if (Status s = validate(target, options); !s) return s.error();

    SamplerResult result;
    result.chains.resize(static_cast<std::size_t>(options.chains));
    std::vector<Status> status(static_cast<std::size_t>(options.chains));
    std::atomic<bool> stop{false};
    std::atomic<int> nextChain{0};
    const ChainContext ctx{target, options, stop};

    // A simple work queue: each worker takes the next chain until none is left. Chains own
    // their RNG streams, so the assignment of chains to threads does not affect results.
    auto worker = [&]() {
        for (int c = nextChain.fetch_add(1); c < options.chains; c = nextChain.fetch_add(1)) {
            const auto i = static_cast<std::size_t>(c);
            if (stop.load() || (options.cancel != nullptr && options.cancel->load())) {
                status[i] = Error::cancelled(kCancelled);  // do not start chains after a stop
                continue;
            }
            status[i] = runChain(ctx, c, result.chains[i]);
            if (!status[i]) stop.store(true);  // one failed chain stops the run
        }
    };
    int threads = options.threads == 0 ? static_cast<int>(std::thread::hardware_concurrency())
                                       : options.threads;
    threads = std::clamp(threads, 1, options.chains);
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();

    // Report a real failure before the cancellations it caused in other chains.
    const Status* cancelled = nullptr;
    for (const Status& s : status) {
        if (s) continue;
        if (s.kind() != ErrorKind::Cancelled) return s.error();
        cancelled = &s;
    }
    if (cancelled != nullptr) return Error::cancelled(kCancelled);
    for (const ChainResult& c : result.chains) result.gradientEvaluations += c.gradientEvaluations;
    return result;
}

}  // namespace ppsynth::mcmc
