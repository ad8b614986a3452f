#include "ppsynth/study/run_config.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "ppsynth/common/safe_name.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/data/transform.hpp"
#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/study/run_checks.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/validate.hpp"
#include "study/json_reader.hpp"
#include "study/run_config_sections.hpp"

namespace ppsynth::study {

using detail::Reader;
using nlohmann::json;

std::string_view toString(Scheme s) {
    switch (s) {
        case Scheme::Unweighted:
            return "unweighted";
        case Scheme::Lipschitz:
            return "lipschitz";
        case Scheme::Marginal:
            return "marginal";
        case Scheme::Pairwise:
            return "pairwise";
        case Scheme::Scalar:
            return "scalar";
        case Scheme::Reweight:
            return "reweight";
        case Scheme::Sigmoid:
            return "sigmoid";
        case Scheme::Scaled:
            return "scaled";
        case Scheme::TopCode:
            return "topcode";
    }
    return "unweighted";
}

const SynthesizerConfig* RunConfig::find(const std::string& name) const {
    for (const auto& s : synthesizers)
        if (s.name == name) return &s;
    return nullptr;
}

namespace {

std::optional<Scheme> schemeFromString(const std::string& s) {
    for (auto k :
         {Scheme::Unweighted, Scheme::Lipschitz, Scheme::Marginal, Scheme::Pairwise, Scheme::Scalar,
          Scheme::Reweight, Scheme::Sigmoid, Scheme::Scaled, Scheme::TopCode})
        if (toString(k) == s) return k;
    return std::nullopt;
}

bool oneOf(const std::string& v, std::initializer_list<const char*> options) {
    return std::any_of(options.begin(), options.end(), [&](const char* o) { return v == o; });
}

void readSynthesizer(const json& j, std::size_t i, SynthesizerConfig& s, std::string& error) {
    const std::string nameGuess = j.is_object() && j.contains("name") && j["name"].is_string()
                                      ? j["name"].get<std::string>()
                                      : "";
    Reader r(j, synthesizerPath(i, nameGuess), error);
    r.get("name", s.name);
    std::string scheme;
    r.get("scheme", scheme);
    if (!error.empty()) return;
    auto sc = schemeFromString(scheme);
    if (!sc)
        return r.fail(
            "unknown scheme '" + scheme +
            "' (use unweighted, lipschitz, marginal, pairwise, scalar, reweight, sigmoid, "
            "scaled or topcode)");
    s.scheme = *sc;
    r.get("c", s.c);
    r.get("g", s.g);
    r.getOptional("M", s.M);
    r.get("source", s.source);
    r.get("match", s.match);
    r.getOptional("epsilon", s.epsilon);
    r.get("base", s.base);
    r.get("tolerance", s.tolerance);
    r.get("a", s.sigmoidA);
    r.getOptional("target_epsilon", s.targetEpsilon);
    r.getOptional("scale", s.scale);
    r.get("q", s.topcodeQ);
    if (r.has("of")) {
        std::string of;
        r.get("of", of);
        if (!error.empty()) return;
        s.of = schemeFromString(of);
        if (!s.of)
            return r.fail(
                "'of' must be a vector scheme: lipschitz (LW; with 'M' for LW-M), "
                "marginal (CW), pairwise or sigmoid, not '" +
                of + "'");
    }
    if (r.has("k")) {
        const json& k = r.raw("k");
        if (k.is_string() && k.get<std::string>() == "auto")
            s.k.reset();
        else if (k.is_number())
            s.k = k.get<double>();
        else
            return r.fail("'k' must be a number in (0, 1] or \"auto\"");
    }
}

// data.read writes the CSV characters as one-character strings, and "auto" for 0 (detect).
std::string charSetting(char c) {
    return c == 0 ? "auto" : std::string(1, c);
}

// data.read.thousands: "none" for 0 (no separator; never detected).
std::string thousandsSetting(char c) {
    return c == 0 ? "none" : std::string(1, c);
}

// CsvOptions holds plain chars, and a line end cannot separate cells or quote them.
std::optional<char> oneCharacter(const std::string& s) {
    if (s.size() != 1 || static_cast<unsigned char>(s[0]) >= 0x80 || s[0] == '\n' || s[0] == '\r')
        return std::nullopt;
    return s[0];
}

// ReadStat hands the name to iconv, which knows names like WINDOWS-1252, CP850, ISO-8859-15;
// whether this system has the one named is only known when a file is read.
bool looksLikeEncodingName(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
               c == ':';
    });
}

