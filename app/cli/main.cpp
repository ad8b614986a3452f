// ppsynth-cli: batch and headless access to core. Each subcommand lives in its own file
// and registers itself through cli_commands.hpp.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli_commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "ppsynth: risk-weighted Bayesian synthetic data with a measured privacy guarantee"};
    app.set_version_flag("--version", std::string("ppsynth-cli ") + PPSYNTH_VERSION);
    app.require_subcommand(1);
    int exitCode = 0;
    for (const auto& reg : ppsynth::cli::registry()) reg(app, exitCode);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    return exitCode;
}
