#include "ppsynth/study/simulate.hpp"

#include <algorithm>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "data/examples_detail.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/privacy/weights.hpp"
#include "ppsynth/study/fit.hpp"
#include "study/block_run.hpp"
#include "study/resumable_folder.hpp"
#include "study/simulate_json.hpp"

namespace ppsynth::study {

using detail::replicateFrom;
using detail::replicateJson;
using detail::writeTables;
using nlohmann::json;

namespace {

Eigen::VectorXd generate(const SimulateConfig& c, std::size_t n, Rng& rng) {
    Eigen::VectorXd y(static_cast<Eigen::Index>(n));
    if (c.model == "poisson") {
        boost::random::poisson_distribution<std::int64_t, double> pois(c.mean);
        for (auto& v : y) v = static_cast<double>(pois(rng));
    } else {
        boost::random::bernoulli_distribution<double> wide(0.2);
        for (auto& v : y) v = data::detail::drawNegBinomial(rng, c.mean, wide(rng) ? 5.0 : 20.0);
    }
    return y;
}

// The synthesizer of the papers' simulations: the conjugate Poisson means model for Poisson
// data (exact draws), an intercept-only negative binomial model for the NB mixture (NUTS).
Expected<std::unique_ptr<models::Model>> synthesizerFor(const SimulateConfig& c,
                                                        Eigen::VectorXd y) {
    models::ModelSpec spec;
    spec.family = c.model == "poisson" ? "poisson-means" : "negbin";
    const auto n = y.size();
    return models::makeModel(spec, Eigen::MatrixXd::Ones(n, 1), std::move(y), {"(Intercept)"});
}

struct MechanismFit {
    double delta = 0;
    double posteriorMean = 0;
    std::vector<mcmc::ChainStart> starts;
    Eigen::VectorXd recordMax;
    std::vector<std::uint8_t> nonFinite;
};

class ReplicateRunner {
  public:
    ReplicateRunner(const SimulateConfig& c, const StudyOptions& o) : c_(c), o_(o) {}

    Expected<std::vector<SimulateReplicate>> run(std::size_t n, int r) const {
        auto rng =
            makeRng(replicateSeed(c_.seed, n, static_cast<std::uint64_t>(r), Purpose::Simulation),
                    0, Purpose::Simulation);
        auto model = synthesizerFor(c_, generate(c_, n, rng));
        if (!model) return model.error();
        const auto size = static_cast<Eigen::Index>(n);
        const std::uint64_t fitSeed =
            replicateSeed(c_.seed, n, static_cast<std::uint64_t>(r), Purpose::Sampler);
        auto unweighted = fit(**model, Eigen::VectorXd::Ones(size), fitSeed, {});
        if (!unweighted) return unweighted.error();
        const Eigen::VectorXd& f = unweighted->recordMax;

        std::vector<SimulateReplicate> out;
        auto add = [&](const std::string& name, const MechanismFit& m,
                       const Eigen::VectorXd& alpha) {
            if (std::find(c_.mechanisms.begin(), c_.mechanisms.end(), name) == c_.mechanisms.end())
                return;
            out.push_back({n, r, name, m.delta, m.posteriorMean,
                           static_cast<std::size_t>((alpha.array() == 0).count())});
        };
        add("Unweighted", *unweighted, Eigen::VectorXd::Ones(size));
        Eigen::VectorXd lw = privacy::lipschitzWeights(f, c_.c, c_.g);
        privacy::zeroNonFinite(lw, unweighted->nonFinite);
        if (wants("LW")) {
            auto m = fit(**model, lw, refitSeed(fitSeed, 1), unweighted->starts);
            if (!m) return m.error();
            add("LW", *m, lw);
        }
        if (wants("LW-M")) {
            Eigen::VectorXd lwm = privacy::truncateAtM(lw, f, c_.M);
            auto m = fit(**model, lwm, refitSeed(fitSeed, 2), unweighted->starts);
            if (!m) return m.error();
            add("LW-M", *m, lwm);
        }
        // Output order follows the configuration's list of mechanisms.
        std::vector<SimulateReplicate> ordered;
        for (const auto& name : c_.mechanisms)
            for (const auto& x : out)
                if (x.mechanism == name) ordered.push_back(x);
        return ordered;
    }

  private:
    bool wants(const std::string& name) const {
        return std::find(c_.mechanisms.begin(), c_.mechanisms.end(), name) != c_.mechanisms.end();
    }

    Expected<MechanismFit> fit(const models::Model& model, const Eigen::VectorXd& alpha,
                               std::uint64_t seed,
                               const std::vector<mcmc::ChainStart>& starts) const {
        FitOptions fo;
        auto& so = fo.sampler;
        so.chains = c_.mcmc.chains;
        so.warmup = c_.mcmc.warmup;
        so.draws = c_.mcmc.draws;
        so.maxTreeDepth = c_.mcmc.maxTreeDepth;
        so.adaptDelta = c_.mcmc.adaptDelta;
        so.seed = seed;
        so.threads = 1;  // blocks are the unit of parallel work
        so.cancel = o_.cancel;
        if (!starts.empty()) so.starts = starts;
        auto f = fitModel(model, alpha, fo);
        if (!f) return f.error();
        MechanismFit m;
        m.delta = privacy::lipschitzBound(f->lipschitz).delta;
        double sum = 0;
        for (Eigen::Index s = 0; s < f->draws.rows(); ++s)
            sum += model.meanPrediction(f->draws.row(s).transpose());
        m.posteriorMean = sum / static_cast<double>(f->draws.rows());
        m.starts = f->warmStarts;
        m.recordMax = f->lipschitz.recordMax();
        m.nonFinite = f->lipschitz.nonFinite();
        return m;
    }

