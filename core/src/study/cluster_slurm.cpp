#include "ppsynth/study/cluster_slurm.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/read_text.hpp"

namespace ppsynth::study::cluster {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool itemSaved(const Plan& plan, const PlanItem& item) {
    auto text = readFileText(fs::path(plan.dir) / item.file);
    return text && !json::parse(*text, nullptr, false).is_discarded();
}

// "12_3" -> (12, 3); false for anything else (a whole job, a pending range "12_[4-6]").
bool arrayTask(const std::string& id, std::string& job, std::size_t& task) {
    const auto us = id.find('_');
    if (us == std::string::npos || us + 1 >= id.size()) return false;
    const std::string t = id.substr(us + 1);
    if (t.find_first_not_of("0123456789") != std::string::npos) return false;
    job = id.substr(0, us);
    task = static_cast<std::size_t>(std::stoull(t));
    return true;
}

}  // namespace

std::optional<Plan> readPlan(const std::string& dir, std::string& error) {
    std::error_code ec;
    const fs::path root = fs::absolute(dir, ec);
    const fs::path path = root / "plan.json";
    auto text = readFileText(path);
    if (!text) {
        error = "'" + path.string() +
                "' not found: plan the study first with `ppsynth-cli sweep|simulate CONFIG "
                "--out " +
                dir + " --plan`";
        return std::nullopt;
    }
    const json j = json::parse(*text, nullptr, false);
    try {
        Plan p;
        p.dir = root.lexically_normal().string();
        p.kind = j.at("kind").get<std::string>();
        for (const auto& it : j.at("items"))
            p.items.push_back({it.at("index").get<std::size_t>(), it.at("name").get<std::string>(),
                               it.at("file").get<std::string>(),
                               it.at("after").get<std::vector<std::size_t>>()});
        const json& run = j.at("run");
        p.command = run.at("command").get<std::string>();
        p.config = run.at("config").get<std::string>();
        p.workingFolder = run.at("working_folder").get<std::string>();
        p.out = run.at("out").get<std::string>();
        for (std::size_t i = 0; i < p.items.size(); ++i)
            if (p.items[i].index != i)
                throw json::other_error::create(501, "items out of order", &j);
        return p;
    } catch (const json::exception& e) {
        error = "'" + path.string() + "' is damaged (" + e.what() +
                "); plan the study again with --plan into a new folder";
        return std::nullopt;
    }
}

std::string shellQuote(const std::string& text) {
    std::string q = "'";
    for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string sbatchScript(const Plan& plan, const SbatchOptions& o, const std::string& cli) {
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# Written by ppsynth (cluster submit): one item of the " << plan.kind << " in\n"
      << "# " << plan.dir << " per array task (the task id is the item, as in plan.json).\n"
      << "#SBATCH --job-name=ppsynth-" << plan.kind << "\n"
      << "#SBATCH --output=" << plan.dir << "/cluster/logs/item-%a.log\n";
    if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
    if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
    if (o.cpusPerTask > 0) s << "#SBATCH --cpus-per-task=" << o.cpusPerTask << "\n";
    if (!o.mem.empty()) s << "#SBATCH --mem=" << o.mem << "\n";
    s << "set -euo pipefail\n"
      << "cd " << shellQuote(plan.workingFolder) << "\n"
      << "exec " << shellQuote(cli) << " " << plan.command << " " << shellQuote(plan.config)
      << " --out " << shellQuote(plan.out) << " --item \"$SLURM_ARRAY_TASK_ID\"\n";
    return s.str();
}

std::string arraySpec(const std::vector<std::size_t>& items) {
    std::vector<std::size_t> v(items);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    std::string out;
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i;
        while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
        if (!out.empty()) out += ",";
        out += std::to_string(v[i]);
        if (j > i) out += "-" + std::to_string(v[j]);
        i = j + 1;
    }
    return out;
}

Submission splitByDependency(const Plan& plan, const std::vector<std::size_t>& items) {
    const std::set<std::size_t> chosen(items.begin(), items.end());
    Submission s;
    for (std::size_t i : chosen) {
        const auto& after = plan.items.at(i).after;
        const bool waits = std::any_of(after.begin(), after.end(),
                                       [&](std::size_t a) { return chosen.count(a) > 0; });
        (waits ? s.second : s.first).push_back(i);
    }
    return s;
}

const char* stateName(ItemState s) {
    switch (s) {
        case ItemState::Done:
            return "done";
        case ItemState::Running:
            return "running";
        case ItemState::Pending:
            return "pending";
        case ItemState::Failed:
            return "failed";
        case ItemState::NotSubmitted:
            return "not submitted";
    }
    return "?";
}

CommandResult runCommand(const std::string& commandLine) {
    CommandResult r;
    FILE* pipe = ::popen((commandLine + " 2>&1").c_str(), "r");
    if (!pipe) return r;
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
    const int status = ::pclose(pipe);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

bool onPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::istringstream dirs(path);
    std::string d;
    std::error_code ec;
    while (std::getline(dirs, d, ':'))
        if (!d.empty() && fs::exists(fs::path(d) / program, ec)) return true;
    return false;
}

