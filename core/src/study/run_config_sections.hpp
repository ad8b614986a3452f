// The sections a run configuration shares with the sweep's (private to core/study): data,
// model, mcmc, synthesis, risk and lipschitz, read in one place (their rules are
// study/validate.hpp's validateSections, which the parsers call after reading).
#pragma once

#include <string>

#include "ppsynth/study/run_config.hpp"
#include "study/json_reader.hpp"

namespace ppsynth::study {

// Reads every shared section of `top` into c (data is required): types and keys only; the
// first problem goes into `error` with its key path.
void readRunSections(detail::Reader& top, RunConfig& c, std::string& error);

// A relative data path is taken relative to the configuration's folder.
void resolveDataPath(RunConfig& c, const std::string& baseDir);

}  // namespace ppsynth::study
