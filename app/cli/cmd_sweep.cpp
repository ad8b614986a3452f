// `ppsynth-cli sweep CONFIG.json --out DIR`: the risk-utility sweep over (c, g) (METHOD.md
// section 8). Finished points are saved in DIR as they finish; after Ctrl-C or a crash the
// same command resumes. See README ("Studies") for the configuration.
#include <cstdio>
#include <iostream>

#include "cli_commands.hpp"
#include "cli_guard.hpp"
#include "cli_items.hpp"
#include "cli_progress.hpp"
#include "cmd_run.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/sweep.hpp"

namespace ppsynth::cli {

namespace {

struct SweepArgs {
    std::string config, out;
    int threads = 0;
    ItemArgs items;
};

int runSweepCommand(const SweepArgs& a) {
    if (int refused = refuseInsideBundle(
            a.out, "--out", "a sweep folder, with risks and utility of the confidential data");
        refused != 0)
        return refused;
    // Before the configuration or the data are read: the sweep fills --out as points finish.
    if (int refused = refuseUnwritable(a.out, "--out", DestinationUse::Filled); refused != 0)
        return refused;
    warnAboutLeftovers(a.out);
    const auto& cancel = installCancelHandler();
    auto config = study::loadSweepConfig(a.config);
    if (!config) return std::cerr << "error: " << config.message() << "\n", 1;
    if (a.threads > 0) config->threads = a.threads;
    auto input = study::readRunData(config->run);
    if (!input) return std::cerr << "error: " << input.message() << "\n", 1;
    study::StudyOptions so;
    so.cancel = &cancel;
    so.progress = stderrProgress(cancel);
    if (auto bad = applyItemOptions(a.items, so); !bad.empty())
        return std::cerr << "error: " << bad << "\n", 2;
    auto s = study::runSweep(*config, *input, a.out, so);
    if (!s) return std::cerr << "error: " << s.message() << "\n", cancel.load() ? 130 : 1;
    if (so.planOnly) {
        if (auto bad = recordPlanCommand(a.out, "sweep", a.config); !bad.empty())
            return std::cerr << "error: " << bad << "\n", 1;
        std::cerr << "planned " << a.out << ": " << s->items
                  << " items (item 0 is the shared unweighted fit, 1 to " << s->items - 1
                  << " the grid points); run them with --item K, or `ppsynth-cli cluster "
                     "submit "
                  << a.out << "`\n";
        return 0;
    }
    if (so.items) {
        std::cerr << "items " << so.items->first << "-" << so.items->last << " of " << a.out << ": "
                  << s->pointsRun << " computed, " << s->pointsResumed << " already saved ("
                  << s->seconds << " s"
                  << (s->preparedLoaded ? "; the shared unweighted fit read from item 0's "
                                          "items/unweighted.prepared"
                                        : "")
                  << ")\n";
        return 0;
    }
    std::cerr << "wrote " << a.out << " (" << s->pointsRun << " points run, " << s->pointsResumed
              << " resumed, " << s->seconds << " s)\n";
    std::printf("%5s %5s %5s  %-10s %9s %9s %8s %8s\n", "point", "c", "g", "mechanism", "Delta",
                "epsilon", "IR mean", "weight");
    for (const auto& r : s->rows)
        std::printf("%5d %5.2f %5.2f  %-10s %9.3f %9.3f %8.4f %8.4f\n", r.point, r.knobs.c,
                    r.knobs.g, r.mechanism.c_str(), r.deltaAlphaX, r.epsilon, r.ir.mean,
                    r.mechanism == "EM" ? r.scalarWeight : r.weights.median);
    if (!s->config.points.empty() && s->config.points.front().targetEpsilon)
        std::printf(
            "(target-epsilon grid: sweep.csv's target_epsilon column; LW-scaled's scale "
            "a is its scalar_weight)\n");
    return 0;
}

const RegisterCommand registerSweep([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<SweepArgs>();
    auto* cmd = app.add_subcommand(
        "sweep", "Risk-utility sweep: LW and a matched EM at every (c, g) point of a grid");
    cmd->add_option("config", args->config, "Sweep configuration (JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--out", args->out,
                    "Output folder (created; a folder of the same configuration is resumed)")
        ->required();
    cmd->add_option("--threads", args->threads, "Override the number of points run in parallel");
    addItemOptions(cmd, args->items);
    cmd->callback([args, &exitCode] { exitCode = runSweepCommand(*args); });
});

}  // namespace
}  // namespace ppsynth::cli
