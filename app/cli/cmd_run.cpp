// `ppsynth-cli run CONFIG.json --out DIR [--keep-draws]`: one end-to-end run (every
// synthesizer of the configuration) written to DIR; see README for the schema.
// `ppsynth-cli run PROJECT.ppsynth [--out DIR]`: the same for a project's configuration (what
// the GUI's Run button runs); without --out the run goes beside the project, as the GUI saves
// runs, and the project lists it.
#include "cmd_run.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_commands.hpp"
#include "cli_guard.hpp"
#include "cli_progress.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/study/project.hpp"
#include "ppsynth/study/project_save.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/topcode.hpp"

namespace ppsynth::cli {

namespace {

int outputRefused(const RunArgs& a, const Status& s) {
    std::cerr << "error: " << s.message();
    if (!a.overwrite && s.kind() == ErrorKind::AlreadyExists)
        std::cerr << " (--overwrite replaces an earlier run folder)";
    return std::cerr << "\n", 1;
}

bool namesProject(const std::string& path) {
    return std::filesystem::path(path).extension() == ".ppsynth" || study::isProjectFile(path);
}

// "LW: ε 2.31; EM: ε 2.3", as the GUI's run list shows a saved run before reading it.
std::string epsilonSummary(const study::RunResult& run) {
    std::string out;
    for (const auto& s : run.synthesizers) {
        char value[32];
        std::snprintf(value, sizeof value, "%.3g", s.epsilon.perDataset);
        out += (out.empty() ? "" : "; ") + s.name +
               (s.formalGuarantee() ? ": \u03b5 " + std::string(value) : ": no formal guarantee");
    }
    return out;
}

// "no formal guarantee (top-coded at the 0.975 quantile, t = 71, 6 records capped; a
// comparator, never released)": where the synthesizers show epsilon.
std::string topCodeLine(const study::PublicResult& s) {
    std::ostringstream o;
    o << study::kNoFormalGuarantee;
    const auto* tc = s.topCode();
    if (tc && tc->variables.empty())
        o << " (top-coded at the " << tc->q << " quantile, t = " << tc->threshold << ", "
          << tc->capped << " records capped; a comparator, never released)";
    if (tc && !tc->variables.empty()) {
        o << " (each variable top-coded at its " << tc->q << " quantile:";
        for (std::size_t k = 0; k < tc->variables.size(); ++k)
            o << (k ? "," : "") << " " << tc->variables[k].name
              << " t = " << tc->variables[k].threshold << ", " << tc->variables[k].capped
              << " capped";
        o << "; a comparator, never released)";
    }
    return o.str();
}

// "scale a = 0.412 of lipschitz for target epsilon 5 (reached within 2%); refits: a 1 ->
// epsilon 12.3, a 0.41 -> epsilon 5.04": every refit of the search, as run.json has them.
std::string scaleLine(const study::ScaledDetails& d) {
    std::ostringstream o;
    o << "scale a = " << d.a << " of " << study::toString(d.of);
    if (!d.target) return o.str() + " (given)";
    o << " for target epsilon " << *d.target;
    if (!d.reachable)
        o << " (NOT REACHABLE: the " << study::toString(d.of)
          << " weights alone give a lower epsilon; a would have to exceed 1)";
    else if (d.converged)
        o << " (reached)";
    else
        o << " (NOT reached within the tolerance" << (d.noiseLimited ? ": refit noise" : "")
          << "; the closest at or below it is kept)";
    o << "; refits:";
    for (std::size_t i = 0; i < d.tries.size(); ++i)
        o << (i ? "," : "") << " a " << d.tries[i].a << " -> epsilon " << d.tries[i].epsilon;
    return o.str();
}

// What is run and where it goes: a configuration to --out, or a project's configuration to
// --out or, without it, to a new folder beside the project that the project then lists.
struct Plan {
    study::RunConfig config;
    std::string out;  // the run folder (beside the project: where it is expected to go)
    std::optional<study::Project> project;  // set when the run is added to the project
    std::string runName;                    // "run_3" under the project's runs folder
};

Expected<Plan> makePlan(const RunArgs& a) {
    Plan plan;
    if (!namesProject(a.config)) {
        auto config = study::loadRunConfig(a.config);
        if (!config && std::filesystem::path(a.config).extension() != ".json")
            return Error{"'" + a.config +
                         "' is neither a run configuration (JSON) nor a ppsynth project "
                         "(.ppsynth): " +
                         config.message()};
        if (!config) return Error{config.message()};
        plan.config = std::move(*config);
        plan.out = a.out;
        return plan;
    }
    auto project = study::loadProject(a.config);
    if (!project) return Error{project.message()};
    auto config = study::projectRunConfig(*project);
    if (!config)
        return Error{"project '" + std::filesystem::path(a.config).filename().string() +
                     "': " + config.message()};
    plan.config = std::move(*config);
    plan.out = a.out;
    if (plan.out.empty()) {
        plan.runName = "run_" + std::to_string(project->runs.size() + 1);
        plan.out = study::projectRunsFolder(a.config) + "/" + plan.runName;
        plan.project = std::move(*project);
    }
    return plan;
}

// Beside the project: the run folder, then the project file listing it (a failure removes
// the folder again and leaves the project file as it was).
Status writeIntoProject(const RunArgs& a, const Plan& plan, const study::RunResult& result,
                        const data::Table& table, const study::OutputOptions& oo,
                        std::string& folder) {
    std::string names;
    for (const auto& s : result.synthesizers) names += (names.empty() ? "" : ", ") + s.name;
    study::RunToSave run;
    run.label = "Run " + std::to_string(plan.project->runs.size() + 1) + " (" + names + ")";
    run.summary = epsilonSummary(result);
    run.name = plan.runName;
    run.write = [&](const std::string& dir) {
        return study::writeRunOutput(result, table, dir, oo);
    };
    auto written = study::saveProject(*plan.project, a.config, {run});
    if (!written) return Error{written.message()};
    folder = written->front();
    return {};
}

// Several sensitive variables: one line per variable and one for the joint measures, under the
// synthesizer's line (whose ECDF and S_pMSE are the first variable's).
void printSeveralUtility(const study::UtilityReport& u) {
    for (const auto& v : u.variables)
        std::cout << "  " << v.target << ": ECDF U_m " << v.ecdf.Um << ", S_pMSE " << v.pmse.sPmse
                  << " (reference " << v.pmse.sPmseReference << "), regression mean CI overlap "
                  << v.regressionMeanOverlap << "\n";
    const auto& j = *u.joint;
    std::cout << "  joint: S_pMSE " << j.pmse.sPmse << " (reference " << j.pmse.sPmseReference
              << ")";
    if (j.correlationComputed)
        std::cout << ", correlation difference ||R_syn - R_orig||_F " << j.correlation.frobenius
                  << " (largest pair " << j.correlation.maxAbs << ")";
    std::cout << ", mean CI overlap of each on the others:";
    for (const auto& r : j.regressions) std::cout << " " << r.target << " " << r.meanOverlap;
    std::cout << "\n";
}

}  // namespace

int runRun(const RunArgs& a) {
    if (a.out.empty() && !namesProject(a.config))
        return std::cerr << "error: --out is required for a run configuration: the folder the "
                            "run is written to\n",
               2;
    // What is at --out, and that it can be written, is checked first, before the configuration
    // is read and long before the run is computed (and again when it is written).
    if (!a.out.empty()) {
        if (int refused = refuseInsideBundle(
                a.out, "--out", "a run folder, with record-level weights, bounds and risks");
            refused != 0)
            return refused;
        if (auto s = study::checkRunDestination(a.out, a.overwrite); !s) return outputRefused(a, s);
    }
    auto plan = makePlan(a);
    if (!plan) return std::cerr << "error: " << plan.message() << "\n", 1;
    // Beside a project the runs folder may not be there yet: the folder above it must take
    // it, and the project file must be writable.
    if (plan->project) {
        if (int refused = refuseInsideBundle(
                plan->out, "--out", "a run folder, with record-level weights, bounds and risks");
            refused != 0)
            return refused;
        if (int refused = refuseUnwritable(study::projectRunsFolder(a.config),
                                           "the project's runs folder", DestinationUse::Replaced);
            refused != 0)
            return refused;
        if (int refused = refuseUnwritable(a.config, "the project file", DestinationUse::Replaced);
            refused != 0)
            return refused;
    }
    warnAboutLeftovers(plan->project ? study::projectRunsFolder(a.config) : plan->out);
    const auto& cancel = installCancelHandler();
    const auto* config = &plan->config;
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
    std::string folder = plan->out;
    if (plan->project) {
        if (auto s = writeIntoProject(a, *plan, *result, table, oo, folder); !s)
            return std::cerr << "error: " << s.message() << "\n", 1;
    } else if (auto s = study::writeRunOutput(*result, table, plan->out, oo); !s) {
        return outputRefused(a, s);
    }
    for (std::size_t k = warned; k < result->warnings.size(); ++k)
        std::cerr << "warning: " << result->warnings[k] << "\n";
    std::cerr << "wrote " << folder << " (" << result->synthesizers.size() << " synthesizers, "
              << result->seconds << " s)\n";
    if (plan->project) std::cerr << "added the run to the project " << a.config << "\n";
    // Rows left out (missing values, listwise deletion) are said, not only kept in run.json.
    const auto& report = result->inputs.report;
    std::cout << "records: " << result->inputs.recordCount() << " of " << report.rowsInTable
              << " rows modelled";
    if (report.rowsDropped > 0)
        std::cout << ", " << report.rowsDropped << " dropped by listwise deletion (missing values)";
    std::cout << "\n";
    for (const auto& note : report.notes) std::cerr << "note: " << note << "\n";
    for (const auto& s : result->synthesizers) {
        if (s.formalGuarantee())
            std::cout << s.name << ": epsilon " << s.epsilon.perDataset << " per dataset, "
                      << s.epsilon.total << " for m = " << s.epsilon.m << " (" << s.deltaMethod
                      << "), " << privacy::verdictLine(s.epsilonDiagnostics) << "; mean IR "
                      << s.irSummary.mean << "; median weight " << s.weights.median;
        else
            std::cout << s.name << ": " << topCodeLine(s) << "; mean IR " << s.irSummary.mean;
        if (const auto* d = s.scaled()) std::cout << "; " << scaleLine(*d);
        if (s.utility)
            std::cout << "; ECDF U_m " << s.utility->ecdf.Um << ", S_pMSE " << s.utility->pmse.sPmse
                      << " (reference " << s.utility->pmse.sPmseReference << ")";
        std::cout << "\n";
        if (s.utility && s.utility->joint) printSeveralUtility(*s.utility);
        const auto note = privacy::argmaxNote(s.epsilonDiagnostics,
                                              models::isMixtureFamily(config->model.family));
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
        "run",
        "Fit, weight, synthesize and measure risk for every synthesizer of a configuration "
        "or of a project (.ppsynth, saved by the GUI: what its Run button runs)");
    cmd->add_option("config", args->config,
                    "Run configuration (JSON), or a project file (.ppsynth, or any file whose "
                    "\"format\" is \"ppsynth-project\")")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--out", args->out,
                    "Output folder (must not exist, unless --overwrite). Required for a "
                    "configuration; for a project, without --out the run goes to a new folder "
                    "PROJECT_runs/run_N beside the project file, as the GUI saves runs, and the "
                    "project lists it (the project file is rewritten)");
    cmd->add_flag("--keep-draws", args->keepDraws,
                  "Also write each synthesizer's parameter draws (confidential/)");
    cmd->add_flag("--overwrite", args->overwrite,
                  "Replace an earlier run folder there (only a ppsynth run folder holding "
                  "nothing else, or an empty folder)");
    cmd->callback([args, &exitCode] { exitCode = runRun(*args); });
});

}  // namespace
}  // namespace ppsynth::cli
