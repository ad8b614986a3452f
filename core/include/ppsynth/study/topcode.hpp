// The top-coding comparator (METHOD.md 3.9): what agencies publish today, shown beside the
// synthesizers of a run. y_tc = min(y, t), t the q-quantile of y (original scale); its
// identification risk with y* = y_tc as the one dataset (L = 1) and its utility on that one
// dataset. It is never fitted and has no formal guarantee: no epsilon (NaN), and it is never
// released (its file is the confidential y with only the top values capped).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/privacy/box_risk.hpp"
#include "ppsynth/privacy/identification_risk.hpp"
#include "ppsynth/study/synthesizer_result.hpp"

namespace ppsynth::study {

// Shown where the other synthesizers show epsilon.
inline constexpr const char* kNoFormalGuarantee = "no formal guarantee";

// The comparator's result for synthesizer `sc` (scheme topcode): details (q, t, records
// capped), the one top-coded dataset as `synthetic`, IR_i over it (L = 1) with its summary,
// the whack-a-mole records against `baselineIr`, alpha = 1 and no bound (NaN), epsilon NaN.
// For counts (`integer`) t is rounded down to a whole number, so the file stays one of counts
// (the same records are capped). Utility is the caller's (it needs the run).
Expected<SynthesizerResult> topCodeComparator(
    const SynthesizerConfig& sc, std::span<const double> y, std::span<const std::int32_t> pattern,
    const privacy::RiskOptions& risk, double riskThreshold, std::span<const double> baselineIr,
    double whackAMoleRise, bool integer = false);

// Several sensitive variables (METHOD.md 3.9 with section 9): `y` holds each variable's n values,
// variable after variable (names.size() of them); each variable is capped at its own
// q-quantile, the same q for all (a count variable, integer[k], at its quantile rounded down).
// The one top-coded dataset keeps that layout; IR_i is the box IR over it (L = 1) with one
// radius per variable (radii, empty: risk.radius for all). details.variables holds every
// variable's t and records capped; the rest is as topCodeComparator's.
Expected<SynthesizerResult> topCodeComparatorSeveral(
    const SynthesizerConfig& sc, std::span<const double> y, const std::vector<std::string>& names,
    const std::vector<bool>& integer, std::span<const std::int32_t> pattern,
    const privacy::RiskOptions& risk, const std::vector<privacy::Radius>& radii,
    double riskThreshold, std::span<const double> baselineIr, double whackAMoleRise);

}  // namespace ppsynth::study
