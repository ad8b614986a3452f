#include "ppsynth/study/targets.hpp"

#include "ppsynth/models/family_registry.hpp"

namespace ppsynth::study {

std::vector<std::string> sensitiveVariables(const RunConfig& config) {
    if (!config.data.targets.empty()) return config.data.targets;
    return {config.data.target};
}

RunConfig::Model modelFor(const RunConfig& config, const std::string& target) {
    RunConfig::Model m = config.model;
    const auto it = config.models.find(target);
    if (it == config.models.end()) return m;
    const auto& o = it->second;
    if (o.family) m.family = *o.family;
    if (o.K) m.K = *o.K;
    if (o.tau) m.tau = *o.tau;
    for (const auto& [name, value] : o.priors) m.priors[name] = value;
    return m;
}

std::string transformFor(const RunConfig& config, const std::string& target) {
    const auto it = config.models.find(target);
    if (it != config.models.end() && it->second.transform) return *it->second.transform;
    return config.data.transform;
}

bool anyMixture(const RunConfig& config) {
    for (const auto& t : sensitiveVariables(config))
        if (models::isMixtureFamily(modelFor(config, t).family)) return true;
    return false;
}

}  // namespace ppsynth::study
