// The options that run a study item by item, one process per item (a cluster job array):
// `--plan`, `--item K`, `--items A-B`, shared by `sweep` and `simulate`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "ppsynth/study/study_options.hpp"

namespace ppsynth::cli {

struct ItemArgs {
    bool plan = false;
    long item = -1;
    std::string items;  // "A-B"
};

void addItemOptions(CLI::App* cmd, ItemArgs& args);

// Puts the options into `so`; returns an error message ("" when they are fine).
std::string applyItemOptions(const ItemArgs& args, study::StudyOptions& so);

// After --plan: records in DIR/plan.json how an item is run (the working folder, the
// command and its configuration file as typed), for `ppsynth-cli cluster submit DIR`.
std::string recordPlanCommand(const std::string& dir, const std::string& command,
                              const std::string& config);

}  // namespace ppsynth::cli
