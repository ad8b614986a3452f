// Submitting a planned study folder to Slurm: the files `ppsynth-cli cluster submit` and the
// GUI's "Run on a Slurm cluster..." write, the sbatch calls they make and the record of the
// jobs (ppsynth/study/cluster_slurm.hpp).
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/study/cluster_slurm.hpp"

namespace ppsynth::study::cluster {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

Status writeClusterText(const fs::path& path, const std::string& text) {
    return writeFileAtomically(path.string(), [&](std::ostream& out) -> Status {
        out << text;
        return {};
    });
}

std::string utcNow() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

std::string throttled(const std::vector<std::size_t>& items, int maxParallel) {
    return arraySpec(items) + (maxParallel > 0 ? "%" + std::to_string(maxParallel) : "");
}

}  // namespace

StateCounts countStates(const std::vector<ItemStatus>& states) {
    StateCounts c;
    c.total = states.size();
    for (const auto& s : states) switch (s.state) {
            case ItemState::Done:
                ++c.done;
                break;
            case ItemState::Running:
                ++c.running;
                break;
            case ItemState::Pending:
                ++c.pending;
                break;
            case ItemState::Failed:
                ++c.failed;
                break;
            case ItemState::NotSubmitted:
                ++c.notSubmitted;
                break;
        }
    return c;
}

std::string countsText(const StateCounts& c) {
    return std::to_string(c.done) + " of " + std::to_string(c.total) + " done, " +
           std::to_string(c.running) + " running, " + std::to_string(c.pending) + " pending, " +
           std::to_string(c.failed) + " failed, " + std::to_string(c.notSubmitted) +
           " not submitted";
}

std::vector<std::size_t> itemsToSubmit(const std::vector<ItemStatus>& states) {
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < states.size(); ++i)
        if (states[i].state == ItemState::NotSubmitted || states[i].state == ItemState::Failed)
            todo.push_back(i);
    return todo;
}

std::vector<std::string> stuckTasks(const std::vector<ItemStatus>& states,
                                    const std::vector<std::size_t>& items) {
    std::vector<std::string> tasks;
    for (std::size_t i : items) {
        const std::string& d = i < states.size() ? states[i].detail : std::string();
        // detail: "job 12_3, PENDING DependencyNeverSatisfied"
        if (d.rfind("job ", 0) == 0 && d.find("DependencyNeverSatisfied") != std::string::npos)
            tasks.push_back(d.substr(4, d.find(',') - 4));
    }
    return tasks;
}

std::string scriptPath(const Plan& plan) {
    return (fs::path(plan.dir) / "cluster" / "submit.sbatch").string();
}

std::string submitShellPath(const Plan& plan) {
    return (fs::path(plan.dir) / "cluster" / "submit.sh").string();
}

std::string submitShellJobsPath(const Plan& plan) {
    return (fs::path(plan.dir) / "cluster" / "submit_sh_jobs.txt").string();
}

std::optional<std::vector<std::size_t>> parseArraySpec(const std::string& spec) {
    std::vector<std::size_t> items;
    std::istringstream parts(spec);
    for (std::string part; std::getline(parts, part, ',');) {
        const auto dash = part.find('-');
        const std::string a = part.substr(0, dash);
        const std::string b = dash == std::string::npos ? a : part.substr(dash + 1);
        const auto digits = [](const std::string& t) {
            return !t.empty() && t.size() < 10 && t.find_first_not_of("0123456789") == t.npos;
        };
        if (!digits(a) || !digits(b)) return std::nullopt;
        const std::size_t from = std::stoul(a), to = std::stoul(b);
        if (to < from || to - from > 1000000) return std::nullopt;
        for (std::size_t i = from; i <= to; ++i) items.push_back(i);
    }
    if (items.empty()) return std::nullopt;
    return items;
}

