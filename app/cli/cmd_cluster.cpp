// `ppsynth-cli cluster submit|status|resubmit DIR`: a planned study folder
// (`sweep|simulate CONFIG --out DIR --plan`) run as Slurm job arrays, one item per task; the
// items land in DIR as a local run's would, and `sweep|simulate CONFIG --out DIR` assembles
// the curve or summaries once every item is there.
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_commands.hpp"
#include "ppsynth/study/cluster_slurm.hpp"
#include "ppsynth/common/atomic_file.hpp"

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

Status writeText(const fs::path& path, const std::string& text) {
    return writeFileAtomically(path.string(), [&](std::ostream& out) -> Status {
        out << text;
        return {};
    });
}

std::string cliPath() {
    std::error_code ec;
    auto p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("ppsynth-cli") : p.string();
}

std::string now() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return text;
}

fs::path scriptPath(const Plan& plan) {
    return fs::path(plan.dir) / "cluster" / "submit.sbatch";
}

// The shell text that submits `items` (for DIR/cluster/submit.sh and --dry-run).
std::string submitShell(const Plan& plan, const Submission& s) {
    const std::string script = shellQuote(scriptPath(plan).string());
    std::ostringstream sh;
    sh << "#!/bin/bash\n# Submits the items of " << plan.dir << " to Slurm.\nset -euo pipefail\n";
    if (!s.first.empty())
        sh << "FIRST=$(sbatch --parsable --array=" << arraySpec(s.first) << " " << script
           << ")\necho \"submitted items " << arraySpec(s.first) << " as job ${FIRST%%;*}\"\n";
    if (!s.second.empty())
        sh << "SECOND=$(sbatch --parsable --array=" << arraySpec(s.second)
           << (s.first.empty() ? "" : " --dependency=afterok:${FIRST%%;*}") << " " << script
           << ")\necho \"submitted items " << arraySpec(s.second) << " as job ${SECOND%%;*}\"\n";
    return sh.str();
}

// Submits one array; its job id, or "" after printing why not.
std::string sbatchArray(const Plan& plan, const std::vector<std::size_t>& items,
                        const std::string& dependency, int maxParallel) {
    std::string array = arraySpec(items);
    if (maxParallel > 0) array += "%" + std::to_string(maxParallel);
    std::string cmd = "sbatch --parsable --array=" + array;
    if (!dependency.empty()) cmd += " --dependency=afterok:" + dependency;
    cmd += " " + shellQuote(scriptPath(plan).string());
    auto r = runCommand(cmd);
    std::string id = r.output.substr(0, r.output.find_first_of(";\n"));
    if (r.code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        std::cerr << "error: `" << cmd << "` failed (exit " << r.code << "): " << r.output;
        return "";
    }
    return id;
}

Status recordJob(const Plan& plan, const std::string& id, const std::vector<std::size_t>& items) {
    const fs::path path = fs::path(plan.dir) / "cluster" / "jobs.json";
    json j = json::object();
    if (std::ifstream in(path); in) j = json::parse(in, nullptr, false);
    if (!j.is_object() || !j.contains("jobs")) j = {{"jobs", json::array()}};
    j["jobs"].push_back({{"id", id}, {"items", items}, {"submitted", now()}});
    return writeText(path, j.dump(2) + "\n");
}

// keepScript: a resubmission without sbatch options keeps the first submission's script
// (its partition, time and memory).
int submitItems(const Plan& plan, const std::vector<std::size_t>& items, const ClusterArgs& a,
                bool keepScript = false) {
    const Submission s = splitByDependency(plan, items);
    std::error_code ec;
    fs::create_directories(fs::path(plan.dir) / "cluster" / "logs", ec);
    if (ec)
        return std::cerr << "error: cannot create " << plan.dir << "/cluster: " << ec.message()
                         << "\n",
               1;
    const bool keep = keepScript && fs::exists(scriptPath(plan), ec) &&
                      a.sbatch.partition.empty() && a.sbatch.time.empty() && a.sbatch.mem.empty() &&
                      a.sbatch.cpusPerTask == 0;
    if (!keep)
        if (auto st = writeText(scriptPath(plan), sbatchScript(plan, a.sbatch, cliPath())); !st)
            return std::cerr << "error: " << st.message() << "\n", 1;
    const fs::path shell = fs::path(plan.dir) / "cluster" / "submit.sh";
    if (auto st = writeText(shell, submitShell(plan, s)); !st)
        return std::cerr << "error: " << st.message() << "\n", 1;
    std::cerr << "wrote " << scriptPath(plan).string() << " and " << shell.string() << "\n";
    if (a.dryRun) {
        std::cout << submitShell(plan, s);
        return 0;
    }
    if (!onPath("sbatch"))
        return std::cerr << "error: sbatch is not on PATH here; on a machine that submits to "
                            "your cluster (a login node) run: bash "
                         << shell.string() << "\n",
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
    const auto states = itemStates(*plan);
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < states.size(); ++i)
        if (states[i].state == ItemState::NotSubmitted || states[i].state == ItemState::Failed)
            todo.push_back(i);
    if (todo.empty()) return std::cout << "nothing to submit: every item is done or queued\n", 0;
    return submitItems(*plan, todo, a);
}

int runStatus(const ClusterArgs& a) {
    auto plan = planOf(a);
    if (!plan) return 1;
    const auto states = itemStates(*plan);
    std::map<ItemState, int> count;
    for (std::size_t i = 0; i < states.size(); ++i) {
        ++count[states[i].state];
        std::cout << i << " " << plan->items[i].name << ": " << stateName(states[i].state)
                  << (states[i].detail.empty() ? "" : " (" + states[i].detail + ")") << "\n";
    }
    std::cout << count[ItemState::Done] << " of " << states.size() << " done, "
              << count[ItemState::Running] << " running, " << count[ItemState::Pending]
              << " pending, " << count[ItemState::Failed] << " failed, "
              << count[ItemState::NotSubmitted] << " not submitted\n";
    for (std::size_t i = 0; i < states.size(); ++i)
        if (states[i].state == ItemState::Failed) {
            const std::string tail = logTail(*plan, i, 15);
            std::cout << "---- item " << i << " (" << plan->items[i].name << ") log, last lines:\n"
                      << (tail.empty() ? "(no log)\n" : tail);
        }
    if (count[ItemState::Done] == static_cast<int>(states.size()))
        std::cout << "every item is done: run `ppsynth-cli " << plan->command << " " << plan->config
                  << " --out " << plan->out << "` to assemble the results\n";
    else if (count[ItemState::Failed] > 0)
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
    for (std::size_t i : todo)
        if (states[i].detail.find("DependencyNeverSatisfied") != std::string::npos &&
            onPath("scancel")) {
            const std::string task = states[i].detail.substr(4, states[i].detail.find(',') - 4);
            runCommand("scancel " + shellQuote(task));
        }
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
