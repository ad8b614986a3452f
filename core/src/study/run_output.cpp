#include "ppsynth/study/run_output.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/replace_folder.hpp"
#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/common/destination.hpp"
#include "ppsynth/common/engine_revision.hpp"
#include "ppsynth/common/name_list.hpp"
#include "ppsynth/common/safe_name.hpp"
#include "ppsynth/common/sha256.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/number_format.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/utility_json.hpp"

namespace ppsynth::study {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json finiteOrNull(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

// A bound or epsilon may be unbounded (a weighted record's non-finite log-likelihood); JSON
// has no infinity, and null would read back as "unknown", so it is written as "inf".
json bound(double v) {
    if (std::isinf(v)) return v > 0 ? json("inf") : json("-inf");
    return finiteOrNull(v);
}

json diagnosticsJson(const mcmc::RunDiagnostics& d) {
    json q = json::array();
    for (const auto& x : d.quantities)
        q.push_back({{"name", x.name},
                     {"mean", finiteOrNull(x.summary.mean)},
                     {"sd", finiteOrNull(x.summary.sd)},
                     {"rhat", finiteOrNull(x.summary.rhat)},
                     {"rhat_bulk", finiteOrNull(x.summary.rhatBulk)},
                     {"rhat_tail", finiteOrNull(x.summary.rhatTail)},
                     {"ess_bulk", finiteOrNull(x.summary.essBulk)},
                     {"ess_tail", finiteOrNull(x.summary.essTail)}});
    json ebfmi = json::array();
    for (double e : d.ebfmi) ebfmi.push_back(finiteOrNull(e));
    json out = {{"rhat_max", finiteOrNull(d.maxRhat)},
                {"ess_bulk_min", finiteOrNull(d.minEssBulk)},
                {"ess_tail_min", finiteOrNull(d.minEssTail)},
                {"divergences", d.divergences},
                {"divergences_per_chain", d.divergencesPerChain},
                {"treedepth_saturated", d.treeDepthSaturated},
                {"draws", d.draws},
                {"ebfmi", ebfmi},
                {"quantities", q},
                {"warnings", d.warnings}};
    if (d.untilConverged.blocks > 0)
        out["until_converged"] = {{"blocks", d.untilConverged.blocks},
                                  {"draws_per_chain", d.untilConverged.drawsPerChain},
                                  {"stop_reason", d.untilConverged.stopReason()},
                                  {"converged", d.untilConverged.converged},
                                  {"budget_reached", d.untilConverged.budgetReached},
                                  {"still_short", d.untilConverged.shortfall}};
    if (!d.ladders.empty() && !d.ladders.front().empty()) {
        json swaps = json::array();
        for (const auto& c : d.swapAcceptance) {
            json row = json::array();
            for (double a : c) row.push_back(finiteOrNull(a));
            swaps.push_back(row);
        }
        out["tempering"] = {{"ladders", d.ladders}, {"swap_acceptance", swaps}};
    }
    return out;
}

// synthesizers.NAME.diagnostics.epsilon: key names are a contract for scripts.
json epsilonJson(const privacy::EpsilonDiagnostics& e) {
    json chains = json::array();
    for (double d : e.deltaPerChain) chains.push_back(bound(d));
    json j = {{"converged", e.converged},
              {"reasons", e.reasons},
              {"rhat_bulk", finiteOrNull(e.rhatBulk)},
              {"rhat_tail", finiteOrNull(e.rhatTail)},
              {"ess_bulk", finiteOrNull(e.essBulk)},
              {"ess_tail", finiteOrNull(e.essTail)},
              {"delta_per_chain", chains},
              {"argmax_record", e.argmaxRecord},
              {"argmax_loglik", bound(e.argmaxLoglik)},
              {"delta_first_half", bound(e.deltaFirstHalf)},
              {"delta_second_half", bound(e.deltaSecondHalf)},
              {"loglik_rhat_bulk", finiteOrNull(e.loglikRhatBulk)},
              {"loglik_rhat_tail", finiteOrNull(e.loglikRhatTail)}};
    if (e.fAgreement)
        j["f_agreement"] = {
            {"rank_correlation", finiteOrNull(e.fAgreement->rankCorrelation)},
            {"median_relative_difference", finiteOrNull(e.fAgreement->medianRelativeDifference)},
            {"within_chain_rank_correlation", finiteOrNull(e.fAgreement->withinRankCorrelation)},
            {"within_chain_median_relative_difference",
             finiteOrNull(e.fAgreement->withinMedianRelativeDifference)},
            {"draws_per_half_chain", e.fAgreement->drawsPerHalf}};
    return j;
}

// The scalar searches' refits (EM's and the scaled vector weights'), in order.
json refitsJson(const std::vector<privacy::ScalarTry>& tries) {
    json out = json::array();
    for (const auto& t : tries)
        out.push_back({{"a", t.a},
                       {"delta", bound(t.delta)},
                       {"epsilon", bound(t.epsilon)},
                       {"chain_spread", t.spread}});
    return out;
}

json synthesizerJson(const SynthesizerResult& r) {
    json j;
    j["scheme"] = std::string(toString(r.scheme));
    j["delta_x"] = bound(r.deltaX);
    j["delta_alpha_x"] = bound(r.deltaAlphaX);
    j["epsilon"] = bound(r.epsilon.perDataset);
    j["epsilon_total"] = bound(r.epsilon.total);
    j["m"] = r.epsilon.m;
    j["delta_method"] = r.deltaMethod;
    j["draws_excluded_by_bound"] = r.excludedDraws;
    j["global_epsilon"] = {{"safety_factor", {r.global.safetyLow, r.global.safetyHigh}},
                           {"epsilon", {bound(r.global.epsilonLow), bound(r.global.epsilonHigh)}}};
    const auto& w = r.weights;
    j["weights"] = {{"min", w.min}, {"q1", w.q1},   {"median", w.median}, {"mean", w.mean},
                    {"q3", w.q3},   {"max", w.max}, {"zeros", w.zeros}};
    const auto& s = r.irSummary;
    j["ir"] = {{"mean", s.mean},
               {"median", s.median},
               {"q1", s.q1},
               {"q3", s.q3},
               {"iqr", s.iqr},
               {"max", s.max},
               {"threshold", s.threshold},
               {"above_threshold", s.aboveThreshold},
               {"whack_a_mole_count", r.records.whackAMole.size()}};
    if (const auto* p = r.pairwise()) j["pairwise_singletons"] = p->singletons;
    j["diagnostics"] = diagnosticsJson(r.diagnostics);
    if (r.epsilonDiagnostics.diagnosed)
        j["diagnostics"]["epsilon"] = epsilonJson(r.epsilonDiagnostics);
    j["seconds"] = r.seconds;
    j["stage_seconds"] = {{"fits", r.stageSeconds.fits},
                          {"weights", r.stageSeconds.weights},
                          {"synthesis", r.stageSeconds.synthesis},
                          {"risk", r.stageSeconds.risk},
                          {"utility", r.stageSeconds.utility}};
    j["fits"] = r.fits;
    if (const auto* sd = r.scalar()) {
        j["scalar_weight"] = sd->a;
        j["scalar_noise_limited"] = sd->noiseLimited;
        j["scalar_noise"] = sd->noise;
        j["scalar_converged"] = sd->converged;
        j["refits"] = refitsJson(sd->tries);
    }
    // The top-coding comparator has no epsilon: null above, and this says why.
    j["formal_guarantee"] = r.formalGuarantee();
    if (const auto* tc = r.topCode()) {
        j["topcode"] = {{"q", tc->q},
                        {"threshold", finiteOrNull(tc->threshold)},
                        {"capped", tc->capped},
                        {"guarantee", "no formal guarantee"}};
        // Several sensitive variables: each one's own threshold (the above are the first's).
        if (!tc->variables.empty()) {
            json vars = json::array();
            for (const auto& v : tc->variables)
                vars.push_back({{"variable", v.name},
                                {"threshold", finiteOrNull(v.threshold)},
                                {"capped", v.capped}});
            j["topcode"]["variables"] = std::move(vars);
        }
    }
    if (const auto* sd = r.scaled()) {
        j["scaled_of"] = std::string(toString(sd->of));
        j["scale"] = sd->a;
        j["target_epsilon"] = sd->target ? json(*sd->target) : json(nullptr);
        j["scale_converged"] = sd->converged;
        j["scale_noise_limited"] = sd->noiseLimited;
        j["scale_noise"] = sd->noise;
        j["scale_reachable"] = sd->reachable;
        j["refits"] = refitsJson(sd->tries);
    }
    if (const auto* rd = r.reweight()) {
        j["k"] = rd->k;
        json tries = json::array();
        for (const auto& t : rd->tries)
            tries.push_back({{"k", t.k}, {"delta", bound(t.delta)}, {"keeps_bound", t.keeps}});
        j["refits"] = tries;
    }
    json params = json::array();
    for (const auto& p : r.parameters)
        params.push_back({{"name", p.name},
                          {"mean", p.mean},
                          {"sd", p.sd},
                          {"q05", p.q05},
                          {"median", p.median},
                          {"q95", p.q95}});
    j["parameters"] = params;
    // The utility report (utility_json.hpp's contract) is embedded as a JSON object.
    if (r.utility)
        j["utility"] = json::parse(toJson(*r.utility));
    else if (!r.utilityError.empty())
        j["utility"] = {{"error", r.utilityError}};
    return j;
}

Status writeText(const fs::path& path, const std::string& text) {
    return writeFileAtomically(path.string(), [&](std::ostream& out) -> Status {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return {};
    });
}

}  // namespace

bool modelledColumn(const RunConfig& config, const std::string& column) {
    const auto& p = config.data.predictors;
    const auto& t = config.data.targets;
    return column == config.data.target || std::find(p.begin(), p.end(), column) != p.end() ||
           std::find(t.begin(), t.end(), column) != t.end();
}

Expected<data::Table> syntheticTable(const RunResult& run, const data::Table& table,
                                     const std::vector<double>& y) {
    return syntheticTable(run.config, run.inputs.keptRows, table, y);
}

Expected<data::Table> syntheticTable(const RunConfig& config,
                                     const std::vector<std::size_t>& keptRows,
                                     const data::Table& table, const std::vector<double>& y) {
    std::vector<std::uint8_t> keep(table.rowCount(), 0);
    for (auto r : keptRows) keep[r] = 1;
    // Several sensitive variables: y holds each one's n values, variable after variable.
    const auto targets = sensitiveVariables(config);
    const std::size_t n = keptRows.size();
    if (targets.size() > 1 && y.size() != targets.size() * n)
        return Error::internal("the synthetic values do not cover every sensitive variable");
    for (const auto& target : targets)
        if (!table.find(target))
            return Error{"the sensitive column '" + target + "' is missing from the table"};
    // Only the modelled columns: any other column of the input is confidential data that no
    // synthesizer touched, and must not sit in a folder named "synthetic".
    data::Table t;
    for (const auto& c : table.columns()) {
        Status s;
        const auto k = static_cast<std::size_t>(
            std::find(targets.begin(), targets.end(), c.name()) - targets.begin());
        if (k < targets.size()) {
            const std::string& target = targets[k];
            const bool count = c.type() == data::ColumnType::Count;
            const std::vector<double> values =
                targets.size() > 1
                    ? std::vector<double>(y.begin() + static_cast<std::ptrdiff_t>(k * n),
                                          y.begin() + static_cast<std::ptrdiff_t>((k + 1) * n))
                    : y;
            data::Column synthetic =
                count ? data::Column::count(target, values) : data::Column::numeric(target, values);
            synthetic.setTimeFormat(c.timeFormat());  // synthetic dates are shown as dates
            s = t.addColumn(std::move(synthetic));
        } else if (modelledColumn(config, c.name())) {
            s = t.addColumn(c.filtered(keep));
        }
        if (!s) return s.error();
    }
    return t;
}

namespace {

Status writeRecords(const RunResult& run, const RecordLevel& r, const fs::path& path) {
    std::ostringstream o;
    const bool pairwise = !r.pairwiseWeight.empty();
    o << "row,y,alpha,f,lipschitz,ir" << (pairwise ? ",pairwise_weight" : "") << "\n";
    for (std::size_t i = 0; i < run.inputs.keptRows.size(); ++i) {
        const auto e = static_cast<Eigen::Index>(i);
        o << run.inputs.keptRows[i] + 1 << ',' << data::formatNumber(run.inputs.yOriginal[e]) << ','
          << data::formatNumber(r.alpha[e]) << ',' << data::formatNumber(run.f[e]) << ','
          << data::formatNumber(r.recordDelta[e]) << ',' << data::formatNumber(r.ir[i]);
        if (pairwise) o << ',' << data::formatNumber(r.pairwiseWeight[i]);
        o << '\n';
    }
    return writeText(path, o.str());
}

Status writeDraws(const RunResult& run, const SynthesizerResult& r, const fs::path& path) {
    std::ostringstream o;
    o << "draw";
    for (const auto& name : run.parameterNames) o << ",\"" << name << '"';
    o << "\n";
    for (Eigen::Index s = 0; s < r.draws.rows(); ++s) {
        o << s + 1;
        for (Eigen::Index j = 0; j < r.draws.cols(); ++j)
            o << ',' << data::formatNumber(r.draws(s, j));
        o << '\n';
    }
    return writeText(path, o.str());
}

}  // namespace

std::string datasetFile(const std::string& name, Scheme scheme, std::size_t l) {
    if (scheme == Scheme::TopCode) return "confidential/" + name + "_topcoded.csv";
    std::ostringstream file;
    file << "synthetic/" << name << "/synthetic_" << std::setw(2) << std::setfill('0') << l + 1
         << ".csv";
    return file.str();
}

namespace {

json designJson(const data::DesignSummary& d) {
    json predictors = json::array();
    for (const auto& p : d.predictors) {
        json o = {{"name", p.name}, {"type", p.type}, {"columns", p.columns}};
        if (p.type == "categorical") {
            o["levels"] = p.levels;
            o["reference"] = p.reference;
        } else {
            o["standardization"] = {{"mean", p.mean.value_or(0.0)}, {"sd", p.sd.value_or(1.0)}};
        }
        predictors.push_back(std::move(o));
    }
    return {{"target", d.target},
            {"transform", d.transform},
            {"shift", d.shift},
            {"records", d.records},
            {"predictors", std::move(predictors)},
            {"columns", d.columns},
            {"components", d.components},
            {"predictors_used", d.predictorsUsed},
            {"coefficients", d.coefficients()},
            {"summary", data::describeDesign(d, std::numeric_limits<std::size_t>::max())}};
}

std::string summaryJson(const RunResult& run, const std::string& dataSha256) {
    json j;
    // The engine revision says whether draws from this folder and a newer build may differ.
    j["software"] = {
        {"name", "ppsynth"}, {"version", PPSYNTH_VERSION}, {"engine_revision", kEngineRevision}};
    j["configuration"] = json::parse(toJson(run.config));
    j["data"] = {{"records", run.inputs.recordCount()},
                 {"rows_in_table", run.inputs.report.rowsInTable},
                 {"rows_dropped", run.inputs.report.rowsDropped},
                 {"notes", run.inputs.report.notes},
                 {"transform", std::string(data::toString(run.inputs.transform.kind))},
                 {"shift", run.inputs.transform.shift},
                 {"patterns", run.inputs.patterns.count()},
                 {"records_alone_in_pattern", run.inputs.patterns.singletons},
                 {"design_columns", run.inputs.columnNames()}};
    // The file the records came from, so a reopened run can refuse a changed file.
    // Absolute: the loader may run from another working folder than the run did.
    std::error_code ec;
    const fs::path dataPath = fs::absolute(run.config.data.path, ec);
    j["data_file"] = {{"path", ec ? run.config.data.path : dataPath.lexically_normal().string()},
                      {"sha256", dataSha256.empty() ? json(nullptr) : json(dataSha256)}};
    j["design"] = designJson(run.design);
    j["warnings"] = run.warnings;
    j["parameter_names"] = run.parameterNames;
    j["seconds"] = run.seconds;
    j["synthesizers"] = json::object();
    for (const auto& r : run.synthesizers) j["synthesizers"][r.name] = synthesizerJson(r);
    return j.dump(2);
}

// A run.json is read whole to check it; a real one is at most a few megabytes.
constexpr std::uintmax_t kMaxRunJsonBytes = 64u << 20;

// Whether `rel` (a path inside a run folder, '/'-separated) is a file writeRunOutput writes
// for a run whose synthesizers are `names`.
bool writtenByRun(const std::string& rel, const std::set<std::string>& names) {
    if (rel == "run.json") return true;
    for (const auto& name : names) {
        if (rel == "confidential/" + name + "_records.csv" ||
            rel == "confidential/" + name + "_draws.csv" ||
            rel == "confidential/" + name + "_topcoded.csv")
            return true;
        const std::string prefix = "synthetic/" + name + "/synthetic_";
        if (rel.size() > prefix.size() + 4 && rel.compare(0, prefix.size(), prefix) == 0 &&
            rel.compare(rel.size() - 4, 4, ".csv") == 0) {
            const std::string number = rel.substr(prefix.size(), rel.size() - prefix.size() - 4);
            if (std::all_of(number.begin(), number.end(),
                            [](unsigned char c) { return std::isdigit(c); }))
                return true;
        }
    }
    return false;
}

// The synthesizer names of the run whose run.json is `file`, or why it is not a run's.
Expected<std::set<std::string>> runSynthesizers(const fs::path& file) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (ec || size > kMaxRunJsonBytes)
        return Error{ec ? "it cannot be read (" + ec.message() + ")" : "it is far too large"};
    std::ifstream in(file, std::ios::binary);
    if (!in) return Error{"it cannot be opened"};
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return Error{"it is not a JSON object"};
    const auto software = j.find("software");
    if (software == j.end() || !software->is_object() || software->value("name", "") != "ppsynth")
        return Error{"it does not name ppsynth as its software"};
    const auto synthesizers = j.find("synthesizers");
    if (!j.contains("configuration") || synthesizers == j.end() || !synthesizers->is_object())
        return Error{"it has no configuration and synthesizers"};
    std::set<std::string> names;
    for (const auto& [name, value] : synthesizers->items()) names.insert(name);
    return names;
}

}  // namespace

