// The bundle writer: everything goes into a temporary folder beside the target, which is
// renamed into place only when complete, so a failed or cancelled export leaves nothing and
// a reader never sees half a bundle.
#include "ppsynth/release/bundle.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/common/name_list.hpp"
#include "ppsynth/common/sha256.hpp"
#include "ppsynth/release/bundle_guard.hpp"
#include "release/commit.hpp"
#include "release/readme.hpp"

namespace ppsynth::release {

namespace fs = std::filesystem;

namespace {

std::string extension(data::FileFormat f) {
    return "." + std::string(data::toString(f));
}

// Removes a folder (and what is in it) when leaving scope, unless released.
class FolderGuard {
  public:
    explicit FolderGuard(fs::path p) : path_(std::move(p)) {}
    FolderGuard(const FolderGuard&) = delete;
    FolderGuard& operator=(const FolderGuard&) = delete;
    ~FolderGuard() {
        if (path_.empty()) return;
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    void release() { path_.clear(); }

  private:
    fs::path path_;
};

std::string besideName(const fs::path& target, const char* what) {
    static std::atomic<unsigned> counter{0};
    return target.string() + what + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// Messages name the file a person asked for, not the temporary folder it was written in.
std::string withoutTemporary(std::string message, const fs::path& temp, const fs::path& target) {
    const std::string from = temp.string(), to = target.string();
    for (std::size_t at = message.find(from); at != std::string::npos;
         at = message.find(from, at + to.size()))
        message.replace(at, from.size(), to);
    return message;
}

// Only the allow-listed columns, in the allow-list's order.
data::Table releasedTable(const data::Table& t, const std::vector<std::string>& columns) {
    data::Table out;
    for (const auto& name : columns) {
        // Validated before: present, unique, equal length.
        [[maybe_unused]] const Status s = out.addColumn(*t.find(name));
    }
    return out;
}

// Files in a bundle folder that its SHA256SUMS does not list (someone's analysis script, say),
// as "'a', 'b'" (at most a few named); empty when there are none.
std::string filesNotInBundle(const fs::path& bundle) {
    std::set<std::string> listed{"SHA256SUMS"};
    std::ifstream sums(bundle / "SHA256SUMS");
    for (std::string line; std::getline(sums, line);)
        if (const auto at = line.find("  "); at != std::string::npos)
            listed.insert(line.substr(at + 2));
    std::vector<std::string> extra;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(bundle, ec); !ec && it != fs::end(it);
         it.increment(ec))
        if (!it->is_directory(ec)) {
            const std::string rel = fs::relative(it->path(), bundle, ec).generic_string();
            if (!listed.count(rel)) extra.push_back(rel);
        }
    return quotedNames(std::move(extra));
}

// May an existing path be replaced by a bundle (with overwrite)? Only a folder that is a
// ppsynth bundle or empty, so a mistyped --out never deletes someone's documents. A file
// merely named manifest.json does not make a bundle: it must carry the bundle's format mark.
Status replaceable(const fs::path& target) {
    std::error_code ec;
    if (!fs::is_directory(target, ec))
        return Error{"'" + target.string() + "' exists and is not a folder; it is not replaced"};
    if (fs::is_empty(target, ec) && !ec) return {};
    const fs::path manifest = target / "manifest.json";
    if (!fs::is_regular_file(manifest, ec))
        return Error{"'" + target.string() +
                     "' is a folder that is not a ppsynth release bundle (no manifest.json); "
                     "it is not replaced, choose another folder"};
    std::ifstream in(manifest, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in)
        return Error::io("could not read '" + manifest.string() + "'; '" + target.string() +
                         "' is not replaced, choose another folder");
    if (const std::string found = notAReleaseManifest(text.str()); !found.empty())
        return Error{"'" + target.string() +
                     "' is a folder that is not a ppsynth release bundle: its manifest.json is "
                     "not one ppsynth wrote (" +
                     found + "; a bundle's says \"format\": \"" + kManifestFormat +
                     "\"); it is not replaced, choose another folder or empty this one first"};
    if (const auto extra = filesNotInBundle(target); !extra.empty())
        return Error{"'" + target.string() + "' is a ppsynth release bundle but also holds " +
                     extra +
                     ", which the bundle did not write; it is not replaced (that would "
                     "delete them): move them out first or choose another folder"};
    return {};
}

// Data files, manifest, README and checksums into the temporary folder.
Status writeContents(const ReleaseRequest& request, const fs::path& temp,
                     const ReleaseOptions& options) {
    const std::size_t m = request.datasets.size();
    Progress progress{"release", 0, 0, static_cast<double>(m * request.formats.size() + 3)};
    auto step = [&]() -> Status {
        if (report(options.progress, progress) == Continue::Stop)
            return Error::cancelled("release cancelled; nothing was written");
        progress.done += 1;
        return {};
    };

    ManifestFacts facts;
    facts.records = request.datasets.front().rowCount();
    facts.datasets = m;
    facts.target = request.target;
    const std::vector<std::string> synthetic = sensitiveColumns(request);
    if (synthetic.size() > 1) facts.targets = synthetic;
    for (const auto& c : request.releasedColumns)
        if (std::find(synthetic.begin(), synthetic.end(), c) == synthetic.end())
            facts.predictors.push_back(c);
    for (auto f : request.formats) facts.formats.emplace_back(data::toString(f));

    // Names a format does not accept are changed in its files and listed (manifest, README).
    std::map<data::FileFormat, std::vector<std::string>> formatNames;
    for (auto format : request.formats) {
        const auto names = data::statVariableNames(request.releasedColumns, format);
        formatNames[format] = names;
        for (std::size_t c = 0; c < names.size(); ++c)
            if (names[c] != request.releasedColumns[c])
                facts.renamed[std::string(data::toString(format))].emplace_back(
                    request.releasedColumns[c], names[c]);
    }

    for (std::size_t l = 0; l < m; ++l) {
        data::Table table = releasedTable(request.datasets[l], request.releasedColumns);
        for (auto format : request.formats) {
            if (Status s = step(); !s) return s;
            const std::string name = "data/" + datasetFileName(l, m, format);
            auto path = pathInside(temp.string(), name);
            if (!path) return path.status();
            const auto& names = formatNames[format];
            for (std::size_t c = 0; c < table.columnCount(); ++c) table.column(c).setName(names[c]);
            if (Status s = data::writeTable(table, *path, format); !s)
                return s.error().prefixed("synthetic dataset " + std::to_string(l + 1) + ": ");
            facts.files.push_back(name);
        }
    }

    Manifest manifest = request.manifest;
    if (manifest.createdUtc.empty()) manifest.createdUtc = currentUtcIso8601();
    const std::string json = manifestJson(manifest, facts);
    const std::string readme = detail::readmeText(manifest, facts);
    auto writeText = [&](const std::string& name, const std::string& text) -> Status {
        if (Status s = step(); !s) return s;
        auto path = pathInside(temp.string(), name);
        if (!path) return path.status();
        return writeFileAtomically(*path, [&](std::ostream& out) -> Status {
            out.write(text.data(), static_cast<std::streamsize>(text.size()));
            return {};
        });
    };
    if (Status s = writeText("manifest.json", json); !s) return s;
    if (Status s = writeText("README.txt", readme); !s) return s;

    // SHA256SUMS: "<hex>  <path>" per line, the format `sha256sum -c` reads.
    std::vector<std::string> listed = facts.files;
    listed.push_back("manifest.json");
    listed.push_back("README.txt");
    std::sort(listed.begin(), listed.end());
    std::string sums;
    for (const auto& name : listed) {
        auto hex = sha256FileHex((temp / name).string());
        if (!hex) return hex.status();
        sums += *hex + "  " + name + "\n";
    }
    if (Status s = writeText("SHA256SUMS", sums); !s) return s;
    if (report(options.progress, progress) == Continue::Stop)
        return Error::cancelled("release cancelled; nothing was written");
    return {};
}

}  // namespace

namespace detail {

Expected<std::string> commitBundle(const fs::path& temp, const fs::path& target, bool exists,
                                   const RenameFolder& rename, const RemoveFolder& remove) {
    return ppsynth::replaceFolder(temp, target, exists, "bundle", rename, remove);
}

}  // namespace detail

std::size_t datasetNumberWidth(std::size_t m) {
    return std::max<std::size_t>(2, std::to_string(m).size());
}

std::string datasetFileName(std::size_t index, std::size_t m, data::FileFormat format) {
    const std::size_t width = datasetNumberWidth(m);
    std::string number = std::to_string(index + 1);
    number.insert(0, width - std::min(width, number.size()), '0');
    return "synthetic_" + number + extension(format);
}

Status writeReleaseBundle(const ReleaseRequest& request, const std::string& bundleDir,
                          const ReleaseOptions& options) {
    if (Status s = validateReleaseRequest(request); !s) return s;
    if (bundleDir.empty()) return Error{"no folder given for the release bundle"};
    fs::path target = fs::path(bundleDir).lexically_normal();
    if (!target.has_filename()) target = target.parent_path();  // "out/" -> "out"
    // A bundle inside another would be handed out with it: refused before anything is made.
    if (const std::string nested = nestedBundleProblem(target); !nested.empty())
        return Error{nested};

    std::error_code ec;
    const bool exists = fs::exists(fs::symlink_status(target, ec));
    if (exists && !options.overwrite)
        return Error::alreadyExists("'" + target.string() +
                                    "' already exists; choose another folder or allow overwriting");
    if (exists) {
        if (Status s = replaceable(target); !s) return s;
    }
    // Parent folders made here are removed again if the export fails.
    fs::path firstMade;
    for (fs::path p = target.parent_path(); !p.empty(); p = p.parent_path()) {
        if (fs::exists(p, ec) || ec) break;  // when unsure whether it exists, never remove it
        firstMade = p;
        if (p == p.parent_path()) break;
    }
    FolderGuard parentGuard(firstMade);
    if (!firstMade.empty()) {
        fs::create_directories(target.parent_path(), ec);
        if (ec)
            return Error::io("could not create the folder '" + target.parent_path().string() +
                             "': " + ec.message());
    }

    const fs::path temp = besideName(target, ".tmp-");
    if (!fs::create_directory(temp, ec) || !fs::create_directory(temp / "data", ec))
        return Error::io("could not create a folder beside '" + target.string() +
                         "': " + (ec ? ec.message() : "it already exists"));
    FolderGuard guard(temp);

    if (Status s = writeContents(request, temp, options); !s)
        return Error{withoutTemporary(s.message(), temp, target), s.kind()};
    auto committed = detail::commitBundle(temp, target, exists);
    if (!committed) return committed.status();
    guard.release();
    parentGuard.release();
    if (!committed->empty() && options.warning) options.warning(*committed);
    return {};
}

}  // namespace ppsynth::release
