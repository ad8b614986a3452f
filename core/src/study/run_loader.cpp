#include "ppsynth/study/run_loader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/common/not_a_number.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/utility_json.hpp"
#include "study/json_reader.hpp"

namespace ppsynth::study {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// run.json writes non-finite numbers as null.
// A number, null (unknown: NaN) or "inf" / "-inf" (an unbounded bound, see run_output).
double number(const json& v) {
    if (v.is_null()) return kNaN;
    if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (s == "inf" || s == "-inf")
            return s == "inf" ? std::numeric_limits<double>::infinity()
                              : -std::numeric_limits<double>::infinity();
    }
    return v.get<double>();
}

double number(const json& j, const char* key) {
    const auto it = j.find(key);
    return it == j.end() ? kNaN : number(*it);
}

template <typename T>
T integer(const json& j, const char* key) {
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? T{0} : it->get<T>();
}

mcmc::RunDiagnostics diagnosticsFrom(const json& j) {
    mcmc::RunDiagnostics d;
    d.maxRhat = number(j, "rhat_max");
    d.minEssBulk = number(j, "ess_bulk_min");
    d.minEssTail = number(j, "ess_tail_min");
    d.divergences = integer<int>(j, "divergences");
    d.treeDepthSaturated = integer<int>(j, "treedepth_saturated");
    d.draws = integer<int>(j, "draws");
    if (j.contains("divergences_per_chain"))
        d.divergencesPerChain = j["divergences_per_chain"].get<std::vector<int>>();
    for (const auto& e : j.value("ebfmi", json::array()))
        d.ebfmi.push_back(e.is_null() ? kNaN : e.get<double>());
    for (const auto& q : j.value("quantities", json::array())) {
        mcmc::QuantityDiagnostics x;
        x.name = q.at("name").get<std::string>();
        x.summary.mean = number(q, "mean");
        x.summary.sd = number(q, "sd");
        x.summary.rhat = number(q, "rhat");
        x.summary.rhatBulk = number(q, "rhat_bulk");
        x.summary.rhatTail = number(q, "rhat_tail");
        x.summary.essBulk = number(q, "ess_bulk");
        x.summary.essTail = number(q, "ess_tail");
        d.quantities.push_back(std::move(x));
    }
    d.warnings = j.value("warnings", std::vector<std::string>{});
    if (auto u = j.find("until_converged"); u != j.end() && u->is_object()) {
        auto& uc = d.untilConverged;
        uc.blocks = integer<int>(*u, "blocks");
        uc.converged = u->value("converged", false);
        uc.budgetReached = u->value("budget_reached", false);
        uc.shortfall = u->value("still_short", std::vector<std::string>{});
        uc.drawsPerChain = integer<int>(*u, "draws_per_chain");
    }
    if (auto t = j.find("tempering"); t != j.end() && t->is_object()) {
        d.ladders = t->value("ladders", std::vector<std::vector<double>>{});
        for (const auto& c : t->value("swap_acceptance", json::array())) {
            std::vector<double> row;
            for (const auto& a : c) row.push_back(number(a));
            d.swapAcceptance.push_back(std::move(row));
        }
    }
    return d;
}

// diagnostics.epsilon (run_output's epsilonJson); absent in runs made before it existed.
privacy::EpsilonDiagnostics epsilonFrom(const json& diagnostics) {
    privacy::EpsilonDiagnostics e;
    const auto it = diagnostics.find("epsilon");
    if (it == diagnostics.end() || !it->is_object()) return e;
    const json& j = *it;
    e.diagnosed = true;
    e.converged = j.at("converged").get<bool>();
    e.reasons = j.value("reasons", std::vector<std::string>{});
    e.rhatBulk = number(j, "rhat_bulk");
    e.rhatTail = number(j, "rhat_tail");
    e.essBulk = number(j, "ess_bulk");
    e.essTail = number(j, "ess_tail");
    for (const auto& d : j.value("delta_per_chain", json::array()))
        e.deltaPerChain.push_back(number(d));
    e.argmaxRecord = integer<std::size_t>(j, "argmax_record");
    e.argmaxLoglik = number(j, "argmax_loglik");
    // Absent (NaN) in runs made before they were reported.
    e.deltaFirstHalf = number(j, "delta_first_half");
    e.deltaSecondHalf = number(j, "delta_second_half");
    e.loglikRhatBulk = number(j, "loglik_rhat_bulk");
    e.loglikRhatTail = number(j, "loglik_rhat_tail");
    if (auto f = j.find("f_agreement"); f != j.end() && f->is_object()) {
        // The within-chain figures are absent in runs made before they were judged against.
        e.fAgreement = privacy::FAgreement{number(*f, "rank_correlation"),
                                           number(*f, "median_relative_difference")};
        if (f->contains("within_chain_rank_correlation")) {
            e.fAgreement->withinRankCorrelation = number(*f, "within_chain_rank_correlation");
            e.fAgreement->withinMedianRelativeDifference =
                number(*f, "within_chain_median_relative_difference");
            e.fAgreement->drawsPerHalf = integer<std::size_t>(*f, "draws_per_half_chain");
        }
    }
    return e;
}