std::string runSummaryJson(const RunResult& run) {
    return summaryJson(run, run.dataSha256);
}

namespace {

// What is at `dir` may be replaced by a run folder (checkRunDestination without the probe).
Status replaceableByRun(const std::string& dir, bool overwrite) {
    fs::path target = fs::path(dir).lexically_normal();
    if (!target.has_filename() && target.has_relative_path()) target = target.parent_path();
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(target, ec))) return {};
    if (!overwrite)
        return Error::alreadyExists(
            "'" + dir + "' already exists; choose another output folder or remove it first");
    if (!fs::is_directory(target, ec))
        return Error{"'" + dir +
                     "' exists and is not a folder; it is not replaced, choose another output "
                     "folder"};
    if (fs::is_empty(target, ec) && !ec) return {};
    if (!fs::is_regular_file(target / "run.json", ec)) {
        std::vector<std::string> held;
        for (auto it = fs::directory_iterator(target, ec); !ec && it != fs::end(it);
             it.increment(ec)) {
            std::error_code kind;
            held.push_back(it->path().filename().string() + (it->is_directory(kind) ? "/" : ""));
        }
        const std::string holds =
            held.empty() ? std::string() : ", it holds " + quotedNames(std::move(held));
        return Error{"'" + dir + "' is a folder that is not a ppsynth run folder (no run.json" +
                     holds + "); it is not replaced, choose another output folder"};
    }
    const auto names = runSynthesizers(target / "run.json");
    if (!names)
        return Error{"'" + dir +
                     "' is not a ppsynth run folder: its run.json is not one a run wrote (" +
                     names.message() +
                     "); it is not replaced, choose another output folder or remove this one "
                     "first"};
    std::vector<std::string> extra;
    for (auto it = fs::recursive_directory_iterator(target, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
        std::error_code kind;
        if (it->is_directory(kind)) continue;
        const std::string rel = it->path().lexically_relative(target).generic_string();
        if (!writtenByRun(rel, *names)) extra.push_back(rel);
    }
    if (ec)
        return Error{"cannot look through '" + dir + "' (" + ec.message() +
                     "); it is not replaced, choose another output folder"};
    if (!extra.empty())
        return Error{"'" + dir + "' is a ppsynth run folder but also holds " +
                     quotedNames(std::move(extra)) +
                     ", which the run did not write; it is not replaced (that would delete "
                     "them): move them out first or choose another output folder"};
    return {};
}

