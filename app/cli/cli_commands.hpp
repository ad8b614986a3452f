// Subcommand registry: each cmd_*.cpp adds one CLI11 subcommand whose callback runs the
// command and stores its exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace ppsynth::cli {

using Registrar = std::function<void(CLI::App& app, int& exitCode)>;

std::vector<Registrar>& registry();

struct RegisterCommand {
    explicit RegisterCommand(Registrar r) { registry().push_back(std::move(r)); }
};

}  // namespace ppsynth::cli
