// `ppsynth-cli cluster submit|status|resubmit DIR`: a planned study folder
// (`sweep|simulate CONFIG --out DIR --plan`) run as Slurm job arrays, one item per task; the
// items land in DIR as a local run's would, and `sweep|simulate CONFIG --out DIR` assembles
// the curve or summaries once every item is there.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_commands.hpp"
#include "ppsynth/study/cluster_slurm.hpp"

namespace ppsynth::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace study::cluster;

struct ClusterArgs {
    std::string dir, engine = "slurm";
    SbatchOptions sbatch;
    bool dryRun = false, failed = false;
};

std::string cliPath() {
    std::error_code ec;
    auto p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("ppsynth-cli") : p.string();
}

// Submits one array; its job id, or "" after printing why not.
std::string sbatchArray(const Plan& plan, const std::vector<std::size_t>& items,
                        const std::string& dependency, int maxParallel) {
    std::string cmd = "sbatch";
    for (const auto& arg : sbatchArguments(plan, items, dependency, maxParallel))
        cmd += " " + shellQuote(arg);
    auto r = runCommand(cmd);
    auto id = parsedJobId(r.output);
    if (r.code != 0 || !id) {
        std::cerr << "error: `" << cmd << "` failed (exit " << r.code << "): " << r.output;
        return "";
    }
    return *id;
}

// keepScript: a resubmission without sbatch options keeps the first submission's script
// (its partition, time and memory).
int submitItems(const Plan& plan, const std::vector<std::size_t>& items, const ClusterArgs& a,
                bool keepScript = false) {
    const bool keep = keepScript && a.sbatch.partition.empty() && a.sbatch.time.empty() &&
                      a.sbatch.mem.empty() && a.sbatch.cpusPerTask == 0;
    auto written = writeSubmitFiles(plan, items, a.sbatch, cliPath(), keep);
    if (!written) return std::cerr << "error: " << written.message() << "\n", 1;
    const Submission& s = *written;
    std::cerr << "wrote " << scriptPath(plan) << " and " << submitShellPath(plan) << "\n";
    if (a.dryRun) {
        std::cout << submitShell(plan, s, a.sbatch.maxParallel);
        return 0;
    }
    if (!onPath("sbatch"))
        return std::cerr << "error: sbatch is not on PATH here; on a machine that submits to "
                            "your cluster (a login node) run: bash "
                         << submitShellPath(plan) << "\n",
               1;
    std::string first;
    if (!s.first.empty()) {
        first = sbatchArray(plan, s.first, "", a.sbatch.maxParallel);
        if (first.empty()) return 1;
        if (auto st = recordJob(plan, first, s.first); !st)
            return std::cerr << "error: " << st.message() << "\n", 1;
        std::cout << "submitted items " << arraySpec(s.first) << " as job " << first << "\n";
    }
    if (!s.second.empty()) {
        auto second = sbatchArray(plan, s.second, first, a.sbatch.maxParallel);
        if (second.empty()) return 1;
        if (auto st = recordJob(plan, second, s.second); !st)
            return std::cerr << "error: " << st.message() << "\n", 1;
        std::cout << "submitted items " << arraySpec(s.second) << " as job " << second
                  << (first.empty() ? "" : " (after job " + first + ")") << "\n";
    }
    return 0;
}

std::optional<Plan> planOf(const ClusterArgs& a) {
    if (a.engine != "slurm") {
        std::cerr << "error: --engine '" << a.engine << "': only slurm is supported\n";
        return std::nullopt;
    }
    std::string error;
    auto plan = readPlan(a.dir, error);
    if (!plan) std::cerr << "error: " << error << "\n";
    return plan;
}

int runSubmit(const ClusterArgs& a) {
    auto plan = planOf(a);
    if (!plan) return 1;
    const auto todo = itemsToSubmit(itemStates(*plan));
    if (todo.empty()) return std::cout << "nothing to submit: every item is done or queued\n", 0;
    return submitItems(*plan, todo, a);
}

