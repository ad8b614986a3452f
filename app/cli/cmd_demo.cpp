// `ppsynth-cli demo [--out DIR] [--several]`: the headless main job. Runs the bundled demo
// configuration (resources/examples/demo.json: Unweighted, LW, CW and EM on the simulated
// income example) end to end and writes its results to DIR. --several runs the demo with three
// sensitive variables instead (resources/examples/household_spending.json: income and two
// expenditures, one epsilon for all three, utility per variable and jointly).
#include <filesystem>
#include <iostream>

#include "cli_commands.hpp"
#include "cmd_run.hpp"

namespace ppsynth::cli {
namespace {

const RegisterCommand registerDemo([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<RunArgs>();
    args->config = std::string(PPSYNTH_EXAMPLES_DIR) + "/demo.json";
    args->out = "ppsynth-demo";
    args->overwrite = true;
    auto* cmd =
        app.add_subcommand("demo", "Run the bundled example end to end (no display needed)");
    cmd->add_option("--out", args->out,
                    "Output folder (an earlier run folder there, holding nothing else, is "
                    "replaced)");
    auto several = std::make_shared<bool>(false);
    cmd->add_flag("--several", *several,
                  "Three sensitive variables: income, food and housing spending of the simulated "
                  "household_spending example (household_spending.json)");
    cmd->callback([args, several, &exitCode] {
        if (*several) args->config = std::string(PPSYNTH_EXAMPLES_DIR) + "/household_spending.json";
        std::cerr << "ppsynth demo: " << args->config << " -> "
                  << std::filesystem::absolute(args->out).string() << "\n";
        exitCode = runRun(*args);
        if (exitCode == 0)
            std::cerr << "results: " << std::filesystem::absolute(args->out).string()
                      << " (run.json, synthetic/, confidential/)\n";
    });
});

}  // namespace
}  // namespace ppsynth::cli
