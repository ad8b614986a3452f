// The simulation's configuration: its JSON keys, their checks and the canonical form.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/validate.hpp"
#include "study/json_reader.hpp"

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
                detail::checkRanges(m, {{"chains", c.mcmc.chains, limits::kChains},
                                        {"draws", c.mcmc.draws, limits::kDraws},
                                        {"warmup", c.mcmc.warmup, limits::kWarmup},
                                        {"max_treedepth", c.mcmc.maxTreeDepth, limits::kTreeDepth,
                                         mcmc::kMaxTreeDepth}});
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
    if (!in) return Error::io("cannot open the configuration '" + path + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    auto c = parseSimulateConfig(ss.str());
    if (!c) return c.error().prefixed("'" + path + "': ");
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
}  // namespace ppsynth::study