void readMissingTokens(Reader& r, std::vector<std::string>& tokens) {
    if (!r.has("missing_tokens")) return;
    const json& v = r.raw("missing_tokens");
    if (!v.is_array() ||
        !std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_string(); }))
        return r.fail("'missing_tokens' must be a list of texts (cells equal to one are missing)");
    tokens = v.get<std::vector<std::string>>();
}

// The CSV characters as data.read spells them ("auto" or one character), checked together:
// the parser cannot tell cells apart when two of them are the same character.
void setCsvCharacters(Reader& r, const std::string& delimiter, const std::string& quote,
                      const std::string& decimal, const std::string& thousands,
                      data::CsvOptions& csv) {
    if (delimiter == "auto")
        csv.delimiter = 0;
    else if (auto c = oneCharacter(delimiter))
        csv.delimiter = *c;
    else
        return r.fail(
            "'delimiter' must be \"auto\" or one character (such as \",\", \";\", \"\\t\" or "
            "\"|\")");
    if (auto c = oneCharacter(quote))
        csv.quote = *c;
    else
        return r.fail("'quote' must be one character (such as \"\\\"\" or \"'\")");
    if (csv.delimiter == csv.quote) return r.fail("'delimiter' and 'quote' must differ");
    if (!oneOf(decimal, {"auto", ".", ","}))
        return r.fail("'decimal' must be \"auto\", \".\" or \",\"");
    csv.decimal = decimal == "auto" ? 0 : decimal[0];
    if (csv.decimal != 0 && csv.decimal == csv.delimiter)
        return r.fail("'decimal' and 'delimiter' are both '" + decimal + "'");
    // The delimiter may be the thousands separator ("1,234.5" quoted in a comma file).
    if (thousands != "none" && !oneOf(thousands, {",", ".", " ", "'"}))
        return r.fail(
            "'thousands' must be \"none\" or the separator of digit groups: \",\", \".\", "
            "\" \" (space) or \"'\"");
    csv.thousands = thousands == "none" ? 0 : thousands[0];
    if (csv.thousands != 0 && csv.thousands == csv.decimal)
        return r.fail("'thousands' and 'decimal' are both '" + thousands + "'; they must differ");
    if (csv.thousands != 0 && csv.thousands == csv.quote)
        return r.fail("'thousands' and 'quote' are both \"" + thousands + "\"");
}

// "auto" (or empty) leaves the choice to the file's own declaration.
void setStatEncoding(Reader& r, const std::string& name, data::StatOptions& stat) {
    if (name == "auto" || name.empty())
        stat.encoding.clear();
    else if (looksLikeEncodingName(name))
        stat.encoding = name;
    else
        r.fail(
            "'stat_encoding' must be \"auto\" (what the file declares) or an encoding name "
            "such as WINDOWS-1252 or CP850");
}

void readDataRead(const json& j, RunConfig::Data::Read& read, std::string& error) {
    Reader r(j, "data.read", error);
    auto& csv = read.csv;
    std::string delimiter = charSetting(csv.delimiter), quote(1, csv.quote),
                decimal = charSetting(csv.decimal), thousands = thousandsSetting(csv.thousands),
                statEncoding = "auto";
    r.get("delimiter", delimiter);
    r.get("quote", quote);
    r.get("decimal", decimal);
    r.get("thousands", thousands);
    r.get("header", csv.header);
    r.get("encoding", csv.encoding);
    readMissingTokens(r, csv.missingTokens);
    r.get("stat_encoding", statEncoding);
    if (!error.empty()) return;
    setCsvCharacters(r, delimiter, quote, decimal, thousands, csv);
    if (error.empty() && !data::isCsvEncoding(csv.encoding))
        r.fail("'encoding' must be auto, utf-8 or windows-1252 (also spelt latin-1)");
    if (error.empty()) setStatEncoding(r, statEncoding, read.stat);
}

