// What a sweep's grid points share from its unweighted fit, saved by the sweep's item 0 as
// DIR/items/unweighted.prepared and loaded by the point items instead of refitting the
// unweighted model in every process (private to core/study).
//
// The file: a text header (a magic line, the format version, the SHA-256 of the folder's
// stamped config.json, the payload's length), the payload (little-endian; every double as
// its IEEE-754 bits, so it is read back exactly, NaN and infinities included) and a last
// line with the SHA-256 of everything before it. A file that is truncated, altered, of
// another format or of another configuration is refused, never read back.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/study/fit.hpp"
#include "ppsynth/study/runner.hpp"

namespace ppsynth::study {

namespace detail {

// The unweighted fit's results that runs on a prepared study read (runner.cpp): everything
// but the draws themselves, which only the unweighted synthesizer's own row needs.
struct SharedUnweighted {
    Eigen::VectorXd f;                              // per-record bounds f_i
    double deltaX = 0;                              // Delta_x
    std::vector<std::uint8_t> nonFinite;            // records Assumption 2 zeroes
    std::optional<privacy::FAgreement> fAgreement;  // the chains' agreement on f_i
    std::vector<mcmc::ChainStart> warmStarts;       // where refits start
    std::vector<std::vector<double>> synthetic;     // the max(m, L) unweighted datasets
    std::vector<double> ir;                         // their identification risk
    std::vector<ParameterSummary> parameters;       // for the utility report
};

constexpr int kPreparedFormat = 1;

std::string encodeShared(const SharedUnweighted& shared, const std::string& configSha256);

// `path` names the file in messages; configSha256 is this folder's (the file must carry it).
Expected<SharedUnweighted> decodeShared(std::string_view bytes, const std::string& configSha256,
                                        const std::string& path);

}  // namespace detail

// A prepared study to and from its shared state (a friend of PreparedStudy).
struct PreparedStudyFile {
    static detail::SharedUnweighted shared(const PreparedStudy& study);
    // The study `config` prepares on `table` (data and model, no fit), with the unweighted
    // fit's results taken from `shared`. Runs on it give the same results as on a study
    // prepareStudy fitted; only an "unweighted" synthesizer cannot run on it (no draws).
    static Expected<PreparedStudy> restore(const RunConfig& config, const data::Table& table,
                                           detail::SharedUnweighted shared,
                                           const RunOptions& options = {});
};

}  // namespace ppsynth::study
