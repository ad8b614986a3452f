#include "study/resumable_folder.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/read_text.hpp"
#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/common/destination.hpp"
#include "ppsynth/common/engine_revision.hpp"
#include "ppsynth/common/safe_name.hpp"
#include "ppsynth/common/sha256.hpp"

namespace ppsynth::study::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

Status writeText(const fs::path& path, const std::string& text) {
    return writeFileAtomically(path.string(), [&](std::ostream& out) -> Status {
        out << text;
        return {};
    });
}

// The first key path where two configurations differ, so the refusal says what changed.
std::string firstDifference(const json& a, const json& b, const std::string& path) {
    if (a.is_object() && b.is_object()) {
        for (const auto& [key, value] : a.items()) {
            const std::string p = path.empty() ? key : path + "." + key;
            if (!b.contains(key)) return p;
            if (auto d = firstDifference(value, b.at(key), p); !d.empty()) return d;
        }
        for (const auto& [key, value] : b.items())
            if (!a.contains(key)) return path.empty() ? key : path + "." + key;
        return "";
    }
    return a == b ? "" : (path.empty() ? "the configuration" : path);
}

constexpr const char* kItemFormatKey = "item_format";
constexpr const char* kEngineRevisionKey = "engine_revision";
constexpr const char* kDataSha256Key = "data_sha256";

std::string stamped(const std::string& canonicalConfig, const FolderStamp& stamp) {
    json j = json::parse(canonicalConfig);
    j[kItemFormatKey] = stamp.itemFormat;
    j[kEngineRevisionKey] = kEngineRevision;
    if (!stamp.dataSha256.empty()) j[kDataSha256Key] = stamp.dataSha256;
    return j.dump(2);
}

std::string savedValue(const json& saved, const char* key) {
    if (!saved.contains(key)) return "none recorded";
    const json& v = saved.at(key);
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// Why a folder's saved stamp does not fit this study, in words a user can act on; empty
// when the stamps agree. The engine comes first: with another engine nothing else matters.
std::string stampDifference(const json& saved, const FolderStamp& stamp, const std::string& dir,
                            const std::string& kind) {
    const std::string head = "'" + dir + "' holds a " + kind;
    const std::string tail =
        "; resuming would mix its saved results with new ones: run into a new output folder "
        "(or remove this one to start over)";
    if (saved.value(kEngineRevisionKey, json()) != json(kEngineRevision))
        return head + " computed by another revision of ppsynth's engine (the folder's: " +
               savedValue(saved, kEngineRevisionKey) +
               ", this ppsynth's: " + std::to_string(kEngineRevision) +
               "), whose draws differ from this one's" + tail;
    if (saved.value(kItemFormatKey, json()) != json(stamp.itemFormat))
        return head +
               " saved in another item format (the folder's: " + savedValue(saved, kItemFormatKey) +
               ", this ppsynth's: " + std::to_string(stamp.itemFormat) + ")" + tail;
    const json want = stamp.dataSha256.empty() ? json() : json(stamp.dataSha256);
    if (saved.value(kDataSha256Key, json()) != want)
        return head + " of other data: the data file" +
               (stamp.dataPath.empty() ? std::string() : " '" + stamp.dataPath + "'") +
               " has SHA-256 " + (stamp.dataSha256.empty() ? "none" : stamp.dataSha256) +
               ", the folder's results were computed from a file with SHA-256 " +
               savedValue(saved, kDataSha256Key) +
               ". Restore the original file to resume, or run into a new output folder "
               "(or remove this one to start over)";
    return "";
}

}  // namespace

namespace {

// Whether config.json (read as `old`) belongs to this study; empty when it does.
std::string configDifference(const std::string& old, const std::string& config,
                             const fs::path& configPath, const FolderStamp& stamp,
                             const std::string& dir, const std::string& kind) {
    const json a = json::parse(old, nullptr, false);
    if (a.is_discarded() || !a.is_object())
        return "'" + configPath.string() +
               "' is damaged (not JSON); remove the folder or choose another";
    if (auto why = stampDifference(a, stamp, dir, kind); !why.empty()) return why;
    const json b = json::parse(config);
    if (a != b)
        return "'" + dir + "' holds a " + kind + " of a different configuration (it differs in '" +
               firstDifference(a, b, "") +
               "'); resuming would mix results: choose another output folder or remove this "
               "one";
    return "";
}

}  // namespace

