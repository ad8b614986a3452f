// `ppsynth-cli utility --original F --synthetic F1 F2 ... --target COL [--regress a,b]
// [--quantiles 0.15,0.9] [--bootstrap B] [--level 0.95] [--seed S] [--threads T] [--no-pmse]
// [--full] [--json]`: the utility measures of METHOD.md section 6 for partially synthetic
// files made by any tool (the predictors must be the original's, row by row), or with --full
// for fully synthetic ones (statistics, ECDF and pMSE; no regression). The JSON is the same
// object as a run's synthesizers.<name>.utility (study/utility_json.hpp).
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli_commands.hpp"
#include "cli_progress.hpp"
#include "cli_read_options.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/study/utility_json.hpp"
#include "ppsynth/study/utility_report.hpp"

namespace ppsynth::cli {

namespace {

struct UtilityArgs {
    std::string original, target;
    std::vector<std::string> synthetic, regress;
    std::vector<double> quantiles{0.15, 0.90};
    int bootstrap = 1000;
    double level = 0.95;
    std::uint64_t seed = 1;
    int threads = 2;
    bool noPmse = false, json = false, full = false;
    ReadFlags read;  // the original's; synthetic files are detected
};

std::string fmt(double v, int precision = 4) {
    if (!std::isfinite(v)) return "-";
    std::ostringstream o;
    o << std::setprecision(precision) << v;
    return o.str();
}

std::string interval(const study::EstimateInterval& e) {
    return fmt(e.estimate, 6) + " [" + fmt(e.lower, 6) + ", " + fmt(e.upper, 6) + "]";
}

void printTable(const study::UtilityReport& r) {
    std::cout << "utility of " << r.datasets << " synthetic dataset(s) of '" << r.target << "', "
              << r.records << " records; " << fmt(100 * r.level, 3)
              << "% intervals, bootstrap B = " << r.bootstrap << "\n\n";
    std::cout << std::left << std::setw(16) << "statistic" << std::setw(36) << "original"
              << std::setw(36) << "synthetic (pooled)"
              << "CI overlap\n";
    for (const auto& s : r.statistics)
        std::cout << std::setw(16) << s.name << std::setw(36) << interval(s.original)
                  << std::setw(36) << interval(s.synthetic) << fmt(s.ciOverlap, 3) << "\n";
    if (!r.regression.empty()) {
        std::size_t w = 16;
        for (const auto& t : r.regression) w = std::max(w, t.term.size() + 2);
        const int width = static_cast<int>(w);
        std::cout << "\n"
                  << std::setw(width) << "regression term" << std::setw(36) << "original"
                  << std::setw(36) << "synthetic (combining rules)"
                  << "CI overlap\n";
        for (const auto& t : r.regression)
            std::cout << std::setw(width) << t.term << std::setw(36) << interval(t.original)
                      << std::setw(36) << interval(t.synthetic) << fmt(t.ciOverlap, 3) << "\n";
        std::cout << "mean CI overlap " << fmt(r.regressionMeanOverlap, 3) << "\n";
    }
    std::cout << "\nECDF: U_m " << fmt(r.ecdf.Um) << ", U_a " << fmt(r.ecdf.Ua)
              << " (averaged over datasets)\n";
    if (r.pmse.computed)
        std::cout << "pMSE " << fmt(r.pmse.pmse) << ", S_pMSE " << fmt(r.pmse.sPmse)
                  << " (k = " << r.pmse.k << "; reference " << fmt(r.pmse.sPmseReference) << ": "
                  << r.pmse.referenceNote << ")\n";
    for (const auto& w : r.warnings) std::cout << "warning: " << w << "\n";
}

int runUtility(const UtilityArgs& a) {
    const auto& cancel = installCancelHandler();
    auto options = readOptionsFrom(a.read);
    if (!options) return std::cerr << "error: " << options.message() << "\n", 2;
    auto original = data::readTable(a.original, *options);
    if (!original) return std::cerr << "error: " << original.message() << "\n", 1;
    std::vector<data::Table> synthetic;
    for (const auto& f : a.synthetic) {
        auto t = data::readTable(f);
        if (!t) return std::cerr << "error: " << t.message() << "\n", 1;
        synthetic.push_back(std::move(*t));
    }
    auto inputs = study::utilityInputsFromTables(*original, synthetic, a.target, a.regress, a.full);
    if (!inputs) {
        std::string msg = inputs.message();
        // Name the file rather than its position.
        for (std::size_t l = 0; l < a.synthetic.size(); ++l) {
            const std::string pos = "synthetic file " + std::to_string(l + 1);
            if (msg.starts_with(pos)) msg = "'" + a.synthetic[l] + "'" + msg.substr(pos.size());
        }
        if (msg.starts_with("the original")) msg = "'" + a.original + "'" + msg.substr(12);
        return std::cerr << "error: " << msg << "\n", 1;
    }
    study::UtilityOptions o;
    o.quantiles = a.quantiles;
    o.bootstrap = a.bootstrap;
    o.level = a.level;
    o.pmse = !a.noPmse;
    o.regress = a.regress;
    auto report = study::computeUtility(*inputs, o, a.seed, a.threads, stderrProgress(cancel));
    if (!report)
        return std::cerr << (cancel.load() ? "cancelled: " : "error: ") << report.message() << "\n",
               cancel.load() ? 130 : 1;
    if (a.json)
        std::cout << study::toJson(*report) << "\n";
    else
        printTable(*report);
    return 0;
}

const RegisterCommand registerUtility([](CLI::App& app, int& exitCode) {
    auto a = std::make_shared<UtilityArgs>();
    auto* cmd = app.add_subcommand(
        "utility", "Utility of synthetic files against the original (METHOD.md section 6)");
    cmd->add_option("--original", a->original, "The confidential file (CSV, sav, dta, sas7bdat)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--synthetic", a->synthetic, "Synthetic files, rows in the original's order")
        ->required()
        ->expected(1, -1)
        ->check(CLI::ExistingFile);
    cmd->add_option("--target", a->target, "The synthesized column")->required();
    cmd->add_option("--regress", a->regress,
                    "Predictors of the regression and the propensity model (comma separated; "
                    "released unchanged)")
        ->delimiter(',');
    cmd->add_option("--quantiles", a->quantiles, "Quantiles besides mean and median")
        ->delimiter(',')
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--bootstrap", a->bootstrap, "Bootstrap replicates B (default 1000)")
        ->check(CLI::Range(2, 1000000));
    cmd->add_option("--level", a->level, "Interval coverage (default 0.95)")
        ->check(CLI::Range(0.5, 0.9999));
    cmd->add_option("--seed", a->seed, "Bootstrap seed (default 1)");
    cmd->add_option("--threads", a->threads, "Threads")->check(CLI::Range(1, 256));
    cmd->add_flag("--no-pmse", a->noPmse, "Skip the propensity-score measure");
    cmd->add_flag("--full", a->full,
                  "Fully synthetic files: the predictors are synthetic too (any row count); "
                  "the regression is skipped");
    cmd->add_flag("--json", a->json, "The report as JSON on stdout");
    addReadFlags(cmd, a->read, "the original (synthetic files are detected)");
    cmd->callback([a, &exitCode] { exitCode = runUtility(*a); });
});

}  // namespace
}  // namespace ppsynth::cli
