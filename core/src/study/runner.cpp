#include "ppsynth/study/runner.hpp"

#include <chrono>
#include <cmath>
#include <set>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/data/design_matrix.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/privacy/box_risk.hpp"
#include "ppsynth/privacy/scaled_weight.hpp"
#include "ppsynth/study/joint_model.hpp"
#include "ppsynth/study/joint_utility.hpp"
#include "ppsynth/study/record_bounds.hpp"
#include "ppsynth/study/run_checks.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/synthesis.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/topcode.hpp"
#include "ppsynth/study/validate.hpp"
#include "study/prepared_file.hpp"

namespace ppsynth::study {

const SynthesizerResult* RunResult::find(const std::string& name) const {
    for (const auto& s : synthesizers)
        if (s.name == name) return &s;
    return nullptr;
}

Expected<models::Priors> priorsFromConfig(const std::map<std::string, double>& values) {
    models::Priors p;
    for (const auto& [key, value] : values) {
        const models::PriorInfo* prior = models::findPrior(key);
        if (!prior) {
            std::set<std::string> names;  // alphabetical
            for (const auto& info : models::priorCatalogue()) names.insert(info.name);
            std::string known;
            for (const auto& name : names) known += (known.empty() ? "" : ", ") + name;
            return Error{"model.priors: unknown hyperparameter '" + key + "' (known: " + known +
                         ")"};
        }
        p.*(prior->field) = value;
    }
    if (auto s = p.validate(); !s) return s.error().prefixed("model.priors: ");
    return p;
}

std::map<std::string, double> priorValues(const models::Priors& priors, const std::string& family) {
    std::map<std::string, double> out;
    const models::FamilyInfo* info = family.empty() ? nullptr : models::findFamily(family);
    for (const auto& prior : models::priorCatalogue())
        if (family.empty() || (info && info->usesPrior(prior.name)))
            out[prior.name] = priors.*(prior.field);
    return out;
}

std::string seedName(Scheme scheme, const std::string& name) {
    return scheme == Scheme::Unweighted ? std::string("Unweighted") : name;
}

// Named, not anonymous: PreparedStudy::State (declared in the public header) holds a Runner,
// and in a unity build GCC warns about a field whose type is in an anonymous namespace.
namespace runner_detail {

class Runner {
  public:
    Runner(const RunConfig& config, const RunOptions& options)
        : config_(config), options_(options) {}
    // Another run on `base`'s data, model and unweighted fit (shared, not refitted): config
    // brings its own synthesizers, m, risk and thread settings.
    Runner(const Runner& base, const RunConfig& config, const RunOptions& options)
        : config_(config),
          options_(options),
          result_(base.result_),
          model_(base.model_),
          yOriginal_(base.yOriginal_),
          unweighted_(base.unweighted_),
          unweightedStarts_(base.unweightedStarts_),
          deltaX_(base.deltaX_),
          unweightedSynthetic_(base.unweightedSynthetic_),
          unweightedIr_(base.unweightedIr_),
          unweightedParameters_(base.unweightedParameters_),
          unweightedStages_(base.unweightedStages_),
          unweightedNonFinite_(base.unweightedNonFinite_),
          countModel_(base.countModel_),
          restored_(base.restored_),
          variables_(base.variables_) {
        result_.config = config_;
        result_.synthesizers.clear();
        result_.warnings = knobWarnings(config_);
        for (auto& w : dataWarnings(config_, result_.inputs)) result_.warnings.push_back(w);
        riskChanged_ = config.risk.radius != base.config_.risk.radius ||
                       config.risk.radii != base.config_.risk.radii ||
                       config.risk.percentage != base.config_.risk.percentage ||
                       config.risk.L != base.config_.risk.L;
    }

    Expected<RunResult> run(const data::Table& table) {
        const auto t0 = std::chrono::steady_clock::now();
        if (auto s = prepareBase(table); !s) return s.error();
        auto r = runSynthesizers();
        if (r) r->seconds = secondsSince(t0);
        return r;
    }

    // The data, the model and the unweighted fit with its synthetic datasets and risk.
    Status prepareBase(const data::Table& table) {
        result_.config = config_;
        if (auto s = prepare(table); !s) return s;
        return fitUnweighted();
    }

    // The base without the unweighted fit: the data and the model prepared here, the fit's
    // results taken from a saved state (study/prepared_file.hpp).
    Status restoreBase(const data::Table& table, detail::SharedUnweighted s) {
        result_.config = config_;
        if (auto st = prepare(table); !st) return st;
        const auto n = static_cast<Eigen::Index>(model_->recordCount());
        const auto datasets = static_cast<std::size_t>(datasetCount());
        if (s.f.size() != n || s.nonFinite.size() != static_cast<std::size_t>(n) ||
            s.synthetic.size() != datasets)
            return Error{
                "the saved unweighted fit does not fit these data: " + std::to_string(s.f.size()) +
                " records and " + std::to_string(s.synthetic.size()) + " datasets, the data have " +
                std::to_string(n) + " records and the configuration needs " +
                std::to_string(datasets) + " datasets"};
        result_.f = std::move(s.f);
        deltaX_ = s.deltaX;
        unweightedNonFinite_ = std::move(s.nonFinite);
        unweighted_.epsilon.fAgreement = s.fAgreement;
        unweightedStarts_ = std::move(s.warmStarts);
        unweightedSynthetic_ = std::move(s.synthetic);
        unweightedIr_ = std::move(s.ir);
        unweightedParameters_ = std::move(s.parameters);
        restored_ = true;
        return {};
    }

