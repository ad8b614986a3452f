// An output folder that long studies (simulations, sweeps) fill item by item, so a
// cancelled or crashed study resumes where it stopped (private to core/study).
//   DIR/config.json      the canonical configuration the folder belongs to, stamped with
//                        what else decides its results (FolderStamp)
//   DIR/items/<name>.json one finished work item each, written atomically
//   DIR/items/<name>.<ext> what an item leaves for others (a sweep's unweighted.prepared)
// Reopening the folder with the same configuration and stamp finds the finished items;
// anything else is refused (its results would silently mix with the old ones).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::study::detail {

// What decides a folder's results besides its settings; written into config.json next to
// them (keys item_format, engine_revision and data_sha256) together with kEngineRevision.
struct FolderStamp {
    int itemFormat = 1;      // version of the saved items' format
    std::string dataSha256;  // of the data file the study reads; empty: it reads none
    std::string dataPath;    // that file, for messages only (not recorded)
};

class ResumableFolder {
  public:
    // kind: "simulation" or "sweep", named in messages. canonicalConfig: JSON text of an
    // object with every setting that changes results (not thread counts).
    static Expected<ResumableFolder> open(const std::string& dir, const std::string& kind,
                                          const std::string& canonicalConfig,
                                          const FolderStamp& stamp);
    // Opens a folder that open() created (a planned study) without writing anything, as
    // processes computing its items side by side do: a missing config.json is an error,
    // never rewritten.
    static Expected<ResumableFolder> openPlanned(const std::string& dir, const std::string& kind,
                                                 const std::string& canonicalConfig,
                                                 const FolderStamp& stamp);
    // A folder's config.json without the stamp's keys: the settings alone, for the
    // configuration parsers (which refuse unknown keys).
    static std::string settingsOf(const std::string& configJson);

    const std::string& dir() const { return dir_; }
    // SHA-256 of the folder's stamped configuration (config.json's contents as this
    // ppsynth writes them): what a file an item leaves for others is tied to.
    const std::string& configSha256() const { return configSha256_; }
    // A finished item's text, or nullopt when it has not finished yet.
    std::optional<std::string> load(const std::string& item) const;
    // Saves a finished item atomically (temporary file + rename).
    Status save(const std::string& item, const std::string& text) const;
    // Writes a top-level output file (summary, tables) atomically.
    Status writeOutput(const std::string& name, const std::string& text) const;
    // A file of the folder (a '/'-separated path inside it), or nullopt when it is absent.
    std::optional<std::string> readFile(const std::string& name) const;
    // Writes DIR/plan.json: {"kind", "items": [{"index", "name", "file", "after"}]}, the
    // items in order, each with the indices of the items it needs first.
    Status writePlan(const std::string& kind, const std::vector<std::string>& names,
                     const std::vector<std::vector<std::size_t>>& after) const;

  private:
    ResumableFolder(std::string dir, std::string configSha256)
        : dir_(std::move(dir)), configSha256_(std::move(configSha256)) {}
    std::string dir_;
    std::string configSha256_;
};

}  // namespace ppsynth::study::detail