json dataReadJson(const RunConfig::Data::Read& read) {
    const auto& csv = read.csv;
    return {{"delimiter", charSetting(csv.delimiter)},
            {"quote", std::string(1, csv.quote)},
            {"decimal", charSetting(csv.decimal)},
            {"thousands", thousandsSetting(csv.thousands)},
            {"header", csv.header},
            {"encoding", csv.encoding},
            {"missing_tokens", csv.missingTokens},
            {"stat_encoding", read.stat.encoding.empty() ? "auto" : read.stat.encoding}};
}

// "targets": several sensitive variables; the first is also data.target (what code for one
// sensitive variable reads). One listed is the same as "target". Both keys: refused.
void readTargets(Reader& d, RunConfig::Data& data) {
    if (!d.has("targets")) return;
    if (d.has("target")) return d.fail(std::string(kTargetAndTargets));
    d.get("targets", data.targets);
    if (data.targets.empty()) return;
    data.target = data.targets.front();
    if (data.targets.size() == 1) data.targets.clear();
}

void readModelOverrides(const json& j, RunConfig& c, std::string& error) {
    if (!j.is_object()) {
        error = "models: must be an object mapping sensitive variables to their model settings";
        return;
    }
    for (const auto& [name, value] : j.items()) {
        RunConfig::ModelOverride o;
        Reader m(value, "models." + name, error);
        auto optional = [&m](const std::string& key, auto& out) {
            if (!m.has(key)) return;
            std::remove_reference_t<decltype(*out)> v{};
            m.get(key, v);
            out = v;
        };
        optional("family", o.family);
        optional("K", o.K);
        m.get("priors", o.priors);
        optional("tau", o.tau);
        optional("transform", o.transform);
        if (!error.empty()) return;
        c.models[name] = std::move(o);
    }
}

json modelOverridesJson(const std::map<std::string, RunConfig::ModelOverride>& models) {
    json out = json::object();
    for (const auto& [name, o] : models) {
        json m = json::object();
        if (o.family) m["family"] = *o.family;
        if (o.K) m["K"] = *o.K;
        if (!o.priors.empty()) m["priors"] = o.priors;
        if (o.tau) m["tau"] = *o.tau;
        if (o.transform) m["transform"] = *o.transform;
        out[name] = std::move(m);
    }
    return out;
}

}  // namespace

