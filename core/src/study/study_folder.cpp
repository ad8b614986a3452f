#include "ppsynth/study/study_folder.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/study/cluster_slurm.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/simulate_config.hpp"
#include "ppsynth/study/sweep_config.hpp"
#include "study/json_reader.hpp"
#include "study/resumable_folder.hpp"

namespace ppsynth::study {

using nlohmann::json;

Expected<StudyFolder> openStudyFolder(const std::string& dir, const StudyOptions& options) {
    const std::filesystem::path config = std::filesystem::path(dir) / "config.json";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(config, ec))
        return Error{"'" + dir +
                     "' holds no config.json: choose the output folder of ppsynth-cli "
                     "simulate or sweep"};
    std::ifstream in(config, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    json j;
    const std::string error = detail::parseConfigJson(text.str(), j);
    if (j.is_discarded() || !j.is_object())
        return Error{"'" + config.string() + "' is not valid JSON: the folder is damaged"};
    if (!error.empty()) return Error{"'" + config.string() + "': " + error};
    // The folder's own stamp (item format, engine, data checksum) is not a setting; the
    // study checks it when it reopens the folder below.
    const std::string settings = detail::ResumableFolder::settingsOf(j.dump());
    StudyFolder folder;
    // The two configurations refuse each other's keys, so at most one of them parses.
    auto simulation = parseSimulateConfig(settings);
    if (simulation) {
        auto summary = runSimulation(*simulation, dir, options);
        if (!summary) return summary.error();
        folder.simulation = std::move(*summary);
        return folder;
    }
    auto sweep = parseSweepConfig(settings, dir);
    if (!sweep)
        return Error{"'" + config.string() +
                     "' is neither a simulation nor a sweep configuration (as a simulation: " +
                     simulation.message() + "; as a sweep: " + sweep.message() + ")"};
    auto data = readRunData(sweep->run);
    if (!data) return data.error();
    auto summary = runSweep(*sweep, *data, dir, options);
    if (!summary) return summary.error();
    folder.sweep = std::move(*summary);
    return folder;
}

Expected<std::string> planStudyFolder(const std::string& config, const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path configPath = fs::absolute(config, ec).lexically_normal();
    const fs::path out = fs::absolute(dir, ec).lexically_normal();
    StudyOptions plan;
    plan.planOnly = true;
    std::string command;
    // The two configurations refuse each other's keys, so at most one of them reads.
    auto simulation = loadSimulateConfig(configPath.string());
    if (simulation) {
        auto s = runSimulation(*simulation, out.string(), plan);
        if (!s) return s.error();
        command = "simulate";
    } else {
        auto sweep = loadSweepConfig(configPath.string());
        if (!sweep)
            return Error{"'" + configPath.string() +
                         "' is neither a simulation nor a sweep configuration (as a "
                         "simulation: " +
                         simulation.message() + "; as a sweep: " + sweep.message() + ")"};
        auto data = readRunData(sweep->run);
        if (!data) return data.error();
        auto s = runSweep(*sweep, *data, out.string(), plan);
        if (!s) return s.error();
        command = "sweep";
    }
    if (auto st = cluster::recordPlanRun(out.string(), command, configPath.string(),
                                         configPath.parent_path().string(), out.string());
        !st)
        return st.error();
    return command;
}

}  // namespace ppsynth::study
