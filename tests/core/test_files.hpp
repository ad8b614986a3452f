// Files for tests: where they may write (PPSYNTH_TEST_OUTPUT, set by ctest, or the system's
// temporary folder) and reading what was written.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ppsynth::test {

inline std::filesystem::path testOutputBase() {
    const char* env = std::getenv("PPSYNTH_TEST_OUTPUT");
    return env && *env ? std::filesystem::path(env) : std::filesystem::temp_directory_path();
}

// `sub` under the test output folder, created if missing (kept between tests).
inline std::filesystem::path outputDir(const std::string& sub) {
    const auto dir = testOutputBase() / sub;
    std::filesystem::create_directories(dir);
    return dir;
}

// `name` under the test's own output folder `test`, emptied and created: a fresh folder.
inline std::filesystem::path freshDir(const std::string& test, const std::string& name) {
    const auto dir = outputDir(test) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// `name` under the test output folder, emptied: a fresh place for one test's output.
inline std::string scratchDir(const std::string& name) {
    const auto dir = testOutputBase() / name;
    std::filesystem::remove_all(dir);
    return dir.string();
}

inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every regular file below `dir`, relative and sorted.
inline std::vector<std::string> filesUnder(const std::filesystem::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file())
            out.push_back(std::filesystem::relative(e.path(), dir).generic_string());
    std::sort(out.begin(), out.end());
    return out;
}

// Every file under `dir`, relative and sorted, with its bytes (a run folder's synthetic/).
inline std::map<std::string, std::string> filesWithBytes(const std::filesystem::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& f : filesUnder(dir)) out[f] = slurp(dir / f);
    return out;
}

// For tests of what is left when deleting fails: makes `file` impossible to delete, by making
// its folder read-only or, for root (whom permissions do not stop), by the immutable
// attribute (chattr +i). False when neither can be done here (the test should then skip).
inline bool makeUndeletable(const std::filesystem::path& file) {
    namespace fs = std::filesystem;
    if (::geteuid() == 0)
        return std::system(("chattr +i '" + file.string() + "' 2>/dev/null").c_str()) == 0;
    std::error_code ec;
    fs::permissions(file.parent_path(), fs::perms::owner_write, fs::perm_options::remove, ec);
    return !ec;
}

// Undoes makeUndeletable on `file` (where it is now); harmless on any other file.
inline void makeDeletable(const std::filesystem::path& file) {
    namespace fs = std::filesystem;
    if (::geteuid() == 0) {
        if (fs::exists(file)) {
            [[maybe_unused]] const int rc =
                std::system(("chattr -i '" + file.string() + "' 2>/dev/null").c_str());
        }
        return;
    }
    std::error_code ec;
    if (fs::exists(file.parent_path()))
        fs::permissions(file.parent_path(), fs::perms::owner_all, fs::perm_options::add, ec);
}

}  // namespace ppsynth::test
