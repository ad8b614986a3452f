#include "study/resumable_folder.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/common/atomic_file.hpp"

namespace ppsynth::study::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<std::string> readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

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

}  // namespace

Expected<ResumableFolder> ResumableFolder::open(const std::string& dir, const std::string& kind,
                                                const std::string& canonicalConfig) {
    std::error_code ec;
    const fs::path root(dir);
    const fs::path configPath = root / "config.json";
    if (fs::exists(root, ec)) {
        if (!fs::is_directory(root, ec)) return Error{"'" + dir + "' exists and is not a folder"};
        auto old = readText(configPath);
        if (!old) {
            if (!fs::is_empty(root, ec))
                return Error{"'" + dir + "' is not empty and holds no " + kind +
                             " of ppsynth (no config.json); choose another output folder"};
        } else {
            const json a = json::parse(*old, nullptr, false);
            const json b = json::parse(canonicalConfig, nullptr, false);
            if (a.is_discarded())
                return Error{"'" + (configPath).string() +
                             "' is damaged (not JSON); remove the folder or choose another"};
            if (a != b)
                return Error{"'" + dir + "' holds a " + kind +
                             " of a different configuration (it differs in '" +
                             firstDifference(a, b, "") +
                             "'); resuming would mix results: choose another output folder or "
                             "remove this one"};
        }
    }
    fs::create_directories(root / "items", ec);
    if (ec) return Error{"could not create '" + (root / "items").string() + "': " + ec.message()};
    if (!fs::exists(configPath, ec))
        if (auto s = writeText(configPath, canonicalConfig); !s)
            return s.message().empty() ? Error{"write failed"} : Error{s.message()};
    return ResumableFolder(dir);
}

std::optional<std::string> ResumableFolder::load(const std::string& item) const {
    return readText(fs::path(dir_) / "items" / (item + ".json"));
}

Status ResumableFolder::save(const std::string& item, const std::string& text) const {
    return writeText(fs::path(dir_) / "items" / (item + ".json"), text);
}

Status ResumableFolder::writeOutput(const std::string& name, const std::string& text) const {
    return writeText(fs::path(dir_) / name, text);
}

}  // namespace ppsynth::study::detail
