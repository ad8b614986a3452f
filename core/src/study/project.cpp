#include "ppsynth/study/project.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/common/atomic_file.hpp"
#include "study/json_reader.hpp"

namespace ppsynth::study {

namespace fs = std::filesystem;
using detail::Reader;
using nlohmann::json;

namespace {

const char* const kFormat = "ppsynth-project";

fs::path folderOf(const std::string& projectPath) {
    return fs::absolute(fs::path(projectPath)).parent_path();
}

// Paths inside the project's folder are stored relative to it, so the folder can move.
std::string storePath(const std::string& path, const fs::path& base) {
    const fs::path absolute = fs::absolute(fs::path(path)).lexically_normal();
    const fs::path rel = absolute.lexically_relative(base);
    if (rel.empty() || *rel.begin() == "..") return absolute.string();
    return rel.string();
}

std::string loadPath(const std::string& stored, const fs::path& base) {
    fs::path p = fs::path(stored).is_absolute() ? fs::path(stored) : base / stored;
    std::string out = p.lexically_normal().string();
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
}

// A version 1 CSV character: "" was "detect" (the delimiter, the decimal separator) or "none"
// (the thousands separator); data.read says so in words.
json v1Character(const json& csv, const char* key, const char* empty) {
    if (!csv.contains(key)) return empty;
    const json& v = csv.at(key);
    if (v.is_string() && v.get<std::string>().empty()) return empty;
    return v;
}

// Version 1 (the GUI's project code before projects moved into core) wrote the reading
// options as data.csv and data.stat in its own spellings, and transform and missing at the
// top: taken into data.read and data, where version 2 and run configurations have them.
void upgradeVersion1(json& root) {
    json& data = root["data"];
    if (!data.is_object()) return;  // the data section's reader says what is wrong
    json read = json::object();
    if (data.contains("csv") && data.at("csv").is_object()) {
        const json& csv = data.at("csv");
        read["delimiter"] = v1Character(csv, "delimiter", "auto");
        read["decimal"] = v1Character(csv, "decimal", "auto");
        read["thousands"] = v1Character(csv, "thousands", "none");
        // Cells were always quotable: an empty quote meant the usual double quote.
        read["quote"] = v1Character(csv, "quote", "\"");
        for (const char* key : {"header", "encoding", "missing_tokens"})
            if (csv.contains(key)) read[key] = csv.at(key);
        data.erase("csv");
    }
    if (data.contains("stat") && data.at("stat").is_object()) {
        if (data.at("stat").contains("encoding"))
            read["stat_encoding"] = data.at("stat").at("encoding");
        data.erase("stat");
    }
    data["read"] = std::move(read);
    for (const char* key : {"transform", "missing"})
        if (root.contains(key)) {
            if (!data.contains(key)) data[key] = root.at(key);
            root.erase(key);
        }
}

// data.target, data.known and data.predictors: the roles, which a project may leave unset.
void readRoles(const json& data, RunConfig::Data& roles, std::string& error) {
    auto list = [&](const char* key, std::vector<std::string>& out) {
        if (!data.contains(key) || !error.empty()) return;
        const json& v = data.at(key);
        if (!v.is_array() ||
            !std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_string(); }))
            error = std::string("data: '") + key + "' must be a list of column names";
        else
            out = v.get<std::vector<std::string>>();
    };
    if (data.contains("target")) {
        if (!data.at("target").is_string())
            error = "data: 'target' must be a string";
        else
            roles.target = data.at("target").get<std::string>();
    }
    list("predictors", roles.predictors);
    list("known", roles.known);
}

// Everything but the roles is checked by the run configuration's parser, as a configuration
// of a stand-in sensitive variable (and a stand-in synthesizer when none is listed).
Expected<RunConfig> readConfiguration(const json& data, json config, bool hasSynthesizers,
                                      const fs::path& base) {
    if (!config.is_object()) return Error{"'run_config' must be an object"};
    if (config.contains("data"))
        return Error{"run_config: the data section belongs at the top, as 'data'"};
    json coreData = data;
    // Several sensitive variables stand for themselves: "models" and risk.radii are checked
    // against them.
    if (!coreData.contains("targets")) coreData["target"] = "-";
    coreData.erase("known");
    config["data"] = std::move(coreData);
    if (!hasSynthesizers)
        config["synthesizers"] = json::array({{{"name", "placeholder"}, {"scheme", "unweighted"}}});
    auto parsed = parseRunConfig(config.dump(), base.string());
    if (!parsed) return parsed;
    if (!hasSynthesizers) parsed->synthesizers.clear();
    return parsed;
}

Expected<ProjectRun> readRun(const json& j, std::size_t i, const fs::path& base) {
    std::string error;
    ProjectRun run;
    std::string folder;
    {
        Reader r(j, "runs[" + std::to_string(i) + "]", error);
        r.get("folder", folder);
        r.get("label", run.label);
        r.get("summary", run.summary);
        if (error.empty() && folder.empty()) r.fail("needs 'folder', the run's folder");
    }
    if (!error.empty()) return Error{error};
    run.folder = loadPath(folder, base);
    return run;
}

