#include "ppsynth/study/utility_json.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace ppsynth::study {

using nlohmann::ordered_json;

namespace {

ordered_json num(double v) {
    return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr);
}

ordered_json nums(const std::vector<double>& v) {
    ordered_json a = ordered_json::array();
    for (double x : v) a.push_back(num(x));
    return a;
}

ordered_json interval(const EstimateInterval& e) {
    return {{"estimate", num(e.estimate)}, {"lower", num(e.lower)}, {"upper", num(e.upper)}};
}

ordered_json parameter(const ParameterSummary& p) {
    return {{"mean", num(p.mean)},
            {"sd", num(p.sd)},
            {"q05", num(p.q05)},
            {"median", num(p.median)},
            {"q95", num(p.q95)}};
}

std::string kindName(utility::StatisticKind k) {
    switch (k) {
        case utility::StatisticKind::Mean:
            return "mean";
        case utility::StatisticKind::Median:
            return "median";
        case utility::StatisticKind::Quantile:
            return "quantile";
    }
    return "mean";
}

// Reading: each accessor throws a message naming the key; utilityReportFromJson catches it.
struct ReadError {
    std::string message;
};

double readNum(const ordered_json& j, const char* key, const std::string& path) {
    if (!j.contains(key)) throw ReadError{path + ": missing '" + key + "'"};
    const auto& v = j.at(key);
    if (v.is_null()) return kUndefined;
    if (!v.is_number()) throw ReadError{path + "." + key + " must be a number or null"};
    return v.get<double>();
}

double readNumOr(const ordered_json& j, const char* key, const std::string& path, double fallback) {
    return j.contains(key) ? readNum(j, key, path) : fallback;
}

std::vector<double> readNums(const ordered_json& j, const char* key, const std::string& path) {
    std::vector<double> out;
    if (!j.contains(key)) return out;
    const auto& a = j.at(key);
    if (!a.is_array()) throw ReadError{path + "." + key + " must be a list"};
    for (const auto& v : a) {
        if (v.is_null())
            out.push_back(kUndefined);
        else if (v.is_number())
            out.push_back(v.get<double>());
        else
            throw ReadError{path + "." + key + " must hold numbers"};
    }
    return out;
}

std::string readString(const ordered_json& j, const char* key, const std::string& path) {
    if (!j.contains(key)) return {};
    if (!j.at(key).is_string()) throw ReadError{path + "." + key + " must be a string"};
    return j.at(key).get<std::string>();
}

std::vector<std::string> readStrings(const ordered_json& j, const char* key,
                                     const std::string& path) {
    std::vector<std::string> out;
    if (!j.contains(key)) return out;
    if (!j.at(key).is_array()) throw ReadError{path + "." + key + " must be a list"};
    for (const auto& v : j.at(key)) {
        if (!v.is_string()) throw ReadError{path + "." + key + " must hold strings"};
        out.push_back(v.get<std::string>());
    }
    return out;
}

const ordered_json& object(const ordered_json& j, const char* key, const std::string& path) {
    if (!j.contains(key) || !j.at(key).is_object())
        throw ReadError{path + ": '" + key + "' must be an object"};
    return j.at(key);
}

const ordered_json& list(const ordered_json& j, const char* key, const std::string& path) {
    static const ordered_json empty = ordered_json::array();
    if (!j.contains(key)) return empty;
    if (!j.at(key).is_array()) throw ReadError{path + ": '" + key + "' must be a list"};
    return j.at(key);
}

EstimateInterval readInterval(const ordered_json& j, const char* key, const std::string& path) {
    const auto& o = object(j, key, path);
    const std::string p = path + "." + key;
    return {readNum(o, "estimate", p), readNum(o, "lower", p), readNum(o, "upper", p)};
}

ParameterSummary readParameter(const ordered_json& j, const char* key, const std::string& path,
                               const std::string& name) {
    const auto& o = object(j, key, path);
    const std::string p = path + "." + key;
    ParameterSummary s;
    s.name = name;
    s.mean = readNum(o, "mean", p);
    s.sd = readNum(o, "sd", p);
    s.q05 = readNum(o, "q05", p);
    s.median = readNum(o, "median", p);
    s.q95 = readNum(o, "q95", p);
    return s;
}

utility::Statistic readStatistic(const ordered_json& j, const std::string& path) {
    const std::string kind = readString(j, "kind", path);
    if (kind == "mean") return utility::Statistic::mean();
    if (kind == "median") return utility::Statistic::median();
    if (kind == "quantile") return utility::Statistic::quantile(readNum(j, "probability", path));
    throw ReadError{path + ".kind must be mean, median or quantile"};
}

