#include "ppsynth/release/bundle_guard.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <system_error>

#include "ppsynth/release/manifest.hpp"

namespace ppsynth::release {

namespace fs = std::filesystem;

namespace {

// A bundle's manifest is a few kilobytes; a far larger manifest.json is some other program's
// and is not read whole.
constexpr std::uintmax_t kMaxManifestBytes = 4u << 20;

// The nearest folder from `dir` up to the root that holds ppsynth's manifest.json.
std::optional<fs::path> bundleFrom(fs::path dir) {
    while (!dir.empty()) {
        if (holdsReleaseManifest(dir)) return dir;
        fs::path parent = dir.parent_path();
        if (parent == dir) break;
        dir = std::move(parent);
    }
    return std::nullopt;
}

// Where the walk starts: an existing folder itself, otherwise the folder the name is in.
fs::path startOf(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec) ? p : p.parent_path();
}

// `path` absolute and without "." and ".." parts or a trailing separator ("out/" -> "out").
fs::path absoluteNormal(const fs::path& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (ec) p = path;
    p = p.lexically_normal();
    if (!p.has_filename() && p.has_relative_path()) p = p.parent_path();
    return p;
}

std::string shown(fs::path p) {
    return p.make_preferred().string();
}

}  // namespace

bool holdsReleaseManifest(const fs::path& dir) {
    std::error_code ec;
    const fs::path file = dir / "manifest.json";
    if (!fs::is_regular_file(file, ec)) return false;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (ec || size > kMaxManifestBytes) return false;
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return notAReleaseManifest(text).empty();
}

std::optional<fs::path> releaseBundleAround(const fs::path& path) {
    if (path.empty()) return std::nullopt;
    const fs::path p = absoluteNormal(path);
    if (auto bundle = bundleFrom(startOf(p))) return bundle;
    // The same walk where symbolic links lead: "out" may be a link into a bundle's folder.
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(p, ec);
    if (!ec && real != p) return bundleFrom(startOf(real));
    return std::nullopt;
}

std::string confidentialDestinationProblem(const fs::path& path, const std::string& what) {
    const auto bundle = releaseBundleAround(path);
    if (!bundle) return {};
    return "confidential output (" + what + ") cannot be written into the release bundle '" +
           shown(*bundle) +
           "' (it has ppsynth's manifest.json): a bundle is made to be handed out. Choose a "
           "folder outside it, one kept inside the agency";
}

std::string nestedBundleProblem(const fs::path& bundleDir) {
    if (bundleDir.empty()) return {};
    const fs::path target = absoluteNormal(bundleDir);
    const auto outer = releaseBundleAround(target.parent_path());
    if (!outer) return {};
    return "'" + shown(bundleDir) + "' is inside the release bundle '" + shown(*outer) +
           "' (it has ppsynth's manifest.json): a bundle inside another would be handed out "
           "with it and is not listed in its checksums. Choose a folder outside it";
}

}  // namespace ppsynth::release
