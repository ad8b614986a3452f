// A release bundle from a finished run: one synthesizer's m synthetic datasets with the
// modelled predictors and the synthetic target only (the allow-list), and a manifest made
// from the run's configuration and summaries. What derives from the confidential data
// beyond the published epsilon (the log-shift s, weights, bounds, risks, y) stays out.
#pragma once

#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/release/bundle.hpp"
#include "ppsynth/release/manifest.hpp"
#include "ppsynth/study/public_run.hpp"
#include "ppsynth/study/synthesizer_result.hpp"

namespace ppsynth::release {

// The release path reads a run through study::PublicRun and a synthesizer through
// study::PublicResult, which hold no record-level vector (weights, bounds, risks, record
// indices: study::RecordLevel; the run's f_i): code here cannot put one into a bundle. These
// checks keep it so: giving either type such a member makes this header fail to compile.
namespace detail {
template <class T>
constexpr bool kHasRecords = requires(const T& t) {
    t.records;
};
template <class T>
constexpr bool kHasWeights = requires(const T& t) {
    t.alpha;
};
template <class T>
constexpr bool kHasRunBounds = requires(const T& run) {
    run.f;
};
template <class T>
constexpr bool kRunSeesRecords = requires(const T& run) {
    run.synthesizers()[0]->records;
};
}  // namespace detail
static_assert(detail::kHasRecords<study::SynthesizerResult>, "the check sees records");
static_assert(!detail::kHasRecords<study::PublicResult> &&
                  !detail::kHasWeights<study::PublicResult>,
              "a release must not reach a synthesizer's record-level vectors");
static_assert(detail::kHasRunBounds<study::RunResult>, "the check sees a run's f_i");
static_assert(!detail::kHasRunBounds<study::PublicRun> &&
                  !detail::kRunSeesRecords<study::PublicRun>,
              "a release must not reach the run's per-record bounds or records");

// The allow-list of a run: the target and the modelled predictors, in the data's column
// order. Known variables are predictors too; any other column of the data is never released.
std::vector<std::string> releasedColumnsOf(const study::RunConfig& config,
                                           const data::Table& table);

// Why `r`'s epsilon cannot be released as converged (METHOD.md section 2: "not converged",
// with the run's reasons, or not diagnosed by an older ppsynth); empty when it converged.
std::string unconvergedEpsilon(const study::PublicResult& r);

// The manifest of one synthesizer of the run (createdUtc left empty: the writer stamps it).
Expected<Manifest> manifestFromRun(const study::PublicRun& run, const std::string& synthesizer);

// "csv,sav,dta" (any order, case-insensitive, spaces ignored) as formats; each once.
Expected<std::vector<data::FileFormat>> parseReleaseFormats(const std::string& list);

// Writes the bundle of `synthesizer` (see writeReleaseBundle for atomicity, overwrite and
// cancel). A synthesizer whose epsilon did not converge is refused, naming why, unless
// options.acceptUnconverged (recorded in the manifest). `table` is the run's data file as read
// (loadRunFolder gives both).
Status releaseFromRun(const study::PublicRun& run, const data::Table& table,
                      const std::string& synthesizer, const std::string& bundleDir,
                      const std::vector<data::FileFormat>& formats,
                      const ReleaseOptions& options = {});

}  // namespace ppsynth::release