// The summaries run.json holds for one synthesizer (record-level parts come later).
// The scalar searches' refits (run_output's refitsJson); chain_spread is 0 in older runs.
std::vector<privacy::ScalarTry> refitsFrom(const json& j) {
    std::vector<privacy::ScalarTry> out;
    for (const auto& t : j.value("refits", json::array()))
        out.push_back({t.at("a").get<double>(), number(t.at("delta")), number(t.at("epsilon")),
                       t.value("chain_spread", 0.0)});
    return out;
}

void summariesFrom(const json& j, SynthesizerResult& r) {
    r.deltaX = number(j, "delta_x");
    r.deltaAlphaX = number(j, "delta_alpha_x");
    r.deltaMethod = j.value("delta_method", std::string{});
    r.epsilon.perDataset = number(j, "epsilon");
    r.epsilon.total = number(j, "epsilon_total");
    r.epsilon.m = integer<int>(j, "m");
    r.excludedDraws = integer<std::size_t>(j, "draws_excluded_by_bound");
    const auto& g = j.at("global_epsilon");
    r.global.safetyLow = g.at("safety_factor").at(0).get<double>();
    r.global.safetyHigh = g.at("safety_factor").at(1).get<double>();
    r.global.epsilonLow = number(g.at("epsilon").at(0));
    r.global.epsilonHigh = number(g.at("epsilon").at(1));
    r.diagnostics = diagnosticsFrom(j.at("diagnostics"));
    r.epsilonDiagnostics = epsilonFrom(j.at("diagnostics"));
    r.seconds = number(j, "seconds");
    if (auto it = j.find("stage_seconds"); it != j.end()) {
        r.stageSeconds.fits = number(*it, "fits");
        r.stageSeconds.weights = number(*it, "weights");
        r.stageSeconds.synthesis = number(*it, "synthesis");
        r.stageSeconds.risk = number(*it, "risk");
        r.stageSeconds.utility = number(*it, "utility");
    }
    if (auto it = j.find("utility"); it != j.end() && it->is_object()) {
        if (it->contains("error")) {
            r.utilityError = it->at("error").get<std::string>();
        } else if (auto u = utilityReportFromJson(it->dump()); u) {
            r.utility = std::move(*u);
        } else {
            // The run's other results stay usable; the report says why utility is missing.
            r.utilityError = "run.json: the utility report cannot be read: " + u.message();
        }
    }
    r.fits = integer<int>(j, "fits");
    r.details = detailsFor(r.scheme);
    if (auto* pd = std::get_if<PairwiseDetails>(&r.details))
        pd->singletons = integer<std::size_t>(j, "pairwise_singletons");
    if (auto* sd = std::get_if<ScalarDetails>(&r.details)) {
        sd->a = number(j, "scalar_weight");
        sd->noiseLimited = j.value("scalar_noise_limited", false);
        sd->noise = j.value("scalar_noise", 0.0);
        sd->converged = j.value("scalar_converged", false);
        sd->tries = refitsFrom(j);
    }
    if (auto* sd = std::get_if<ScaledDetails>(&r.details)) {
        for (auto k : {Scheme::Lipschitz, Scheme::Marginal, Scheme::Pairwise, Scheme::Sigmoid})
            if (j.value("scaled_of", std::string()) == toString(k)) sd->of = k;
        sd->a = number(j, "scale");
        if (auto t = j.find("target_epsilon"); t != j.end() && t->is_number())
            sd->target = t->get<double>();
        sd->converged = j.value("scale_converged", false);
        sd->noiseLimited = j.value("scale_noise_limited", false);
        sd->noise = j.value("scale_noise", 0.0);
        sd->reachable = j.value("scale_reachable", true);
        sd->tries = refitsFrom(j);
    }
    if (auto* tc = std::get_if<TopCodeDetails>(&r.details)) {
        if (auto t = j.find("topcode"); t != j.end() && t->is_object()) {
            tc->q = number(*t, "q");
            tc->threshold = number(*t, "threshold");
            tc->capped = integer<std::size_t>(*t, "capped");
            for (const auto& v : t->value("variables", json::array()))
                tc->variables.push_back({v.at("variable").get<std::string>(),
                                         number(v, "threshold"),
                                         integer<std::size_t>(v, "capped")});
        }
    }
    if (auto* rd = std::get_if<ReweightDetails>(&r.details)) {
        rd->k = number(j, "k");
        for (const auto& t : j.value("refits", json::array())) {
            privacy::ReweightTry rt;
            rt.k = t.at("k").get<double>();
            rt.delta = number(t.at("delta"));
            rt.keeps = t.at("keeps_bound").get<bool>();
            rd->tries.push_back(rt);
        }
    }
    for (const auto& p : j.value("parameters", json::array()))
        r.parameters.push_back({p.at("name").get<std::string>(), number(p, "mean"), number(p, "sd"),
                                number(p, "q05"), number(p, "median"), number(p, "q95")});
}

