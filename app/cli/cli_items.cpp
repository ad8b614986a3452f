#include "cli_items.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ppsynth/study/cluster_slurm.hpp"

namespace ppsynth::cli {

namespace fs = std::filesystem;

void addItemOptions(CLI::App* cmd, ItemArgs& args) {
    auto* plan = cmd->add_flag("--plan", args.plan,
                               "Only create the output folder with every item listed "
                               "(DIR/plan.json), for `ppsynth-cli cluster submit DIR`");
    auto* item = cmd->add_option("--item", args.item,
                                 "Compute only item K (0-based, as listed in DIR/plan.json) "
                                 "into a planned folder")
                     ->check(CLI::NonNegativeNumber);
    auto* items = cmd->add_option("--items", args.items, "Compute only items A to B, e.g. 3-7");
    plan->excludes(item)->excludes(items);
    item->excludes(items);
}

std::string applyItemOptions(const ItemArgs& args, study::StudyOptions& so) {
    so.planOnly = args.plan;
    if (args.item >= 0) {
        so.items = study::StudyOptions::ItemRange{static_cast<std::size_t>(args.item),
                                                  static_cast<std::size_t>(args.item)};
    } else if (!args.items.empty()) {
        std::size_t a = 0, b = 0;
        char dash = 0;
        std::istringstream in(args.items);
        if (!(in >> a >> dash >> b) || dash != '-' || !in.eof() || a > b ||
            args.items.find_first_not_of("0123456789-") != std::string::npos)
            return "--items '" + args.items +
                   "': write a range of item numbers A-B with A <= B, e.g. 3-7";
        so.items = study::StudyOptions::ItemRange{a, b};
    }
    return "";
}

std::string recordPlanCommand(const std::string& dir, const std::string& command,
                              const std::string& config) {
    std::error_code ec;
    auto s =
        study::cluster::recordPlanRun(dir, command, config, fs::current_path(ec).string(), dir);
    return s ? "" : s.message();
}

}  // namespace ppsynth::cli
