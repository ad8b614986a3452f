// `ppsynth-cli risk --original F --synthetic F1 [F2 ...] --target COL[,COL2 ...]
// [--known a,b] [--radius 0.2[,r2 ...]] [--absolute] [--pairwise] [--out RECORDS.csv
// [--overwrite]] [--json]`: identification risk of synthetic files made by any tool. Several
// targets: a synthetic record is close when it is within the radius in every one of them (a
// box, METHOD.md section 9), with one radius for all or one per target.
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "cli_columns.hpp"
#include "cli_commands.hpp"
#include "cli_guard.hpp"
#include "cli_progress.hpp"
#include "cli_read_options.hpp"
#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/number_format.hpp"
#include "ppsynth/data/patterns.hpp"
#include "ppsynth/privacy/box_risk.hpp"
#include "ppsynth/privacy/identification_risk.hpp"

namespace ppsynth::cli {

namespace {

struct RiskArgs {
    std::string original, out;
    std::vector<std::string> synthetic, known, targets;
    std::vector<double> radii{0.2};
    bool absolute = false, pairwise = false, json = false, overwrite = false;
    int threads = 2;
    ReadFlags read;  // the original's; synthetic files are detected
};

Expected<std::vector<double>> targetValues(const data::Table& t, const std::string& file,
                                           const std::string& target) {
    const auto* c = t.find(target);
    if (!c) return Error{"'" + file + "' has no column '" + target + "'"};
    if (c->type() != data::ColumnType::Numeric && c->type() != data::ColumnType::Count)
        return Error{"'" + file + "': column '" + target + "' is " +
                     std::string(data::toString(c->type())) + ", not numbers"};
    for (std::size_t i = 0; i < c->size(); ++i)
        if (c->isMissing(i))
            return Error{"'" + file + "': column '" + target + "' row " + std::to_string(i + 1) +
                         " is missing; identification risk needs every value"};
    return c->values();
}

nlohmann::ordered_json summaryJson(const privacy::RiskSummary& s, const std::vector<double>& ir) {
    nlohmann::ordered_json top = nlohmann::ordered_json::array();
    for (auto i : s.top) top.push_back({{"row", i + 1}, {"ir", ir[i]}});
    return {{"mean", s.mean},
            {"median", s.median},
            {"q1", s.q1},
            {"q3", s.q3},
            {"iqr", s.iqr},
            {"max", s.max},
            {"threshold", s.threshold},
            {"above_threshold", s.aboveThreshold},
            {"top", top}};
}

int runRisk(RiskArgs a) {
    if (int refused = refuseInsideBundle(a.out, "--out", "per-record identification risks");
        refused != 0)
        return refused;
    // An existing --out is refused now, not after the risks have been computed.
    if (int refused = refuseExistingFile(a.out, a.overwrite); refused != 0) return refused;
    if (int refused = refuseUnwritable(a.out, "--out", DestinationUse::Replaced); refused != 0)
        return refused;
    warnAboutLeftovers(a.out);
    const auto& cancel = installCancelHandler();
    auto options = readOptionsFrom(a.read);
    if (!options) return std::cerr << "error: " << options.message() << "\n", 2;
    auto original = data::readTable(a.original, *options);
    if (!original) return std::cerr << "error: " << original.message() << "\n", 1;
    // Column names as the original names them (a name may hold commas).
    for (auto [list, option] :
         {std::pair{&a.targets, "--target"}, std::pair{&a.known, "--known"}}) {
        auto names = columnArguments(*list, *original, a.original, option);
        if (!names) return std::cerr << "error: " << names.message() << "\n", 1;
        *list = std::move(*names);
    }
    const std::size_t q = a.targets.size();
    if (a.radii.size() != 1 && a.radii.size() != q)
        return std::cerr << "error: --radius gives " << a.radii.size() << " radii for " << q
                         << " targets; give one for all or one per target\n",
               2;
    // Several targets: each one's values, target after target (privacy/box_risk.hpp).
    auto valuesOf = [&a](const data::Table& t,
                         const std::string& file) -> Expected<std::vector<double>> {
        std::vector<double> all;
        for (const auto& target : a.targets) {
            auto v = targetValues(t, file, target);
            if (!v) return v.error();
            all.insert(all.end(), v->begin(), v->end());
        }
        return all;
    };
    auto y = valuesOf(*original, a.original);
    if (!y) return std::cerr << "error: " << y.message() << "\n", 1;
    std::vector<std::size_t> rows(y->size() / q);
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    auto patterns = data::computePatterns(*original, a.known, rows);
    if (!patterns) return std::cerr << "error: " << patterns.message() << "\n", 1;
    std::vector<std::vector<double>> synth;
    for (const auto& f : a.synthetic) {
        auto t = data::readTable(f);
        if (!t) return std::cerr << "error: " << t.message() << "\n", 1;
        auto ys = valuesOf(*t, f);
        if (!ys) return std::cerr << "error: " << ys.message() << "\n", 1;
        if (ys->size() != y->size())
            return std::cerr << "error: '" << f << "' has " << ys->size() / q << " rows but '"
                             << a.original << "' has " << y->size() / q
                             << "; risk compares records row by row\n",
                   1;
        synth.push_back(std::move(*ys));
    }
    privacy::RiskOptions ro;
    ro.radius = {a.radii.front(), !a.absolute};
    std::vector<privacy::Radius> radii;
    for (std::size_t k = 0; k < q; ++k)
        radii.push_back({a.radii[a.radii.size() == 1 ? 0 : k], !a.absolute});
    ro.threads = a.threads;
    ro.progress = stderrProgress(cancel);
    std::vector<double> ir, at;
    std::size_t singletons = 0;
    if (a.pairwise) {
        auto pr = q > 1 ? privacy::boxPairwiseRisk(*y, q, synth, patterns->id, ro, radii)
                        : privacy::pairwiseRisk(*y, synth, patterns->id, ro);
        if (!pr) return std::cerr << "error: " << pr.message() << "\n", 1;
        ir = std::move(pr->marginal);
        at = std::move(pr->at);
        singletons = pr->singletons;
    } else {
        auto r = q > 1 ? privacy::boxMarginalRisk(*y, q, synth, patterns->id, ro, radii)
                       : privacy::marginalRisk(*y, synth, patterns->id, ro);
        if (!r) return std::cerr << "error: " << r.message() << "\n", 1;
        ir = std::move(*r);
    }
    if (!a.out.empty()) {
        // Again: a file may have appeared there while the risks were computed.
        if (int refused = refuseExistingFile(a.out, a.overwrite); refused != 0) return refused;
        auto s = writeFileAtomically(a.out, [&](std::ostream& o) -> Status {
            o << "row,ir" << (a.pairwise ? ",pairwise_weight" : "") << "\n";
            for (std::size_t i = 0; i < ir.size(); ++i) {
                o << i + 1 << ',' << data::formatNumber(ir[i]);
                if (a.pairwise) o << ',' << data::formatNumber(at[i]);
                o << '\n';
            }
            return {};
        });
        if (!s) return std::cerr << "error: " << s.message() << "\n", 1;
    }
    const auto summary = privacy::summarizeRisk(ir);
    if (a.json) {
        nlohmann::ordered_json j = {{"records", ir.size()},
                                    {"datasets", synth.size()},
                                    {"patterns", patterns->count()},
                                    {"radius", a.radii.front()},
                                    {"radius_mode", a.absolute ? "absolute" : "percentage"},
                                    {"ir", summaryJson(summary, ir)}};
        if (q > 1) {
            j["targets"] = a.targets;
            j["radii"] = a.radii.size() == 1 ? std::vector<double>(q, a.radii.front()) : a.radii;
        }
        if (a.pairwise) {
            const auto ps = privacy::summarizeRisk(at);
            j["pairwise_weight"] = {
                {"mean", ps.mean}, {"median", ps.median}, {"q1", ps.q1}, {"q3", ps.q3}};
            j["pairwise_singletons"] = singletons;
        }
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "records " << ir.size() << ", synthetic datasets " << synth.size()
                  << ", patterns " << patterns->count() << "\n"
                  << "IR mean " << summary.mean << ", median " << summary.median << ", IQR "
                  << summary.iqr << ", max " << summary.max << ", above " << summary.threshold
                  << ": " << summary.aboveThreshold << "\n";
        if (a.pairwise)
            std::cout << "records alone in their pattern (pairwise fell back to 1 - IR): "
                      << singletons << "\n";
    }
    return 0;
}

const RegisterCommand registerRisk([](CLI::App& app, int& exitCode) {
    auto a = std::make_shared<RiskArgs>();
    auto* cmd = app.add_subcommand(
        "risk", "Identification risk of synthetic files (from ppsynth or any other tool)");
    cmd->add_option("--original", a->original, "The confidential file")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--synthetic", a->synthetic, "Synthetic files, rows in the original's order")
        ->required()
        ->expected(1, -1);
    cmd->add_option("--target", a->targets,
                    "The synthesized column, or several (comma separated or the option given "
                    "again): then a record is close when it is close in every one. A column "
                    "whose name has commas is given exactly as the file names it")
        ->required();
    cmd->add_option("--known", a->known,
                    "Variables the intruder knows (comma separated or the option given again, "
                    "as --target)");
    cmd->add_option("--radius", a->radii,
                    "Closeness radius r (default 0.2: within 20%); with several targets one "
                    "for all or one per target (comma separated)")
        ->delimiter(',')
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--absolute", a->absolute, "r is an absolute distance instead of a share of |y|");
    cmd->add_flag("--pairwise", a->pairwise, "Also compute pairwise weights (paper 004)");
    cmd->add_option("--out", a->out,
                    "Per-record CSV: row, ir[, pairwise_weight] (must not exist, unless "
                    "--overwrite)");
    cmd->add_flag("--overwrite", a->overwrite, "Replace an existing --out file");
    cmd->add_flag("--json", a->json, "Summary as JSON on stdout");
    cmd->add_option("--threads", a->threads, "Threads")->check(CLI::Range(1, 256));
    addReadFlags(cmd, a->read, "the original (synthetic files are detected)");
    cmd->callback([a, &exitCode] { exitCode = runRisk(*a); });
});

}  // namespace
}  // namespace ppsynth::cli
