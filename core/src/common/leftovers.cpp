#include "ppsynth/common/leftovers.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <system_error>

#include "ppsynth/common/atomic_file.hpp"

namespace ppsynth {

namespace fs = std::filesystem;

namespace {

enum class Suffix { Partial, Tmp, Old, Probe };

struct Name {
    std::string base;  // what it was named after; empty for a probe
    Suffix suffix;
    long pid;
    std::string host;  // the machine of a temporary file (hostTag()); empty when not named
};

std::optional<Name> parseName(const std::string& name) {
    static const std::regex partial(R"(^(.+)\.partial-([0-9]{1,9})$)");
    // "NAME.tmp-HOST-PID-N" (and "NAME.tmp-PID-N" from before temporaries named the host).
    static const std::regex tmpHost(R"(^(.+)\.tmp-(.+)-([0-9]{1,9})-[0-9]{1,9}$)");
    static const std::regex tmp(R"(^(.+)\.tmp-([0-9]{1,9})-[0-9]{1,9}$)");
    static const std::regex old(R"(^(.+)\.old-([0-9]{1,9})-[0-9]{1,9}$)");
    static const std::regex probe(R"(^\.ppsynth-probe-([0-9]{1,9})-[0-9]{1,9}$)");
    std::smatch m;
    if (std::regex_match(name, m, partial)) return Name{m[1], Suffix::Partial, std::stol(m[2]), {}};
    if (std::regex_match(name, m, tmp)) return Name{m[1], Suffix::Tmp, std::stol(m[2]), {}};
    if (std::regex_match(name, m, tmpHost)) return Name{m[1], Suffix::Tmp, std::stol(m[3]), m[2]};
    if (std::regex_match(name, m, old)) return Name{m[1], Suffix::Old, std::stol(m[2]), {}};
    if (std::regex_match(name, m, probe)) return Name{"", Suffix::Probe, std::stol(m[1]), {}};
    return std::nullopt;
}

bool isDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(fs::symlink_status(p, ec));  // a link is never taken for one
}

bool isFile(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(fs::symlink_status(p, ec));
}

// The names directly in `dir`; nullopt when it cannot be read.
std::optional<std::vector<std::string>> namesIn(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::end(it); it.increment(ec))
        names.push_back(it->path().filename().string());
    if (ec) return std::nullopt;
    return names;
}

