// `ppsynth-cli run CONFIG.json --out DIR [--keep-draws]`: one end-to-end run (every
// synthesizer of the configuration) written to DIR; see README for the schema.
#include "cmd_run.hpp"

#include <iostream>

#include "cli_commands.hpp"
#include "cli_guard.hpp"
#include "cli_progress.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"

namespace ppsynth::cli {

namespace {

int outputRefused(const RunArgs& a, const Status& s) {
    std::cerr << "error: " << s.message();
    if (!a.overwrite && s.message().find("already exists") != std::string::npos)
        std::cerr << " (--overwrite replaces an earlier run folder)";
    return std::cerr << "\n", 1;
}

}  // namespace

int runRun(const RunArgs& a) {
    if (int refused = refuseInsideBundle(
            a.out, "--out", "a run folder, with record-level weights, bounds and risks");
        refused != 0)
        return refused;
    // What is at --out, and that it can be written, is checked now, not after the run has been
    // computed (and again when it is written).
    if (auto s = study::checkRunDestination(a.out, a.overwrite); !s) return outputRefused(a, s);
    warnAboutLeftovers(a.out);
    const auto& cancel = installCancelHandler();
    auto config = study::loadRunConfig(a.config);
    if (!config) return std::cerr << "error: " << config.message() << "\n", 1;
    auto input = study::readRunData(*config);
    if (!input) return std::cerr << "error: " << input.message() << "\n", 1;
    const data::Table& table = input->table;
    study::RunOptions ro;
    ro.cancel = &cancel;
    ro.progress = stderrProgress(cancel);
    // What is about to be fitted, before the first fit: a predictor that became a block of
    // dummy columns, or a knob that makes the run degenerate, is seen before waiting for it.
    std::size_t warned = 0;
    ro.started = [&warned](const study::RunStart& start) {
        for (const auto& line : data::describeDesign(start.design)) std::cerr << line << "\n";
        for (const auto& w : start.warnings) std::cerr << "warning: " << w << "\n";
        warned = start.warnings.size();
    };
    auto result = study::runStudy(*config, table, ro);
    // Ctrl-C: whatever the run was doing when it stopped, nothing reaches DIR.
    if (cancel.load()) return std::cerr << "cancelled: nothing was written\n", 130;
    if (!result) return std::cerr << "error: " << result.message() << "\n", 1;
    result->dataSha256 = input->sha256;
    study::OutputOptions oo;
    oo.keepDraws = a.keepDraws;
    oo.overwrite = a.overwrite;
    oo.warning = [](const std::string& w) { std::cerr << "warning: " << w << "\n"; };
    if (auto s = study::writeRunOutput(*result, table, a.out, oo); !s) return outputRefused(a, s);
    for (std::size_t k = warned; k < result->warnings.size(); ++k)
        std::cerr << "warning: " << result->warnings[k] << "\n";
    std::cerr << "wrote " << a.out << " (" << result->synthesizers.size() << " synthesizers, "
              << result->seconds << " s)\n";
    // Rows left out (missing values, listwise deletion) are said, not only kept in run.json.
    const auto& report = result->inputs.report;
    std::cout << "records: " << result->inputs.recordCount() << " of " << report.rowsInTable
              << " rows modelled";
    if (report.rowsDropped > 0)
        std::cout << ", " << report.rowsDropped << " dropped by listwise deletion (missing values)";
    std::cout << "\n";
    for (const auto& note : report.notes) std::cerr << "note: " << note << "\n";
    for (const auto& s : result->synthesizers) {
        std::cout << s.name << ": epsilon " << s.epsilon.perDataset << " per dataset, "
                  << s.epsilon.total << " for m = " << s.epsilon.m << " (" << s.deltaMethod << "), "
                  << privacy::verdictLine(s.epsilonDiagnostics) << "; mean IR " << s.irSummary.mean
                  << "; median weight " << s.weights.median;
        if (s.utility)
            std::cout << "; ECDF U_m " << s.utility->ecdf.Um << ", S_pMSE " << s.utility->pmse.sPmse
                      << " (reference " << s.utility->pmse.sPmseReference << ")";
        std::cout << "\n";
        const auto note =
            privacy::argmaxNote(s.epsilonDiagnostics, config->model.family == "normal-mixture");
        if (!note.empty()) std::cerr << "note: " << s.name << ": " << note << "\n";
        // A utility measure that failed or cannot be trusted is said, not hidden in run.json.
        if (!s.utilityError.empty())
            std::cerr << "warning: " << s.name << ": utility: " << s.utilityError << "\n";
        if (s.utility)
            for (const auto& w : s.utility->warnings)
                std::cerr << "warning: " << s.name << ": utility: " << w << "\n";
    }
    return 0;
}

namespace {

const RegisterCommand registerRun([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<RunArgs>();
    auto* cmd = app.add_subcommand(
        "run", "Fit, weight, synthesize and measure risk for every synthesizer of a configuration");
    cmd->add_option("config", args->config, "Run configuration (JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--out", args->out, "Output folder (must not exist, unless --overwrite)")
        ->required();
    cmd->add_flag("--keep-draws", args->keepDraws,
                  "Also write each synthesizer's parameter draws (confidential/)");
    cmd->add_flag("--overwrite", args->overwrite,
                  "Replace an earlier run folder there (only a ppsynth run folder holding "
                  "nothing else, or an empty folder)");
    cmd->callback([args, &exitCode] { exitCode = runRun(*args); });
});

}  // namespace
}  // namespace ppsynth::cli