ordered_json termJson(const RegressionTerm& t) {
    return {{"term", t.term},
            {"original", interval(t.original)},
            {"synthetic", interval(t.synthetic)},
            {"ci_overlap", num(t.ciOverlap)},
            {"df", num(t.df)},
            {"b", num(t.b)},
            {"ubar", num(t.ubar)}};
}

ordered_json pmseJson(const PmseReport& p) {
    return {{"computed", p.computed},
            {"pmse", num(p.pmse)},
            {"s_pmse", num(p.sPmse)},
            {"s_pmse_reference", num(p.sPmseReference)},
            {"s_pmse_reference_note", p.referenceNote},
            {"k", p.k},
            {"c", num(p.c)},
            {"N", p.N},
            {"per_dataset_pmse", nums(p.perDatasetPmse)},
            {"per_dataset_s_pmse", nums(p.perDatasetSPmse)},
            {"warnings", p.warnings}};
}

ordered_json jointJson(const JointUtility& u) {
    ordered_json j;
    j["targets"] = u.targets;
    j["pmse"] = pmseJson(u.pmse);
    ordered_json regs = ordered_json::array();
    for (const auto& r : u.regressions) {
        ordered_json terms = ordered_json::array();
        for (const auto& t : r.terms) terms.push_back(termJson(t));
        regs.push_back({{"target", r.target},
                        {"terms", std::move(terms)},
                        {"mean_overlap", num(r.meanOverlap)},
                        {"warning", r.warning}});
    }
    j["regressions"] = std::move(regs);
    const auto& c = u.correlation;
    ordered_json pairs = ordered_json::array();
    for (const auto& p : c.pairs)
        pairs.push_back({{"a", p.a},
                         {"b", p.b},
                         {"original", num(p.original)},
                         {"synthetic", num(p.synthetic)},
                         {"difference", num(p.difference)},
                         {"mean_abs_difference", num(p.meanAbsDifference)},
                         {"per_dataset", nums(p.perDataset)}});
    j["correlation"] = {{"computed", u.correlationComputed},
                        {"norm", "frobenius"},
                        {"frobenius", num(u.correlationComputed ? c.frobenius : kUndefined)},
                        {"per_dataset_frobenius", nums(c.perDatasetFrobenius)},
                        {"max_abs", num(u.correlationComputed ? c.maxAbs : kUndefined)},
                        {"pairs", std::move(pairs)}};
    j["warnings"] = u.warnings;
    j["seconds"] = u.seconds;
    return j;
}

ordered_json reportJson(const UtilityReport& r) {
    ordered_json j;
    j["target"] = r.target;
    j["records"] = r.records;
    j["datasets"] = r.datasets;
    j["fully_synthetic"] = r.fullySynthetic;
    j["level"] = r.level;
    j["bootstrap"] = r.bootstrap;
    j["grid"] = nums(r.grid);
    ordered_json stats = ordered_json::array();
    for (const auto& s : r.statistics) {
        ordered_json o = {{"name", s.name}, {"kind", kindName(s.statistic.kind)}};
        if (s.statistic.kind == utility::StatisticKind::Quantile)
            o["probability"] = s.statistic.probability;
        o["original"] = interval(s.original);
        o["original"]["se"] = num(s.originalSe);
        o["synthetic"] = interval(s.synthetic);
        o["synthetic"]["se"] = num(s.syntheticSe);
        o["ci_overlap"] = num(s.ciOverlap);
        o["per_dataset"] = nums(s.perDataset);
        o["original_quantiles"] = nums(s.originalQuantiles);
        o["synthetic_quantiles"] = nums(s.syntheticQuantiles);
        stats.push_back(std::move(o));
    }
    j["statistics"] = std::move(stats);
    ordered_json reg = ordered_json::array();
    for (const auto& t : r.regression) reg.push_back(termJson(t));
    j["regression"] = std::move(reg);
    j["regression_mean_overlap"] = num(r.regressionMeanOverlap);
    ordered_json perEcdf = ordered_json::array();
    for (const auto& d : r.ecdf.perDataset)
        perEcdf.push_back({{"U_m", num(d.maxAbs)}, {"U_a", num(d.meanSquare)}});
    j["ecdf"] = {{"U_m", num(r.ecdf.Um)}, {"U_a", num(r.ecdf.Ua)}, {"per_dataset", perEcdf}};
    j["pmse"] = pmseJson(r.pmse);
    ordered_json params = ordered_json::array();
    for (const auto& c : r.parameters)
        params.push_back({{"name", c.name},
                          {"weighted", parameter(c.weighted)},
                          {"unweighted", parameter(c.unweighted)},
                          {"width_ratio", num(c.widthRatio)}});
    j["parameters"] = std::move(params);
    j["warnings"] = r.warnings;
    j["seconds"] = {{"bootstrap", r.seconds.bootstrap},
                    {"regression", r.seconds.regression},
                    {"ecdf", r.seconds.ecdf},
                    {"pmse", r.seconds.pmse},
                    {"total", r.seconds.total}};
    // Several sensitive variables only, so a one-variable report is written as before.
    if (!r.variables.empty()) {
        ordered_json vars = ordered_json::array();
        for (const auto& v : r.variables) vars.push_back(reportJson(v));
        j["variables"] = std::move(vars);
    }
    if (r.joint) j["joint"] = jointJson(*r.joint);
    return j;
}

}  // namespace

