// What a sweep writes and reads back: a row per point and mechanism as JSON (saved items,
// sweep.json) and as sweep.csv.
#include <cmath>
#include <nlohmann/json.hpp>

#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/sweep.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/utility_json.hpp"
#include "study/csv_text.hpp"
#include "study/sweep_json.hpp"
#include "study/sweep_utility_columns.hpp"

namespace ppsynth::study {

using nlohmann::json;

namespace {

json finiteNumberOrNull(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

// The row's utility columns from its report.
void readUtilityColumns(SweepRow& r) {
    if (!r.utility) return;
    const detail::UtilityColumns c = detail::utilityColumns(*r.utility);
    r.q90CiOverlap = c.q90CiOverlap;
    r.q90RelError = c.q90RelError;
    r.meanCiOverlap = c.meanCiOverlap;
    r.meanRelError = c.meanRelError;
    r.Um = c.Um;
    r.pmse = c.pmse;
    r.sPmse = c.sPmse;
}

std::string optionalText(const std::optional<double>& v) {
    return v ? data::formatNumber(*v) : std::string();
}

}  // namespace

namespace detail {

json rowJson(const SweepRow& r) {
    const auto& w = r.weights;
    const auto& ir = r.ir;
    json j = {{"point", r.point},
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
              {"q90_ci_overlap", finiteNumberOrNull(r.q90CiOverlap)},
              {"q90_rel_error", finiteNumberOrNull(r.q90RelError)},
              {"mean_ci_overlap", finiteNumberOrNull(r.meanCiOverlap)},
              {"mean_rel_error", finiteNumberOrNull(r.meanRelError)},
              {"U_m", finiteNumberOrNull(r.Um)},
              {"pmse", finiteNumberOrNull(r.pmse)},
              {"s_pmse", finiteNumberOrNull(r.sPmse)},
              {"utility", r.utility                ? json::parse(toJson(*r.utility, -1))
                          : r.utilityError.empty() ? json(nullptr)
                                                   : json{{"error", r.utilityError}}}};
    // Several sensitive variables: each one's utility columns and the joint ones.
    if (r.utility) addSeveralJson(j, *r.utility);
    return j;
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
    r.scalarWeight = s.scalar() ? s.scalar()->a : s.scaled() ? s.scaled()->a : 0;
    r.k = s.reweight() ? s.reweight()->k : 0;
    r.fits = s.fits;
    r.weights = s.weights;
    r.ir = s.irSummary;
    r.ir.top.clear();  // record indices: confidential, never in a study's output
    r.whackAMole = s.records.whackAMole.size();
    r.seconds = s.seconds;
    r.utility = s.utility;
    r.utilityError = s.utilityError;
    readUtilityColumns(r);
    return r;
}

std::string sweepCsv(const SweepSummary& s) {
    const auto targets = sensitiveVariables(s.config.run);
    std::vector<std::string> header{"point",
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
                                    "s_pmse",
                                    "target_epsilon"};
    for (auto& h : severalHeader(targets)) header.push_back(std::move(h));
    detail::CsvText t(header);
    for (const auto& r : s.rows) {
        const auto& p = r.knobs;
        const double radius = p.r ? *p.r : s.config.run.risk.radius;
        std::vector<detail::CsvText::Cell> cells{static_cast<double>(r.point),
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
                                                 r.sPmse,
                                                 optionalText(p.targetEpsilon)};
        for (const double v : severalCells(r.utility ? &*r.utility : nullptr, targets))
            cells.emplace_back(v);
        t.row(cells);
    }
    return t.str();
}

}  // namespace detail

using detail::rowJson;

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

}  // namespace ppsynth::study