Expected<ResumableFolder> ResumableFolder::open(const std::string& dir, const std::string& kind,
                                                const std::string& canonicalConfig,
                                                const FolderStamp& stamp) {
    std::error_code ec;
    const fs::path root(dir);
    const fs::path configPath = root / "config.json";
    const std::string config = stamped(canonicalConfig, stamp);
    if (fs::exists(root, ec)) {
        if (!fs::is_directory(root, ec)) return Error{"'" + dir + "' exists and is not a folder"};
        auto old = readFileText(configPath);
        if (!old) {
            if (!fs::is_empty(root, ec))
                return Error{"'" + dir + "' is not empty and holds no " + kind +
                             " of ppsynth (no config.json); choose another output folder"};
        } else if (auto why = configDifference(*old, config, configPath, stamp, dir, kind);
                   !why.empty()) {
            return Error{why};
        }
    }
    // Before any item is computed: a folder on a read-only mount would otherwise fail only
    // when the first item is saved.
    if (Status s = checkWritableDestination(dir, DestinationUse::Filled); !s) return s.error();
    fs::create_directories(root / "items", ec);
    if (ec)
        return Error::io("could not create '" + (root / "items").string() + "': " + ec.message());
    if (!fs::exists(configPath, ec))
        if (auto s = writeText(configPath, config); !s)
            return s.message().empty() ? Error{"write failed"} : s.error();
    return ResumableFolder(dir, sha256Hex(config));
}

Expected<ResumableFolder> ResumableFolder::openPlanned(const std::string& dir,
                                                       const std::string& kind,
                                                       const std::string& canonicalConfig,
                                                       const FolderStamp& stamp) {
    const fs::path configPath = fs::path(dir) / "config.json";
    auto old = readFileText(configPath);
    std::error_code ec;
    if (!old || !fs::is_directory(fs::path(dir) / "items", ec))
        return Error{"'" + dir + "' is not a planned " + kind +
                     " (no config.json or items/ in it): run the same command with --plan "
                     "instead of --item first"};
    const std::string config = stamped(canonicalConfig, stamp);
    if (auto why = configDifference(*old, config, configPath, stamp, dir, kind); !why.empty())
        return Error{why};
    return ResumableFolder(dir, sha256Hex(config));
}

std::string ResumableFolder::settingsOf(const std::string& configJson) {
    json j = json::parse(configJson, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return configJson;
    for (const char* key : {kItemFormatKey, kEngineRevisionKey, kDataSha256Key}) j.erase(key);
    return j.dump();
}

std::optional<std::string> ResumableFolder::load(const std::string& item) const {
    auto path = pathInside(dir_, "items/" + item + ".json");
    if (!path) return std::nullopt;
    return readFileText(*path);
}

Status ResumableFolder::save(const std::string& item, const std::string& text) const {
    if (Status s = checkSafeName(item); !s) return s.error().prefixed("study item: ");
    auto path = pathInside(dir_, "items/" + item + ".json");
    if (!path) return path.status();
    return writeText(*path, text);
}

Status ResumableFolder::writeOutput(const std::string& name, const std::string& text) const {
    auto path = pathInside(dir_, name);
    if (!path) return path.status();
    return writeText(*path, text);
}

std::optional<std::string> ResumableFolder::readFile(const std::string& name) const {
    auto path = pathInside(dir_, name);
    if (!path) return std::nullopt;
    return readFileText(*path);
}

Status ResumableFolder::writePlan(const std::string& kind, const std::vector<std::string>& names,
                                  const std::vector<std::vector<std::size_t>>& after) const {
    json items = json::array();
    for (std::size_t i = 0; i < names.size(); ++i)
        items.push_back({{"index", i},
                         {"name", names[i]},
                         {"file", "items/" + names[i] + ".json"},
                         {"after", i < after.size() ? json(after[i]) : json::array()}});
    return writeOutput("plan.json", json{{"kind", kind}, {"items", items}}.dump(2) + "\n");
}

}  // namespace ppsynth::study::detail