Expected<json> readJson(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error::io("cannot open '" + path.string() + "'");
    std::ostringstream s;
    s << in.rdbuf();
    json j;
    const std::string error = detail::parseConfigJson(s.str(), j, "top level");
    if (j.is_discarded() || !j.is_object())
        return Error{"'" + path.string() + "' is not valid JSON; the run folder is damaged"};
    if (!error.empty()) return Error{"'" + path.string() + "': " + error};
    return j;
}

// A numeric CSV written by the run (records or draws): "NaN" is a value there, not text, and
// so is "inf" (an unbounded record bound); both read as missing, see unbounded().
Expected<data::Table> readNumericCsv(const fs::path& path) {
    data::ReadOptions ro;
    ro.csv.delimiter = ',';
    ro.csv.missingTokens = {"NaN", "inf"};
    auto t = data::readTable(path.string(), ro);
    if (!t) return t.error();
    for (const auto& c : t->columns())
        if (c.type() != data::ColumnType::Numeric && c.type() != data::ColumnType::Count)
            return Error{"'" + path.string() + "': column '" + c.name() +
                         "' is not numeric; the run folder is damaged"};
    return t;
}

Expected<Eigen::VectorXd> vectorColumn(const data::Table& t, const char* name,
                                       const fs::path& path) {
    const data::Column* c = t.find(name);
    if (!c) return Error{"'" + path.string() + "' has no column '" + name + "'"};
    return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(c->values().data(),
                                                             static_cast<Eigen::Index>(c->size())));
}

// The records' bounds (f, lipschitz) are never NaN (privacy::weightedAbsLogLik), so a
// missing one was written as "inf": a weighted record with a non-finite log-likelihood.
Eigen::VectorXd unbounded(Eigen::VectorXd v) {
    for (double& x : v)
        if (std::isnan(x)) x = std::numeric_limits<double>::infinity();
    return v;
}

std::vector<double> asStd(const Eigen::VectorXd& v) {
    return {v.data(), v.data() + v.size()};
}

class Loader {
  public:
    Loader(fs::path dir, const LoadOptions& options) : dir_(std::move(dir)), options_(options) {}

    Expected<LoadedRun> load() {
        if (!fs::is_directory(dir_))
            return Error{"'" + dir_.string() + "' is not a folder; pick a run's output folder"};
        if (!fs::exists(dir_ / "run.json"))
            return Error{"'" + dir_.string() +
                         "' is not a ppsynth run folder (it has no run.json); pick the folder "
                         "'ppsynth-cli run --out' wrote"};
        auto j = readJson(dir_ / "run.json");
        if (!j) return j.error();
        try {
            return loadFrom(*j);
        } catch (const json::exception& e) {
            return Error{"'" + (dir_ / "run.json").string() + "' lacks what a run writes (" +
                         e.what() + "); the run folder is damaged or from another program"};
        }
    }

  private:
    bool wantsSynthetic(const std::string& name) const {
        const auto& only = options_.syntheticFor;
        return options_.synthetic &&
               (only.empty() || std::find(only.begin(), only.end(), name) != only.end());
    }

    // One stage name for the whole load, so progress printers can throttle it.
    Status step() {
        Progress p{"loading the run", 0, static_cast<double>(done_++), static_cast<double>(total_)};
        if (report(options_.progress, p) == Continue::Stop)
            return Error::cancelled("loading the run was cancelled");
        return {};
    }