    // What restoreBase takes: the unweighted fit's results but its draws.
    detail::SharedUnweighted shared() const {
        detail::SharedUnweighted s;
        s.f = result_.f;
        s.deltaX = deltaX_;
        s.nonFinite = unweightedNonFinite_;
        s.fAgreement = unweighted_.epsilon.fAgreement;
        s.warmStarts = unweightedStarts_;
        s.synthetic = unweightedSynthetic_;
        s.ir = unweightedIr_;
        s.parameters = unweightedParameters_;
        return s;
    }

    // Every synthesizer of the configuration, in dependency order, on the prepared base.
    Expected<RunResult> runSynthesizers() {
        const auto t0 = std::chrono::steady_clock::now();
        if (riskChanged_) {  // the unweighted baseline at this run's risk settings
            auto ir = risk(unweightedSynthetic_);
            if (!ir) return ir.error();
            unweightedIr_ = std::move(*ir);
            riskChanged_ = false;
        }
        result_.synthesizers.resize(config_.synthesizers.size());
        for (std::size_t idx : executionOrder(config_)) {
            const auto& sc = config_.synthesizers[idx];
            auto r = runSynthesizer(sc);
            if (!r) return r.error().prefixed("synthesizer '" + sc.name + "': ");
            result_.synthesizers[idx] = std::move(*r);
            done_[sc.name] = idx;
        }
        result_.seconds = secondsSince(t0);
        return std::move(result_);
    }

  private:
    struct Measured {
        Fit fit;
        privacy::LipschitzBound bound;
        // Per-record bounds over the draws the bound keeps: f_i for the unweighted fit,
        // Delta_{alpha,x_i} for a weighted one. With lipschitz.quantile = 1 every draw is kept
        // and this is the streamed maximum; below 1 the draws above the quantile are left out
        // here exactly as they are left out of Delta_{alpha,x} and of synthesis.
        Eigen::VectorXd recordBound;
        // Convergence of epsilon (METHOD.md section 2); argmaxRecord is the data file's row.
        privacy::EpsilonDiagnostics epsilon;
    };

    // A refit's bound for the scalar searches, with its chain-to-chain noise.
    static privacy::RefitBound refitBound(const Measured& m) {
        return {m.bound.delta, privacy::chainSpread(m.epsilon.deltaPerChain, m.bound.delta)};
    }

    Status prepare(const data::Table& table) {
        countModel_ = models::isCountFamily(config_.model.family);
        auto inputs = prepareRunInputs(config_, table, options_.cancel);
        if (!inputs) return inputs.status();
        result_.inputs = std::move(*inputs);
        result_.design = designOf(config_, result_.inputs);
        result_.warnings = knobWarnings(config_);
        for (auto& w : dataWarnings(config_, result_.inputs)) result_.warnings.push_back(w);
        if (options_.started) options_.started(RunStart{result_.design, result_.warnings});
        if (!config_.data.targets.empty()) return prepareJoint(table);
        auto priors = priorsFromConfig(config_.model.priors);
        if (!priors) return priors.status();
        models::ModelSpec spec;
        spec.family = config_.model.family;
        spec.components = config_.model.K;
        spec.priors = *priors;
        // Checked by validate before the run started.
        spec.priors.tau =
            models::tauFormFromString(config_.model.tau).value_or(models::TauForm::Automatic);
        spec.cancel = options_.cancel;
        // The model keeps its own X; the run's stays for the utility stage.
        auto X = data::copyDesign(result_.inputs.X, options_.cancel);
        if (!X) return X.status();
        auto model =
            models::makeModel(spec, std::move(*X), result_.inputs.y, result_.inputs.columnNames());
        if (!model) return model.status();
        model_ = std::move(*model);
        result_.parameterNames = model_->parameterNames();
        yOriginal_.assign(result_.inputs.yOriginal.data(),
                          result_.inputs.yOriginal.data() + result_.inputs.yOriginal.size());
        return {};
    }

    // Several sensitive variables: the conditionals as one joint model (study/joint_model.hpp).
    Status prepareJoint(const data::Table& table) {
        auto joint = makeJointModel(config_, table, result_.inputs, options_.cancel);
        if (!joint) return joint.status();
        variables_ = (*joint)->variableCount();
        model_ = std::move(*joint);
        result_.parameterNames = model_->parameterNames();
        yOriginal_ = std::static_pointer_cast<const JointModel>(model_)->originalValues();
        return {};
    }

