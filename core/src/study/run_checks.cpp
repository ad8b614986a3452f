#include "ppsynth/study/run_checks.hpp"

#include "ppsynth/data/number_format.hpp"
#include "ppsynth/privacy/identification_risk.hpp"

namespace ppsynth::study {

namespace {

using data::formatNumber;

// The schemes whose weights are clamp(c u + g).
bool usesCG(Scheme s) {
    return s == Scheme::Lipschitz || s == Scheme::Marginal || s == Scheme::Pairwise;
}

std::string who(const SynthesizerConfig& s) {
    return "synthesizer '" + s.name + "' (" + std::string(toString(s.scheme)) + ")";
}

std::string knobs(const SynthesizerConfig& s) {
    return "c = " + formatNumber(s.c) + ", g = " + formatNumber(s.g);
}

// What u is for the scheme, for the messages.
std::string score(Scheme s) {
    switch (s) {
        case Scheme::Lipschitz:
            return "1 - ft_i (the scaled Lipschitz bound)";
        case Scheme::Marginal:
            return "1 - IR_i";
        default:
            return "at_i (the pairwise score)";
    }
}

}  // namespace

Status refuseDegenerateKnobs(const RunConfig& config) {
    for (const auto& s : config.synthesizers) {
        if (!usesCG(weightShape(s)) || s.c + s.g > 0) continue;
        return Error{who(s) + ": " + knobs(s) +
                     " gives every record weight 0 (the weights are clamp(c u + g) with u in "
                     "[0, 1], at most c + g = " +
                     formatNumber(s.c + s.g) +
                     "): the model would be fitted to no data, its epsilon would read 0 and its "
                     "synthetic values would come from the prior alone; make c + g positive, "
                     "such as c = 1, g = 0"};
    }
    return {};
}

std::vector<std::string> knobWarnings(const RunConfig& config) {
    std::vector<std::string> out;
    for (const auto& s : config.synthesizers) {
        if (!usesCG(weightShape(s)) || s.c + s.g <= 0) continue;
        if (s.g >= 1) {
            out.push_back(who(s) + ": g = " + formatNumber(s.g) +
                          " gives every record weight 1, so its results are those of "
                          "Unweighted (no privacy gained); use g < 1, such as 0");
        } else if (s.c == 0) {
            out.push_back(who(s) +
                          ": c = 0 gives every record the same weight g = " + formatNumber(s.g) +
                          ", whatever its risk; the scalar scheme does that with a target "
                          "epsilon, or use c > 0 to weight by risk");
        } else if ((1 - s.g) / s.c <= 0.05) {
            out.push_back(who(s) + ": " + knobs(s) + " gives weight 1 to every record whose " +
                          score(weightShape(s)) + " is above " + formatNumber((1 - s.g) / s.c) +
                          ", so only the very riskiest records are down-weighted and the "
                          "results are nearly those of Unweighted; use a c nearer 1");
        }
    }
    return out;
}

std::vector<std::string> dataWarnings(const RunConfig& config, const data::ModelInputs& inputs) {
    std::vector<std::string> out;
    const auto& patterns = inputs.patterns;
    const std::size_t n = inputs.recordCount();
    if (n == 0) return out;
    if (patterns.singletons == n) {
        out.push_back(
            "every record is alone in its pattern of the known variables, so every "
            "identification risk is 0 whatever the synthesizer does; use fewer or "
            "coarser known variables");
        return out;
    }
    // IR with the confidential values as the one synthetic dataset (y* = y): 0 for every
    // record in a pattern of two or more means every ball holds its whole pattern.
    const std::vector<std::vector<double>> self{
        std::vector<double>(inputs.yOriginal.data(), inputs.yOriginal.data() + n)};
    privacy::RiskOptions ro;
    ro.radius = {config.risk.radius, config.risk.percentage};
    ro.threads = config.mcmc.threads;
    auto ir = privacy::marginalRisk(self.front(), self, patterns.id, ro);
    if (!ir) return out;
    for (std::size_t i = 0; i < n; ++i)
        if (patterns.size(static_cast<std::size_t>(patterns.id[i])) > 1 && (*ir)[i] > 0) return out;
    const std::string radius = config.risk.percentage
                                   ? formatNumber(config.risk.radius) + " (" +
                                         formatNumber(config.risk.radius * 100) + "% of |y_i|)"
                                   : formatNumber(config.risk.radius) + " (absolute)";
    out.push_back("risk.radius " + radius +
                  " is so large that every value of a record's pattern lies within it, so every "
                  "identification risk will be 0 and the risk-based weights cannot tell records "
                  "apart; use a smaller radius (the default is 0.2, i.e. 20%)");
    return out;
}

Status refuseZeroWeights(const SynthesizerConfig& s, const Eigen::VectorXd& alpha) {
    if (alpha.size() == 0 || alpha.maxCoeff() > 0) return {};
    std::string why = s.scheme == Scheme::Lipschitz && s.M
                          ? "; M = " + formatNumber(*s.M) + " truncates every record: raise M"
                      : usesCG(weightShape(s)) ? "; raise c or g (" + knobs(s) + ")"
                                               : "";
    return Error{
        "every record's weight is 0, so the model would be fitted to no data (its "
        "epsilon would read 0 and its synthetic values come from the prior alone)" +
        why};
}

std::optional<std::string> weightsWarning(const SynthesizerConfig& s,
                                          const Eigen::VectorXd& alpha) {
    // g >= 1 was warned from the configuration already (knobWarnings).
    if (s.scheme == Scheme::Unweighted || alpha.size() == 0 || alpha.minCoeff() < 1 ||
        (usesCG(weightShape(s)) && s.g >= 1))
        return std::nullopt;
    return who(s) +
           ": every record's weight is 1, so its fit, epsilon and synthetic data are "
           "those of Unweighted (no privacy gained)" +
           (usesCG(weightShape(s)) ? "; lower g below 1 or c (" + knobs(s) + ")" : std::string());
}

std::optional<std::string> negativeValuesWarning(
    const SynthesizerConfig& s, const std::string& target, const std::string& transform,
    const Eigen::VectorXd& original, const std::vector<std::vector<double>>& synthetic) {
    if (original.size() == 0 || !(original.minCoeff() >= 0.0)) return std::nullopt;
    std::size_t negative = 0, all = 0;
    double lowest = 0.0;
    for (const auto& dataset : synthetic)
        for (const double v : dataset) {
            ++all;
            if (v < 0.0) {
                ++negative;
                lowest = std::min(lowest, v);
            }
        }
    if (negative == 0) return std::nullopt;
    const bool zeros = original.minCoeff() == 0.0;
    const std::string what = who(s) + ": " + std::to_string(negative) + " of its " +
                             std::to_string(all) + " synthetic values of '" + target +
                             (negative == 1 ? "' is" : "' are") + " negative (the lowest " +
                             data::formatSignificant(lowest, 4) +
                             "), while no confidential value is";
    if (transform == "log-shift")
        return what +
               ": the log-shift transform's back-transform, exp(z) - s, reaches down to "
               "-s = " +
               data::formatNumber(original.minCoeff() - 1.0) +
               (zeros ? "" : "; every value is positive, so the log transform would not");
    return what + ": the model spreads y below zero. Model " +
           (zeros ? "log(y + s) (the log-shift transform)" : "log(y) (the log transform)") +
           ", or use the normal mixture, to keep synthetic values where the data are";
}

std::optional<std::string> farValuesWarning(const SynthesizerConfig& s, const std::string& target,
                                            const std::string& family,
                                            const Eigen::VectorXd& original,
                                            const std::vector<std::vector<double>>& synthetic) {
    if (original.size() == 0 || !original.allFinite()) return std::nullopt;
    const double lo = original.minCoeff(), hi = original.maxCoeff(), range = hi - lo;
    if (!(range > 0.0)) return std::nullopt;
    std::size_t far = 0, all = 0;
    double lowest = lo, highest = hi;
    for (const auto& dataset : synthetic)
        for (const double v : dataset) {
            ++all;
            // NaN counts too: it is no value a data user could read.
            if (!(v >= lo - range && v <= hi + range)) ++far;
            if (v < lowest) lowest = v;
            if (v > highest) highest = v;
        }
    if (far == 0) return std::nullopt;
    std::string extreme;
    if (highest > hi + range) extreme = "the largest " + data::formatSignificant(highest, 4);
    if (lowest < lo - range)
        extreme += (extreme.empty() ? "the smallest " : ", the smallest ") +
                   data::formatSignificant(lowest, 4);
    if (extreme.empty()) extreme = "not numbers";
    return who(s) + ": " + std::to_string(far) + " of its " + std::to_string(all) +
           " synthetic values of '" + target + (far == 1 ? "' lies" : "' lie") +
           " further beyond the confidential values than their whole range (" +
           data::formatSignificant(lo, 6) + " to " + data::formatSignificant(hi, 6) +
           "): " + extreme +
           ". Data users take such values for errors; the model's tail reaches far past the "
           "data" +
           (family == "normal-mixture"
                ? " (a component that holds no record draws its coefficients from the prior)"
                : std::string()) +
           ": check the model of '" + target + "' before releasing these datasets";
}

}  // namespace ppsynth::study