    Expected<LoadedRun> loadFrom(const json& j) {
        LoadedRun out;
        RunResult& run = out.run;
        auto config = parseRunConfig(j.at("configuration").dump());
        if (!config) return config.error().prefixed("run.json: configuration: ");
        run.config = std::move(*config);
        const std::size_t m = static_cast<std::size_t>(run.config.synthesis.m);
        total_ = 1 + run.config.synthesizers.size();
        for (const auto& sc : run.config.synthesizers)
            if (wantsSynthetic(sc.name)) total_ += m;
        for (const auto& name : options_.syntheticFor)
            if (!run.config.find(name)) {
                std::string have;
                for (const auto& sc : run.config.synthesizers)
                    have += (have.empty() ? "" : ", ") + sc.name;
                return Error{"the run has no synthesizer '" + name + "' (it has " + have + ")"};
            }

        if (Status s = step(); !s) return s.error();
        if (Status s = readData(j, out); !s) return s.error();
        auto inputs = prepareRunInputs(run.config, out.table);
        if (!inputs) return inputs.error().prefixed("the data file '" + out.dataPath + "': ");
        run.inputs = std::move(*inputs);
        const auto records = j.at("data").at("records").get<std::size_t>();
        if (run.inputs.recordCount() != records)
            return Error{"the data file '" + out.dataPath + "' gives " +
                         std::to_string(run.inputs.recordCount()) + " records, the run had " +
                         std::to_string(records)};
        run.design = designOf(run.config, run.inputs);
        if (auto w = j.find("warnings"); w != j.end() && w->is_array())
            for (const auto& e : *w)
                if (e.is_string()) run.warnings.push_back(e.get<std::string>());
        run.parameterNames = j.at("parameter_names").get<std::vector<std::string>>();
        run.seconds = number(j, "seconds");

        const json& all = j.at("synthesizers");
        run.synthesizers.resize(run.config.synthesizers.size());
        for (std::size_t s = 0; s < run.config.synthesizers.size(); ++s) {
            const auto& sc = run.config.synthesizers[s];
            if (!all.contains(sc.name))
                return Error{"run.json has no results for the synthesizer '" + sc.name + "'"};
            auto& r = run.synthesizers[s];
            r.name = sc.name;
            r.scheme = sc.scheme;
            summariesFrom(all.at(sc.name), r);
            if (Status st = step(); !st) return st.error();
            if (Status st = readRecords(run, r, s == 0); !st) return st.error();
            if (wantsSynthetic(sc.name))
                if (Status st = readSynthetic(run, r); !st) return st.error();
            if (options_.draws)
                if (Status st = readDraws(run, r); !st) return st.error();
            r.weights = privacy::summarizeWeights(r.records.alpha);
            r.irSummary = privacy::summarizeRisk(r.records.ir, run.config.risk.threshold);
            r.records.irTop = std::move(r.irSummary.top);  // record indices: RecordLevel's
            r.irSummary.top.clear();
        }
        // The run measured whack-a-mole against its unweighted fit, which is the
        // unweighted synthesizer's when the run has one.
        for (const auto& u : run.synthesizers)
            if (u.scheme == Scheme::Unweighted)
                for (auto& r : run.synthesizers)
                    r.records.whackAMole = privacy::whackAMole(u.records.ir, r.records.ir,
                                                               run.config.risk.whackAMoleRise);
        return out;
    }

    Status readData(const json& j, LoadedRun& out) {
        std::string recorded = out.run.config.data.path, sha;
        if (auto it = j.find("data_file"); it != j.end()) {
            recorded = it->at("path").get<std::string>();
            if (!it->at("sha256").is_null()) sha = it->at("sha256").get<std::string>();
        }
        out.dataPath = options_.dataPath.empty() ? recorded : options_.dataPath;
        std::error_code ec;
        if (!fs::is_regular_file(out.dataPath, ec))
            return Error{"the run's data file '" + out.dataPath +
                         "' is not there; if it moved, give its new location (--data FILE)"};
        auto data = readRunData(out.run.config, out.dataPath, sha);
        if (!data) return data.error();
        out.run.dataSha256 = data->sha256;
        out.dataVerified = !sha.empty();
        out.table = std::move(data->table);
        return {};
    }

