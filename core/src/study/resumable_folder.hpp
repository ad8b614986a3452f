// An output folder that long studies (simulations, sweeps) fill item by item, so a
// cancelled or crashed study resumes where it stopped (private to core/study).
//   DIR/config.json      the canonical configuration the folder belongs to
//   DIR/items/<name>.json one finished work item each, written atomically
// Reopening the folder with the same configuration finds the finished items; a different
// configuration is refused (its results would silently mix with the old ones).
#pragma once

#include <optional>
#include <string>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::study::detail {

class ResumableFolder {
  public:
    // kind: "simulate" or "sweep", named in messages. canonicalConfig: JSON text with every
    // setting that changes results (not thread counts).
    static Expected<ResumableFolder> open(const std::string& dir, const std::string& kind,
                                          const std::string& canonicalConfig);

    const std::string& dir() const { return dir_; }
    // A finished item's text, or nullopt when it has not finished yet.
    std::optional<std::string> load(const std::string& item) const;
    // Saves a finished item atomically (temporary file + rename).
    Status save(const std::string& item, const std::string& text) const;
    // Writes a top-level output file (summary, tables) atomically.
    Status writeOutput(const std::string& name, const std::string& text) const;

  private:
    explicit ResumableFolder(std::string dir) : dir_(std::move(dir)) {}
    std::string dir_;
};

}  // namespace ppsynth::study::detail
