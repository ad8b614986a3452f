// `ppsynth-cli clean OUT [--dry-run]`: removes what a ppsynth stopped part-way (killed, a
// crash, a power cut) left beside OUT: an unfinished run folder OUT.partial-PID, an unfinished
// bundle or file OUT.tmp-PID-N, an earlier folder moved aside OUT.old-PID-N (core's
// common/leftovers.hpp). Only entries whose name and content are ppsynth's are touched, never
// one a running process may still be writing, nor the only copy of an earlier folder.
#include <iostream>
#include <memory>
#include <string>

#include "cli_commands.hpp"
#include "ppsynth/common/leftovers.hpp"

namespace ppsynth::cli {

namespace {

struct CleanArgs {
    std::string out;
    bool dryRun = false;
};

int runClean(const CleanArgs& a) {
    const auto found = findLeftovers(a.out);
    if (found.empty()) {
        std::cout << "nothing to clean: no unfinished ppsynth output beside '" << a.out << "'\n";
        return 0;
    }
    int code = 0;
    for (const auto& l : found) {
        if (l.state != Leftover::State::Removable) {
            std::cout << "left " << describeLeftover(l) << "\n";
            continue;
        }
        if (a.dryRun) {
            std::cout << "would remove " << describeLeftover(l) << "\n";
            continue;
        }
        if (Status s = removeLeftover(l); !s) {
            std::cerr << "error: " << s.message() << "\n";
            code = 1;
            continue;
        }
        std::cout << "removed " << describeLeftover(l) << "\n";
    }
    return code;
}

const RegisterCommand registerClean([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<CleanArgs>();
    auto* cmd = app.add_subcommand(
        "clean",
        "Remove what a ppsynth stopped part-way left beside an output (unfinished run folders, "
        "bundles and files; they may hold confidential files)");
    cmd->add_option("out", args->out, "The output folder or file a command was writing (its --out)")
        ->required();
    cmd->add_flag("--dry-run", args->dryRun, "Only list what would be removed");
    cmd->callback([args, &exitCode] { exitCode = runClean(*args); });
});

}  // namespace
}  // namespace ppsynth::cli
