// Degenerate settings, in one place: a run refuses the ones that would compute nothing
// meaningful (every weight 0: "epsilon 0" and synthetic values drawn from the prior) and
// warns about the ones that compute something other than what a person expects (every
// weight 1: the same as Unweighted; a radius under which every record's risk is 0).
// The knob rules read the configuration only; the data and weight rules read what the run
// has computed. A constant target is refused with the data (data/prepare.hpp), as a
// constant predictor is.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study {

// LW, marginal and pairwise weights are alpha_i = clamp(c u_i + g) with u_i in [0, 1], so
// they lie in [clamp(g), clamp(c + g)].
// Refused: c + g <= 0 (c = 0 with g <= 0, or g <= -c such as g = -1 with c = 1): every
// weight is 0. The message names the synthesizer and says what to change.
// study::validate calls it, so the parser and every run refuse them alike.
Status refuseDegenerateKnobs(const RunConfig& config);

// Warned: g >= 1 (every weight 1, the same as Unweighted); c = 0 with 0 < g < 1 (every
// weight g: a scalar weight that ignores risk); c so large that only the top 5% of the
// score's range is down-weighted ((1 - g) / c <= 0.05: nearly the same as Unweighted).
std::vector<std::string> knobWarnings(const RunConfig& config);

// Warned, with the prepared data: every record alone in its pattern (its IR is 0 whatever
// the synthesizer), or a radius so large that, even with the confidential values as the
// synthetic ones, every record's ball holds every value of its pattern (every IR 0).
std::vector<std::string> dataWarnings(const RunConfig& config, const data::ModelInputs& inputs);

// A synthesizer's weights once computed: all 0 is refused (nothing left to fit).
Status refuseZeroWeights(const SynthesizerConfig& synthesizer, const Eigen::VectorXd& alpha);
// All 1 for a weighted scheme is warned: its fit is the unweighted one.
std::optional<std::string> weightsWarning(const SynthesizerConfig& synthesizer,
                                          const Eigen::VectorXd& alpha);

// Warned, once a synthesizer's datasets are drawn: synthetic values of the sensitive variable
// below zero when no confidential value is (a wage, an income of a population without
// losses): a normal model of y itself spreads below zero, which data users notice at once.
// The message says how many, the lowest, and the remedies (the log transform, log-shift with
// zeros, or the mixture; with log-shift already, that its back-transform exp(z) - s reaches
// down to -s). `original` and `synthetic` on the original scale.
std::optional<std::string> negativeValuesWarning(const SynthesizerConfig& synthesizer,
                                                 const std::string& target,
                                                 const std::string& transform,
                                                 const Eigen::VectorXd& original,
                                                 const std::vector<std::vector<double>>& synthetic);

// Warned likewise: synthetic values of the sensitive variable further beyond the confidential
// values than their whole range (above max + (max - min) or below min - (max - min)). A
// model's tail can reach there (a mixture component that holds no record draws its
// coefficients from the prior; a count model's mean far outside the data), and data users
// take such values for errors. Says how many, the most extreme against the confidential
// range, and that the model needs a look. Nothing when the confidential values are all equal.
std::optional<std::string> farValuesWarning(const SynthesizerConfig& synthesizer,
                                            const std::string& target, const std::string& family,
                                            const Eigen::VectorXd& original,
                                            const std::vector<std::vector<double>>& synthetic);

}  // namespace ppsynth::study