    Status readRecords(RunResult& run, SynthesizerResult& r, bool first) {
        const fs::path path = dir_ / "confidential" / (r.name + "_records.csv");
        auto t = readNumericCsv(path);
        if (!t) return t.error();
        const auto n = run.inputs.recordCount();
        if (t->rowCount() != n)
            return Error{"'" + path.string() + "' has " + std::to_string(t->rowCount()) +
                         " records, the run had " + std::to_string(n)};
        auto row = vectorColumn(*t, "row", path);
        auto y = vectorColumn(*t, "y", path);
        auto alpha = vectorColumn(*t, "alpha", path);
        auto f = vectorColumn(*t, "f", path);
        auto lip = vectorColumn(*t, "lipschitz", path);
        auto ir = vectorColumn(*t, "ir", path);
        for (const auto* v : {&row, &y, &alpha, &f, &lip, &ir})
            if (!*v) return v->error();
        // The records must be the data's: same rows, same y (written exactly, shortest
        // round-trip), whatever the checksum said.
        for (std::size_t i = 0; i < n; ++i) {
            const auto e = static_cast<Eigen::Index>(i);
            if ((*row)[e] != static_cast<double>(run.inputs.keptRows[i] + 1) ||
                (*y)[e] != run.inputs.yOriginal[e])
                return Error{"'" + path.string() + "' record " + std::to_string(i + 1) +
                             " does not match the data file (row " +
                             std::to_string(run.inputs.keptRows[i] + 1) +
                             "); the data changed since the run"};
        }
        r.records.alpha = std::move(*alpha);
        r.records.recordDelta = unbounded(std::move(*lip));
        if (r.scheme == Scheme::TopCode) r.records.recordDelta.setConstant(kNaN);  // no bound
        r.records.ir = asStd(*ir);
        if (t->find("pairwise_weight")) {
            auto pw = vectorColumn(*t, "pairwise_weight", path);
            r.records.pairwiseWeight = asStd(*pw);
        }
        if (first) run.f = unbounded(std::move(*f));
        return {};
    }

    Status readSynthetic(const RunResult& run, SynthesizerResult& r) {
        // writeRunOutput wrote these in the CSV writer's dialect, not the data file's: a
        // synthetic value equal to the data's missing code is a value here.
        auto ro = columnOptionsFor(run.config);
        if (!ro) return ro.error();
        // They hold the modelled columns only (syntheticTable): overrides of others name
        // columns these files do not have.
        std::erase_if(ro->typeOverrides,
                      [&](const auto& o) { return !modelledColumn(run.config, o.first); });
        // The top-coding comparator has one dataset (the top-coded data), not m.
        const std::size_t m =
            r.scheme == Scheme::TopCode ? 1 : static_cast<std::size_t>(run.config.synthesis.m);
        for (std::size_t l = 0; l < m; ++l) {
            const fs::path path = dir_ / datasetFile(r.name, r.scheme, l);
            if (Status s = step(); !s) return s;
            auto t = data::readTable(path.string(), *ro);
            if (!t) return t.error();
            // Several sensitive variables: each one's values, variable after variable.
            std::vector<double> values;
            for (const auto& target : sensitiveVariables(run.config)) {
                const data::Column* c = t->find(target);
                if (!c || (c->type() != data::ColumnType::Numeric &&
                           c->type() != data::ColumnType::Count))
                    return Error{"'" + path.string() + "' has no numeric column '" + target + "'"};
                if (c->size() != run.inputs.recordCount() || c->missingCount() > 0)
                    return Error{"'" + path.string() +
                                 "' does not hold one synthetic value per "
                                 "record; the run folder is damaged"};
                const auto& v = c->values();
                values.insert(values.end(), v.begin(), v.end());
            }
            r.synthetic.push_back(std::move(values));
        }
        return {};
    }

    Status readDraws(const RunResult& run, SynthesizerResult& r) {
        const fs::path path = dir_ / "confidential" / (r.name + "_draws.csv");
        if (!fs::exists(path)) return {};
        auto t = readNumericCsv(path);
        if (!t) return t.error();
        const auto cols = static_cast<Eigen::Index>(run.parameterNames.size());
        r.draws.resize(static_cast<Eigen::Index>(t->rowCount()), cols);
        for (Eigen::Index p = 0; p < cols; ++p) {
            const data::Column* c = t->find(run.parameterNames[static_cast<std::size_t>(p)]);
            if (!c)
                return Error{"'" + path.string() + "' has no column '" +
                             run.parameterNames[static_cast<std::size_t>(p)] + "'"};
            for (std::size_t s = 0; s < c->size(); ++s)
                r.draws(static_cast<Eigen::Index>(s), p) = c->value(s);
        }
        return {};
    }

    fs::path dir_;
    const LoadOptions& options_;
    std::size_t done_ = 0, total_ = 0;
};

}  // namespace

Expected<LoadedRun> loadRunFolder(const std::string& dir, const LoadOptions& options) {
    Loader loader(dir, options);
    return loader.load();
}

Expected<RunResult> loadRunOutput(const std::string& dir, const LoadOptions& options) {
    auto loaded = loadRunFolder(dir, options);
    if (!loaded) return loaded.error();
    return std::move(loaded->run);
}

}  // namespace ppsynth::study
