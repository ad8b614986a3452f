// `ppsynth-cli utility --original F --synthetic F1 F2 ... --target COL[,COL2,...]
// [--regress a,b] [--quantiles 0.15,0.9] [--bootstrap B] [--level 0.95] [--seed S]
// [--synthesizer NAME] [--threads T] [--no-pmse] [--full] [--json]`: the utility measures of
// METHOD.md section 6 for partially synthetic files made by any tool (the predictors must be the
// original's, row by row), or with --full for fully synthetic ones (statistics, ECDF and pMSE;
// no regression). Several targets (METHOD.md section 9): every measure per variable and the
// joint ones (study::computeSeveralUtility), as a run with several sensitive variables reports
// them. The JSON is the same object as a run's synthesizers.<name>.utility
// (study/utility_json.hpp). Column options may be given again (--target a --target b) and take
// a name with commas whole (cli_columns.hpp).
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_columns.hpp"
#include "cli_commands.hpp"
#include "cli_progress.hpp"
#include "cli_read_options.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/study/joint_utility.hpp"
#include "ppsynth/study/utility_json.hpp"
#include "ppsynth/study/utility_report.hpp"

namespace ppsynth::cli {

namespace {

struct UtilityArgs {
    std::string original;
    std::vector<std::string> targets, synthetic, regress;
    std::string synthesizer;  // the run's synthesizer that made the files, if any
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

void printTerms(const std::vector<study::RegressionTerm>& terms) {
    std::size_t w = 16;
    for (const auto& t : terms) w = std::max(w, t.term.size() + 2);
    const int width = static_cast<int>(w);
    std::cout << std::setw(width) << "regression term" << std::setw(36) << "original"
              << std::setw(36) << "synthetic (combining rules)"
              << "CI overlap\n";
    for (const auto& t : terms)
        std::cout << std::setw(width) << t.term << std::setw(36) << interval(t.original)
                  << std::setw(36) << interval(t.synthetic) << fmt(t.ciOverlap, 3) << "\n";
}

void printPmse(const study::PmseReport& p) {
    std::cout << "pMSE " << fmt(p.pmse) << ", S_pMSE " << fmt(p.sPmse) << " (k = " << p.k
              << "; reference " << fmt(p.sPmseReference) << ": " << p.referenceNote << ")\n";
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
        std::cout << "\n";
        printTerms(r.regression);
        std::cout << "mean CI overlap " << fmt(r.regressionMeanOverlap, 3) << "\n";
    }
    std::cout << "\nECDF: U_m " << fmt(r.ecdf.Um) << ", U_a " << fmt(r.ecdf.Ua)
              << " (averaged over datasets)\n";
    if (r.pmse.computed) printPmse(r.pmse);
    for (const auto& w : r.warnings) std::cout << "warning: " << w << "\n";
}

// Several targets: each variable's table, then the joint measures (METHOD.md section 9).
void printSeveral(const study::UtilityReport& r) {
    for (std::size_t k = 0; k < r.variables.size(); ++k) {
        if (k > 0) std::cout << "\n";
        printTable(r.variables[k]);
    }
    const auto& j = *r.joint;
    std::cout << "\njoint utility of";
    for (const auto& t : j.targets) std::cout << " '" << t << "'";
    std::cout << "\n";
    if (j.pmse.computed) {
        std::cout << "joint ";
        printPmse(j.pmse);
    }
    if (j.correlationComputed) {
        const auto& c = j.correlation;
        std::cout << "correlation matrix difference: Frobenius norm " << fmt(c.frobenius)
                  << ", largest |r_s - r_o| " << fmt(c.maxAbs) << " (averaged over datasets)\n";
        std::cout << std::setw(36) << "pair" << std::setw(12) << "original" << std::setw(12)
                  << "synthetic"
                  << "difference\n";
        for (const auto& p : c.pairs)
            std::cout << std::setw(36) << (p.a + " ~ " + p.b) << std::setw(12) << fmt(p.original)
                      << std::setw(12) << fmt(p.synthetic) << fmt(p.difference) << "\n";
    }
    for (const auto& reg : j.regressions) {
        std::cout << "\n" << reg.target << " on the predictors and the other targets";
        if (reg.terms.empty()) {
            std::cout << ": " << reg.warning << "\n";
            continue;
        }
        std::cout << " (mean CI overlap " << fmt(reg.meanOverlap, 3) << ")\n";
        printTerms(reg.terms);
    }
    std::cout << "\n";
    for (const auto& w : r.warnings) std::cout << "warning: " << w << "\n";
}

// The original's and the synthetic files' positions in a core message, as their names.
std::string named(std::string msg, const UtilityArgs& a) {
    for (std::size_t l = 0; l < a.synthetic.size(); ++l) {
        const std::string pos = "synthetic file " + std::to_string(l + 1);
        if (msg.starts_with(pos)) msg = "'" + a.synthetic[l] + "'" + msg.substr(pos.size());
    }
    if (msg.starts_with("the original")) msg = "'" + a.original + "'" + msg.substr(12);
    return msg;
}

// The inputs of several targets: the first target's, with every variable's values one after
// the other (study::computeSeveralUtility's layout).
Expected<study::UtilityInputs> severalInputs(const data::Table& original,
                                             const std::vector<data::Table>& synthetic,
                                             const UtilityArgs& a) {
    for (std::size_t k = 0; k < a.targets.size(); ++k)
        for (std::size_t o = 0; o < k; ++o)
            if (a.targets[o] == a.targets[k])
                return Error{"--target names '" + a.targets[k] + "' twice; give each once"};
    for (const auto& p : a.regress)
        if (std::find(a.targets.begin(), a.targets.end(), p) != a.targets.end())
            return Error{"'" + p +
                         "' is a target; it cannot be in --regress too (each target is "
                         "regressed on the predictors and the other targets already)"};
    if (a.full)
        return Error{
            "--full takes one --target: the joint measures of several targets compare "
            "records row by row, which fully synthetic files do not allow"};
    std::optional<study::UtilityInputs> first;
    for (const auto& target : a.targets) {
        auto in = study::utilityInputsFromTables(original, synthetic, target, a.regress, false);
        if (!in) return in.error();
        if (!first) {
            first = std::move(*in);
            continue;
        }
        first->original.insert(first->original.end(), in->original.begin(), in->original.end());
        for (std::size_t l = 0; l < synthetic.size(); ++l)
            first->synthetic[l].insert(first->synthetic[l].end(), in->synthetic[l].begin(),
                                       in->synthetic[l].end());
    }
    return std::move(*first);
}

int runUtility(UtilityArgs a) {
    const auto& cancel = installCancelHandler();
    auto options = readOptionsFrom(a.read);
    if (!options) return std::cerr << "error: " << options.message() << "\n", 2;
    auto original = data::readTable(a.original, *options);
    if (!original) return std::cerr << "error: " << original.message() << "\n", 1;
    // Column names as the original names them (a name may hold commas).
    for (auto [list, option] :
         {std::pair{&a.targets, "--target"}, std::pair{&a.regress, "--regress"}}) {
        auto names = columnArguments(*list, *original, a.original, option);
        if (!names) return std::cerr << "error: " << names.message() << "\n", 1;
        *list = std::move(*names);
    }
    std::vector<data::Table> synthetic;
    for (const auto& f : a.synthetic) {
        auto t = data::readTable(f);
        if (!t) return std::cerr << "error: " << t.message() << "\n", 1;
        synthetic.push_back(std::move(*t));
    }
    const bool several = a.targets.size() > 1;
    auto inputs = several ? severalInputs(*original, synthetic, a)
                          : study::utilityInputsFromTables(*original, synthetic, a.targets.front(),
                                                           a.regress, a.full);
    if (!inputs) return std::cerr << "error: " << named(inputs.message(), a) << "\n", 1;
    study::UtilityOptions o;
    o.quantiles = a.quantiles;
    o.bootstrap = a.bootstrap;
    o.level = a.level;
    o.pmse = !a.noPmse;
    o.regress = a.regress;
    // A run's files: its posterior predictive draws, and its own bootstrap seeds.
    std::uint64_t seed = a.seed;
    if (!a.synthesizer.empty()) {
        inputs->posteriorPredictive = true;
        inputs->originalSeed = utilitySeed(a.seed, "confidential data");
        seed = utilitySeed(a.seed, a.synthesizer);
    }
    auto report = several
                      ? study::computeSeveralUtility(*inputs, a.targets, o, a.seed, a.synthesizer,
                                                     a.threads, stderrProgress(cancel))
                      : study::computeUtility(*inputs, o, seed, a.threads, stderrProgress(cancel));
    if (!report)
        return std::cerr << (cancel.load() ? "cancelled: " : "error: ") << report.message() << "\n",
               cancel.load() ? 130 : 1;
    if (a.json)
        std::cout << study::toJson(*report) << "\n";
    else if (several)
        printSeveral(*report);
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
    cmd->add_option("--target", a->targets,
                    "The synthesized column, or several (comma separated or the option given "
                    "again, in the synthesis order): each one's measures and the joint ones. "
                    "A column whose name has commas is given exactly as the file names it")
        ->required();
    cmd->add_option("--regress", a->regress,
                    "Predictors of the regression and the propensity model (comma separated or "
                    "the option given again, as --target; released unchanged)");
    cmd->add_option("--quantiles", a->quantiles, "Quantiles besides mean and median")
        ->delimiter(',')
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--bootstrap", a->bootstrap, "Bootstrap replicates B (default 1000)")
        ->check(CLI::Range(2, 1000000));
    cmd->add_option("--level", a->level, "Interval coverage (default 0.95)")
        ->check(CLI::Range(0.5, 0.9999));
    cmd->add_option("--seed", a->seed, "Bootstrap seed (default 1)");
    cmd->add_option("--synthesizer", a->synthesizer,
                    "The files are this synthesizer's datasets from a ppsynth run: with --seed "
                    "set to the run's seed, the bootstrap intervals are the run's own");
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