    mcmc::SamplerOptions samplerOptions(const std::string& stage) const {
        mcmc::SamplerOptions so;
        so.chains = config_.mcmc.chains;
        so.warmup = config_.mcmc.warmup;
        so.draws = config_.mcmc.draws;
        so.thin = config_.mcmc.thin;
        so.seed = config_.mcmc.seed;
        so.threads = config_.mcmc.threads;
        so.maxTreeDepth = config_.mcmc.maxTreeDepth;
        so.adaptDelta = config_.mcmc.adaptDelta;
        so.tempering.replicas = config_.mcmc.replicas;
        so.tempering.hottest = config_.mcmc.hottest;
        so.tempering.targetSwap = config_.mcmc.targetSwap;
        so.cancel = options_.cancel;
        if (options_.progress)
            so.progress = [this, stage](const Progress& p) {
                Progress q = p;
                q.stage = stage + ": " + p.stage;
                return options_.progress(q);
            };
        // Refits start where the unweighted chains ended (state, step size, metric); a
        // short step-size-only warm-up (mcmc.refit_warmup) then suffices for the nearby
        // pseudo posterior (tst_nuts_models: same target, fewer gradients).
        if (!unweightedStarts_.empty()) {
            so.starts = unweightedStarts_;
            so.warmup = std::min(config_.mcmc.refitWarmup, config_.mcmc.warmup);
            so.adaptMetric = config_.mcmc.refitWarmup >= config_.mcmc.warmup;
        }
        return so;
    }

    // perChainF: the unweighted fit, whose f_i feed weights: also f_i per half chain, so the
    // epsilon diagnostics can judge how well the chains agree on them.
    Expected<Measured> fitAndBound(const Eigen::VectorXd& alpha, const std::string& stage,
                                   bool perChainF = false) {
        const auto t0 = std::chrono::steady_clock::now();
        FitOptions fo;
        fo.sampler = samplerOptions(stage);
        fo.kernel = kernelNamed(config_.mcmc.sampler);
        if (config_.mcmc.drawsAuto) {
            fo.untilConverged = UntilConverged{};
            fo.untilConverged->budgetSeconds = config_.mcmc.budgetSeconds;
            fo.untilConverged->quantile = config_.lipschitz.quantile;
            fo.untilConverged->judgeRecordBounds = perChainF;
        }
        auto fit = fitAny(*model_, alpha, fo);
        if (!fit) return fit.error();
        Measured m{std::move(*fit), {}, {}, {}};
        m.bound = privacy::lipschitzBound(m.fit.lipschitz, config_.lipschitz.quantile);
        const bool allKept = m.bound.keptDraws.size() == m.fit.lipschitz.drawCount();
        std::vector<privacy::HalfChainRecordMax> halves;
        if (perChainF) {
            // f_i of each half of each chain over its retained draws; their maximum is the
            // run's bound (streamed already when every draw is kept).
            auto b = chainRecordBounds(*model_, m.fit.draws,
                                       std::max<std::size_t>(1, m.fit.chainRecordMax.size()),
                                       m.bound.keptDraws, alpha, config_.mcmc.threads);
            m.recordBound = allKept ? m.fit.lipschitz.recordMax() : std::move(b.overall);
            halves = std::move(b.halves);
        } else if (allKept) {
            m.recordBound = m.fit.lipschitz.recordMax();
        } else {
            m.recordBound = recordBoundsOverDraws(*model_, m.fit.draws, m.bound.keptDraws, alpha,
                                                  config_.mcmc.threads);
        }
        m.epsilon = privacy::diagnoseEpsilon(epsilonChains(m.fit, m.bound, std::move(halves)), {},
                                             lengthRemedy());
        if (const auto& u = m.fit.untilConverged; u && u->budgetReached) {
            m.epsilon.reasons.push_back(budgetReachedReason(*u, *fo.untilConverged));
            m.epsilon.converged = false;
        }
        if (m.epsilon.argmaxRecord < result_.inputs.keptRows.size())
            m.epsilon.argmaxRecord = result_.inputs.keptRows[m.epsilon.argmaxRecord] + 1;
        fitSeconds_ += secondsSince(t0);
        return m;
    }