// `dir` holds only folders named in `folders` and files named in `files` (or temporaries of
// those files), and nothing else; links never count.
bool holdsOnly(const fs::path& dir, const std::set<std::string>& folders,
               const std::set<std::string>& files) {
    const auto names = namesIn(dir);
    if (!names) return false;
    for (const auto& n : *names) {
        const fs::path p = dir / n;
        if (folders.count(n) && isDir(p)) continue;
        if (files.count(n) && isFile(p)) continue;
        const auto parsed = parseName(n);
        if (parsed && parsed->suffix == Suffix::Tmp && files.count(parsed->base) && isFile(p))
            continue;
        return false;
    }
    return true;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool startsWith(const fs::path& file, const std::string& magic) {
    std::ifstream in(file, std::ios::binary);
    std::string head(magic.size(), '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    return in.gcount() == 0 || head == magic;  // empty: nothing had been written yet
}

// What ppsynth writes through its atomic-file layer (tables, JSON, texts, reports).
bool writtenFileKind(const std::string& base) {
    static const std::set<std::string> kinds{".csv",  ".json", ".sav", ".dta", ".txt",
                                             ".html", ".htm",  ".pdf", ".svg", ".png"};
    return kinds.count(lower(fs::path(base).extension().string())) > 0;
}

// What the entry is, when its content is what ppsynth writes under its name; empty otherwise.
std::string recognise(const fs::path& p, const Name& n) {
    switch (n.suffix) {
        case Suffix::Partial:
            if (isDir(p) && holdsOnly(p, {"synthetic", "confidential"}, {"run.json"}))
                return "an unfinished run folder";
            if (isFile(p) && lower(fs::path(n.base).extension().string()) == ".pdf" &&
                startsWith(p, "%PDF-"))
                return "an unfinished report";
            return {};
        case Suffix::Tmp:
            if (isDir(p) && holdsOnly(p, {"data"}, {"manifest.json", "README.txt", "SHA256SUMS"}))
                return "an unfinished release bundle";
            if (isFile(p) && writtenFileKind(n.base)) return "an unfinished file";
            return {};
        case Suffix::Old:
            if (isDir(p) && isFile(p / "run.json")) return "an earlier run folder moved aside";
            if (isDir(p) && isFile(p / "manifest.json") && isFile(p / "SHA256SUMS"))
                return "an earlier release bundle moved aside";
            return {};
        case Suffix::Probe: {
            const auto names = namesIn(p);
            if (isDir(p) && names && names->empty()) return "an empty folder of a write check";
            return {};
        }
    }
    return {};
}

bool processAlive(long pid) {
    if (pid == static_cast<long>(::getpid())) return true;
    if (pid <= 0 || pid > 0x3fffffff) return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

// Leftovers among the entries of `dir` (shown as `shownDir`) whose names pass `wanted`.
void collect(const fs::path& dir, const fs::path& shownDir,
             const std::function<bool(const Name&)>& wanted, std::vector<Leftover>& out) {
    const auto names = namesIn(dir);
    if (!names) return;
    for (const auto& entry : *names) {
        const auto n = parseName(entry);
        if (!n || !wanted(*n)) continue;
        const fs::path p = dir / entry;
        std::string what = recognise(p, *n);
        if (what.empty()) continue;
        Leftover l;
        l.path = (shownDir / entry).string();
        l.what = std::move(what);
        l.pid = n->pid;
        std::error_code ec;
        // Another machine's process cannot be asked whether it still runs: left alone.
        if (!n->host.empty() && n->host != hostTag()) {
            l.host = n->host;
            l.state = Leftover::State::InUse;
        } else if (processAlive(n->pid)) {
            l.state = Leftover::State::InUse;
        } else if (n->suffix == Suffix::Old && !fs::exists(fs::symlink_status(dir / n->base, ec)))
            l.state = Leftover::State::OnlyCopy;
        out.push_back(std::move(l));
    }
}

void sortByPath(std::vector<Leftover>& v) {
    std::sort(v.begin(), v.end(),
              [](const Leftover& a, const Leftover& b) { return a.path < b.path; });
}

}  // namespace

std::vector<Leftover> findLeftovers(const std::string& destination) {
    std::vector<Leftover> out;
    if (destination.empty()) return out;
    fs::path shown = fs::path(destination).lexically_normal();
    if (!shown.has_filename() && shown.has_relative_path()) shown = shown.parent_path();
    std::error_code ec;
    fs::path target = fs::absolute(shown, ec);
    if (ec) target = shown;
    const std::string name = target.filename().string();
    if (name.empty() || name == "." || name == "..") return out;
    collect(
        target.parent_path(), shown.parent_path(),
        [&name](const Name& n) { return n.base == name || n.suffix == Suffix::Probe; }, out);
    // A sweep or simulation folder is filled in place: its files' temporaries are inside.
    if (isDir(target) && isFile(target / "config.json")) {
        auto files = [](const Name& n) { return n.suffix == Suffix::Tmp; };
        collect(target, shown, files, out);
        if (isDir(target / "items")) collect(target / "items", shown / "items", files, out);
    }
    sortByPath(out);
    return out;
}

std::vector<Leftover> findLeftoversIn(const std::string& folder) {
    std::vector<Leftover> out;
    if (folder.empty()) return out;
    collect(
        fs::path(folder), fs::path(folder), [](const Name&) { return true; }, out);
    sortByPath(out);
    return out;
}

std::string describeLeftover(const Leftover& l) {
    // "an unfinished run folder of process 12", "an earlier run folder moved aside by process 12"
    const bool movedAside = l.what.find("moved aside") != std::string::npos;
    const std::string pid = (movedAside ? " by process " : " of process ") + std::to_string(l.pid);
    const std::string name = "'" + l.path + "' (" + l.what;
    switch (l.state) {
        case Leftover::State::Removable:
            return name + pid + ", which is no longer running)";
        case Leftover::State::InUse:
            if (!l.host.empty())
                return name + pid + " on the machine '" + l.host +
                       "', which cannot be checked from here and may be writing it; left alone: "
                       "remove it by hand once no job of that study runs)";
            if (l.pid == static_cast<long>(::getpid()))
                return name + " being written by this ppsynth; left alone)";
            return name + pid + ", which is still running and may be writing it; left alone)";
        case Leftover::State::OnlyCopy: {
            const std::string path = l.path;
            const auto at = path.rfind(".old-");
            return name + pid +
                   ", which stopped before its replacement was in place: it is the only copy; "
                   "rename it to '" +
                   fs::path(path.substr(0, at)).filename().string() + "' to restore it)";
        }
    }
    return name + ")";
}

Status removeLeftover(const Leftover& l) {
    if (l.state != Leftover::State::Removable)
        return Error{"'" + l.path + "' is not removed: " + describeLeftover(l)};
    std::error_code ec;
    fs::remove_all(fs::path(l.path), ec);
    if (ec)
        return Error::io("could not remove '" + l.path + "': " + ec.message() +
                         "; remove it by hand (it may hold confidential files)");
    return {};
}

}  // namespace ppsynth
