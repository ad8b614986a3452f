#include "cli_items.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/common/atomic_file.hpp"

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
    const fs::path planPath = fs::path(dir) / "plan.json";
    std::ifstream in(planPath, std::ios::binary);
    nlohmann::json plan = nlohmann::json::parse(in, nullptr, false);
    if (plan.is_discarded() || !plan.is_object())
        return "'" + planPath.string() + "' is not valid JSON";
    std::error_code ec;
    plan["run"] = {{"command", command},
                   {"config", config},
                   {"working_folder", fs::current_path(ec).string()},
                   {"out", dir}};
    auto s = writeFileAtomically(planPath.string(), [&](std::ostream& out) -> Status {
        out << plan.dump(2) << "\n";
        return {};
    });
    return s ? "" : s.message();
}

}  // namespace ppsynth::cli