    Status fitUnweighted() {
        const auto n = static_cast<Eigen::Index>(model_->recordCount());
        const double before = fitSeconds_;
        auto m = fitAndBound(Eigen::VectorXd::Ones(n), "Unweighted", true);
        if (!m) return m.status();
        unweighted_ = std::move(*m);
        unweightedStages_.fits = fitSeconds_ - before;
        unweightedStarts_ = unweighted_.fit.warmStarts;
        unweightedNonFinite_ = unweighted_.fit.lipschitz.nonFinite();
        result_.f = unweighted_.recordBound;
        deltaX_ = unweighted_.bound.delta;
        unweightedParameters_ = summarizeParameters(*model_, unweighted_.fit.draws);
        auto t0 = std::chrono::steady_clock::now();
        auto synth = synthesizeFrom(unweighted_, seedName(Scheme::Unweighted, {}));
        if (!synth) return synth.status();
        unweightedSynthetic_ = std::move(*synth);
        unweightedStages_.synthesis = secondsSince(t0);
        t0 = std::chrono::steady_clock::now();
        auto ir = risk(unweightedSynthetic_);
        if (!ir) return ir.status();
        unweightedIr_ = std::move(*ir);
        unweightedStages_.risk = secondsSince(t0);
        return {};
    }

    int datasetCount() const { return std::max(config_.synthesis.m, config_.risk.L); }

    privacy::RiskOptions riskOptions() const {
        privacy::RiskOptions ro;
        ro.radius = {config_.risk.radius, config_.risk.percentage};
        ro.threads = config_.mcmc.threads;
        // Only the stop check: risk reports no stage of its own.
        ro.progress = [this](const Progress&) {
            return cancelled() ? Continue::Stop : Continue::Yes;
        };
        return ro;
    }

    // The box's radius per sensitive variable (risk.radii, else the run's radius).
    std::vector<privacy::Radius> boxRadii() const {
        std::vector<privacy::Radius> out;
        for (const auto& t : sensitiveVariables(config_)) {
            const auto it = config_.risk.radii.find(t);
            out.push_back({it == config_.risk.radii.end() ? config_.risk.radius : it->second,
                           config_.risk.percentage});
        }
        return out;
    }

    // The first L of the datasets measure risk; the first m are released.
    std::vector<std::vector<double>> riskDatasets(
        const std::vector<std::vector<double>>& all) const {
        return {all.begin(),
                all.begin() + std::min<std::ptrdiff_t>(config_.risk.L,
                                                       static_cast<std::ptrdiff_t>(all.size()))};
    }

    Expected<std::vector<double>> risk(const std::vector<std::vector<double>>& all) const {
        if (variables_ > 1)
            return privacy::boxMarginalRisk(yOriginal_, variables_, riskDatasets(all),
                                            result_.inputs.patterns.id, riskOptions(), boxRadii());
        return privacy::marginalRisk(yOriginal_, riskDatasets(all), result_.inputs.patterns.id,
                                     riskOptions());
    }

    Expected<std::vector<std::vector<double>>> synthesizeFrom(const Measured& m,
                                                              const std::string& name) const {
        auto chosen =
            chooseDraws(m.bound.keptDraws, datasetCount(), drawChoiceSeed(config_.mcmc.seed, name));
        if (!chosen) return chosen.error();
        SynthesisOptions so;
        so.seed = synthesisSeed(config_.mcmc.seed, name);
        so.threads = config_.mcmc.threads;
        so.integer = countModel_;
        const auto transform = result_.inputs.transform;
        so.backTransform = [transform](double z) { return transform.inverse(z); };
        so.progress = [this](const Progress&) {
            return cancelled() ? Continue::Stop : Continue::Yes;
        };
        return synthesizeAny(*model_, m.fit.draws, *chosen, so);
    }

    // IR-based weights need IR (or pairwise at) from the chosen source.
    Expected<privacy::PairwiseRisk> riskForWeights(const SynthesizerConfig& sc,
                                                   bool pairwise) const {
        // "data" is paper 001's Algorithm 2 (the vector-weighted CW): IR_i is the share of
        // the records in i's pattern whose confidential y_j lies outside B(y_i, r), with no
        // synthetic data at all. That is METHOD.md's marginal IR with the confidential
        // values as the one "synthetic" dataset (y* = y, L = 1): T_i = 1 since y_i is inside
        // its own ball, and the count and |M| are the algorithm's (steps 1-3). The one
        // difference is a record with y_i = 0 under a percentage radius, whose ball is empty:
        // METHOD.md's strict inequality gives T_i = 0 and IR_i = 0 there.
        // "synthetic" is the risk-efficient paper's (004) source: the first L datasets of the
        // unweighted fit, i.e. the Unweighted synthesizer's own IR.
        // tst_runner::cwWeightsFollowTheirIrSource checks both against a brute-force count.
        const std::vector<std::vector<double>> fromData{yOriginal_};
        const auto& datasets = sc.source == "data" ? fromData : unweightedSynthetic_;
        const auto used = sc.source == "data" ? fromData : riskDatasets(datasets);
        if (pairwise && variables_ > 1)
            return privacy::boxPairwiseRisk(yOriginal_, variables_, used,
                                            result_.inputs.patterns.id, riskOptions(), boxRadii());
        if (pairwise)
            return privacy::pairwiseRisk(yOriginal_, used, result_.inputs.patterns.id,
                                         riskOptions());
        auto ir = variables_ > 1 ? privacy::boxMarginalRisk(yOriginal_, variables_, used,
                                                            result_.inputs.patterns.id,
                                                            riskOptions(), boxRadii())
                                 : privacy::marginalRisk(yOriginal_, used,
                                                         result_.inputs.patterns.id, riskOptions());
        if (!ir) return ir.error();
        privacy::PairwiseRisk out;
        out.marginal = std::move(*ir);
        return out;
    }