std::string toJson(const UtilityReport& r, int indent) {
    return reportJson(r).dump(indent);
}

namespace {

RegressionTerm readTerm(const ordered_json& o, const std::string& p) {
    RegressionTerm t;
    t.term = readString(o, "term", p);
    t.original = readInterval(o, "original", p);
    t.synthetic = readInterval(o, "synthetic", p);
    t.ciOverlap = readNum(o, "ci_overlap", p);
    t.df = readNumOr(o, "df", p, kUndefined);
    t.b = readNumOr(o, "b", p, kUndefined);
    t.ubar = readNumOr(o, "ubar", p, kUndefined);
    return t;
}

PmseReport readPmse(const ordered_json& pm, const std::string& pp) {
    PmseReport r;
    r.computed = pm.contains("computed")
                     ? pm.at("computed").is_boolean() && pm.at("computed").get<bool>()
                     : std::isfinite(readNum(pm, "pmse", pp));
    r.pmse = readNum(pm, "pmse", pp);
    r.sPmse = readNum(pm, "s_pmse", pp);
    r.sPmseReference = readNumOr(pm, "s_pmse_reference", pp, kUndefined);
    r.referenceNote = readString(pm, "s_pmse_reference_note", pp);
    r.k = static_cast<int>(readNumOr(pm, "k", pp, 0));
    r.c = readNumOr(pm, "c", pp, kUndefined);
    r.N = static_cast<std::size_t>(readNumOr(pm, "N", pp, 0));
    r.perDatasetPmse = readNums(pm, "per_dataset_pmse", pp);
    r.perDatasetSPmse = readNums(pm, "per_dataset_s_pmse", pp);
    r.warnings = readStrings(pm, "warnings", pp);
    return r;
}

JointUtility readJoint(const ordered_json& j, const std::string& u) {
    JointUtility r;
    r.targets = readStrings(j, "targets", u);
    r.pmse = readPmse(object(j, "pmse", u), u + ".pmse");
    const auto& regs = list(j, "regressions", u);
    for (std::size_t i = 0; i < regs.size(); ++i) {
        const std::string p = u + ".regressions[" + std::to_string(i) + "]";
        JointRegression g;
        g.target = readString(regs[i], "target", p);
        const auto& terms = list(regs[i], "terms", p);
        for (std::size_t t = 0; t < terms.size(); ++t)
            g.terms.push_back(readTerm(terms[t], p + ".terms[" + std::to_string(t) + "]"));
        g.meanOverlap = readNumOr(regs[i], "mean_overlap", p, kUndefined);
        g.warning = readString(regs[i], "warning", p);
        r.regressions.push_back(std::move(g));
    }
    const auto& c = object(j, "correlation", u);
    const std::string cp = u + ".correlation";
    r.correlationComputed =
        c.contains("computed") && c.at("computed").is_boolean() && c.at("computed").get<bool>();
    r.correlation.frobenius = readNumOr(c, "frobenius", cp, kUndefined);
    r.correlation.perDatasetFrobenius = readNums(c, "per_dataset_frobenius", cp);
    r.correlation.maxAbs = readNumOr(c, "max_abs", cp, kUndefined);
    const auto& pairs = list(c, "pairs", cp);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const std::string p = cp + ".pairs[" + std::to_string(i) + "]";
        utility::CorrelationPair q;
        q.a = readString(pairs[i], "a", p);
        q.b = readString(pairs[i], "b", p);
        q.original = readNum(pairs[i], "original", p);
        q.synthetic = readNum(pairs[i], "synthetic", p);
        q.difference = readNum(pairs[i], "difference", p);
        q.meanAbsDifference = readNumOr(pairs[i], "mean_abs_difference", p, kUndefined);
        q.perDataset = readNums(pairs[i], "per_dataset", p);
        r.correlation.pairs.push_back(std::move(q));
    }
    r.warnings = readStrings(j, "warnings", u);
    r.seconds = readNumOr(j, "seconds", u, 0);
    return r;
}

