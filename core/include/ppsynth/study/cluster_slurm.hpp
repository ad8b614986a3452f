// A planned study folder (`sweep|simulate CONFIG --out DIR --plan`) run as Slurm job arrays:
// the sbatch script, submission with sbatch, and each item's state from the folder, squeue
// and (where accounting runs) sacct. Used by `ppsynth-cli cluster` and the GUI.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"

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
// DIR/cluster/jobs.json (submitted by ppsynth) and DIR/cluster/submit_sh_jobs.txt (submitted
// by running submit.sh by hand); a submitted item neither done nor queued has failed.
std::vector<ItemStatus> itemStates(const Plan& plan);

// The last `lines` lines of item i's Slurm log (DIR/cluster/logs/item-<i>.log), or "".
std::string logTail(const Plan& plan, std::size_t item, int lines);

// How many items are in each state, and the line `cluster status` ends with ("3 of 5 done,
// 1 running, 0 pending, 1 failed, 0 not submitted").
struct StateCounts {
    std::size_t done = 0, running = 0, pending = 0, failed = 0, notSubmitted = 0, total = 0;
};
StateCounts countStates(const std::vector<ItemStatus>& states);
std::string countsText(const StateCounts& counts);

// What `cluster status DIR` reports: the plan, each item's state, the counts and the last
// lines of each failed item's log.
struct ClusterStatus {
    Plan plan;
    std::vector<ItemStatus> states;
    StateCounts counts;
    std::map<std::size_t, std::string> failedLogs;  // item -> the last logLines lines of its log
};
Expected<ClusterStatus> clusterStatus(const std::string& dir, int logLines = 15);

// Item i's Slurm log, DIR/cluster/logs/item-<i>.log.
std::string logPath(const Plan& plan, std::size_t item);

// The items `cluster submit` submits: those not submitted yet or failed.
std::vector<std::size_t> itemsToSubmit(const std::vector<ItemStatus>& states);

// The array tasks ("12_3") of `items` still queued behind a failed prerequisite: they never
// start, so a resubmission cancels them first (scancel).
std::vector<std::string> stuckTasks(const std::vector<ItemStatus>& states,
                                    const std::vector<std::size_t>& items);

// DIR/cluster/submit.sbatch (the job array) and DIR/cluster/submit.sh (the sbatch calls).
std::string scriptPath(const Plan& plan);
std::string submitShellPath(const Plan& plan);
// DIR/cluster/submit_sh_jobs.txt: submit.sh run by hand appends a line "JOB ITEMS" (ITEMS as
// arraySpec writes them) for every job it submits, so `cluster status` knows them.
std::string submitShellJobsPath(const Plan& plan);
// "0-3,5,7-9" -> {0, 1, 2, 3, 5, 7, 8, 9}; nullopt for anything else.
std::optional<std::vector<std::size_t>> parseArraySpec(const std::string& spec);

// The arguments of the sbatch call that submits `items` (without "sbatch" itself): an array
// throttled to maxParallel tasks at once (when > 0), after job `dependency` (when not empty).
// A shell may stand in for the dependency ("${FIRST%%;*}" in submit.sh).
std::vector<std::string> sbatchArguments(const Plan& plan, const std::vector<std::size_t>& items,
                                         const std::string& dependency, int maxParallel);

// The shell text that submits a Submission with sbatch (DIR/cluster/submit.sh, --dry-run).
std::string submitShell(const Plan& plan, const Submission& s, int maxParallel);

// Creates DIR/cluster/logs and writes the sbatch script (kept as it is when keepScript and it
// exists: a resubmission keeps the first submission's partition, time and memory) and
// submit.sh for `items`; the submission they make.
Expected<Submission> writeSubmitFiles(const Plan& plan, const std::vector<std::size_t>& items,
                                      const SbatchOptions& options, const std::string& cli,
                                      bool keepScript = false);

// The job id in what `sbatch --parsable` printed ("1234" or "1234;cluster"), or nullopt.
std::optional<std::string> parsedJobId(const std::string& sbatchOutput);

// Appends a submitted job and its items to DIR/cluster/jobs.json (itemStates reads it).
Status recordJob(const Plan& plan, const std::string& id, const std::vector<std::size_t>& items);

// After planning (`--plan`): records in DIR/plan.json how an item is run: in
// `workingFolder`, `ppsynth-cli <command> <config> --out <out> --item K`.
Status recordPlanRun(const std::string& dir, const std::string& command, const std::string& config,
                     const std::string& workingFolder, const std::string& out);

// Runs a command line through the shell; its output (stdout and stderr) and exit code.
struct CommandResult {
    int code = -1;
    std::string output;
};
CommandResult runCommand(const std::string& commandLine);
bool onPath(const std::string& program);
std::string shellQuote(const std::string& text);

}  // namespace ppsynth::study::cluster
