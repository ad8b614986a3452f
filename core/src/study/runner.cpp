#include "ppsynth/study/runner.hpp"

#include <chrono>
#include <cmath>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/study/synthesis.hpp"

namespace ppsynth::study {

const SynthesizerResult* RunResult::find(const std::string& name) const {
    for (const auto& s : synthesizers)
        if (s.name == name) return &s;
    return nullptr;
}

Expected<models::Priors> priorsFromConfig(const std::map<std::string, double>& values) {
    models::Priors p;
    const std::map<std::string, double models::Priors::*> fields = {
        {"tau_df", &models::Priors::tauDf},
        {"tau_scale", &models::Priors::tauScale},
        {"sigma_df", &models::Priors::sigmaDf},
        {"sigma_scale", &models::Priors::sigmaScale},
        {"inv_phi_scale", &models::Priors::invPhiScale},
        {"mean_shape", &models::Priors::meanShape},
        {"mean_rate", &models::Priors::meanRate},
        {"gamma_shape", &models::Priors::gammaShape},
        {"gamma_rate", &models::Priors::gammaRate}};
    for (const auto& [key, value] : values) {
        auto it = fields.find(key);
        if (it == fields.end()) {
            std::string known;
            for (const auto& f : fields) known += (known.empty() ? "" : ", ") + f.first;
            return Error{"model.priors: unknown hyperparameter '" + key + "' (known: " + known +
                         ")"};
        }
        p.*(it->second) = value;
    }
    if (auto s = p.validate(); !s) return Error{"model.priors: " + s.message()};
    return p;
}

namespace {

// Stable per-synthesizer seed: renaming or reordering others does not change this one's.
std::uint64_t nameSeed(std::uint64_t seed, const std::string& name) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
    return mix64(seed ^ h);
}

class Runner {
  public:
    Runner(const RunConfig& config, const RunOptions& options)
        : config_(config), options_(options) {}