void readRunSections(Reader& top, RunConfig& c, std::string& error) {
    if (!top.has("data")) top.fail("needs a 'data' section");
    if (!error.empty()) return;
    {
        Reader d(top.raw("data"), "data", error);
        d.get("path", c.data.path);
        d.get("target", c.data.target);
        readTargets(d, c.data);
        d.get("predictors", c.data.predictors);
        d.get("known", c.data.known);
        d.get("transform", c.data.transform);
        d.get("missing", c.data.missing);
        d.get("reference_levels", c.data.referenceLevels);
        d.get("types", c.data.types);
        d.get("max_levels", c.data.maxLevels);
        if (d.has("read") && error.empty()) readDataRead(d.raw("read"), c.data.read, error);
    }
    if (top.has("model") && error.empty()) {
        Reader m(top.raw("model"), "model", error);
        m.get("family", c.model.family);
        m.get("K", c.model.K);
        m.get("priors", c.model.priors);
        m.get("tau", c.model.tau);
    }
    if (top.has("models") && error.empty()) readModelOverrides(top.raw("models"), c, error);
    bool drawsGiven = false;
    if (top.has("mcmc") && error.empty()) {
        Reader m(top.raw("mcmc"), "mcmc", error);
        drawsGiven = m.has("draws");
        m.get("chains", c.mcmc.chains);
        m.get("warmup", c.mcmc.warmup);
        if (m.has("draws") && m.raw("draws").is_string()) {
            std::string draws;
            m.get("draws", draws);
            if (draws != "auto")
                m.fail("'draws' must be a whole number or \"auto\" (run until converged)");
            c.mcmc.drawsAuto = true;
        } else if (m.has("draws")) {
            m.get("draws", c.mcmc.draws);
            c.mcmc.drawsAuto = false;
        }
        if (m.has("block_draws")) {
            m.get("block_draws", c.mcmc.draws);
            if (error.empty() && !c.mcmc.drawsAuto)
                m.fail(
                    "'block_draws' goes with \"draws\": \"auto\"; give the draws per chain "
                    "as 'draws' instead");
        }
        m.get("budget_seconds", c.mcmc.budgetSeconds);
        if (error.empty() && !(c.mcmc.budgetSeconds > 0))
            m.fail("'budget_seconds' must be a positive number of seconds");
        if (m.has("tempering") && error.empty()) {
            Reader t(m.raw("tempering"), "mcmc.tempering", error);
            t.get("replicas", c.mcmc.replicas);
            t.get("hottest", c.mcmc.hottest);
            t.get("target_swap", c.mcmc.targetSwap);
            if (error.empty() && c.mcmc.replicas < 1)
                t.fail("'replicas' must be at least 1 (1: no tempering)");
            if (error.empty() && !(c.mcmc.hottest > 0 && c.mcmc.hottest < 1))
                t.fail("'hottest' (the smallest likelihood power) must be in (0, 1)");
            if (error.empty() && !(c.mcmc.targetSwap > 0 && c.mcmc.targetSwap < 1))
                t.fail("'target_swap' must be in (0, 1)");
        }
        m.get("seed", c.mcmc.seed);
        m.get("threads", c.mcmc.threads);
        m.get("max_treedepth", c.mcmc.maxTreeDepth);
        m.get("adapt_delta", c.mcmc.adaptDelta);
        m.get("refit_warmup", c.mcmc.refitWarmup);
        m.get("sampler", c.mcmc.sampler);
        m.get("thin", c.mcmc.thin);
    }
    // The mixture runs until converged unless the configuration sets its draws.
    if (!drawsGiven && anyMixture(c)) c.mcmc.drawsAuto = true;
    if (top.has("synthesis") && error.empty()) {
        Reader s(top.raw("synthesis"), "synthesis", error);
        s.get("m", c.synthesis.m);
    }
    if (top.has("risk") && error.empty()) {
        Reader r(top.raw("risk"), "risk", error);
        std::string mode = "percentage";
        r.get("radius", c.risk.radius);
        r.get("radius_mode", mode);
        r.get("L", c.risk.L);
        r.get("threshold", c.risk.threshold);
        r.get("whack_a_mole_rise", c.risk.whackAMoleRise);
        r.get("radii", c.risk.radii);
        if (error.empty() && !oneOf(mode, {"percentage", "absolute"}))
            r.fail("'radius_mode' must be \"percentage\" or \"absolute\"");
        c.risk.percentage = mode == "percentage";
    }
    if (top.has("lipschitz") && error.empty()) {
        Reader l(top.raw("lipschitz"), "lipschitz", error);
        l.get("quantile", c.lipschitz.quantile);
    }
    if (top.has("utility") && error.empty()) {
        Reader u(top.raw("utility"), "utility", error);
        u.get("enabled", c.utility.enabled);
        if (u.has("quantiles")) {
            const json& q = u.raw("quantiles");
            if (!q.is_array() ||
                !std::all_of(q.begin(), q.end(), [](const json& e) { return e.is_number(); }))
                u.fail("'quantiles' must be a list of probabilities");
            else
                c.utility.quantiles = q.get<std::vector<double>>();
        }
        u.get("bootstrap", c.utility.bootstrap);
        if (u.has("regress")) {
            std::vector<std::string> regress;
            u.get("regress", regress);
            c.utility.regress = regress;
        }
        u.get("pmse", c.utility.pmse);
        u.get("level", c.utility.level);
        u.get("grid_points", c.utility.gridPoints);
    }
}