    const SimulateConfig& c_;
    const StudyOptions& o_;
};

double share(const std::vector<double>& deltas, double epsilon) {
    const auto above =
        std::count_if(deltas.begin(), deltas.end(), [&](double d) { return 2.0 * d > epsilon; });
    return static_cast<double>(above) / static_cast<double>(deltas.size());
}

SimulateDistribution distribution(const SimulateConfig& c, std::size_t n,
                                  const std::string& mechanism,
                                  const std::vector<SimulateReplicate>& all) {
    SimulateDistribution d;
    d.n = n;
    d.mechanism = mechanism;
    std::vector<double> v;
    double meanSum = 0;
    for (const auto& r : all)
        if (r.n == n && r.mechanism == mechanism) {
            v.push_back(r.delta);
            meanSum += r.posteriorMean;
        }
    std::sort(v.begin(), v.end());
    const double count = static_cast<double>(v.size());
    d.min = v.front();
    d.max = v.back();
    d.median = quantileSorted(v, 0.5);
    for (double x : v) d.mean += x / count;
    for (double x : v) d.sd += (x - d.mean) * (x - d.mean);
    d.sd = v.size() > 1 ? std::sqrt(d.sd / (count - 1)) : 0;
    for (double q : c.quantiles) d.quantiles.push_back(quantileSorted(v, q));
    for (double e : c.epsilons()) d.deltaHat.push_back(share(v, e));
    d.recommended = privacy::globalEpsilon(d.median, n);
    d.deltaHatLow = share(v, d.recommended.epsilonLow);
    d.deltaHatHigh = share(v, d.recommended.epsilonHigh);
    d.meanPosteriorMean = meanSum / count;
    return d;
}

}  // namespace

namespace {

// What identifies a resumable folder besides the settings that change results: the version
// of the saved items' format (items of an older format are not mixed with new ones). The
// replicate databases come from the configuration, so no data file is fingerprinted.
constexpr int kSimulationItemFormat = 1;

}  // namespace

Expected<SimulateSummary> runSimulation(const SimulateConfig& config, const std::string& outDir,
                                        const StudyOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    detail::FolderStamp stamp;
    stamp.itemFormat = kSimulationItemFormat;
    struct Block {
        std::size_t n;
        int first, last;  // replicates [first, last)
    };
    std::vector<Block> blocks;
    for (std::size_t n : config.sizes)
        for (int r = 0; r < config.replicates; r += config.blockSize)
            blocks.push_back({n, r, std::min(r + config.blockSize, config.replicates)});
    const ReplicateRunner runner(config, options);
    auto name = [&](std::size_t i) {
        return "n" + std::to_string(blocks[i].n) + "_r" + std::to_string(blocks[i].first);
    };
    if (options.items &&
        (options.items->first > options.items->last || options.items->last >= blocks.size()))
        return Error{"items " + std::to_string(options.items->first) + "-" +
                     std::to_string(options.items->last) + " are not in this simulation: it has " +
                     std::to_string(blocks.size()) + " items (blocks), 0 to " +
                     std::to_string(blocks.size() - 1)};
    auto folder = options.items ? detail::ResumableFolder::openPlanned(outDir, "simulation",
                                                                       toJson(config, false), stamp)
                                : detail::ResumableFolder::open(outDir, "simulation",
                                                                toJson(config, false), stamp);
    if (!folder) return folder.error();
    if (options.planOnly) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < blocks.size(); ++i) names.push_back(name(i));
        if (auto st = folder->writePlan("simulation", names, {}); !st) return st.error();
        SimulateSummary planned;
        planned.config = config;
        planned.items = blocks.size();
        return planned;
    }
    auto work = [&](std::size_t i) -> Expected<json> {
        json list = json::array();
        for (int r = blocks[i].first; r < blocks[i].last; ++r) {
            if (options.cancel && options.cancel->load()) return Error::cancelled();
            auto reps = runner.run(blocks[i].n, r);
            if (!reps)
                return reps.error().prefixed("n = " + std::to_string(blocks[i].n) + ", replicate " +
                                             std::to_string(r + 1) + ": ");
            for (const auto& x : *reps) list.push_back(replicateJson(x));
        }
        return json{{"replicates", list}};
    };
    detail::BlockRunOptions bo;
    bo.threads = config.threads;
    bo.stage = "simulate";
    bo.progress = options.progress;
    bo.cancel = options.cancel;
    if (options.items) bo.only = std::pair{options.items->first, options.items->last};
    detail::BlockRunStats stats;
    auto done = detail::runBlocks(*folder, blocks.size(), name, work, bo, &stats);
    if (!done) return done.error();

    SimulateSummary s;
    s.config = config;
    s.items = blocks.size();
    s.blocksRun = stats.run;
    s.blocksResumed = stats.resumed;
    if (options.items) {  // one process of several: the summary is assembled once at the end
        s.seconds = secondsSince(t0);
        return s;
    }
    try {
        for (const auto& block : *done)
            for (const auto& r : block.at("replicates")) s.replicates.push_back(replicateFrom(r));
    } catch (const json::exception& e) {
        return Error{"a saved block in '" + outDir + "' is damaged (" + e.what() +
                     "); remove its file under items/ to recompute it"};
    }
    for (std::size_t n : config.sizes)
        for (const auto& m : config.mechanisms)
            s.distributions.push_back(distribution(config, n, m, s.replicates));
    s.seconds = secondsSince(t0);
    if (auto st = writeTables(*folder, s); !st) return st.error();
    return s;
}

}  // namespace ppsynth::study
