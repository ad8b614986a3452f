#include "ppsynth/study/sweep.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/utility_json.hpp"
#include "study/block_run.hpp"
#include "study/csv_text.hpp"
#include "study/json_reader.hpp"
#include "study/resumable_folder.hpp"
#include "study/run_config_sections.hpp"

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
}

json kJson(const SweepPoint& p) {
    return p.kAuto ? json("auto") : p.k ? json(*p.k) : json(nullptr);
}

json pointJson(const SweepPoint& p) {
    json j = {{"c", p.c}, {"g", p.g}};
    if (p.M) j["M"] = *p.M;
    if (p.k || p.kAuto) j["k"] = kJson(p);
    if (p.r) j["r"] = *p.r;
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
    return p;
}

}  // namespace

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
            if (error.empty()) checkPoint(s, defaults);
            if (error.empty() && !(c.tolerance > 0 && c.tolerance < 1))
                s.fail("'tolerance' must be in (0, 1)");
            if (error.empty() && c.threads < 1) s.fail("'threads' must be at least 1");
            if (s.has("points") && error.empty()) {
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
                    readK(p, point.k, point.kAuto);
                    if (error.empty()) checkPoint(p, point);
                    c.points.push_back(point);
                }
            } else {
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
    resolveDataPath(c.run, baseDir);
    return c;
}

Expected<SweepConfig> loadSweepConfig(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"cannot open the configuration '" + path + "'"};
    std::ostringstream ss;
    ss << in.rdbuf();
    auto c = parseSweepConfig(ss.str(), std::filesystem::path(path).parent_path().string());
    if (!c) return Error{"'" + path + "': " + c.message()};
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

