#include "ppsynth/release/from_run.hpp"

#include <algorithm>
#include <cctype>

#include "ppsynth/data/number_format.hpp"
#include "ppsynth/mcmc/diagnostics.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/targets.hpp"

namespace ppsynth::release {

namespace {

std::string synthesizerList(const study::PublicRun& run) {
    std::string s;
    for (const auto* r : run.synthesizers()) s += (s.empty() ? "" : ", ") + r->name;
    return s;
}

bool riskBased(study::Scheme s) {
    return s == study::Scheme::Marginal || s == study::Scheme::Pairwise ||
           s == study::Scheme::Sigmoid;
}

// What identification risk the weights came from: the radius, the patterns (known
// variables) and the source, with L only where the synthetic source uses it.
void describeRisk(const study::RunConfig& config, const study::SynthesizerConfig& sc,
                  const std::string& prefix, Manifest& mf) {
    auto& knobs = mf.mechanism.knobs;
    knobs[prefix + "r"] = config.risk.radius;
    knobs[prefix + "radius_mode"] = config.risk.percentage ? "percentage" : "absolute";
    knobs[prefix + "known"] = config.data.known;
    knobs[prefix + "ir_source"] = sc.source;
    if (sc.source == "synthetic") knobs[prefix + "L"] = static_cast<double>(config.risk.L);
}

// The knobs as the user set them (and, for the searched schemes, as the search ended);
// every one is a configuration value or a single scalar, none record-level. A re-weighted
// synthesizer also records its base's scheme and knobs under "base_", so the manifest
// identifies the whole chain of weights.
Status describeMechanism(const study::PublicRun& run, const study::SynthesizerConfig& sc,
                         const study::PublicResult& r, const std::string& prefix, Manifest& mf) {
    const study::RunConfig& config = run.config();
    auto& knobs = mf.mechanism.knobs;
    const bool top = prefix.empty();
    switch (sc.scheme) {
        case study::Scheme::Unweighted:
            break;
        case study::Scheme::Lipschitz:
        case study::Scheme::Marginal:
        case study::Scheme::Pairwise:
            knobs[prefix + "c"] = sc.c;
            knobs[prefix + "g"] = sc.g;
            if (sc.M) knobs[prefix + "M"] = *sc.M;
            break;
        case study::Scheme::Sigmoid:
            knobs[prefix + "a"] = sc.sigmoidA;
            break;
        case study::Scheme::Scalar:
            knobs[prefix + "a"] = r.scalar() ? r.scalar()->a : 0.0;
            // What a was searched for: a target epsilon, or the epsilon of another synthesizer
            // of the run (by name), within the relative tolerance.
            if (sc.epsilon)
                knobs[prefix + "target_epsilon"] = *sc.epsilon;
            else
                knobs[prefix + "match"] = sc.match;
            knobs[prefix + "tolerance"] = sc.tolerance;
            if (top)
                mf.notes.push_back(sc.epsilon
                                       ? "Scalar weight a chosen to reach the target epsilon."
                                       : "Scalar weight a chosen to match the epsilon of '" +
                                             sc.match + "'.");
            break;
        case study::Scheme::Scaled: {
            // alpha = a * alpha_v: a, what it was solved for, and the vector scheme's own knobs
            // under "of_" (as a re-weighted synthesizer's base is described under "base_").
            const study::ScaledDetails* d = r.scaled();
            knobs[prefix + "scale"] = d ? d->a : 0.0;
            if (sc.targetEpsilon) {
                knobs[prefix + "target_epsilon"] = *sc.targetEpsilon;
                knobs[prefix + "tolerance"] = sc.tolerance;
                knobs[prefix + "target_reached"] = std::string(d && d->converged ? "yes" : "no");
            }
            study::SynthesizerConfig of = sc;
            of.scheme = sc.of.value_or(study::Scheme::Lipschitz);
            knobs[prefix + "of"] = std::string(study::toString(of.scheme));
            if (Status s = describeMechanism(run, of, r, prefix + "of_", mf); !s) return s;
            if (top)
                mf.notes.push_back(
                    "Weights of the " + std::string(study::toString(of.scheme)) +
                    " scheme multiplied by one scale a" +
                    (!sc.targetEpsilon ? std::string(" given by the releaser.")
                     : d && !d->reachable
                         ? " = 1: the target epsilon " + data::formatNumber(*sc.targetEpsilon) +
                               " is above the scheme's own epsilon, so it was not reached."
                         : " chosen by refits to reach the target epsilon " +
                               data::formatNumber(*sc.targetEpsilon) + "."));
            break;
        }
        case study::Scheme::TopCode:
            return Error::internal("a top-coding comparator has no mechanism to describe");
        case study::Scheme::Reweight: {
            knobs[prefix + "k"] = r.reweight() ? r.reweight()->k : 0.0;
            knobs[prefix + "tolerance"] = sc.tolerance;
            const study::SynthesizerConfig* baseConfig = config.find(sc.base);
            const study::PublicResult* base = run.find(sc.base);
            if (!baseConfig || !base)
                return Error{"'" + sc.name + "' re-weights '" + sc.base +
                             "', which the run has no result for; the manifest cannot say how "
                             "its weights were made"};
            const std::string basePrefix = prefix + "base_";
            knobs[prefix + "base"] = sc.base;
            knobs[basePrefix + "scheme"] = std::string(study::toString(baseConfig->scheme));
            if (Status s = describeMechanism(run, *baseConfig, *base, basePrefix, mf); !s) return s;
            if (top)
                mf.notes.push_back("Weights of '" + sc.base +
                                   "' raised towards 1 by k while keeping its privacy bound.");
            break;
        }
    }
    if (riskBased(sc.scheme)) {
        describeRisk(config, sc, prefix, mf);
        if (top)
            mf.notes.push_back(
                std::string("Weights from identification risk with radius r (") +
                (config.risk.percentage ? "percentage" : "absolute") + "), from " +
                (sc.source == "data" ? "the confidential data" : "unweighted synthetic data") +
                ".");
    }
    return {};
}

}  // namespace

std::vector<std::string> releasedColumnsOf(const study::RunConfig& config,
                                           const data::Table& table) {
    std::vector<std::string> out;
    for (const auto& c : table.columns())
        if (study::modelledColumn(config, c.name())) out.push_back(c.name());
    return out;
}

std::string unconvergedEpsilon(const study::PublicResult& r) {
    const auto& e = r.epsilonDiagnostics;
    if (!e.diagnosed)
        return "the run was made by a ppsynth that did not diagnose the convergence of epsilon; "
               "re-run it to have it diagnosed";
    if (e.converged) return {};
    std::string why;
    for (const auto& reason : e.reasons) why += (why.empty() ? "" : "; ") + reason;
    return why.empty() ? std::string("the run judged it not converged") : why;
}

Expected<Manifest> manifestFromRun(const study::PublicRun& run, const std::string& synthesizer) {
    const study::PublicResult* r = run.find(synthesizer);
    const study::SynthesizerConfig* sc = run.config().find(synthesizer);
    if (!r || !sc)
        return Error{"the run has no synthesizer '" + synthesizer + "' (it has " +
                     synthesizerList(run) + ")"};
    // The top-coded file is the confidential y with only its top values capped: no formal
    // guarantee and record values as they are (METHOD.md 3.9 and 10). It is a comparator.
    if (r->scheme == study::Scheme::TopCode)
        return Error::invalidInput(
            "'" + synthesizer +
            "' is the top-coding comparator, not a synthesizer: its file is the confidential "
            "data with only the values above the " +
            data::formatNumber(r->topCode() ? r->topCode()->q : 0.975) +
            " quantile capped, with no formal privacy guarantee, so ppsynth does not release "
            "it; release one of the synthesizers (" +
            synthesizerList(run) + ")");
    const auto& config = run.config();
    Manifest mf;
    mf.model.family = config.model.family;
    auto priors = study::priorsFromConfig(config.model.priors);
    if (!priors) return priors.error();
    mf.model.priors = study::priorValues(*priors, config.model.family);
    if (models::isMixtureFamily(config.model.family)) mf.model.K = config.model.K;
    // The log-shift s is computed from the confidential y: not published.
    mf.transform.name = config.data.transform;
    if (config.data.targets.size() > 1) {
        std::vector<std::string> shifted;
        for (const auto& name : config.data.targets)
            if (study::transformFor(config, name) == "log-shift") shifted.push_back(name);
        for (const auto& name : shifted)
            mf.notes.push_back("The sensitive variable '" + name +
                               "' was modelled as log(y + s); s was derived from the "
                               "confidential data and is not published.");
    } else if (config.data.transform == "log-shift")
        mf.notes.push_back(
            "The target was modelled as log(y + s); s was derived from the confidential data "
            "and is not published.");
    mf.mechanism.synthesizer = r->name;
    mf.mechanism.scheme = std::string(study::toString(r->scheme));
    if (Status s = describeMechanism(run, *sc, *r, "", mf); !s) return s.error();
    mf.sampling.chains = config.mcmc.chains;
    const auto& uc = r->diagnostics.untilConverged;
    mf.sampling.drawsPerChain =
        mcmc::keptDrawsPerChain(r->diagnostics, config.mcmc.chains, config.mcmc.draws);
    if (uc.blocks > 0)
        mf.sampling.untilConverged = Manifest::Sampling::UntilConverged{
            uc.blocks, config.mcmc.draws, config.mcmc.budgetSeconds, uc.stopReason()};
    mf.seeds.mcmc = config.mcmc.seed;
    mf.seeds.synthesis =
        study::synthesisSeed(config.mcmc.seed, study::seedName(r->scheme, r->name));
    mf.privacy.epsilonPerDataset = r->epsilon.perDataset;
    mf.privacy.deltaEstimate = r->deltaMethod;
    mf.privacy.convergence.diagnosed = r->epsilonDiagnostics.diagnosed;
    mf.privacy.convergence.converged = r->epsilonDiagnostics.converged;
    mf.privacy.convergence.reasons = r->epsilonDiagnostics.reasons;
    if (config.data.targets.size() > 1) {
        // Each sensitive variable's model and transform, in synthesis order; as above, no
        // log-shift s (derived from the confidential data).
        for (const auto& name : config.data.targets) {
            Manifest::Variable v;
            v.name = name;
            const study::RunConfig::Model model = study::modelFor(config, name);
            v.model.family = model.family;
            auto vp = study::priorsFromConfig(model.priors);
            if (!vp) return vp.error();
            v.model.priors = study::priorValues(*vp, model.family);
            if (models::isMixtureFamily(model.family)) v.model.K = model.K;
            v.transform.name = study::transformFor(config, name);
            mf.variables.push_back(std::move(v));
        }
        // The first variable's own settings ("models" may override the run-wide ones).
        mf.model = mf.variables.front().model;
        mf.transform = mf.variables.front().transform;
        // Several sensitive variables: every one of them is synthetic, under one epsilon.
        std::string names;
        for (std::size_t k = 0; k < config.data.targets.size(); ++k)
            names += (k == 0                                ? "'"
                      : k + 1 == config.data.targets.size() ? " and '"
                                                            : ", '") +
                     config.data.targets[k] + "'";
        mf.notes.push_back(
            "The sensitive variables " + names +
            " are all synthetic in every dataset, drawn together (each given the predictors and "
            "the synthetic values of the ones before it); the epsilon above covers the release "
            "of all of them together, not each one. The other columns are the original values.");
    } else {
        mf.notes.push_back(
            "The target '" + config.data.target +
            "' is synthetic in every dataset; the predictors are the original values.");
    }
    return mf;
}

Expected<std::vector<data::FileFormat>> parseReleaseFormats(const std::string& list) {
    std::vector<data::FileFormat> out;
    std::string item;
    auto flush = [&]() -> Status {
        std::string name;
        for (unsigned char ch : item)
            if (!std::isspace(ch)) name += static_cast<char>(std::tolower(ch));
        item.clear();
        if (name.empty()) return {};
        data::FileFormat f;
        if (name == "csv")
            f = data::FileFormat::Csv;
        else if (name == "sav")
            f = data::FileFormat::Sav;
        else if (name == "dta")
            f = data::FileFormat::Dta;
        else
            return Error{"'" + name + "' is not a release format; use csv, sav or dta"};
        if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
        return {};
    };
    for (char ch : list) {
        if (ch == ',') {
            if (Status s = flush(); !s) return s.error();
        } else {
            item += ch;
        }
    }
    if (Status s = flush(); !s) return s.error();
    if (out.empty()) return Error{"no release format given; use csv, sav or dta"};
    return out;
}

Status releaseFromRun(const study::PublicRun& run, const data::Table& table,
                      const std::string& synthesizer, const std::string& bundleDir,
                      const std::vector<data::FileFormat>& formats, const ReleaseOptions& options) {
    auto manifest = manifestFromRun(run, synthesizer);
    if (!manifest) return manifest.status();
    const study::PublicResult& r = *run.find(synthesizer);
    if (const std::string why = unconvergedEpsilon(r); !why.empty()) {
        if (!options.acceptUnconverged)
            return Error{"the epsilon of '" + synthesizer + "' did not converge: " + why +
                         ". Its privacy guarantee is not settled: sample longer chains and "
                         "re-run, or accept it as it is (ppsynth-cli release "
                         "--accept-unconverged), which the manifest records"};
        manifest->privacy.convergence.acceptedUnconverged = true;
        manifest->notes.push_back("The epsilon of this release did not converge (" + why +
                                  "); it was released all the same at the releaser's request.");
    }
    if (r.synthetic.empty())
        return Error{"the synthetic datasets of '" + synthesizer + "' were not loaded"};
    ReleaseRequest request;
    request.target = run.config().data.target;
    if (run.config().data.targets.size() > 1) request.targets = run.config().data.targets;
    request.releasedColumns = releasedColumnsOf(run.config(), table);
    request.formats = formats;
    request.manifest = std::move(*manifest);
    for (const auto& y : r.synthetic) {
        auto t = study::syntheticTable(run.config(), run.keptRows(), table, y);
        if (!t) return t.status();
        request.datasets.push_back(std::move(*t));
    }
    const Eigen::VectorXd& guard = run.leakGuardTarget();
    const std::vector<double> original(guard.data(), guard.data() + guard.size());
    request.originalTarget = &original;
    // The other sensitive variables' confidential values, for the same check: the data file's
    // kept rows (the run synthesized them from exactly these). Never written.
    std::vector<std::vector<double>> others;
    others.reserve(request.targets.size());
    for (std::size_t k = 1; k < request.targets.size(); ++k) {
        const data::Column* c = table.find(request.targets[k]);
        if (!c)
            return Error{"the run's data file has no column '" + request.targets[k] +
                         "' (a sensitive variable of the run)"};
        std::vector<double> y;
        y.reserve(run.keptRows().size());
        for (auto row : run.keptRows()) y.push_back(c->value(row));
        others.push_back(std::move(y));
    }
    if (!request.targets.empty()) {
        request.originalTargets.push_back(&original);
        for (const auto& y : others) request.originalTargets.push_back(&y);
    }
    return writeReleaseBundle(request, bundleDir, options);
}

}  // namespace ppsynth::release