std::vector<std::string> sbatchArguments(const Plan& plan, const std::vector<std::size_t>& items,
                                         const std::string& dependency, int maxParallel) {
    std::vector<std::string> args{"--parsable", "--array=" + throttled(items, maxParallel)};
    if (!dependency.empty()) args.push_back("--dependency=afterok:" + dependency);
    args.push_back(scriptPath(plan));
    return args;
}

std::string submitShell(const Plan& plan, const Submission& s, int maxParallel) {
    const std::string script = shellQuote(scriptPath(plan));
    const std::string jobs = shellQuote(submitShellJobsPath(plan));
    std::ostringstream sh;
    sh << "#!/bin/bash\n# Submits the items of " << plan.dir << " to Slurm; records each job "
       << "(id, items)\n# for `ppsynth-cli cluster status` in " << submitShellJobsPath(plan)
       << ".\nset -euo pipefail\n";
    if (!s.first.empty())
        sh << "FIRST=$(sbatch --parsable --array=" << throttled(s.first, maxParallel) << " "
           << script << ")\necho \"${FIRST%%;*} " << arraySpec(s.first) << "\" >> " << jobs
           << "\necho \"submitted items " << arraySpec(s.first) << " as job ${FIRST%%;*}\"\n";
    if (!s.second.empty())
        sh << "SECOND=$(sbatch --parsable --array=" << throttled(s.second, maxParallel)
           << (s.first.empty() ? "" : " --dependency=afterok:${FIRST%%;*}") << " " << script
           << ")\necho \"${SECOND%%;*} " << arraySpec(s.second) << "\" >> " << jobs
           << "\necho \"submitted items " << arraySpec(s.second) << " as job ${SECOND%%;*}\"\n";
    return sh.str();
}

Expected<Submission> writeSubmitFiles(const Plan& plan, const std::vector<std::size_t>& items,
                                      const SbatchOptions& options, const std::string& cli,
                                      bool keepScript) {
    const Submission s = splitByDependency(plan, items);
    std::error_code ec;
    const fs::path logs = fs::path(plan.dir) / "cluster" / "logs";
    fs::create_directories(logs, ec);
    if (ec)
        return Error::io("cannot create '" + logs.string() + "': " + ec.message() +
                         "; choose a study folder you can write to");
    const bool keep = keepScript && fs::exists(scriptPath(plan), ec);
    if (!keep)
        if (auto st = writeClusterText(scriptPath(plan), sbatchScript(plan, options, cli)); !st)
            return st.error();
    if (auto st =
            writeClusterText(submitShellPath(plan), submitShell(plan, s, options.maxParallel));
        !st)
        return st.error();
    return s;
}

std::optional<std::string> parsedJobId(const std::string& sbatchOutput) {
    std::string id = sbatchOutput.substr(0, sbatchOutput.find_first_of(";\r\n"));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return id;
}

Status recordJob(const Plan& plan, const std::string& id, const std::vector<std::size_t>& items) {
    const fs::path path = fs::path(plan.dir) / "cluster" / "jobs.json";
    json j = json::object();
    if (std::ifstream in(path); in) j = json::parse(in, nullptr, false);
    if (!j.is_object() || !j.contains("jobs")) j = {{"jobs", json::array()}};
    j["jobs"].push_back({{"id", id}, {"items", items}, {"submitted", utcNow()}});
    return writeClusterText(path, j.dump(2) + "\n");
}

Status recordPlanRun(const std::string& dir, const std::string& command, const std::string& config,
                     const std::string& workingFolder, const std::string& out) {
    const fs::path planPath = fs::path(dir) / "plan.json";
    std::ifstream in(planPath, std::ios::binary);
    json plan = json::parse(in, nullptr, false);
    if (plan.is_discarded() || !plan.is_object())
        return Error{"'" + planPath.string() +
                     "' is not valid JSON; plan the study again into a new folder"};
    plan["run"] = {
        {"command", command}, {"config", config}, {"working_folder", workingFolder}, {"out", out}};
    return writeClusterText(planPath, plan.dump(2) + "\n");
}

}  // namespace ppsynth::study::cluster