    // The scalar search's starting scale: Delta_x over the records Assumption 2 keeps (an
    // unbounded record's weight is 0 in every refit, so it must not push a towards 0).
    double finiteDeltaX() const {
        if (std::isfinite(deltaX_)) return deltaX_;
        double d = 0.0;
        for (const double v : result_.f)
            if (std::isfinite(v)) d = std::max(d, v);
        return d;
    }

    Eigen::VectorXd withAssumption2(Eigen::VectorXd alpha) const {
        privacy::zeroNonFinite(alpha, unweightedNonFinite_);
        return alpha;
    }

    // METHOD.md section 6 on the released datasets; progress as "<name>: utility".
    void measureUtility(SynthesizerResult& r) {
        auto inputs = utilityInputs(result_, r, config_.utility, unweightedParameters_);
        if (!inputs) {
            r.utilityError = inputs.message();
            return;
        }
        inputs->originalSeed = utilitySeed(config_.mcmc.seed, "confidential data");
        const std::string stage = r.name + ": utility";
        ProgressCallback progress = [this, stage](const Progress& p) {
            if (options_.cancel && options_.cancel->load()) return Continue::Stop;
            Progress q = p;
            q.stage = stage;
            return report(options_.progress, q);
        };
        // Several sensitive variables: each variable's measures and the joint ones.
        if (variables_ > 1) inputs->original = yOriginal_;
        auto u =
            variables_ > 1
                ? computeSeveralUtility(*inputs, sensitiveVariables(config_), config_.utility,
                                        config_.mcmc.seed, r.name, config_.mcmc.threads, progress)
                : computeUtility(*inputs, config_.utility, utilitySeed(config_.mcmc.seed, r.name),
                                 config_.mcmc.threads, progress);
        if (u)
            r.utility = std::move(*u);
        else
            r.utilityError = u.message();
    }

    bool cancelled() const { return options_.cancel && options_.cancel->load(); }

    // A run until converged is lengthened by its budget, not by mcmc.draws.
    privacy::LengthRemedy lengthRemedy() const {
        return config_.mcmc.drawsAuto ? privacy::LengthRemedy::Budget
                                      : privacy::LengthRemedy::Draws;
    }

    // LW weights are built from the unweighted f_i: when the unweighted chains disagree on
    // them, a rerun gives other weights and another epsilon, so this epsilon is not settled
    // either.
    void addWeightsAgreement(privacy::EpsilonDiagnostics& d) const {
        const auto& u = unweighted_.epsilon;
        d.fAgreement = u.fAgreement;
        if (!u.fAgreement) return;
        if (auto why = privacy::fAgreementReason(*u.fAgreement, {}, lengthRemedy())) {
            d.reasons.push_back("weights: " + *why);
            d.converged = false;
        }
    }

    // alpha_v of a vector scheme (the scheme itself, or a scaled scheme's `of`).
    Expected<Eigen::VectorXd> vectorWeights(const SynthesizerConfig& sc, Scheme shape,
                                            SynthesizerResult& r) const {
        if (shape == Scheme::Lipschitz) {
            Eigen::VectorXd alpha = privacy::lipschitzWeights(result_.f, sc.c, sc.g);
            return sc.M ? privacy::truncateAtM(alpha, result_.f, *sc.M) : alpha;
        }
        if (shape == Scheme::Pairwise) {
            auto pr = riskForWeights(sc, true);
            if (!pr) return pr.error();
            r.records.pairwiseWeight = pr->at;
            if (auto* d = std::get_if<PairwiseDetails>(&r.details)) d->singletons = pr->singletons;
            return privacy::pairwiseWeights(pr->at, sc.c, sc.g);
        }
        auto ir = riskForWeights(sc, false);
        if (!ir) return ir.error();
        return shape == Scheme::Marginal ? privacy::riskWeights(ir->marginal, sc.c, sc.g)
                                         : privacy::sigmoidRiskWeights(ir->marginal, sc.sigmoidA);
    }

    // The top-coding comparator: no fit, no epsilon; its risk and utility beside the others.
    // Several sensitive variables: each one capped at its own q-quantile, the box IR.
    Expected<SynthesizerResult> runTopCode(const SynthesizerConfig& sc) {
        auto r = variables_ > 1
                     ? topCodeSeveral(sc)
                     : topCodeComparator(sc, yOriginal_, result_.inputs.patterns.id, riskOptions(),
                                         config_.risk.threshold, unweightedIr_,
                                         config_.risk.whackAMoleRise, countModel_);
        if (r && config_.utility.enabled) {
            const auto tu = std::chrono::steady_clock::now();
            measureUtility(*r);
            r->stageSeconds.utility = secondsSince(tu);
            if (cancelled()) return Error::cancelled();
        }
        return r;
    }

