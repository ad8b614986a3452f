// A planned study folder (`sweep|simulate CONFIG --out DIR --plan`) run as Slurm job arrays:
// the sbatch script, submission with sbatch, and each item's state from the folder, squeue
// and (where accounting runs) sacct. Used by `ppsynth-cli cluster` and the GUI.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ppsynth::study::cluster {

struct PlanItem {
    std::size_t index = 0;
    std::string name, file;
    std::vector<std::size_t> after;  // items that must finish first
};

struct Plan {
    std::string dir;  // absolute
    std::string kind;
    std::vector<PlanItem> items;
    std::string command, config, workingFolder, out;  // how one item is run
};

// DIR/plan.json, or a message saying what to do.
std::optional<Plan> readPlan(const std::string& dir, std::string& error);

struct SbatchOptions {
    std::string partition, time, mem;
    int cpusPerTask = 0, maxParallel = 0;
};

// DIR/cluster/submit.sbatch: one item per array task ($SLURM_ARRAY_TASK_ID is the item).
std::string sbatchScript(const Plan& plan, const SbatchOptions& options, const std::string& cli);

// "0-3,5,7-9"
std::string arraySpec(const std::vector<std::size_t>& items);

// The sbatch calls that run `items`: those whose prerequisites are not among them first,
// then the rest with --dependency=afterok on the first job ($FIRST in the shell text).
struct Submission {
    std::vector<std::size_t> first, second;
};
Submission splitByDependency(const Plan& plan, const std::vector<std::size_t>& items);

enum class ItemState { Done, Running, Pending, Failed, NotSubmitted };
const char* stateName(ItemState s);

struct ItemStatus {
    ItemState state = ItemState::NotSubmitted;
    std::string detail;  // Slurm's state or reason, when known
};

// Each item's state: done when its file is in the folder (written atomically, so present
// means complete), otherwise what squeue (or sacct) says of the jobs recorded in
// DIR/cluster/jobs.json; a submitted item neither done nor queued has failed.
std::vector<ItemStatus> itemStates(const Plan& plan);

// The last `lines` lines of item i's Slurm log (DIR/cluster/logs/item-<i>.log), or "".
std::string logTail(const Plan& plan, std::size_t item, int lines);

// Runs a command line through the shell; its output (stdout and stderr) and exit code.
struct CommandResult {
    int code = -1;
    std::string output;
};
CommandResult runCommand(const std::string& commandLine);
bool onPath(const std::string& program);
std::string shellQuote(const std::string& text);

}  // namespace ppsynth::study::cluster
