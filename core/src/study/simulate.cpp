#include "ppsynth/study/simulate.hpp"

#include <algorithm>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "data/examples_detail.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/privacy/weights.hpp"
#include "ppsynth/study/fit.hpp"
#include "study/block_run.hpp"
#include "study/csv_text.hpp"
#include "study/json_reader.hpp"
#include "study/resumable_folder.hpp"

namespace ppsynth::study {

using nlohmann::json;

namespace {

const std::vector<std::string> kMechanisms{"Unweighted", "LW", "LW-M"};

bool known(const std::string& mechanism) {
    return std::find(kMechanisms.begin(), kMechanisms.end(), mechanism) != kMechanisms.end();
}

}  // namespace

std::vector<double> SimulateConfig::epsilons() const {
    if (!epsilonGrid.empty()) return epsilonGrid;
    std::vector<double> grid;
    for (int i = 0; i <= 78; ++i) grid.push_back(1.0 + 0.5 * i);
    return grid;
}

Expected<SimulateConfig> parseSimulateConfig(const std::string& text) {
    json root;
    if (auto e = detail::parseConfigJson(text, root); !e.empty()) return Error{e};
    SimulateConfig c;
    std::string error;
    {
        detail::Reader r(root, "configuration", error);
        r.get("model", c.model);
        r.get("mean", c.mean);
        r.get("sizes", c.sizes);
        r.get("replicates", c.replicates);
        r.get("mechanisms", c.mechanisms);
        r.get("c", c.c);
        r.get("g", c.g);
        r.get("M", c.M);
        r.get("seed", c.seed);
        r.get("threads", c.threads);
        r.get("block_size", c.blockSize);
        r.get("quantiles", c.quantiles);
        r.get("epsilon_grid", c.epsilonGrid);
        if (r.has("mcmc") && error.empty()) {
            detail::Reader m(r.raw("mcmc"), "mcmc", error);
            m.get("chains", c.mcmc.chains);
            m.get("warmup", c.mcmc.warmup);
            m.get("draws", c.mcmc.draws);
            m.get("max_treedepth", c.mcmc.maxTreeDepth);
            m.get("adapt_delta", c.mcmc.adaptDelta);
            if (error.empty())
                detail::checkRanges(
                    m, {{"chains", c.mcmc.chains, 1},
                        {"draws", c.mcmc.draws, 1},
                        {"warmup", c.mcmc.warmup, 0},
                        {"max_treedepth", c.mcmc.maxTreeDepth, 1, mcmc::kMaxTreeDepth}});
            if (error.empty() && !(c.mcmc.adaptDelta > 0 && c.mcmc.adaptDelta < 1))
                m.fail("'adapt_delta' must be in (0, 1)");
        }
        if (!error.empty()) return Error{error};
        if (c.model != "poisson" && c.model != "nb-mixture")
            r.fail("'model' must be \"poisson\" or \"nb-mixture\"");
        else if (!(c.mean > 0 && std::isfinite(c.mean)))
            r.fail("'mean' must be a positive number");
        else if (c.sizes.empty() ||
                 std::any_of(c.sizes.begin(), c.sizes.end(), [](auto n) { return n < 2; }))
            r.fail("'sizes' must list database sizes of at least 2");
        else if (c.replicates < 1)
            r.fail("'replicates' must be at least 1");
        else if (c.mechanisms.empty() ||
                 !std::all_of(c.mechanisms.begin(), c.mechanisms.end(), known) ||
                 std::set<std::string>(c.mechanisms.begin(), c.mechanisms.end()).size() !=
                     c.mechanisms.size())
            r.fail("'mechanisms' must list distinct names among Unweighted, LW and LW-M");
        else if (!(c.c >= 0))
            r.fail("'c' must not be negative");
        else if (!(c.M > 0))
            r.fail("'M' must be positive");
        else if (c.threads < 1 || c.blockSize < 1)
            r.fail("'threads' and 'block_size' must be at least 1");
        else if (std::any_of(c.quantiles.begin(), c.quantiles.end(),
                             [](double q) { return !(q >= 0 && q <= 1); }))
            r.fail("'quantiles' must lie in [0, 1]");
        else if (std::any_of(c.epsilonGrid.begin(), c.epsilonGrid.end(),
                             [](double e) { return !(e > 0); }) ||
                 !std::is_sorted(c.epsilonGrid.begin(), c.epsilonGrid.end()))
            r.fail("'epsilon_grid' must be positive numbers in increasing order");
    }
    if (!error.empty()) return Error{error};
    return c;
}

Expected<SimulateConfig> loadSimulateConfig(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot open the configuration '" + path + "'"};
    std::ostringstream ss;
    ss << in.rdbuf();
    auto c = parseSimulateConfig(ss.str());
    if (!c) return Error{"'" + path + "': " + c.message()};
    return c;
}

std::string toJson(const SimulateConfig& c, bool withThreads) {
    json j = {{"model", c.model},
              {"mean", c.mean},
              {"sizes", c.sizes},
              {"replicates", c.replicates},
              {"mechanisms", c.mechanisms},
              {"c", c.c},
              {"g", c.g},
              {"M", c.M},
              {"mcmc",
               {{"chains", c.mcmc.chains},
                {"warmup", c.mcmc.warmup},
                {"draws", c.mcmc.draws},
                {"max_treedepth", c.mcmc.maxTreeDepth},
                {"adapt_delta", c.mcmc.adaptDelta}}},
              {"seed", c.seed},
              {"block_size", c.blockSize},
              {"quantiles", c.quantiles},
              {"epsilon_grid", c.epsilons()}};
    if (withThreads) j["threads"] = c.threads;
    return j.dump(2);
}

namespace {

// Replicate r of size n: its own streams per purpose, independent of blocks and threads.
std::uint64_t replicateSeed(std::uint64_t seed, std::size_t n, int r, Purpose purpose) {
    return streamSeed(streamSeed(seed, n, purpose), static_cast<std::uint64_t>(r), purpose);
}

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
            makeRng(replicateSeed(c_.seed, n, r, Purpose::Simulation), 0, Purpose::Simulation);
        auto model = synthesizerFor(c_, generate(c_, n, rng));
        if (!model) return model.error();
        const auto size = static_cast<Eigen::Index>(n);
        const std::uint64_t fitSeed = replicateSeed(c_.seed, n, r, Purpose::Sampler);
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
            auto m = fit(**model, lw, mix64(fitSeed ^ 1), unweighted->starts);
            if (!m) return m.error();
            add("LW", *m, lw);
        }
        if (wants("LW-M")) {
            Eigen::VectorXd lwm = privacy::truncateAtM(lw, f, c_.M);
            auto m = fit(**model, lwm, mix64(fitSeed ^ 2), unweighted->starts);
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

json replicateJson(const SimulateReplicate& r) {
    return {
        {"n", r.n},         {"replicate", r.replicate},          {"mechanism", r.mechanism},
        {"delta", r.delta}, {"posterior_mean", r.posteriorMean}, {"zero_weights", r.zeroWeights}};
}

SimulateReplicate replicateFrom(const json& j) {
    return {j.at("n").get<std::size_t>(),         j.at("replicate").get<int>(),
            j.at("mechanism").get<std::string>(), j.at("delta").get<double>(),
            j.at("posterior_mean").get<double>(), j.at("zero_weights").get<std::size_t>()};
}

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

std::string quantileName(double q) {
    return "q" + data::formatNumber(q);
}

Status writeTables(const detail::ResumableFolder& folder, const SimulateSummary& s) {
    detail::CsvText reps(
        {"n", "replicate", "mechanism", "delta", "epsilon", "posterior_mean", "zero_weights"});
    for (const auto& r : s.replicates)
        reps.row({static_cast<double>(r.n), static_cast<double>(r.replicate), r.mechanism, r.delta,
                  2 * r.delta, r.posteriorMean, static_cast<double>(r.zeroWeights)});
    std::vector<std::string> header{"n", "mechanism", "min"};
    for (double q : s.config.quantiles) header.push_back(quantileName(q));
    for (const char* h : {"max", "mean", "sd", "safety_low", "safety_high", "epsilon_low",
                          "epsilon_high", "delta_hat_low", "delta_hat_high", "mean_posterior_mean"})
        header.push_back(h);
    detail::CsvText dist(header);
    detail::CsvText hat({"n", "mechanism", "epsilon", "delta_hat"});
    const auto eps = s.config.epsilons();
    for (const auto& d : s.distributions) {
        std::vector<detail::CsvText::Cell> row{static_cast<double>(d.n), d.mechanism, d.min};
        for (double q : d.quantiles) row.push_back(q);
        for (double x : {d.max, d.mean, d.sd, d.recommended.safetyLow, d.recommended.safetyHigh,
                         d.recommended.epsilonLow, d.recommended.epsilonHigh, d.deltaHatLow,
                         d.deltaHatHigh, d.meanPosteriorMean})
            row.push_back(x);
        dist.row(row);
        for (std::size_t k = 0; k < eps.size(); ++k)
            hat.row({static_cast<double>(d.n), d.mechanism, eps[k], d.deltaHat[k]});
    }
    for (const auto& [name, text] :
         {std::pair<std::string, std::string>{"replicates.csv", reps.str()},
          {"distribution.csv", dist.str()},
          {"delta_hat.csv", hat.str()},
          {"summary.json", simulateSummaryJson(s)}})
        if (auto st = folder.writeOutput(name, text); !st) return st;
    return {};
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
        if (auto st = folder->writePlan("simulation", names, {}); !st) return Error{st.message()};
        SimulateSummary planned;
        planned.config = config;
        planned.items = blocks.size();
        return planned;
    }
    auto work = [&](std::size_t i) -> Expected<json> {
        json list = json::array();
        for (int r = blocks[i].first; r < blocks[i].last; ++r) {
            if (options.cancel && options.cancel->load()) return Error{"cancelled"};
            auto reps = runner.run(blocks[i].n, r);
            if (!reps)
                return Error{"n = " + std::to_string(blocks[i].n) + ", replicate " +
                             std::to_string(r + 1) + ": " + reps.message()};
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
    if (auto st = writeTables(*folder, s); !st) return Error{st.message()};
    return s;
}

std::string simulateSummaryJson(const SimulateSummary& s) {
    json j;
    j["software"] = {{"name", "ppsynth"}, {"version", PPSYNTH_VERSION}};
    j["configuration"] = json::parse(toJson(s.config));
    j["synthesizer"] = s.config.model == "poisson" ? "poisson-means (conjugate, exact draws)"
                                                   : "negbin, intercept only (NUTS)";
    j["seconds"] = s.seconds;
    j["blocks_run"] = s.blocksRun;
    j["blocks_resumed"] = s.blocksResumed;
    j["recommendation_basis"] =
        "2 x safety factor x the median replicate's local Delta (paper 000 sec. 4.5); "
        "delta_hat: share of replicates whose local epsilon exceeds it";
    json list = json::array();
    for (const auto& d : s.distributions) {
        json q = json::object();
        for (std::size_t k = 0; k < d.quantiles.size(); ++k)
            q[data::formatNumber(s.config.quantiles[k])] = d.quantiles[k];
        list.push_back({{"n", d.n},
                        {"mechanism", d.mechanism},
                        {"min", d.min},
                        {"median", d.median},
                        {"max", d.max},
                        {"mean", d.mean},
                        {"sd", d.sd},
                        {"quantiles", q},
                        {"delta_hat", d.deltaHat},
                        {"recommended",
                         {{"safety_factor", {d.recommended.safetyLow, d.recommended.safetyHigh}},
                          {"epsilon", {d.recommended.epsilonLow, d.recommended.epsilonHigh}},
                          {"delta_hat", {d.deltaHatLow, d.deltaHatHigh}}}},
                        {"mean_posterior_mean", d.meanPosteriorMean}});
    }
    j["epsilon_grid"] = s.config.epsilons();
    j["distributions"] = list;
    return j.dump(2);
}

}  // namespace ppsynth::study
