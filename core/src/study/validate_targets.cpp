#include "study/validate_targets.hpp"

#include <algorithm>

#include "ppsynth/data/transform.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/models/priors.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/validate.hpp"

namespace ppsynth::study::detail {

Error refused(const std::string& where, const std::string& what) {
    return Error::invalidInput(where + ": " + what);
}

namespace {

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

Status checkList(const RunConfig::Data& d) {
    if (d.targets.empty()) return {};
    if (d.target != d.targets.front()) return refused("data", kTargetAndTargets);
    for (std::size_t k = 0; k < d.targets.size(); ++k) {
        const std::string& t = d.targets[k];
        const std::string where = "data: 'targets' entry " + std::to_string(k + 1);
        if (t.empty()) return Error::invalidInput(where + " is empty; name a column");
        for (std::size_t j = 0; j < k; ++j)
            if (d.targets[j] == t)
                return Error::invalidInput(where + " '" + t +
                                           "' is listed twice; list each sensitive variable once");
        if (contains(d.predictors, t))
            return Error::invalidInput(
                where + " '" + t +
                "' is also a predictor; a sensitive variable is synthesized, a predictor is "
                "released as it is: remove it from one of the lists (earlier sensitive "
                "variables are predictors of later ones already)");
    }
    return {};
}

Status checkOverride(const RunConfig& c, const std::string& name,
                     const RunConfig::ModelOverride& o) {
    const std::string where = "models." + name;
    if (o.family && !models::findFamily(*o.family))
        return refused(where, "'family' must be " + models::familyIdList());
    if (o.K && *o.K < limits::kComponents)
        return refused(where, "'K' must be at least " + std::to_string(limits::kComponents));
    if (o.tau && !models::tauFormFromString(*o.tau))
        return refused(where, "'tau' must be \"auto\", \"integrated\" or \"sampled\"");
    if (o.transform && !data::transformKindFromString(*o.transform))
        return refused(where, "'transform' must be none, log, log-shift or asinh");
    const RunConfig::Model m = modelFor(c, name);
    if (auto p = priorsFromConfig(m.priors); !p)
        return refused(where, p.message().substr(p.message().find(':') + 2));
    if (models::isCountFamily(m.family) && transformFor(c, name) != "none")
        return refused(where, "a count model (" + m.family +
                                  ") models y as it is: set its 'transform' to \"none\"");
    return {};
}

}  // namespace

Status checkRadii(const RunConfig& c) {
    if (c.risk.radii.empty()) return {};
    if (c.data.targets.empty())
        return refused("risk",
                       "'radii' (one radius per sensitive variable) goes with several "
                       "sensitive variables (data.targets); for one, set 'radius'");
    for (const auto& [name, r] : c.risk.radii) {
        if (!contains(c.data.targets, name))
            return refused("risk", "'radii' names '" + name +
                                       "', which is not one of "
                                       "data.targets (" +
                                       listed(c.data.targets) + ")");
        if (!(r > 0))
            return refused("risk", "'radii' gives '" + name + "' a radius that is not positive");
    }
    return {};
}

Status checkTargets(const RunConfig& c) {
    if (Status s = checkList(c.data); !s) return s;
    if (Status s = checkRadii(c); !s) return s;
    if (c.models.empty()) return {};
    if (c.data.targets.empty())
        return refused("models",
                       "per-variable model settings go with several sensitive variables "
                       "(data.targets); for one, set 'model' and data.transform");
    for (const auto& [name, o] : c.models) {
        if (!contains(c.data.targets, name))
            return refused("models", "'" + name + "' is not one of data.targets (" +
                                         listed(c.data.targets) + ")");
        if (Status s = checkOverride(c, name, o); !s) return s;
    }
    return {};
}

}  // namespace ppsynth::study::detail
