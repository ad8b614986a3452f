// `ppsynth-cli simulate CONFIG.json --out DIR`: the local-to-global simulation (METHOD.md
// section 7). Finished blocks are saved in DIR as they finish; after Ctrl-C or a crash the
// same command resumes. See README ("Studies") for the configuration.
#include <cstdio>
#include <iostream>

#include "cli_commands.hpp"
#include "cli_guard.hpp"
#include "cli_items.hpp"
#include "cli_progress.hpp"
#include "ppsynth/study/simulate.hpp"

namespace ppsynth::cli {

namespace {

struct SimulateArgs {
    std::string config, out;
    int threads = 0;
    ItemArgs items;
};

int runSimulate(const SimulateArgs& a) {
    // Before the configuration is read: the simulation fills --out as blocks finish.
    if (int refused = refuseUnwritable(a.out, "--out", DestinationUse::Filled); refused != 0)
        return refused;
    warnAboutLeftovers(a.out);
    const auto& cancel = installCancelHandler();
    auto config = study::loadSimulateConfig(a.config);
    if (!config) return std::cerr << "error: " << config.message() << "\n", 1;
    if (a.threads > 0) config->threads = a.threads;
    study::StudyOptions so;
    so.cancel = &cancel;
    so.progress = stderrProgress(cancel);
    if (auto bad = applyItemOptions(a.items, so); !bad.empty())
        return std::cerr << "error: " << bad << "\n", 2;
    auto s = study::runSimulation(*config, a.out, so);
    if (!s) return std::cerr << "error: " << s.message() << "\n", cancel.load() ? 130 : 1;
    if (so.planOnly) {
        if (auto bad = recordPlanCommand(a.out, "simulate", a.config); !bad.empty())
            return std::cerr << "error: " << bad << "\n", 1;
        std::cerr << "planned " << a.out << ": " << s->items
                  << " items (blocks); run them with --item K, or `ppsynth-cli cluster submit "
                  << a.out << "`\n";
        return 0;
    }
    if (so.items) {
        std::cerr << "items " << so.items->first << "-" << so.items->last << " of " << a.out << ": "
                  << s->blocksRun << " computed, " << s->blocksResumed << " already saved ("
                  << s->seconds << " s)\n";
        return 0;
    }
    std::cerr << "wrote " << a.out << " (" << s->blocksRun << " blocks run, " << s->blocksResumed
              << " resumed, " << s->seconds << " s)\n";
    std::printf("%6s  %-10s %8s %8s %8s   %s\n", "n", "mechanism", "min", "median", "max",
                "recommended epsilon (delta_hat)");
    for (const auto& d : s->distributions)
        std::printf("%6zu  %-10s %8.3f %8.3f %8.3f   [%.3f, %.3f] (%.3f, %.3f)\n", d.n,
                    d.mechanism.c_str(), d.min, d.median, d.max, d.recommended.epsilonLow,
                    d.recommended.epsilonHigh, d.deltaHatLow, d.deltaHatHigh);
    return 0;
}

const RegisterCommand registerSimulate([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<SimulateArgs>();
    auto* cmd = app.add_subcommand(
        "simulate", "Local-to-global simulation: Delta over replicate databases of growing size");
    cmd->add_option("config", args->config, "Simulation configuration (JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--out", args->out,
                    "Output folder (created; a folder of the same configuration is resumed)")
        ->required();
    cmd->add_option("--threads", args->threads, "Override the configuration's thread count");
    addItemOptions(cmd, args->items);
    cmd->callback([args, &exitCode] { exitCode = runSimulate(*args); });
});

}  // namespace
}  // namespace ppsynth::cli