void resolveDataPath(RunConfig& c, const std::string& baseDir) {
    if (!c.data.path.empty() && !baseDir.empty() &&
        std::filesystem::path(c.data.path).is_relative())
        c.data.path = (std::filesystem::path(baseDir) / c.data.path).lexically_normal().string();
}

Expected<RunConfig::Data::Read> parseDataRead(const std::string& jsonObject) {
    json j;
    if (auto e = detail::parseConfigJson(jsonObject, j, "data.read"); !e.empty())
        return Error{j.is_discarded() ? "data.read: not valid JSON" : e};
    RunConfig::Data::Read read;
    std::string error;
    readDataRead(j, read, error);
    if (!error.empty()) return Error{error};
    return read;
}

Expected<RunConfig> parseRunConfig(const std::string& text, const std::string& baseDir) {
    json root;
    if (auto e = detail::parseConfigJson(text, root); !e.empty()) return Error{e};
    RunConfig c;
    std::string error;
    {
        Reader top(root, "configuration", error);
        if (top.has("data") && !top.has("synthesizers")) top.fail("needs a 'synthesizers' list");
        if (!error.empty()) return Error{error};
        readRunSections(top, c, error);
        if (!error.empty()) return Error{error};
        const json& list = top.raw("synthesizers");
        if (!list.is_array()) return Error{"'synthesizers' must be a non-empty list"};
        for (std::size_t i = 0; i < list.size() && error.empty(); ++i) {
            SynthesizerConfig s;
            readSynthesizer(list[i], i, s, error);
            c.synthesizers.push_back(std::move(s));
        }
    }
    if (!error.empty()) return Error{error};
    // Parsed: now what the settings mean, by the rules every configuration meets.
    if (Status s = validate(c); !s) return s.error();
    resolveDataPath(c, baseDir);
    return c;
}