int runStatus(const ClusterArgs& a) {
    if (!planOf(a)) return 1;
    auto status = clusterStatus(a.dir, 15);
    if (!status) return std::cerr << "error: " << status.message() << "\n", 1;
    const Plan& plan = status->plan;
    const auto& states = status->states;
    const StateCounts& count = status->counts;
    for (std::size_t i = 0; i < states.size(); ++i) {
        std::cout << i << " " << plan.items[i].name << ": " << stateName(states[i].state)
                  << (states[i].detail.empty() ? "" : " (" + states[i].detail + ")") << "\n";
    }
    std::cout << countsText(count) << "\n";
    for (const auto& [i, tail] : status->failedLogs)
        std::cout << "---- item " << i << " (" << plan.items[i].name << ") log, last lines:\n"
                  << (tail.empty() ? "(no log)\n" : tail);
    if (count.done == count.total)
        std::cout << "every item is done: run `ppsynth-cli " << plan.command << " " << plan.config
                  << " --out " << plan.out << "` to assemble the results\n";
    else if (count.failed > 0)
        std::cout << "resubmit the failed items with `ppsynth-cli cluster resubmit " << a.dir
                  << " --failed`\n";
    return 0;
}

int runResubmit(const ClusterArgs& a) {
    if (!a.failed)
        return std::cerr << "error: say which items: --failed (the items that failed or were "
                            "cancelled)\n",
               2;
    auto plan = planOf(a);
    if (!plan) return 1;
    const auto states = itemStates(*plan);
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < states.size(); ++i)
        if (states[i].state == ItemState::Failed) todo.push_back(i);
    if (todo.empty()) return std::cout << "no item has failed\n", 0;
    // Tasks still queued behind a failed prerequisite never start: cancel them first.
    if (onPath("scancel"))
        for (const auto& task : stuckTasks(states, todo)) runCommand("scancel " + shellQuote(task));
    return submitItems(*plan, todo, a, true);
}

void addSbatchOptions(CLI::App* cmd, ClusterArgs& a) {
    cmd->add_option("--engine", a.engine, "The cluster's scheduler (slurm)");
    cmd->add_option("--partition", a.sbatch.partition, "sbatch --partition");
    cmd->add_option("--time", a.sbatch.time, "sbatch --time per item, e.g. 02:00:00");
    cmd->add_option("--cpus-per-task", a.sbatch.cpusPerTask, "sbatch --cpus-per-task")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--mem", a.sbatch.mem, "sbatch --mem per item, e.g. 4G");
    cmd->add_option("--max-parallel", a.sbatch.maxParallel,
                    "At most N items at once (the array's %N)")
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--dry-run", a.dryRun, "Only write DIR/cluster/submit.sbatch and submit.sh");
}

const RegisterCommand registerCluster([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<ClusterArgs>();
    auto* cmd = app.add_subcommand(
        "cluster", "Run a planned study folder (sweep|simulate --plan) as Slurm job arrays");
    cmd->require_subcommand(1);
    auto* submit = cmd->add_subcommand("submit", "Write the sbatch script and submit the items");
    submit->add_option("dir", args->dir, "Planned study folder")->required();
    addSbatchOptions(submit, *args);
    submit->callback([args, &exitCode] { exitCode = runSubmit(*args); });
    auto* status = cmd->add_subcommand("status", "Each item: done, running, pending or failed");
    status->add_option("dir", args->dir, "Planned study folder")->required();
    status->callback([args, &exitCode] { exitCode = runStatus(*args); });
    auto* resubmit = cmd->add_subcommand("resubmit", "Submit the failed items again");
    resubmit->add_option("dir", args->dir, "Planned study folder")->required();
    resubmit->add_flag("--failed", args->failed, "The items that failed or were cancelled");
    addSbatchOptions(resubmit, *args);
    resubmit->callback([args, &exitCode] { exitCode = runResubmit(*args); });
});

}  // namespace
}  // namespace ppsynth::cli