    Expected<SynthesizerResult> topCodeSeveral(const SynthesizerConfig& sc) const {
        const auto names = sensitiveVariables(config_);
        std::vector<bool> integer;
        for (const auto& t : names)
            integer.push_back(models::isCountFamily(modelFor(config_, t).family));
        return topCodeComparatorSeveral(sc, yOriginal_, names, integer, result_.inputs.patterns.id,
                                        riskOptions(), boxRadii(), config_.risk.threshold,
                                        unweightedIr_, config_.risk.whackAMoleRise);
    }

    Expected<SynthesizerResult> runSynthesizer(const SynthesizerConfig& sc) {
        if (sc.scheme == Scheme::TopCode) return runTopCode(sc);
        const auto t0 = std::chrono::steady_clock::now();
        const double fitsBefore = fitSeconds_;
        SynthesizerResult r;
        r.name = sc.name;
        r.scheme = sc.scheme;
        r.details = detailsFor(sc.scheme);
        const auto n = static_cast<Eigen::Index>(model_->recordCount());
        std::optional<Measured> own;
        switch (sc.scheme) {
            case Scheme::Unweighted:
                if (restored_)
                    return Error::internal(
                        "the unweighted synthesizer needs the unweighted fit's draws, which a "
                        "study restored from its saved state does not hold");
                r.records.alpha = Eigen::VectorXd::Ones(n);
                break;
            case Scheme::Lipschitz:
            case Scheme::Marginal:
            case Scheme::Sigmoid:
            case Scheme::Pairwise: {
                auto w = vectorWeights(sc, sc.scheme, r);
                if (!w) return w.error();
                r.records.alpha = std::move(*w);
                break;
            }
            case Scheme::Scaled: {  // alpha = a * alpha_v (METHOD.md 3.10)
                auto v = vectorWeights(sc, *sc.of, r);
                if (!v) return v.error();
                const Eigen::VectorXd alphaV = withAssumption2(std::move(*v));
                if (auto s = refuseZeroWeights(sc, alphaV); !s) return s.error();
                ScaledDetails d;
                d.of = *sc.of;
                d.target = sc.targetEpsilon;
                d.a = sc.scale.value_or(1.0);
                if (sc.targetEpsilon) {
                    std::map<double, Measured> fits;
                    auto refit = [&](double a) -> Expected<privacy::RefitBound> {
                        auto m = fitAndBound(a * alphaV, sc.name);
                        if (!m) return m.error();
                        const privacy::RefitBound measured = refitBound(*m);
                        fits.insert_or_assign(a, std::move(*m));
                        return measured;
                    };
                    privacy::ScalarWeightOptions so;
                    so.tolerance = sc.tolerance;
                    auto solved = privacy::solveScaledWeight(*sc.targetEpsilon, refit, so);
                    if (!solved) return solved.error();
                    d.a = solved->a;
                    d.converged = solved->converged;
                    d.noiseLimited = solved->noiseLimited;
                    d.noise = solved->noise;
                    d.reachable = solved->reachable;
                    d.tries = solved->tries;
                    r.fits = static_cast<int>(solved->tries.size());
                    own = std::move(fits.at(solved->a));
                }
                r.records.alpha = d.a * alphaV;
                r.details = std::move(d);
                break;
            }
            case Scheme::TopCode:
                return Error::internal("the top-coding comparator has no weights");
            case Scheme::Scalar: {
                const double target =
                    sc.epsilon ? *sc.epsilon
                               : result_.synthesizers[done_.at(sc.match)].epsilon.perDataset;
                std::map<double, Measured> fits;
                auto refit = [&](double a) -> Expected<privacy::RefitBound> {
                    auto m = fitAndBound(withAssumption2(Eigen::VectorXd::Constant(n, a)), sc.name);
                    if (!m) return m.error();
                    const privacy::RefitBound measured = refitBound(*m);
                    fits.insert_or_assign(a, std::move(*m));
                    return measured;
                };
                privacy::ScalarWeightOptions so;
                so.tolerance = sc.tolerance;
                so.budget = sc.epsilon.has_value();
                auto solved = privacy::solveScalarWeight(target, finiteDeltaX(), refit, so);
                if (!solved) return solved.error();
                r.details = ScalarDetails{solved->a, solved->noiseLimited, solved->noise,
                                          solved->converged, solved->tries};
                r.fits = static_cast<int>(solved->tries.size());
                r.records.alpha = withAssumption2(Eigen::VectorXd::Constant(n, solved->a));
                own = std::move(fits.at(solved->a));
                break;
            }
            case Scheme::Reweight: {
                const auto& base = result_.synthesizers[done_.at(sc.base)];
                std::vector<std::pair<Eigen::VectorXd, Measured>> fits;
                auto refit = [&](const Eigen::VectorXd& w) -> Expected<double> {
                    auto m = fitAndBound(w, sc.name);
                    if (!m) return m.error();
                    const double d = m->bound.delta;
                    fits.emplace_back(w, std::move(*m));
                    return d;
                };
                privacy::ReweightOptions ro;
                ro.tolerance = sc.tolerance;
                if (sc.k) ro.fixedK = *sc.k;
                auto searched = privacy::searchReweight(
                    base.records.alpha, base.records.recordDelta, base.deltaAlphaX, refit, ro);
                if (!searched) return searched.error();
                r.fits = static_cast<int>(searched->tries.size());
                if (searched->k <= 0)
                    return Error{"no k tried kept Delta within " +
                                 std::to_string(sc.tolerance * 100) +
                                 "% of the base's; lower 'k' or raise 'tolerance'"};
                r.details = ReweightDetails{searched->k, searched->tries};
                r.records.alpha = searched->alpha;
                for (auto& [w, m] : fits)
                    if (w == r.records.alpha) own = std::move(m);
                break;
            }
        }
        if (sc.scheme != Scheme::Unweighted)
            r.records.alpha = withAssumption2(std::move(r.records.alpha));
        if (auto s = refuseZeroWeights(sc, r.records.alpha); !s) return s.error();
        if (auto w = weightsWarning(sc, r.records.alpha)) result_.warnings.push_back(std::move(*w));
        // Everything so far that was not a fit: IR for the weights, the scalar/k searches.
        r.stageSeconds.weights = secondsSince(t0) - (fitSeconds_ - fitsBefore);

        const Measured* measured = &unweighted_;
        if (sc.scheme != Scheme::Unweighted) {
            if (!own) {
                auto m = fitAndBound(r.records.alpha, sc.name);
                if (!m) return m.error();
                own = std::move(*m);
                r.fits = 1;
            }
            measured = &*own;
        }
        r.records.recordDelta = measured->recordBound;
        r.deltaX = deltaX_;
        r.deltaAlphaX = measured->bound.delta;
        r.deltaMethod = measured->bound.method();
        r.excludedDraws = measured->fit.lipschitz.drawCount() - measured->bound.keptDraws.size();
        r.epsilon = privacy::epsilonAccount(r.deltaAlphaX, config_.synthesis.m);
        r.global = privacy::globalEpsilon(r.deltaAlphaX, model_->recordCount());
        r.weights = privacy::summarizeWeights(r.records.alpha);
        r.diagnostics = measured->fit.diagnostics;
        r.epsilonDiagnostics = measured->epsilon;
        if (weightShape(sc) == Scheme::Lipschitz) addWeightsAgreement(r.epsilonDiagnostics);
        r.parameters = summarizeParameters(*model_, measured->fit.draws);
        r.draws.resize(measured->fit.draws.rows(),
                       static_cast<Eigen::Index>(result_.parameterNames.size()));
        for (Eigen::Index d = 0; d < measured->fit.draws.rows(); ++d)
            r.draws.row(d) = model_->constrain(measured->fit.draws.row(d).transpose()).transpose();

        std::vector<std::vector<double>> all;
        if (sc.scheme == Scheme::Unweighted) {
            all = unweightedSynthetic_;
            r.records.ir = unweightedIr_;
            r.stageSeconds.synthesis = unweightedStages_.synthesis;
            r.stageSeconds.risk = unweightedStages_.risk;
        } else {
            auto ts = std::chrono::steady_clock::now();
            auto synth = synthesizeFrom(*measured, sc.name);
            if (!synth) return synth.error();
            all = std::move(*synth);
            r.stageSeconds.synthesis = secondsSince(ts);
            ts = std::chrono::steady_clock::now();
            auto ir = risk(all);
            if (!ir) return ir.error();
            r.records.ir = std::move(*ir);
            r.stageSeconds.risk = secondsSince(ts);
        }
        r.irSummary = privacy::summarizeRisk(r.records.ir, config_.risk.threshold);
        r.records.irTop = std::move(r.irSummary.top);  // record indices: RecordLevel's
        r.irSummary.top.clear();
        r.records.whackAMole =
            privacy::whackAMole(unweightedIr_, r.records.ir, config_.risk.whackAMoleRise);
        all.resize(static_cast<std::size_t>(config_.synthesis.m));
        if (variables_ <= 1) {
            if (auto w = negativeValuesWarning(sc, config_.data.target, config_.data.transform,
                                               result_.inputs.yOriginal, all))
                result_.warnings.push_back(std::move(*w));
            if (auto w = farValuesWarning(sc, config_.data.target, config_.model.family,
                                          result_.inputs.yOriginal, all))
                result_.warnings.push_back(std::move(*w));
        }
        r.synthetic = std::move(all);
        // `seconds` is the wall time of this synthesizer's own fits only (issue 4's contract):
        // Unweighted owns the shared unweighted fit, the others their refits.
        r.stageSeconds.fits =
            sc.scheme == Scheme::Unweighted ? unweightedStages_.fits : fitSeconds_ - fitsBefore;
        r.seconds = r.stageSeconds.fits;
        if (sc.scheme == Scheme::Unweighted) r.fits = 1;
        if (config_.utility.enabled) {
            const auto tu = std::chrono::steady_clock::now();
            measureUtility(r);
            r.stageSeconds.utility = secondsSince(tu);
            if (cancelled()) return Error::cancelled();
        }
        return r;
    }

