// `ppsynth-cli examples --out DIR [--overwrite]`: writes the bundled example datasets
// (simulated from their fixed default seeds) as DIR/<name>.csv, each atomically; a file of
// that name already there is refused (before any is written) unless --overwrite. `--list`
// names and describes them.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_commands.hpp"
#include "cli_guard.hpp"
#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/common/name_list.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/data/io.hpp"

namespace ppsynth::cli {

namespace {

struct ExamplesArgs {
    std::string out;
    bool list = false, overwrite = false;
};

int runExamples(const ExamplesArgs& args) {
    if (args.list) {
        for (const auto& e : data::exampleList())
            std::cout << e.name << ": " << e.description << " (seed " << e.defaultSeed << ")\n";
        if (args.out.empty()) return 0;
    }
    if (args.out.empty()) {
        std::cerr << "ppsynth-cli examples: give --out DIR to write the example files, or --list "
                     "to see them\n";
        return 2;
    }
    // That the folder can be written, and what is there already, is checked for every file
    // before any is written.
    if (int refused = refuseUnwritable(args.out, "--out", DestinationUse::Filled); refused != 0)
        return refused;
    std::vector<std::string> existing;
    for (const auto& e : data::exampleList()) {
        const std::string name = std::string(e.name) + ".csv";
        const std::string path = (std::filesystem::path(args.out) / name).string();
        const Status s = checkFileDestination(path, args.overwrite);
        if (s) continue;
        // Without --overwrite the only refusal is a file already there; with it, a non-file.
        if (args.overwrite) {
            std::cerr << "ppsynth-cli examples: " << s.message() << '\n';
            return 1;
        }
        existing.push_back(name);
    }
    if (!existing.empty()) {
        std::cerr << "ppsynth-cli examples: '" << args.out << "' already holds "
                  << quotedNames(existing)
                  << "; choose another folder or allow overwriting (--overwrite replaces "
                  << (existing.size() == 1 ? "it" : "them") << ")\n";
        return 1;
    }
    std::error_code ec;
    std::filesystem::create_directories(args.out, ec);
    if (ec) {
        std::cerr << "ppsynth-cli examples: cannot create folder '" << args.out
                  << "': " << ec.message() << '\n';
        return 1;
    }
    for (const auto& e : data::exampleList()) {
        const std::string path =
            (std::filesystem::path(args.out) / (std::string(e.name) + ".csv")).string();
        const data::Table table = data::makeExample(e.id);
        if (auto s = data::writeTable(table, path); !s) {
            std::cerr << "ppsynth-cli examples: " << s.message() << '\n';
            return 1;
        }
        std::cout << "wrote " << path << " (" << table.rowCount() << " rows, "
                  << table.columnCount() << " columns)\n";
    }
    return 0;
}

const RegisterCommand registerExamples([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<ExamplesArgs>();
    auto* cmd =
        app.add_subcommand("examples", "Write the bundled (simulated) example datasets as CSV");
    cmd->add_option("--out", args->out,
                    "Folder to write <name>.csv into (created if missing; the files must not "
                    "exist, unless --overwrite)");
    cmd->add_flag("--overwrite", args->overwrite, "Replace existing example files there");
    cmd->add_flag("--list", args->list, "List the examples with a one-line description");
    cmd->callback([args, &exitCode] { exitCode = runExamples(*args); });
});

}  // namespace

}  // namespace ppsynth::cli