    Expected<RunResult> run(const data::Table& table) {
        const auto t0 = std::chrono::steady_clock::now();
        result_.config = config_;
        if (auto s = prepare(table); !s) return Error{s.message()};
        if (auto s = fitUnweighted(); !s) return Error{s.message()};
        result_.synthesizers.resize(config_.synthesizers.size());
        for (std::size_t idx : executionOrder(config_)) {
            const auto& sc = config_.synthesizers[idx];
            auto r = runSynthesizer(sc);
            if (!r) return Error{"synthesizer '" + sc.name + "': " + r.message()};
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
    };

    Status prepare(const data::Table& table) {
        data::Roles roles;
        roles.target = config_.data.target;
        roles.predictors = config_.data.predictors;
        roles.known = config_.data.known;
        roles.referenceLevels = config_.data.referenceLevels;
        data::PrepareOptions po;
        po.transform = *data::transformKindFromString(config_.data.transform);
        po.missing = *data::missingPolicyFromString(config_.data.missing);
        po.maxLevels = config_.data.maxLevels;
        const auto& fam = config_.model.family;
        countModel_ = fam == "poisson-means" || fam == "poisson" || fam == "negbin";
        po.countModel = countModel_;
        if (po.countModel && po.transform != data::TransformKind::None)
            return Error{"a count model (" + fam +
                         ") models y as it is: set data.transform to \"none\""};
        auto inputs = data::prepareModelInputs(table, roles, po);
        if (!inputs) return inputs.status();
        result_.inputs = std::move(*inputs);
        auto priors = priorsFromConfig(config_.model.priors);
        if (!priors) return priors.status();
        models::ModelSpec spec;
        spec.family = fam;
        spec.components = config_.model.K;
        spec.priors = *priors;
        auto model = models::makeModel(spec, result_.inputs.X, result_.inputs.y,
                                       result_.inputs.columnNames());
        if (!model) return model.status();
        model_ = std::move(*model);
        result_.parameterNames = model_->parameterNames();
        yOriginal_.assign(result_.inputs.yOriginal.data(),
                          result_.inputs.yOriginal.data() + result_.inputs.yOriginal.size());
        return {};
    }

    mcmc::SamplerOptions samplerOptions(const std::string& stage) const {
        mcmc::SamplerOptions so;
        so.chains = config_.mcmc.chains;
        so.warmup = config_.mcmc.warmup;
        so.draws = config_.mcmc.draws;
        so.seed = config_.mcmc.seed;
        so.threads = config_.mcmc.threads;
        so.maxTreeDepth = config_.mcmc.maxTreeDepth;
        so.adaptDelta = config_.mcmc.adaptDelta;
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

    Expected<Measured> fitAndBound(const Eigen::VectorXd& alpha, const std::string& stage) {
        FitOptions fo;
        fo.sampler = samplerOptions(stage);
        auto fit = fitModel(*model_, alpha, fo);
        if (!fit) return fit.error();
        Measured m{std::move(*fit), {}};
        m.bound = privacy::lipschitzBound(m.fit.lipschitz, config_.lipschitz.quantile);
        return m;
    }

    Status fitUnweighted() {
        const auto n = static_cast<Eigen::Index>(model_->recordCount());
        auto m = fitAndBound(Eigen::VectorXd::Ones(n), "Unweighted");
        if (!m) return m.status();
        unweighted_ = std::move(*m);
        unweightedStarts_ = unweighted_.fit.warmStarts;
        result_.f = unweighted_.fit.lipschitz.recordMax();
        deltaX_ = unweighted_.bound.delta;
        auto synth = synthesizeFrom(unweighted_, "Unweighted");
        if (!synth) return synth.status();
        unweightedSynthetic_ = std::move(*synth);
        auto ir = risk(unweightedSynthetic_);
        if (!ir) return ir.status();
        unweightedIr_ = std::move(*ir);
        return {};
    }

    int datasetCount() const { return std::max(config_.synthesis.m, config_.risk.L); }

    privacy::RiskOptions riskOptions() const {
        privacy::RiskOptions ro;
        ro.radius = {config_.risk.radius, config_.risk.percentage};
        ro.threads = config_.mcmc.threads;
        return ro;
    }

    // The first L of the datasets measure risk; the first m are released.
    std::vector<std::vector<double>> riskDatasets(
        const std::vector<std::vector<double>>& all) const {
        return {all.begin(),
                all.begin() + std::min<std::ptrdiff_t>(config_.risk.L,
                                                       static_cast<std::ptrdiff_t>(all.size()))};
    }

    Expected<std::vector<double>> risk(const std::vector<std::vector<double>>& all) const {
        return privacy::marginalRisk(yOriginal_, riskDatasets(all), result_.inputs.patterns.id,
                                     riskOptions());
    }

    Expected<std::vector<std::vector<double>>> synthesizeFrom(const Measured& m,
                                                              const std::string& name) const {
        auto chosen =
            chooseDraws(m.bound.keptDraws, datasetCount(), nameSeed(config_.mcmc.seed, name));
        if (!chosen) return chosen.error();
        SynthesisOptions so;
        so.seed = nameSeed(config_.mcmc.seed, name) ^ 0x5eed;
        so.threads = config_.mcmc.threads;
        so.integer = countModel_;
        const auto transform = result_.inputs.transform;
        so.backTransform = [transform](double z) { return transform.inverse(z); };
        return synthesize(*model_, m.fit.draws, *chosen, so);
    }

    // IR-based weights need IR (or pairwise at) from the chosen source.
    Expected<privacy::PairwiseRisk> riskForWeights(const SynthesizerConfig& sc,
                                                   bool pairwise) const {
        // "data": the confidential values themselves as one synthetic dataset (y* = y).
        const std::vector<std::vector<double>> fromData{yOriginal_};
        const auto& datasets = sc.source == "data" ? fromData : unweightedSynthetic_;
        const auto used = sc.source == "data" ? fromData : riskDatasets(datasets);
        if (pairwise)
            return privacy::pairwiseRisk(yOriginal_, used, result_.inputs.patterns.id,
                                         riskOptions());
        auto ir =
            privacy::marginalRisk(yOriginal_, used, result_.inputs.patterns.id, riskOptions());
        if (!ir) return ir.error();
        privacy::PairwiseRisk out;
        out.marginal = std::move(*ir);
        return out;
    }

    Eigen::VectorXd withAssumption2(Eigen::VectorXd alpha) const {
        privacy::zeroNonFinite(alpha, unweighted_.fit.lipschitz.nonFinite());
        return alpha;
    }

    Expected<SynthesizerResult> runSynthesizer(const SynthesizerConfig& sc) {
        const auto t0 = std::chrono::steady_clock::now();
        SynthesizerResult r;
        r.name = sc.name;
        r.scheme = sc.scheme;
        const auto n = static_cast<Eigen::Index>(model_->recordCount());
        std::optional<Measured> own;
        switch (sc.scheme) {
            case Scheme::Unweighted:
                r.alpha = Eigen::VectorXd::Ones(n);
                break;
            case Scheme::Lipschitz:
                r.alpha = privacy::lipschitzWeights(result_.f, sc.c, sc.g);
                if (sc.M) r.alpha = privacy::truncateAtM(r.alpha, result_.f, *sc.M);
                break;
            case Scheme::Marginal:
            case Scheme::Sigmoid: {
                auto ir = riskForWeights(sc, false);
                if (!ir) return ir.error();
                r.alpha = sc.scheme == Scheme::Marginal
                              ? privacy::riskWeights(ir->marginal, sc.c, sc.g)
                              : privacy::sigmoidRiskWeights(ir->marginal, sc.sigmoidA);
                break;
            }
            case Scheme::Pairwise: {
                auto pr = riskForWeights(sc, true);
                if (!pr) return pr.error();
                r.pairwiseWeight = pr->at;
                r.singletons = pr->singletons;
                r.alpha = privacy::pairwiseWeights(pr->at, sc.c, sc.g);
                break;
            }
            case Scheme::Scalar: {
                const double target =
                    sc.epsilon ? *sc.epsilon
                               : result_.synthesizers[done_.at(sc.match)].epsilon.perDataset;
                std::map<double, Measured> fits;
                auto refit = [&](double a) -> Expected<double> {
                    auto m = fitAndBound(withAssumption2(Eigen::VectorXd::Constant(n, a)), sc.name);
                    if (!m) return m.error();
                    const double d = m->bound.delta;
                    fits.insert_or_assign(a, std::move(*m));
                    return d;
                };
                privacy::ScalarWeightOptions so;
                so.tolerance = sc.tolerance;
                auto solved = privacy::solveScalarWeight(target, deltaX_, refit, so);
                if (!solved) return solved.error();
                r.scalarTries = solved->tries;
                r.scalarWeight = solved->a;
                r.fits = static_cast<int>(solved->tries.size());
                r.alpha = withAssumption2(Eigen::VectorXd::Constant(n, solved->a));
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
                auto searched = privacy::searchReweight(base.alpha, base.recordDelta,
                                                        base.deltaAlphaX, refit, ro);
                if (!searched) return searched.error();
                r.reweightTries = searched->tries;
                r.fits = static_cast<int>(searched->tries.size());
                if (searched->k <= 0)
                    return Error{"no k tried kept Delta within " +
                                 std::to_string(sc.tolerance * 100) +
                                 "% of the base's; lower 'k' or raise 'tolerance'"};
                r.k = searched->k;
                r.alpha = searched->alpha;
                for (auto& [w, m] : fits)
                    if (w == r.alpha) own = std::move(m);
                break;
            }
        }
        if (sc.scheme != Scheme::Unweighted) r.alpha = withAssumption2(std::move(r.alpha));

        const Measured* measured = &unweighted_;
        if (sc.scheme != Scheme::Unweighted) {
            if (!own) {
                auto m = fitAndBound(r.alpha, sc.name);
                if (!m) return m.error();
                own = std::move(*m);
                r.fits = 1;
            }
            measured = &*own;
        }
        r.recordDelta = measured->fit.lipschitz.recordMax();
        r.deltaX = deltaX_;
        r.deltaAlphaX = measured->bound.delta;
        r.deltaMethod = measured->bound.method();
        r.excludedDraws = measured->fit.lipschitz.drawCount() - measured->bound.keptDraws.size();
        r.epsilon = privacy::epsilonAccount(r.deltaAlphaX, config_.synthesis.m);
        r.global = privacy::globalEpsilon(r.deltaAlphaX, model_->recordCount());
        r.weights = privacy::summarizeWeights(r.alpha);
        r.diagnostics = measured->fit.diagnostics;
        r.parameters = summarizeParameters(*model_, measured->fit.draws);
        r.draws.resize(measured->fit.draws.rows(),
                       static_cast<Eigen::Index>(result_.parameterNames.size()));
        for (Eigen::Index d = 0; d < measured->fit.draws.rows(); ++d)
            r.draws.row(d) = model_->constrain(measured->fit.draws.row(d).transpose()).transpose();

        std::vector<std::vector<double>> all;
        if (sc.scheme == Scheme::Unweighted) {
            all = unweightedSynthetic_;
            r.ir = unweightedIr_;
        } else {
            auto synth = synthesizeFrom(*measured, sc.name);
            if (!synth) return synth.error();
            all = std::move(*synth);
            auto ir = risk(all);
            if (!ir) return ir.error();
            r.ir = std::move(*ir);
        }
        r.irSummary = privacy::summarizeRisk(r.ir, config_.risk.threshold);
        r.whackAMole = privacy::whackAMole(unweightedIr_, r.ir, config_.risk.whackAMoleRise);
        all.resize(static_cast<std::size_t>(config_.synthesis.m));
        r.synthetic = std::move(all);
        r.seconds = sc.scheme == Scheme::Unweighted ? unweighted_.fit.seconds : secondsSince(t0);
        if (sc.scheme == Scheme::Unweighted) r.fits = 1;
        return r;
    }

    const RunConfig& config_;
    const RunOptions& options_;
    RunResult result_;
    std::unique_ptr<models::Model> model_;
    std::vector<double> yOriginal_;
    Measured unweighted_;
    std::vector<mcmc::ChainStart> unweightedStarts_;
    double deltaX_ = 0;
    std::vector<std::vector<double>> unweightedSynthetic_;
    std::vector<double> unweightedIr_;
    std::map<std::string, std::size_t> done_;
    bool countModel_ = false;  // counts: y stays a whole number
};

}  // namespace

Expected<RunResult> runStudy(const RunConfig& config, const data::Table& table,
                             const RunOptions& options) {
    Runner runner(config, options);
    return runner.run(table);
}

}  // namespace ppsynth::study
