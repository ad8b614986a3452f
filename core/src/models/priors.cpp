#include "ppsynth/models/priors.hpp"

#include <cmath>
#include <string>

namespace ppsynth::models {

namespace {
bool positive(double v) {
    return std::isfinite(v) && v > 0.0;
}
}  // namespace

Status Priors::validate() const {
    const struct {
        const char* name;
        double value;
    } fields[] = {{"tau degrees of freedom", tauDf},
                  {"tau scale", tauScale},
                  {"sigma degrees of freedom", sigmaDf},
                  {"sigma scale", sigmaScale},
                  {"inverse dispersion (1/phi) scale", invPhiScale},
                  {"Poisson mean prior shape", meanShape},
                  {"Poisson mean prior rate", meanRate},
                  {"concentration (gamma) prior shape", gammaShape},
                  {"concentration (gamma) prior rate", gammaRate}};
    for (const auto& f : fields)
        if (!positive(f.value))
            return Error{std::string("prior setting '") + f.name +
                         "' must be a positive number, got " + std::to_string(f.value)};
    if (fixedTau && !positive(*fixedTau))
        return Error{"fixed tau must be a positive number, got " + std::to_string(*fixedTau)};
    if (fixedSigma && !positive(*fixedSigma))
        return Error{"fixed sigma must be a positive number, got " + std::to_string(*fixedSigma)};
    return Status::ok();
}

std::optional<TauForm> tauFormFromString(const std::string& name) {
    if (name == "auto") return TauForm::Automatic;
    if (name == "integrated") return TauForm::Integrated;
    if (name == "sampled") return TauForm::Sampled;
    return std::nullopt;
}

}  // namespace ppsynth::models