UtilityReport readReport(const ordered_json& j, const std::string& u) {
    UtilityReport r;
    r.target = readString(j, "target", u);
    r.records = static_cast<std::size_t>(readNumOr(j, "records", u, 0));
    r.datasets = static_cast<std::size_t>(readNumOr(j, "datasets", u, 0));
    r.fullySynthetic = j.contains("fully_synthetic") && j.at("fully_synthetic").is_boolean() &&
                       j.at("fully_synthetic").get<bool>();
    r.level = readNumOr(j, "level", u, 0.95);
    r.bootstrap = static_cast<int>(readNumOr(j, "bootstrap", u, 0));
    r.grid = readNums(j, "grid", u);
    const auto& stats = list(j, "statistics", u);
    for (std::size_t i = 0; i < stats.size(); ++i) {
        const std::string p = u + ".statistics[" + std::to_string(i) + "]";
        const auto& o = stats[i];
        StatisticUtility s;
        s.statistic = readStatistic(o, p);
        s.name = readString(o, "name", p);
        s.original = readInterval(o, "original", p);
        s.originalSe = readNumOr(object(o, "original", p), "se", p, kUndefined);
        s.synthetic = readInterval(o, "synthetic", p);
        s.syntheticSe = readNumOr(object(o, "synthetic", p), "se", p, kUndefined);
        s.ciOverlap = readNum(o, "ci_overlap", p);
        s.perDataset = readNums(o, "per_dataset", p);
        s.originalQuantiles = readNums(o, "original_quantiles", p);
        s.syntheticQuantiles = readNums(o, "synthetic_quantiles", p);
        r.statistics.push_back(std::move(s));
    }
    const auto& reg = list(j, "regression", u);
    for (std::size_t i = 0; i < reg.size(); ++i) {
        const std::string p = u + ".regression[" + std::to_string(i) + "]";
        const auto& o = reg[i];
        r.regression.push_back(readTerm(o, p));
    }
    r.regressionMeanOverlap = readNumOr(j, "regression_mean_overlap", u, kUndefined);
    const auto& e = object(j, "ecdf", u);
    r.ecdf.Um = readNum(e, "U_m", u + ".ecdf");
    r.ecdf.Ua = readNum(e, "U_a", u + ".ecdf");
    const auto& pe = list(e, "per_dataset", u + ".ecdf");
    for (std::size_t i = 0; i < pe.size(); ++i) {
        const std::string p = u + ".ecdf.per_dataset[" + std::to_string(i) + "]";
        r.ecdf.perDataset.push_back({readNum(pe[i], "U_m", p), readNum(pe[i], "U_a", p)});
    }
    r.pmse = readPmse(object(j, "pmse", u), u + ".pmse");
    const auto& params = list(j, "parameters", u);
    for (std::size_t i = 0; i < params.size(); ++i) {
        const std::string p = u + ".parameters[" + std::to_string(i) + "]";
        ParameterComparison c;
        c.name = readString(params[i], "name", p);
        c.weighted = readParameter(params[i], "weighted", p, c.name);
        c.unweighted = readParameter(params[i], "unweighted", p, c.name);
        c.widthRatio = readNum(params[i], "width_ratio", p);
        r.parameters.push_back(std::move(c));
    }
    r.warnings = readStrings(j, "warnings", u);
    if (j.contains("seconds") && j.at("seconds").is_object()) {
        const auto& s = j.at("seconds");
        const std::string p = u + ".seconds";
        r.seconds = {readNumOr(s, "bootstrap", p, 0), readNumOr(s, "regression", p, 0),
                     readNumOr(s, "ecdf", p, 0), readNumOr(s, "pmse", p, 0),
                     readNumOr(s, "total", p, 0)};
    }
    const auto& vars = list(j, "variables", u);
    for (std::size_t i = 0; i < vars.size(); ++i) {
        const std::string p = u + ".variables[" + std::to_string(i) + "]";
        if (!vars[i].is_object()) throw ReadError{p + " must be an object"};
        r.variables.push_back(readReport(vars[i], p));
    }
    if (j.contains("joint")) {
        if (!j.at("joint").is_object()) throw ReadError{u + ": 'joint' must be an object"};
        r.joint = readJoint(j.at("joint"), u + ".joint");
    }
    return r;
}

}  // namespace

Expected<UtilityReport> utilityReportFromJson(const std::string& text) {
    const ordered_json j = ordered_json::parse(text, nullptr, false);
    if (j.is_discarded()) return Error{"the utility report is not valid JSON"};
    if (!j.is_object()) return Error{"the utility report must be a JSON object"};
    const std::string u = "utility";
    if (j.contains("error") && j.at("error").is_string())
        return Error{"the utility measures failed in this run: " +
                     j.at("error").get<std::string>()};
    try {
        return readReport(j, u);
    } catch (const ReadError& e) {
        return Error{e.message};
    } catch (const nlohmann::json::exception& e) {
        return Error{std::string("the utility report is malformed: ") + e.what()};
    }
}

}  // namespace ppsynth::study