// Where and why text is not JSON: "line 3, column 7: syntax error while parsing ...".
std::string jsonSyntaxError(const std::string& text) {
    try {
        [[maybe_unused]] const json parsed = json::parse(text, nullptr, true, true);
    } catch (const json::parse_error& e) {
        const std::string what = e.what();
        const auto at = what.find("at line ");
        return at == std::string::npos ? what : what.substr(at + 3);
    }
    return "unknown error";
}

}  // namespace

std::string projectToJson(const Project& project, const std::string& projectPath) {
    const fs::path base = folderOf(projectPath);
    json config = json::parse(toJson(project.config));
    json data = std::move(config["data"]);
    config.erase("data");
    data["path"] = storePath(project.config.data.path, base);
    json runs = json::array();
    for (const auto& r : project.runs)
        runs.push_back(
            {{"folder", storePath(r.folder, base)}, {"label", r.label}, {"summary", r.summary}});
    json root = {{"format", kFormat},
                 {"version", Project::kVersion},
                 {"data", std::move(data)},
                 {"has_synthesizers", project.hasSynthesizers},
                 {"run_config", std::move(config)},
                 {"runs", std::move(runs)}};
    if (!project.note.empty()) root["note"] = project.note;
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Expected<Project> parseProject(const std::string& text, const std::string& projectPath) {
    json root;
    if (auto e = detail::parseConfigJson(text, root, "project"); !e.empty()) {
        if (!root.is_discarded()) return Error{e};
        return Error{"not valid JSON (" + jsonSyntaxError(text) + ")"};
    }
    if (!root.is_object() || !root.contains("format") || root.at("format") != kFormat)
        return Error{std::string("not a ppsynth project (no \"format\": \"") + kFormat + "\")"};
    const json version = root.value("version", json());
    if (!version.is_number_integer() || version.get<long long>() < 1 ||
        version.get<long long>() > Project::kVersion)
        return Error{"version " + (version.is_null() ? std::string("(none)") : version.dump()) +
                     " is not one this ppsynth reads (1 to " + std::to_string(Project::kVersion) +
                     ")"};
    if (version.get<int>() == 1) upgradeVersion1(root);

    const fs::path base = folderOf(projectPath);
    Project p;
    std::string error;
    json data, config = json::object(), runs = json::array();
    {
        Reader top(root, "project", error);
        std::string format;
        int ignoredVersion = 0;
        top.get("format", format);
        top.get("version", ignoredVersion);
        top.get("note", p.note);
        top.get("has_synthesizers", p.hasSynthesizers);
        if (!top.has("data")) top.fail("needs a 'data' section");
        if (error.empty()) data = top.raw("data");
        if (top.has("run_config")) config = top.raw("run_config");
        if (top.has("runs")) runs = top.raw("runs");
    }
    if (!error.empty()) return Error{error};
    if (!data.is_object()) return Error{"data: must be an object"};
    if (!data.contains("path") || !data.at("path").is_string() ||
        data.at("path").get<std::string>().empty())
        return Error{"\"data.path\" is missing"};
    readRoles(data, p.config.data, error);
    if (!error.empty()) return Error{error};
    const RunConfig::Data roles = p.config.data;
    auto parsed = readConfiguration(data, std::move(config), p.hasSynthesizers, base);
    if (!parsed) return Error{parsed.message()};
    p.config = std::move(*parsed);
    if (!data.contains("targets")) p.config.data.target = roles.target;
    p.config.data.predictors = roles.predictors;
    p.config.data.known = roles.known;
    p.config.data.path = loadPath(data.at("path").get<std::string>(), base);
    if (!runs.is_array()) return Error{"'runs' must be a list"};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto run = readRun(runs[i], i, base);
        if (!run) return Error{run.message()};
        p.runs.push_back(std::move(*run));
    }
    return p;
}

Expected<Project> loadProject(const std::string& path) {
    const std::string name = "project '" + fs::path(path).filename().string() + "': ";
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{name + std::strerror(errno)};
    std::ostringstream ss;
    ss << in.rdbuf();
    auto p = parseProject(ss.str(), path);
    if (!p) return Error{name + p.message()};
    return p;
}

Status saveProjectFile(const Project& project, const std::string& path) {
    const std::string text = projectToJson(project, path);
    return writeFileAtomically(path, [&text](std::ostream& out) -> Status {
        out << text;
        return {};
    });
}

Expected<RunConfig> projectRunConfig(const Project& project) {
    const RunConfig& c = project.config;
    if (c.data.target.empty())
        return Error{
            "the project has no sensitive variable: choose one on the Data page (its Role "
            "column) and save the project"};
    if (!project.hasSynthesizers || c.synthesizers.empty())
        return Error{
            "the project lists no synthesizers: add them on the Synthesizers page and save "
            "the project"};
    // Checked as a configuration file is: the same rules, the same messages.
    auto checked = parseRunConfig(toJson(c));
    if (!checked) return Error{checked.message()};
    return checked;
}

bool isProjectFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    const json j = json::parse(ss.str(), nullptr, false, true);
    return j.is_object() && j.contains("format") && j.at("format") == kFormat;
}

}  // namespace ppsynth::study
