#include "study/sweep_utility_columns.hpp"

#include <cmath>

namespace ppsynth::study::detail {

using nlohmann::json;

namespace {

const StatisticUtility* findStatistic(const UtilityReport& u, const utility::Statistic& s) {
    for (const auto& x : u.statistics)
        if (x.statistic == s) return &x;
    return nullptr;
}

double relativeError(const StatisticUtility& s) {
    return std::abs(s.synthetic.estimate - s.original.estimate) / std::abs(s.original.estimate);
}

json numberOrNull(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

// The per-variable column names, as in a one-variable sweep.
const std::vector<std::string>& variableColumnNames() {
    static const std::vector<std::string> names{
        "q90_ci_overlap", "q90_rel_error", "mean_ci_overlap", "mean_rel_error", "U_m",
        "pmse",           "s_pmse"};
    return names;
}

std::vector<double> values(const UtilityColumns& c) {
    return {c.q90CiOverlap, c.q90RelError, c.meanCiOverlap, c.meanRelError, c.Um, c.pmse, c.sPmse};
}

}  // namespace

UtilityColumns utilityColumns(const UtilityReport& u) {
    UtilityColumns c;
    if (const auto* q = findStatistic(u, utility::Statistic::quantile(0.9))) {
        c.q90CiOverlap = q->ciOverlap;
        c.q90RelError = relativeError(*q);
    }
    if (const auto* m = findStatistic(u, utility::Statistic::mean())) {
        c.meanCiOverlap = m->ciOverlap;
        c.meanRelError = relativeError(*m);
    }
    c.Um = u.ecdf.Um;
    c.pmse = u.pmse.pmse;
    c.sPmse = u.pmse.sPmse;
    return c;
}

UtilityColumns utilityColumns(const UtilityReport& u, const std::string& target) {
    for (const auto& v : u.variables)
        if (v.target == target) return utilityColumns(v);
    return u.variables.empty() && u.target == target ? utilityColumns(u) : UtilityColumns{};
}

JointColumns jointColumns(const UtilityReport& u) {
    JointColumns c;
    if (!u.joint) return c;
    const JointUtility& j = *u.joint;
    c.pmse = j.pmse.pmse;
    c.sPmse = j.pmse.sPmse;
    if (j.correlationComputed) {
        c.corrFrobenius = j.correlation.frobenius;
        c.corrMaxAbs = j.correlation.maxAbs;
    }
    if (!j.regressions.empty()) {
        double sum = 0;
        for (const auto& r : j.regressions) sum += r.meanOverlap;  // NaN stays NaN
        c.regressionCiOverlap = sum / static_cast<double>(j.regressions.size());
    }
    return c;
}

std::vector<std::string> severalHeader(const std::vector<std::string>& targets) {
    if (targets.size() < 2) return {};
    std::vector<std::string> h;
    for (const auto& t : targets)
        for (const auto& name : variableColumnNames()) h.push_back(name + "[" + t + "]");
    for (const char* name : {"joint_pmse", "joint_s_pmse", "joint_corr_frobenius",
                             "joint_corr_max_abs", "joint_regression_ci_overlap"})
        h.emplace_back(name);
    return h;
}

std::vector<double> severalCells(const UtilityReport* u, const std::vector<std::string>& targets) {
    if (targets.size() < 2) return {};
    std::vector<double> cells;
    for (const auto& t : targets) {
        const auto v = values(u ? utilityColumns(*u, t) : UtilityColumns{});
        cells.insert(cells.end(), v.begin(), v.end());
    }
    const JointColumns j = u ? jointColumns(*u) : JointColumns{};
    for (const double v : {j.pmse, j.sPmse, j.corrFrobenius, j.corrMaxAbs, j.regressionCiOverlap})
        cells.push_back(v);
    return cells;
}

void addSeveralJson(json& row, const UtilityReport& u) {
    if (u.variables.empty()) return;
    json vars = json::array();
    for (const auto& v : u.variables) {
        json o = {{"target", v.target}};
        const auto cells = values(utilityColumns(v));
        for (std::size_t i = 0; i < cells.size(); ++i)
            o[variableColumnNames()[i]] = numberOrNull(cells[i]);
        vars.push_back(std::move(o));
    }
    row["variables"] = std::move(vars);
    const JointColumns j = jointColumns(u);
    row["joint"] = {{"pmse", numberOrNull(j.pmse)},
                    {"s_pmse", numberOrNull(j.sPmse)},
                    {"corr_frobenius", numberOrNull(j.corrFrobenius)},
                    {"corr_max_abs", numberOrNull(j.corrMaxAbs)},
                    {"regression_ci_overlap", numberOrNull(j.regressionCiOverlap)}};
}

}  // namespace ppsynth::study::detail
