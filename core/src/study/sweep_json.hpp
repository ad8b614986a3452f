// The sweep's rows and points as JSON and CSV (private to core/study): shared by its
// configuration (sweep_config.cpp), its execution (sweep.cpp) and its output files
// (sweep_output.cpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/sweep.hpp"

namespace ppsynth::study::detail {

nlohmann::json pointJson(const SweepPoint& p);
SweepPoint pointFrom(const nlohmann::json& j);

nlohmann::json rowJson(const SweepRow& r);
SweepRow rowFrom(const nlohmann::json& j);
SweepRow rowFrom(int point, const SweepPoint& knobs, const SynthesizerResult& s);

std::string sweepCsv(const SweepSummary& s);

}  // namespace ppsynth::study::detail