std::vector<ItemStatus> itemStates(const Plan& plan) {
    std::vector<ItemStatus> states(plan.items.size());
    // Which job ran each item last (later submissions replace earlier ones).
    std::map<std::size_t, std::string> jobOf;
    std::vector<std::string> jobs;
    if (auto text = readFileText(fs::path(plan.dir) / "cluster" / "jobs.json")) {
        const json j = json::parse(*text, nullptr, false);
        if (j.is_object() && j.contains("jobs"))
            for (const auto& job : j.at("jobs")) {
                const std::string id = job.value("id", "");
                jobs.push_back(id);
                for (const auto& i : job.value("items", json::array()))
                    jobOf[i.get<std::size_t>()] = id;
            }
    }
    // Jobs submit.sh submitted when run by hand: "JOB ITEMS" lines (a line cut short by a
    // killed script is skipped).
    if (auto text = readFileText(submitShellJobsPath(plan))) {
        std::istringstream lines(*text);
        for (std::string line; std::getline(lines, line);) {
            std::istringstream fields(line);
            std::string id, spec;
            fields >> id >> spec;
            auto items = parseArraySpec(spec);
            if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos || !items)
                continue;
            jobs.push_back(id);
            for (std::size_t i : *items) jobOf[i] = id;
        }
    }
    // (job, task) -> state, detail: sacct first (finished jobs, where accounting runs),
    // then squeue (what is queued now) over it.
    std::map<std::pair<std::string, std::size_t>, std::pair<std::string, std::string>> slurm;
    if (!jobs.empty()) {
        std::string list;
        for (const auto& id : jobs) list += (list.empty() ? "" : ",") + id;
        if (onPath("sacct")) {
            auto r = runCommand("sacct -n -P -X -o JobID,State -j " + shellQuote(list));
            std::istringstream lines(r.code == 0 ? r.output : "");
            for (std::string line; std::getline(lines, line);) {
                const auto bar = line.find('|');
                std::string job;
                std::size_t task = 0;
                if (bar != std::string::npos && arrayTask(line.substr(0, bar), job, task))
                    slurm[{job, task}] = {line.substr(bar + 1), ""};
            }
        }
        if (onPath("squeue")) {
            auto r = runCommand("squeue -h -r -o '%i|%T|%r' -j " + shellQuote(list));
            std::istringstream lines(r.code == 0 ? r.output : "");
            for (std::string line; std::getline(lines, line);) {
                std::istringstream fields(line);
                std::string id, state, reason;
                std::getline(fields, id, '|');
                std::getline(fields, state, '|');
                std::getline(fields, reason);
                std::string job;
                std::size_t task = 0;
                if (arrayTask(id, job, task)) slurm[{job, task}] = {state, reason};
            }
        }
    }
    for (std::size_t i = 0; i < plan.items.size(); ++i) {
        ItemStatus& st = states[i];
        if (itemSaved(plan, plan.items[i])) {
            st.state = ItemState::Done;
            continue;
        }
        auto job = jobOf.find(i);
        if (job == jobOf.end()) continue;  // not submitted
        auto known = slurm.find({job->second, i});
        const std::string state = known == slurm.end() ? "" : known->second.first;
        const std::string reason = known == slurm.end() ? "" : known->second.second;
        st.detail = "job " + job->second + "_" + std::to_string(i);
        if (state == "RUNNING" || state == "COMPLETING" || state == "CONFIGURING") {
            st.state = ItemState::Running;
        } else if (state == "PENDING" && reason != "DependencyNeverSatisfied") {
            st.state = ItemState::Pending;
            if (!reason.empty() && reason != "None") st.detail += ", " + reason;
        } else {
            st.state = ItemState::Failed;
            st.detail += state.empty() ? ", no longer queued and its item file is missing"
                                       : ", " + state + (reason.empty() ? "" : " " + reason);
        }
    }
    return states;
}

std::string logPath(const Plan& plan, std::size_t item) {
    return (fs::path(plan.dir) / "cluster" / "logs" / ("item-" + std::to_string(item) + ".log"))
        .string();
}

Expected<ClusterStatus> clusterStatus(const std::string& dir, int logLines) {
    std::string error;
    auto plan = readPlan(dir, error);
    if (!plan) return Error{error};
    ClusterStatus s;
    s.plan = std::move(*plan);
    s.states = itemStates(s.plan);
    s.counts = countStates(s.states);
    for (std::size_t i = 0; i < s.states.size(); ++i)
        if (s.states[i].state == ItemState::Failed) s.failedLogs[i] = logTail(s.plan, i, logLines);
    return s;
}

std::string logTail(const Plan& plan, std::size_t item, int lines) {
    auto text = readFileText(logPath(plan, item));
    if (!text) return "";
    std::deque<std::string> last;
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) {
        last.push_back(line);
        if (static_cast<int>(last.size()) > lines) last.pop_front();
    }
    std::string out;
    for (const auto& l : last) out += l + "\n";
    return out;
}

}  // namespace ppsynth::study::cluster
