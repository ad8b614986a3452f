// The release bundle (METHOD.md section 9, issue 7): the m synthetic datasets, a manifest, a
// README for data users and SHA-256 checksums, written atomically into one folder:
//
//   BUNDLE/manifest.json
//   BUNDLE/README.txt
//   BUNDLE/data/synthetic_01.csv (.sav, .dta per the formats asked for) ... synthetic_m
//   BUNDLE/SHA256SUMS           (sha256sum -c compatible; every file except itself)
//
// The leak guarantee is enforced here, where the bundle is assembled: only the allow-listed
// columns are written, columns named like confidential quantities are refused even when
// listed, and (when the caller passes it) a column equal to the original y is refused.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/release/manifest.hpp"

namespace ppsynth::release {

struct ReleaseRequest {
    // The m synthetic datasets: the input's kept rows with the target replaced by synthetic
    // values. Extra columns are allowed (they are dropped); all datasets must have the same
    // rows and the same released predictors (partial synthesis changes only the sensitive
    // variables).
    std::vector<data::Table> datasets;
    std::string target;  // the synthetic y column's name (with several, the first)
    // Several sensitive variables (METHOD.md section 9), in synthesis order, target ==
    // targets[0]: every one is synthetic, checked like the target and may differ between
    // datasets. Empty: one sensitive variable, `target`.
    std::vector<std::string> targets;
    // Allow-list: the columns written, in this order. Must include the target. Anything else
    // in the tables is never written, nor named anywhere in the bundle.
    std::vector<std::string> releasedColumns;
    std::vector<data::FileFormat> formats = {data::FileFormat::Csv};  // csv, sav, dta
    Manifest manifest;
    // Optional: the confidential y (original scale, the rows of the datasets). When given,
    // a released column equal to it in every row is refused: a run that forgot to replace
    // the target cannot be released. Never written anywhere.
    const std::vector<double>* originalTarget = nullptr;
    // Optional, with several: the confidential values of targets[k] at k (original scale, the
    // datasets' rows), each checked like originalTarget; a null or missing entry 0 falls back
    // to originalTarget. Never written anywhere.
    std::vector<const std::vector<double>*> originalTargets;
};

// The synthetic columns of a request in synthesis order: targets, or {target}.
std::vector<std::string> sensitiveColumns(const ReleaseRequest& request);

struct ReleaseOptions {
    // Replace an existing bundle (atomically: the old one is moved aside, the new one moved
    // in, then the old one deleted). Without it an existing folder is an error. Even with it,
    // a folder that is not empty and not a ppsynth bundle (no manifest.json whose "format" is
    // "ppsynth-release") is never replaced.
    bool overwrite = false;
    ProgressCallback progress;  // stage "release", done/total in files; Stop cancels
    // Told, on the calling thread before the writer returns, what a person must know about a
    // bundle that was written all the same: an old bundle that was replaced but could not be
    // deleted, where it was left and that it must be removed by hand.
    std::function<void(const std::string&)> warning;
    // releaseFromRun: release a synthesizer whose epsilon did not converge (or was never
    // diagnosed) all the same; the manifest records that it was accepted so.
    bool acceptUnconverged = false;
};

// Names ppsynth refuses to release whatever the allow-list says: after splitting into parts
// at non-alphanumeric characters and camelCase humps and lower-casing, a name is refused
// when it is one of METHOD.md's record-level symbols (f, f_i, delta, delta_i, at_i, t_i,
// ...) or the code's (recordDelta, ...), or any part is alpha, lipschitz, ir, risk, weight,
// weights, pairwise, original, confidential or a log-likelihood.
// Returns the reason ("weights") or an empty string when the name is fine.
std::string confidentialNameReason(const std::string& columnName);

// All checks of a request without writing anything (the GUI can call it before a run ends).
Status validateReleaseRequest(const ReleaseRequest& request);

// Writes the bundle into `bundleDir` (its parent folder is created when missing). On any
// error or a cancel nothing is left behind and an existing bundle is untouched.
Status writeReleaseBundle(const ReleaseRequest& request, const std::string& bundleDir,
                          const ReleaseOptions& options = {});

// The file name of dataset `index` (0-based) of m in a format: "synthetic_01.csv".
std::string datasetFileName(std::size_t index, std::size_t m, data::FileFormat format);

// How many digits the dataset numbers in those names have: those of m, at least 2
// ("synthetic_007.dta" for m = 120). The README's reading code pads to the same width.
std::size_t datasetNumberWidth(std::size_t m);

}  // namespace ppsynth::release
