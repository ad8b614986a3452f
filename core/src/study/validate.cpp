#include "ppsynth/study/validate.hpp"

#include <algorithm>
#include <initializer_list>

#include "ppsynth/common/safe_name.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/data/transform.hpp"
#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/models/priors.hpp"
#include "ppsynth/study/run_checks.hpp"
#include "study/json_reader.hpp"
#include "study/validate_targets.hpp"

namespace ppsynth::study {

namespace {

bool isOneOf(const std::string& v, std::initializer_list<const char*> options) {
    return std::any_of(options.begin(), options.end(), [&](const char* o) { return v == o; });
}

// The names data/ and models/ accept are the single source for what a configuration may say.
bool isModelFamily(const std::string& family) {
    return models::findFamily(family) != nullptr;
}

using detail::refused;

Status checkData(const RunConfig::Data& d) {
    if (d.path.empty()) return refused("data", "needs 'path', the data file");
    if (d.target.empty()) return refused("data", "needs 'target', the sensitive variable");
    if (!data::transformKindFromString(d.transform))
        return refused("data", "'transform' must be none, log, log-shift or asinh");
    if (!data::missingPolicyFromString(d.missing))
        return refused("data", "'missing' must be \"error\" or \"listwise\"");
    return {};
}

Status checkModel(const RunConfig::Model& m) {
    if (!models::tauFormFromString(m.tau))
        return refused("model",
                       "'tau' must be \"auto\" (integrated for one component, sampled for the "
                       "mixture), \"integrated\" (tau_j integrated out of the sampler) or "
                       "\"sampled\"");
    if (!isModelFamily(m.family))
        return refused("model", "'family' must be " + models::familyIdList());
    if (m.K < limits::kComponents)
        return refused("model", "'K' must be at least " + std::to_string(limits::kComponents));
    return {};
}

Status checkMcmc(const RunConfig::Mcmc& m) {
    const std::string range = detail::rangeProblem(
        {{"chains", m.chains, limits::kChains},
         {"draws", m.draws, limits::kDraws},
         {"warmup", m.warmup, limits::kWarmup},
         {"threads", m.threads, limits::kThreads},
         {"refit_warmup", m.refitWarmup, limits::kRefitWarmup},
         {"thin", m.thin, limits::kThin},
         {"max_treedepth", m.maxTreeDepth, limits::kTreeDepth, mcmc::kMaxTreeDepth}});
    if (!range.empty()) return refused("mcmc", range);
    if (!isOneOf(m.sampler, {"auto", "nuts", "gibbs"}))
        return refused("mcmc",
                       "'sampler' must be \"auto\" (the model's choice), \"nuts\" or \"gibbs\" "
                       "(the normal mixture's augmented Gibbs sweep)");
    if (!(m.adaptDelta > 0 && m.adaptDelta < 1))
        return refused("mcmc", "'adapt_delta' must be in (0, 1)");
    return {};
}

Status checkRisk(const RunConfig& c) {
    if (c.synthesis.m < limits::kDatasets)
        return refused("synthesis", "'m' must be at least " + std::to_string(limits::kDatasets));
    if (!(c.risk.radius > 0)) return refused("risk", "'radius' must be positive");
    if (c.risk.L < limits::kDatasets)
        return refused("risk", "'L' must be at least " + std::to_string(limits::kDatasets));
    if (!(c.lipschitz.quantile > 0 && c.lipschitz.quantile <= 1))
        return refused("lipschitz", "'quantile' must be in (0, 1]");
    return {};
}

Status checkUtility(const RunConfig& c) {
    if (Status s = c.utility.validate(); !s) return s;
    if (c.utility.regress)
        for (const auto& p : *c.utility.regress)
            if (std::find(c.data.predictors.begin(), c.data.predictors.end(), p) ==
                c.data.predictors.end())
                return refused("utility",
                               "'regress' names '" + p + "', which is not one of data.predictors");
    return {};
}

// The scaled scheme's settings (METHOD.md 3.10), and that only it has them.
Status checkScaled(const SynthesizerConfig& s, const std::string& where) {
    if (s.scheme != Scheme::Scaled) {
        if (s.of || s.targetEpsilon || s.scale)
            return refused(where,
                           "'of', 'target_epsilon' and 'scale' belong to the scaled scheme "
                           "(\"scheme\": \"scaled\"); for a scalar weight's target use 'epsilon'");
        return {};
    }
    if (!s.of)
        return refused(where,
                       "a scaled scheme needs 'of': the vector scheme whose weights it scales "
                       "(lipschitz, marginal, pairwise or sigmoid)");
    if (!isOneOf(std::string(toString(*s.of)), {"lipschitz", "marginal", "pairwise", "sigmoid"}))
        return refused(where,
                       "'of' must be a vector scheme: lipschitz (LW; with 'M' for LW-M), "
                       "marginal (CW), pairwise or sigmoid, not '" +
                           std::string(toString(*s.of)) + "'");
    if (s.targetEpsilon.has_value() == s.scale.has_value())
        return refused(where,
                       "a scaled scheme needs exactly one of 'target_epsilon' (a is solved by "
                       "refits) or 'scale' (a given, in (0, 1])");
    if (s.targetEpsilon && !(*s.targetEpsilon > 0))
        return refused(where, "'target_epsilon' must be positive");
    if (s.scale && !(*s.scale > 0 && *s.scale <= 1))
        return refused(where,
                       "'scale' must be in (0, 1]: a weight above the vector scheme's own would "
                       "not be a pseudo posterior, and 0 leaves every record out");
    if (*s.of == Scheme::Sigmoid && !(s.sigmoidA > 0))
        return refused(where, "'a' (the sigmoid's steepness) must be positive, such as 10");
    return {};
}

// One synthesizer's own settings.
Status checkSynthesizer(const SynthesizerConfig& s, const std::string& where) {
    if (s.name.empty()) return refused(where, "needs a 'name'");
    if (Status ok = checkSafeName(s.name); !ok) return refused(where, ok.message());
    if (!(s.c >= 0)) return refused(where, "'c' must not be negative");
    // c_i rises with IR_i only for a > 0: a = 0 flattens the curve (every c_i halfway) and a
    // negative a inverts it, scaling the riskiest records' weights down the least.
    if (s.scheme == Scheme::Sigmoid && !(s.sigmoidA > 0))
        return refused(where,
                       "'a' (the sigmoid's steepness) must be positive, such as 10; a = 0 gives "
                       "every record the same scale c_i and a negative a gives the riskiest "
                       "records the mildest one");
    if (s.M && !(*s.M > 0)) return refused(where, "'M' must be positive");
    if (s.M && s.scheme != Scheme::Lipschitz &&
        !(s.scheme == Scheme::Scaled && s.of == Scheme::Lipschitz))
        return refused(where, "'M' applies to the lipschitz scheme only");
    if (Status ok = checkScaled(s, where); !ok) return ok;
    if (s.scheme == Scheme::TopCode && !(s.topcodeQ > 0 && s.topcodeQ < 1))
        return refused(where,
                       "'q' (the top-coding quantile) must be in (0, 1), such as 0.975: values "
                       "above the q-quantile of y are set to it");
    if (!isOneOf(s.source, {"data", "synthetic"}))
        return refused(where, "'source' must be \"data\" or \"synthetic\"");
    if (s.k && !(*s.k > 0 && *s.k <= 1)) return refused(where, "'k' must be in (0, 1] or \"auto\"");
    if (!(s.tolerance > 0 && s.tolerance < 1))
        return refused(where, "'tolerance' must be in (0, 1)");
    if (s.scheme == Scheme::Scalar && s.match.empty() == !s.epsilon)
        return refused(
            where,
            "a scalar weight needs exactly one of 'match' (a synthesizer's name) or 'epsilon'");
    if (s.scheme == Scheme::Scalar && s.epsilon && !(*s.epsilon > 0))
        return refused(where, "'epsilon' must be positive");
    if (s.scheme == Scheme::Reweight && s.base.empty())
        return refused(where, "re-weighting needs 'base': the weighted synthesizer to start from");
    return {};
}

// Unique names, existing targets of 'match' and 'base', no cycles.
Status checkReferences(const RunConfig& c) {
    for (std::size_t i = 0; i < c.synthesizers.size(); ++i) {
        const auto& s = c.synthesizers[i];
        const std::string where = synthesizerPath(i, s.name);
        for (std::size_t j = 0; j < i; ++j)
            if (c.synthesizers[j].name == s.name) return refused(where, "the name is used twice");
        const std::string& ref = s.scheme == Scheme::Scalar ? s.match : s.base;
        if (ref.empty() || (s.scheme != Scheme::Scalar && s.scheme != Scheme::Reweight)) continue;
        const auto* target = c.find(ref);
        const std::string key = s.scheme == Scheme::Scalar ? "match" : "base";
        if (!target)
            return refused(
                where, "'" + key + "' names '" + ref + "', which is not a synthesizer of this run");
        if (ref == s.name) return refused(where, "'" + key + "' cannot name itself");
        if (target->scheme == Scheme::TopCode)
            return refused(where, "'" + key + "' names '" + ref +
                                      "', a top-coding comparator, which has no epsilon and no "
                                      "weights; name a synthesizer");
        if (s.scheme == Scheme::Reweight && target->scheme == Scheme::Unweighted)
            return refused(where,
                           "'base' must be a weighted synthesizer, not '" + ref + "' (unweighted)");
    }
    if (executionOrder(c).size() != c.synthesizers.size())
        return refused("synthesizers", "the 'match'/'base' references form a cycle");
    return {};
}

}  // namespace

std::string synthesizerPath(std::size_t index, const std::string& name) {
    // A name that is not safe to show (a path, a control character) is quoted by
    // checkSafeName's own message instead.
    const bool show = !name.empty() && checkSafeName(name).isOk();
    return "synthesizers[" + std::to_string(index) + "]" + (show ? " '" + name + "'" : "");
}

Status validateSections(const RunConfig& c) {
    for (Status s : {checkData(c.data), checkModel(c.model), detail::checkTargets(c),
                     checkMcmc(c.mcmc), checkRisk(c), checkUtility(c)})
        if (!s) return s;
    return {};
}

Status validate(const RunConfig& c) {
    if (Status s = validateSections(c); !s) return s;
    if (c.synthesizers.empty())
        return Error::invalidInput("'synthesizers' must be a non-empty list");
    for (std::size_t i = 0; i < c.synthesizers.size(); ++i) {
        const auto& sc = c.synthesizers[i];
        if (Status s = checkSynthesizer(sc, synthesizerPath(i, sc.name)); !s) return s;
    }
    if (Status s = checkReferences(c); !s) return s;
    return refuseDegenerateKnobs(c);
}

}  // namespace ppsynth::study