namespace {

json finiteOrNull(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

const StatisticUtility* findStatistic(const UtilityReport& u, const utility::Statistic& s) {
    for (const auto& x : u.statistics)
        if (x.statistic == s) return &x;
    return nullptr;
}

double relativeError(const StatisticUtility& s) {
    return std::abs(s.synthetic.estimate - s.original.estimate) / std::abs(s.original.estimate);
}

// The row's utility columns from its report.
void readUtilityColumns(SweepRow& r) {
    if (!r.utility) return;
    const UtilityReport& u = *r.utility;
    if (const auto* q = findStatistic(u, utility::Statistic::quantile(0.9))) {
        r.q90CiOverlap = q->ciOverlap;
        r.q90RelError = relativeError(*q);
    }
    if (const auto* m = findStatistic(u, utility::Statistic::mean())) {
        r.meanCiOverlap = m->ciOverlap;
        r.meanRelError = relativeError(*m);
    }
    r.Um = u.ecdf.Um;
    r.pmse = u.pmse.pmse;
    r.sPmse = u.pmse.sPmse;
}

json rowJson(const SweepRow& r) {
    const auto& w = r.weights;
    const auto& ir = r.ir;
    return {{"point", r.point},
            {"knobs", pointJson(r.knobs)},
            {"mechanism", r.mechanism},
            {"delta_x", r.deltaX},
            {"delta_alpha_x", r.deltaAlphaX},
            {"epsilon", r.epsilon},
            {"epsilon_total", r.epsilonTotal},
            {"m", r.m},
            {"scalar_weight", r.scalarWeight},
            {"k", r.k},
            {"fits", r.fits},
            {"weights",
             {{"min", w.min},
              {"q1", w.q1},
              {"median", w.median},
              {"mean", w.mean},
              {"q3", w.q3},
              {"max", w.max},
              {"zeros", w.zeros}}},
            {"ir",
             {{"mean", ir.mean},
              {"median", ir.median},
              {"q1", ir.q1},
              {"q3", ir.q3},
              {"max", ir.max},
              {"threshold", ir.threshold},
              {"above_threshold", ir.aboveThreshold}}},
            {"whack_a_mole", r.whackAMole},
            {"seconds", r.seconds},
            {"q90_ci_overlap", finiteOrNull(r.q90CiOverlap)},
            {"q90_rel_error", finiteOrNull(r.q90RelError)},
            {"mean_ci_overlap", finiteOrNull(r.meanCiOverlap)},
            {"mean_rel_error", finiteOrNull(r.meanRelError)},
            {"U_m", finiteOrNull(r.Um)},
            {"pmse", finiteOrNull(r.pmse)},
            {"s_pmse", finiteOrNull(r.sPmse)},
            {"utility", r.utility                ? json::parse(toJson(*r.utility, -1))
                        : r.utilityError.empty() ? json(nullptr)
                                                 : json{{"error", r.utilityError}}}};
}

SweepRow rowFrom(const json& j) {
    SweepRow r;
    r.point = j.at("point").get<int>();
    r.knobs = pointFrom(j.at("knobs"));
    r.mechanism = j.at("mechanism").get<std::string>();
    r.deltaX = j.at("delta_x").get<double>();
    r.deltaAlphaX = j.at("delta_alpha_x").get<double>();
    r.epsilon = j.at("epsilon").get<double>();
    r.epsilonTotal = j.at("epsilon_total").get<double>();
    r.m = j.at("m").get<int>();
    r.scalarWeight = j.at("scalar_weight").get<double>();
    r.k = j.at("k").get<double>();
    r.fits = j.at("fits").get<int>();
    const json& w = j.at("weights");
    r.weights = {w.at("min").get<double>(),       w.at("q1").get<double>(),
                 w.at("median").get<double>(),    w.at("mean").get<double>(),
                 w.at("q3").get<double>(),        w.at("max").get<double>(),
                 w.at("zeros").get<std::size_t>()};
    const json& ir = j.at("ir");
    r.ir.mean = ir.at("mean").get<double>();
    r.ir.median = ir.at("median").get<double>();
    r.ir.q1 = ir.at("q1").get<double>();
    r.ir.q3 = ir.at("q3").get<double>();
    r.ir.iqr = r.ir.q3 - r.ir.q1;
    r.ir.max = ir.at("max").get<double>();
    r.ir.threshold = ir.at("threshold").get<double>();
    r.ir.aboveThreshold = ir.at("above_threshold").get<std::size_t>();
    r.whackAMole = j.at("whack_a_mole").get<std::size_t>();
    r.seconds = j.at("seconds").get<double>();
    const json& u = j.at("utility");
    if (u.is_object() && u.contains("error")) {
        r.utilityError = u.at("error").get<std::string>();
    } else if (u.is_object()) {
        auto report = utilityReportFromJson(u.dump());
        if (!report) throw json::other_error::create(501, report.message(), &u);
        r.utility = std::move(*report);
    }
    readUtilityColumns(r);
    return r;
}

SweepRow rowFrom(int point, const SweepPoint& knobs, const SynthesizerResult& s) {
    SweepRow r;
    r.point = point;
    r.knobs = knobs;
    r.mechanism = s.name;
    r.deltaX = s.deltaX;
    r.deltaAlphaX = s.deltaAlphaX;
    r.epsilon = s.epsilon.perDataset;
    r.epsilonTotal = s.epsilon.total;
    r.m = s.epsilon.m;
    r.scalarWeight = s.scheme == Scheme::Scalar ? s.scalarWeight : 0;
    r.k = s.k;
    r.fits = s.fits;
    r.weights = s.weights;
    r.ir = s.irSummary;
    r.ir.top.clear();  // record indices: confidential, never in a study's output
    r.whackAMole = s.whackAMole.size();
    r.seconds = s.seconds;
    r.utility = s.utility;
    r.utilityError = s.utilityError;
    readUtilityColumns(r);
    return r;
}

RunConfig pointConfig(const SweepConfig& c, const SweepPoint& p) {
    RunConfig rc = sweepPointRunConfig(c, p);
    rc.mcmc.threads = 1;  // points are the unit of parallel work
    return rc;
}

std::string optionalText(const std::optional<double>& v) {
    return v ? data::formatNumber(*v) : std::string();
}

std::string sweepCsv(const SweepSummary& s) {
    detail::CsvText t({"point",
                       "c",
                       "g",
                       "M",
                       "k_setting",
                       "r",
                       "mechanism",
                       "delta_x",
                       "delta_alpha_x",
                       "epsilon",
                       "epsilon_total",
                       "m",
                       "scalar_weight",
                       "k",
                       "fits",
                       "weight_median",
                       "weight_mean",
                       "weight_zeros",
                       "ir_mean",
                       "ir_median",
                       "ir_q3",
                       "ir_max",
                       "ir_above_threshold",
                       "whack_a_mole",
                       "q90_ci_overlap",
                       "q90_rel_error",
                       "mean_ci_overlap",
                       "mean_rel_error",
                       "U_m",
                       "pmse",
                       "s_pmse"});
    for (const auto& r : s.rows) {
        const auto& p = r.knobs;
        const double radius = p.r ? *p.r : s.config.run.risk.radius;
        t.row({static_cast<double>(r.point),
               p.c,
               p.g,
               optionalText(p.M),
               p.kAuto ? std::string("auto") : optionalText(p.k),
               radius,
               r.mechanism,
               r.deltaX,
               r.deltaAlphaX,
               r.epsilon,
               r.epsilonTotal,
               static_cast<double>(r.m),
               r.scalarWeight,
               r.k,
               static_cast<double>(r.fits),
               r.weights.median,
               r.weights.mean,
               static_cast<double>(r.weights.zeros),
               r.ir.mean,
               r.ir.median,
               r.ir.q3,
               r.ir.max,
               static_cast<double>(r.ir.aboveThreshold),
               static_cast<double>(r.whackAMole),
               r.q90CiOverlap,
               r.q90RelError,
               r.meanCiOverlap,
               r.meanRelError,
               r.Um,
               r.pmse,
               r.sPmse});
    }
    return t.str();
}

}  // namespace

namespace {

// What identifies a resumable folder besides the settings that change results: the version
// of the saved items' format (items of an older format are not mixed with new ones) and
// the data file's bytes (data.path names a file whose contents may change between runs).
constexpr int kSweepItemFormat = 2;  // 2: utility columns and report

detail::FolderStamp folderStamp(const RunData& input) {
    return {kSweepItemFormat, input.sha256, input.path};
}

}  // namespace

Expected<SweepSummary> runSweep(const SweepConfig& config, const RunData& input,
                                const std::string& outDir, const StudyOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    if (input.sha256.empty())
        return Error{
            "the sweep's data carry no SHA-256 (read them with readRunData): a resumed "
            "sweep could not tell whether the data file changed"};
    const data::Table& table = input.table;
    // Item 0 is the unweighted reference; item i the grid point i.
    const std::size_t items = config.points.size() + 1;
    auto name = [](std::size_t i) {
        return i == 0 ? std::string("unweighted") : "point_" + std::to_string(i);
    };
    if (options.items &&
        (options.items->first > options.items->last || options.items->last >= items))
        return Error{"items " + std::to_string(options.items->first) + "-" +
                     std::to_string(options.items->last) + " are not in this sweep: it has " +
                     std::to_string(items) + " items, 0 (the unweighted fit) to " +
                     std::to_string(items - 1) + " (its grid points)"};
    auto folder = options.items ? detail::ResumableFolder::openPlanned(
                                      outDir, "sweep", toJson(config, false), folderStamp(input))
                                : detail::ResumableFolder::open(
                                      outDir, "sweep", toJson(config, false), folderStamp(input));
    if (!folder) return folder.error();
    SweepSummary s;
    s.config = config;
    s.items = items;
    if (options.planOnly) {
        std::vector<std::string> names;
        std::vector<std::vector<std::size_t>> after;
        for (std::size_t i = 0; i < items; ++i) {
            names.push_back(name(i));
            after.push_back(i == 0 ? std::vector<std::size_t>{} : std::vector<std::size_t>{0});
        }
        if (auto st = folder->writePlan("sweep", names, after); !st) return Error{st.message()};
        return s;
    }
    const std::size_t first = options.items ? options.items->first : 0;
    const std::size_t last = options.items ? options.items->last : items - 1;
    bool allSaved = true;
    for (std::size_t i = first; i <= last && allSaved; ++i)
        allSaved = folder->load(name(i)).has_value();

    std::optional<PreparedStudy> prepared;
    if (!allSaved) {  // the shared unweighted fit, once for every point
        const auto tp = std::chrono::steady_clock::now();
        RunOptions ro;
        ro.cancel = options.cancel;
        if (options.progress)
            ro.progress = [&](const Progress& p) {
                Progress q = p;
                q.stage = "sweep: " + p.stage;
                return options.progress(q);
            };
        RunConfig base = config.run;
        base.synthesizers = {SynthesizerConfig{}};  // "Unweighted"
        base.synthesizers[0].name = "Unweighted";
        auto p = prepareStudy(base, table, ro);
        if (!p) {
            if (options.cancel && options.cancel->load())
                return Error{
                    "cancelled while fitting the unweighted model; run the same command "
                    "again to resume"};
            return p.error();
        }
        prepared = std::move(*p);
        s.preparedSeconds = secondsSince(tp);
    }
    auto work = [&](std::size_t i) -> Expected<json> {
        RunOptions ro;
        ro.cancel = options.cancel;
        if (options.progress)
            ro.progress = [&, i](const Progress& p) {
                Progress q = p;
                q.stage = "sweep " + name(i) + ": " + p.stage;
                return options.progress(q);
            };
        json rows = json::array();
        if (i == 0) {
            RunConfig rc = config.run;
            rc.synthesizers = prepared->config().synthesizers;
            auto r = runPrepared(*prepared, rc, ro);
            if (!r) return r.error();
            rows.push_back(rowJson(rowFrom(0, SweepPoint{}, r->synthesizers[0])));
        } else {
            const SweepPoint& p = config.points[i - 1];
            auto r = runPrepared(*prepared, pointConfig(config, p), ro);
            if (!r) return r.error();
            for (const auto& syn : r->synthesizers)
                rows.push_back(rowJson(rowFrom(static_cast<int>(i), p, syn)));
        }
        return json{{"rows", rows}};
    };
    detail::BlockRunOptions bo;
    bo.threads = config.threads;
    bo.stage = "sweep";
    bo.progress = options.progress;
    bo.cancel = options.cancel;
    if (options.items) bo.only = std::pair{first, last};
    detail::BlockRunStats stats;
    auto done = detail::runBlocks(*folder, items, name, work, bo, &stats);
    if (!done) return done.error();
    s.pointsRun = stats.run;
    s.pointsResumed = stats.resumed;
    if (options.items) {  // one process of several: the summary is assembled once at the end
        s.seconds = secondsSince(t0);
        return s;
    }
    try {
        for (const auto& item : *done)
            for (const auto& r : item.at("rows")) s.rows.push_back(rowFrom(r));
    } catch (const json::exception& e) {
        return Error{"a saved point in '" + outDir + "' is damaged (" + e.what() +
                     "); remove its file under items/ to recompute it"};
    }
    s.seconds = secondsSince(t0);
    if (auto st = folder->writeOutput("sweep.csv", sweepCsv(s)); !st) return Error{st.message()};
    if (auto st = folder->writeOutput("sweep.json", sweepSummaryJson(s)); !st)
        return Error{st.message()};
    return s;
}

std::string sweepSummaryJson(const SweepSummary& s) {
    json j;
    j["software"] = {{"name", "ppsynth"}, {"version", PPSYNTH_VERSION}};
    j["configuration"] = json::parse(toJson(s.config));
    j["seconds"] = s.seconds;
    j["unweighted_fit_seconds"] = s.preparedSeconds;
    j["points_run"] = s.pointsRun;
    j["points_resumed"] = s.pointsResumed;
    json rows = json::array();
    for (const auto& r : s.rows) rows.push_back(rowJson(r));
    j["rows"] = rows;
    return j.dump(2);
}

RunConfig sweepPointRunConfig(const SweepConfig& c, const SweepPoint& p) {
    RunConfig rc = c.run;
    if (p.r) rc.risk.radius = *p.r;
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
