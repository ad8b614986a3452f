// The sweep's configuration: its JSON keys, their checks and the canonical form, and the
// synthesizers one grid point runs.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/study/sweep.hpp"
#include "ppsynth/study/validate.hpp"
#include "study/json_reader.hpp"
#include "study/run_config_sections.hpp"
#include "study/sweep_json.hpp"

namespace ppsynth::study {

using nlohmann::json;

namespace {

// "k": a number in (0, 1] or "auto"; the first problem goes into `error`.
void readK(detail::Reader& r, std::optional<double>& k, bool& kAuto) {
    if (!r.has("k")) return;
    const json& v = r.raw("k");
    if (v.is_string() && v.get<std::string>() == "auto") {
        kAuto = true;
        k.reset();
    } else if (v.is_number() && v.get<double>() > 0 && v.get<double>() <= 1) {
        k = v.get<double>();
        kAuto = false;
    } else {
        r.fail("'k' must be a number in (0, 1] or \"auto\"");
    }
}

void checkPoint(detail::Reader& r, const SweepPoint& p) {
    if (!(p.c >= 0)) r.fail("'c' must not be negative");
    if (p.M && !(*p.M > 0)) r.fail("'M' must be positive");
    if (p.r && !(*p.r > 0)) r.fail("'r' must be positive");
    if (p.targetEpsilon && !(*p.targetEpsilon > 0)) r.fail("'target_epsilon' must be positive");
    if (p.targetEpsilon && (p.k || p.kAuto))
        r.fail(
            "'k' (re-weighting) and 'target_epsilon' do not combine: a target-epsilon point "
            "scales LW to the target instead");
}

json kJson(const SweepPoint& p) {
    return p.kAuto ? json("auto") : p.k ? json(*p.k) : json(nullptr);
}

}  // namespace

namespace detail {

json pointJson(const SweepPoint& p) {
    json j = {{"c", p.c}, {"g", p.g}};
    if (p.M) j["M"] = *p.M;
    if (p.k || p.kAuto) j["k"] = kJson(p);
    if (p.r) j["r"] = *p.r;
    if (p.targetEpsilon) j["target_epsilon"] = *p.targetEpsilon;
    return j;
}

SweepPoint pointFrom(const json& j) {
    SweepPoint p;
    p.c = j.at("c").get<double>();
    p.g = j.at("g").get<double>();
    if (j.contains("M")) p.M = j.at("M").get<double>();
    if (j.contains("k")) {
        if (j.at("k").is_string())
            p.kAuto = true;
        else
            p.k = j.at("k").get<double>();
    }
    if (j.contains("r")) p.r = j.at("r").get<double>();
    if (j.contains("target_epsilon")) p.targetEpsilon = j.at("target_epsilon").get<double>();
    return p;
}

}  // namespace detail

using detail::pointJson;

std::vector<SweepPoint> ceStudyPoints() {
    std::vector<SweepPoint> points;
    for (auto [c, g] :
         {std::pair{0.7, 0.0}, {0.6, 0.0}, {0.6, -0.1}, {0.5, 0.0}, {0.5, -0.1}, {0.5, -0.3}}) {
        SweepPoint p;
        p.c = c;
        p.g = g;
        points.push_back(p);
    }
    return points;
}

Expected<SweepConfig> parseSweepConfig(const std::string& text, const std::string& baseDir) {
    json root;
    if (auto e = detail::parseConfigJson(text, root); !e.empty()) return Error{e};
    SweepConfig c;
    std::string error;
    {
        detail::Reader top(root, "configuration", error);
        readRunSections(top, c.run, error);
        if (top.has("sweep") && error.empty()) {
            detail::Reader s(top.raw("sweep"), "sweep", error);
            SweepPoint defaults;
            s.getOptional("M", defaults.M);
            s.getOptional("r", defaults.r);
            readK(s, defaults.k, defaults.kAuto);
            s.get("tolerance", c.tolerance);
            s.get("threads", c.threads);
            s.get("c", defaults.c);
            s.get("g", defaults.g);
            std::vector<double> targets;
            if (s.has("target_epsilons")) {
                const json& t = s.raw("target_epsilons");
                if (!t.is_array() || t.empty() ||
                    !std::all_of(t.begin(), t.end(), [](const json& e) { return e.is_number(); }))
                    s.fail(
                        "'target_epsilons' must be a non-empty list of numbers, such as "
                        "[1, 2, 5, 10, 20]");
                else if (s.has("points"))
                    s.fail("give either 'points' or 'target_epsilons', not both");
                else
                    targets = t.get<std::vector<double>>();
            }
            if (error.empty()) checkPoint(s, defaults);
            if (error.empty() && !targets.empty()) {
                c.points.clear();
                for (double e : targets) {
                    SweepPoint point = defaults;
                    point.targetEpsilon = e;
                    if (!(e > 0)) s.fail("'target_epsilons' must all be positive");
                    if (error.empty()) checkPoint(s, point);
                    c.points.push_back(point);
                }
            }
            if (error.empty() && !(c.tolerance > 0 && c.tolerance < 1))
                s.fail("'tolerance' must be in (0, 1)");
            if (error.empty() && c.threads < 1) s.fail("'threads' must be at least 1");
            if (targets.empty() && s.has("points") && error.empty()) {
                const json& list = s.raw("points");
                if (!list.is_array() || list.empty()) s.fail("'points' must be a non-empty list");
                c.points.clear();
                for (std::size_t i = 0; error.empty() && list.is_array() && i < list.size(); ++i) {
                    detail::Reader p(list[i], "sweep.points[" + std::to_string(i) + "]", error);
                    SweepPoint point = defaults;
                    p.get("c", point.c);
                    p.get("g", point.g);
                    p.getOptional("M", point.M);
                    p.getOptional("r", point.r);
                    p.getOptional("target_epsilon", point.targetEpsilon);
                    readK(p, point.k, point.kAuto);
                    if (error.empty()) checkPoint(p, point);
                    c.points.push_back(point);
                }
            } else if (targets.empty() && error.empty()) {
                if (s.has("c") || s.has("g"))
                    s.fail(
                        "'c' and 'g' at the sweep's level are defaults for 'points' or "
                        "'target_epsilons'; the built-in grid (the CE study's six points) "
                        "sets its own");
                for (auto& p : c.points) {
                    if (defaults.M) p.M = defaults.M;
                    if (defaults.r) p.r = defaults.r;
                    p.k = defaults.k;
                    p.kAuto = defaults.kAuto;
                }
            }
        }
    }
    if (!error.empty()) return Error{error};
    if (Status st = validateSections(c.run); !st) return st.error();
    resolveDataPath(c.run, baseDir);
    return c;
}

Expected<SweepConfig> loadSweepConfig(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error::io("cannot open the configuration '" + path + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    auto c = parseSweepConfig(ss.str(), std::filesystem::path(path).parent_path().string());
    if (!c) return c.error().prefixed("'" + path + "': ");
    return c;
}

std::string toJson(const SweepConfig& c, bool withThreads) {
    json j = json::parse(toJson(c.run));
    j.erase("synthesizers");
    if (!withThreads) j["mcmc"].erase("threads");
    json points = json::array();
    for (const auto& p : c.points) points.push_back(pointJson(p));
    j["sweep"] = {{"points", points}, {"tolerance", c.tolerance}};
    if (withThreads) j["sweep"]["threads"] = c.threads;
    return j.dump(2);
}

RunConfig sweepPointRunConfig(const SweepConfig& c, const SweepPoint& p) {
    RunConfig rc = c.run;
    if (p.r) rc.risk.radius = *p.r;
    if (p.targetEpsilon) {
        SynthesizerConfig scaled;
        scaled.name = p.M ? "LW-M-scaled" : "LW-scaled";
        scaled.scheme = Scheme::Scaled;
        scaled.of = Scheme::Lipschitz;
        scaled.c = p.c;
        scaled.g = p.g;
        scaled.M = p.M;
        scaled.targetEpsilon = p.targetEpsilon;
        scaled.tolerance = c.tolerance;
        SynthesizerConfig em;
        em.name = "EM";
        em.scheme = Scheme::Scalar;
        em.epsilon = p.targetEpsilon;
        em.tolerance = c.tolerance;
        rc.synthesizers = {scaled, em};
        return rc;
    }
    SynthesizerConfig lw;
    lw.name = p.M ? "LW-M" : "LW";
    lw.scheme = Scheme::Lipschitz;
    lw.c = p.c;
    lw.g = p.g;
    lw.M = p.M;
    rc.synthesizers = {lw};
    std::string matched = lw.name;
    if (p.k || p.kAuto) {
        SynthesizerConfig fin;
        fin.name = "LW_final";
        fin.scheme = Scheme::Reweight;
        fin.base = lw.name;
        fin.k = p.k;
        fin.tolerance = c.tolerance;
        rc.synthesizers.push_back(fin);
        matched = fin.name;
    }
    SynthesizerConfig em;
    em.name = "EM";
    em.scheme = Scheme::Scalar;
    em.match = matched;
    em.tolerance = c.tolerance;
    rc.synthesizers.push_back(em);
    return rc;
}

}  // namespace ppsynth::study