Status checkSynthesizerNames(const RunResult& run) {
    for (const auto& r : run.synthesizers)
        if (Status s = checkSafeName(r.name); !s) return s.error().prefixed("synthesizer: ");
    return {};
}

}  // namespace

Status checkRunDestination(const std::string& dir, bool overwrite) {
    if (dir.empty()) return Error{"no output folder given for the run"};
    if (Status s = replaceableByRun(dir, overwrite); !s) return s;
    return checkWritableDestination(dir, DestinationUse::Replaced);
}

Status writeRunOutput(const RunResult& run, const data::Table& table, const std::string& dir,
                      const OutputOptions& options) {
    if (Status s = checkSynthesizerNames(run); !s) return s;
    if (Status s = checkRunDestination(dir, options.overwrite); !s) return s;
    std::error_code ec;
    // Absolute and without "." or a trailing separator, so the temporary folder goes beside
    // the target ("out/" -> "out"), never inside it.
    fs::path target = fs::absolute(fs::path(dir), ec).lexically_normal();
    if (ec) target = fs::path(dir).lexically_normal();
    if (!target.has_filename() && target.has_relative_path()) target = target.parent_path();
    const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
    fs::create_directories(parent, ec);
    const fs::path tmp =
        parent / (target.filename().string() + ".partial-" + std::to_string(::getpid()));
    fs::remove_all(tmp, ec);
    auto fail = [&](const Error& e) -> Status {
        fs::remove_all(tmp, ec);
        return e;
    };
    if (!fs::create_directories(tmp / "synthetic", ec) ||
        !fs::create_directories(tmp / "confidential", ec))
        return fail(Error::io("could not create '" + tmp.string() + "': " + ec.message()));
    // A table that did not come from a file (tests, generated examples) has no checksum;
    // the loader then checks the records' y against the data instead.
    std::string sha = run.dataSha256;
    if (sha.empty())
        if (auto h = sha256FileHex(run.config.data.path)) sha = std::move(*h);
    // Every file's path is proven to lie in the temporary folder (names are checked above;
    // this holds even if a path bug let one through).
    auto inside = [&](const std::string& rel) { return pathInside(tmp.string(), rel); };
    auto runJson = inside("run.json");
    if (!runJson) return fail(runJson.error());
    if (auto s = writeText(*runJson, summaryJson(run, sha)); !s) return fail(s.error());
    for (const auto& r : run.synthesizers) {
        for (std::size_t l = 0; l < r.synthetic.size(); ++l) {
            auto t = syntheticTable(run, table, r.synthetic[l]);
            if (!t) return fail(t.error());
            auto path = inside(datasetFile(r.name, r.scheme, l));
            if (!path) return fail(path.error());
            if (!fs::create_directories(fs::path(*path).parent_path(), ec) && ec)
                return fail(
                    Error::io("could not create the folder for '" + r.name + "': " + ec.message()));
            if (auto s = data::writeTable(*t, *path); !s) return fail(s.error());
        }
        auto records = inside("confidential/" + r.name + "_records.csv");
        if (!records) return fail(records.error());
        if (auto s = writeRecords(run, r.records, *records); !s) return fail(s.error());
        if (options.keepDraws) {
            auto draws = inside("confidential/" + r.name + "_draws.csv");
            if (!draws) return fail(draws.error());
            if (auto s = writeDraws(run, r, *draws); !s) return fail(s.error());
        }
    }
    // What is there is checked again (something may have appeared, or been put into the
    // earlier run, while the files were written). An earlier run folder is moved aside, not
    // deleted, until the new one is in place: a failure leaves it whole.
    const bool exists = fs::exists(fs::symlink_status(target, ec));
    if (exists)
        if (Status s = checkRunDestination(dir, options.overwrite); !s) return fail(s.error());
    auto committed = replaceFolder(tmp, target, exists, "run folder");
    if (!committed) return fail(committed.error());
    if (!committed->empty() && options.warning) options.warning(*committed);
    return {};
}

}  // namespace ppsynth::study