    const RunConfig& config_;
    const RunOptions& options_;
    RunResult result_;
    std::shared_ptr<const models::Model> model_;  // shared by runs on one prepared base
    std::vector<double> yOriginal_;
    Measured unweighted_;
    std::vector<mcmc::ChainStart> unweightedStarts_;
    double deltaX_ = 0;
    std::vector<std::vector<double>> unweightedSynthetic_;
    std::vector<double> unweightedIr_;
    std::map<std::string, std::size_t> done_;
    std::vector<ParameterSummary> unweightedParameters_;
    StageSeconds unweightedStages_;  // the shared unweighted fit, synthesis and risk
    std::vector<std::uint8_t> unweightedNonFinite_;  // Assumption 2's records
    double fitSeconds_ = 0;                          // wall time of every fit so far
    bool countModel_ = false;                        // counts: y stays a whole number
    bool riskChanged_ = false;  // a run on a shared base with other risk settings
    bool restored_ = false;     // restoreBase: no unweighted draws here
    // Sensitive variables: above 1, model_ is a JointModel, yOriginal_ and every synthetic
    // dataset hold q n values (variable after variable) and risk is the box's.
    std::size_t variables_ = 1;
};

}  // namespace runner_detail

using runner_detail::Runner;

data::DesignSummary designOf(const RunConfig& config, const data::ModelInputs& inputs) {
    const models::FamilyInfo* family = models::findFamily(config.model.family);
    const bool mixture = models::isMixtureFamily(config.model.family);
    return data::summarizeDesign(inputs, config.data.target,
                                 mixture ? static_cast<std::size_t>(config.model.K) : 1,
                                 !family || family->predictors);
}

Expected<RunResult> runStudy(const RunConfig& config, const data::Table& table,
                             const RunOptions& options) {
    // A configuration built without the parser (the GUI's) meets the same rules before any
    // work (the synthesizers' names, for one, become file names of the run folder).
    if (Status s = validate(config); !s) return s.error();
    Runner runner(config, options);
    return runner.run(table);
}

// Owns the configuration and options the base runner refers to.
struct PreparedStudy::State {
    State(const RunConfig& c, const RunOptions& o)
        : config(c), options(o), runner(config, options) {}
    RunConfig config;
    RunOptions options;
    Runner runner;
};

Expected<PreparedStudy> prepareStudy(const RunConfig& config, const data::Table& table,
                                     const RunOptions& options) {
    if (Status s = validate(config); !s) return s.error();
    auto state = std::make_shared<PreparedStudy::State>(config, options);
    if (auto s = state->runner.prepareBase(table); !s) return s.error();
    state->options = {};  // the caller's callbacks must not outlive this call
    PreparedStudy p;
    p.state_ = std::move(state);
    return p;
}

detail::SharedUnweighted PreparedStudyFile::shared(const PreparedStudy& study) {
    return study.state_->runner.shared();
}

Expected<PreparedStudy> PreparedStudyFile::restore(const RunConfig& config,
                                                   const data::Table& table,
                                                   detail::SharedUnweighted shared,
                                                   const RunOptions& options) {
    if (Status s = validate(config); !s) return s.error();
    auto state = std::make_shared<PreparedStudy::State>(config, options);
    if (auto s = state->runner.restoreBase(table, std::move(shared)); !s) return s.error();
    state->options = {};  // the caller's callbacks must not outlive this call
    PreparedStudy p;
    p.state_ = std::move(state);
    return p;
}

const RunConfig& PreparedStudy::config() const {
    return state_->config;
}

Expected<RunResult> runPrepared(const PreparedStudy& study, const RunConfig& config,
                                const RunOptions& options) {
    if (!study.state_) return Error::internal("the study was not prepared");
    if (Status s = validate(config); !s) return s.error();
    // The unweighted datasets were drawn once, for the prepared m and L; more cannot be
    // borrowed from it (they would be empty datasets).
    const RunConfig& prepared = study.config();
    const int have = std::max(prepared.synthesis.m, prepared.risk.L);
    const int need = std::max(config.synthesis.m, config.risk.L);
    if (need > have)
        return Error{"this configuration needs " + std::to_string(need) +
                     " synthetic datasets (max of m and L) but the study was prepared with " +
                     std::to_string(have) + "; prepare it with m or L of at least " +
                     std::to_string(need)};
    Runner runner(study.state_->runner, config, options);
    return runner.runSynthesizers();
}

}  // namespace ppsynth::study