Expected<RunConfig> loadRunConfig(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error::io("cannot open the configuration '" + path + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    auto c = parseRunConfig(ss.str(), std::filesystem::path(path).parent_path().string());
    if (!c) return c.error().prefixed("'" + path + "': ");
    return c;
}

std::vector<std::size_t> executionOrder(const RunConfig& config) {
    const auto& s = config.synthesizers;
    std::vector<std::size_t> order;
    std::vector<int> state(s.size(), 0);  // 0 new, 1 visiting, 2 done
    std::function<bool(std::size_t)> visit = [&](std::size_t i) {
        if (state[i] == 2) return true;
        if (state[i] == 1) return false;
        state[i] = 1;
        const std::string& ref = s[i].scheme == Scheme::Scalar     ? s[i].match
                                 : s[i].scheme == Scheme::Reweight ? s[i].base
                                                                   : std::string();
        if (!ref.empty())
            for (std::size_t j = 0; j < s.size(); ++j)
                if (s[j].name == ref && !visit(j)) return false;
        state[i] = 2;
        order.push_back(i);
        return true;
    };
    for (std::size_t i = 0; i < s.size(); ++i)
        if (!visit(i)) return {};
    return order;
}

std::string toJson(const RunConfig& c) {
    json j;
    j["data"] = {{"path", c.data.path},
                 {"target", c.data.target},
                 {"predictors", c.data.predictors},
                 {"known", c.data.known},
                 {"transform", c.data.transform},
                 {"missing", c.data.missing},
                 {"reference_levels", c.data.referenceLevels},
                 {"types", c.data.types},
                 {"max_levels", c.data.maxLevels},
                 {"read", dataReadJson(c.data.read)}};
    // Several sensitive variables: "targets" in place of "target" (and both when a
    // configuration made in code disagrees, so the parser refuses it as validate does).
    if (!c.data.targets.empty()) {
        if (c.data.target == c.data.targets.front()) j["data"].erase("target");
        j["data"]["targets"] = c.data.targets;
    }
    j["model"] = {{"family", c.model.family},
                  {"K", c.model.K},
                  {"priors", c.model.priors},
                  {"tau", c.model.tau}};
    if (!c.models.empty()) j["models"] = modelOverridesJson(c.models);
    j["mcmc"] = {{"chains", c.mcmc.chains},
                 {"warmup", c.mcmc.warmup},
                 {"draws", c.mcmc.draws},
                 {"seed", c.mcmc.seed},
                 {"threads", c.mcmc.threads},
                 {"max_treedepth", c.mcmc.maxTreeDepth},
                 {"adapt_delta", c.mcmc.adaptDelta},
                 {"refit_warmup", c.mcmc.refitWarmup},
                 {"sampler", c.mcmc.sampler},
                 {"thin", c.mcmc.thin},
                 {"budget_seconds", c.mcmc.budgetSeconds},
                 {"tempering",
                  {{"replicas", c.mcmc.replicas},
                   {"hottest", c.mcmc.hottest},
                   {"target_swap", c.mcmc.targetSwap}}}};
    if (c.mcmc.drawsAuto) {
        j["mcmc"]["draws"] = "auto";
        j["mcmc"]["block_draws"] = c.mcmc.draws;
    }
    j["synthesis"] = {{"m", c.synthesis.m}};
    j["risk"] = {{"radius", c.risk.radius},
                 {"radius_mode", c.risk.percentage ? "percentage" : "absolute"},
                 {"L", c.risk.L},
                 {"threshold", c.risk.threshold},
                 {"whack_a_mole_rise", c.risk.whackAMoleRise}};
    if (!c.risk.radii.empty()) j["risk"]["radii"] = c.risk.radii;
    j["lipschitz"] = {{"quantile", c.lipschitz.quantile}};
    j["utility"] = {{"enabled", c.utility.enabled},     {"quantiles", c.utility.quantiles},
                    {"bootstrap", c.utility.bootstrap}, {"pmse", c.utility.pmse},
                    {"level", c.utility.level},         {"grid_points", c.utility.gridPoints}};
    if (c.utility.regress) j["utility"]["regress"] = *c.utility.regress;
    j["synthesizers"] = json::array();
    for (const auto& s : c.synthesizers) {
        json o = {
            {"name", s.name}, {"scheme", std::string(toString(s.scheme))}, {"c", s.c}, {"g", s.g}};
        if (s.M) o["M"] = *s.M;
        if (s.scheme == Scheme::Marginal || s.scheme == Scheme::Pairwise ||
            s.scheme == Scheme::Sigmoid)
            o["source"] = s.source;
        if (!s.match.empty()) o["match"] = s.match;
        if (s.epsilon) o["epsilon"] = *s.epsilon;
        if (!s.base.empty()) o["base"] = s.base;
        if (s.scheme == Scheme::Reweight) o["k"] = s.k ? json(*s.k) : json("auto");
        if (s.scheme == Scheme::Scalar || s.scheme == Scheme::Reweight)
            o["tolerance"] = s.tolerance;
        const Scheme shape = s.scheme == Scheme::Scaled && s.of ? *s.of : s.scheme;
        if (s.of) o["of"] = std::string(toString(*s.of));
        if (s.targetEpsilon) o["target_epsilon"] = *s.targetEpsilon;
        if (s.scale) o["scale"] = *s.scale;
        if (s.scheme == Scheme::Scaled) {
            o["tolerance"] = s.tolerance;
            if (shape == Scheme::Marginal || shape == Scheme::Pairwise || shape == Scheme::Sigmoid)
                o["source"] = s.source;
        }
        if (shape == Scheme::Sigmoid) o["a"] = s.sigmoidA;
        if (s.scheme == Scheme::TopCode) o["q"] = s.topcodeQ;
        j["synthesizers"].push_back(std::move(o));
    }
    return j.dump(2);
}

}  // namespace ppsynth::study
