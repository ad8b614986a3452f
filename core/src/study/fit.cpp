#include "ppsynth/study/fit.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "ppsynth/common/moments.hpp"
#include "ppsynth/common/parallel.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/models/poisson_means.hpp"
#include "ppsynth/study/record_bounds.hpp"

namespace ppsynth::study {

namespace {

// The diagnosed quantity the epsilon verdict also reads (epsilonChains).
constexpr const char* kTotalLogLik = "total log-likelihood";

// v with `digits` decimals, for the lines people read.
std::string fixed(double v, int digits) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(digits) << v;
    return o.str();
}

// Components switch labels between draws (the registry's `mixture`).
bool isMixture(const models::Model& model) {
    return models::isMixtureFamily(model.family());
}

// Label-invariant per-draw quantities, one vector per chain.
struct StreamedQuantities {
    std::vector<std::vector<double>> totalLogLik, meanPrediction;
    explicit StreamedQuantities(int chains) : totalLogLik(chains), meanPrediction(chains) {}

    std::vector<std::pair<std::string, mcmc::ChainDraws>> asDiagnostics() const {
        auto toDraws = [](const std::vector<std::vector<double>>& v) {
            mcmc::ChainDraws d;
            for (const auto& c : v)
                d.push_back(Eigen::Map<const Eigen::VectorXd>(c.data(),
                                                              static_cast<Eigen::Index>(c.size())));
            return d;
        };
        return {{kTotalLogLik, toDraws(totalLogLik)}, {"mean prediction", toDraws(meanPrediction)}};
    }
};

// Conjugate Poisson means: exact independent draws per "chain" (so diagnostics read alike).
Expected<Fit> fitExact(const models::PoissonMeans& model, const Eigen::VectorXd& alpha,
                       const FitOptions& options) {
    const auto& so = options.sampler;
    const auto t0 = std::chrono::steady_clock::now();
    Fit fit;
    fit.exact = true;
    const auto n = static_cast<Eigen::Index>(model.recordCount());
    fit.draws.resize(static_cast<Eigen::Index>(so.chains) * so.draws, 1);
    std::vector<privacy::LipschitzAccumulator> acc(static_cast<std::size_t>(so.chains),
                                                   privacy::LipschitzAccumulator(alpha));
    StreamedQuantities streamed(so.chains);
    mcmc::ChainDraws muDraws;
    Eigen::VectorXd l(n);
    for (int c = 0; c < so.chains; ++c) {
        auto rng = makeRng(so.seed, static_cast<std::uint64_t>(c), Purpose::Sampler);
        Eigen::VectorXd mu = model.drawExact(alpha, static_cast<std::size_t>(so.draws), rng);
        for (int s = 0; s < so.draws; ++s) {
            Eigen::VectorXd q(1);
            q[0] = std::log(mu[s]);
            fit.draws(static_cast<Eigen::Index>(c) * so.draws + s, 0) = q[0];
            model.recordLogLik(q, l);
            acc[static_cast<std::size_t>(c)].addDraw(l);
            streamed.totalLogLik[static_cast<std::size_t>(c)].push_back(l.sum());
            streamed.meanPrediction[static_cast<std::size_t>(c)].push_back(mu[s]);
        }
        muDraws.push_back(mu);
        if (report(so.progress, {"sampling", c, static_cast<double>(so.draws),
                                 static_cast<double>(so.draws)}) == Continue::Stop ||
            (so.cancel && so.cancel->load()))
            return Error::cancelled("sampling cancelled");
    }
    for (auto& a : acc) {
        fit.lipschitz.merge(a);
        fit.chainRecordMax.push_back(a.recordMax());
    }
    auto s = mcmc::summarize(muDraws);
    fit.diagnostics.draws = so.chains * so.draws;
    fit.diagnostics.quantities.push_back({"mu", s});
    fit.diagnostics.maxRhat = s.rhat;
    fit.diagnostics.minEssBulk = s.essBulk;
    fit.diagnostics.minEssTail = s.essTail;
    fit.seconds = secondsSince(t0);
    return fit;
}

// Every reported parameter's draws per chain, named as the model names them.
std::vector<std::pair<std::string, mcmc::ChainDraws>> constrainedDraws(
    const models::Model& model, const mcmc::SamplerResult& result) {
    const auto names = model.parameterNames();
    std::vector<std::pair<std::string, mcmc::ChainDraws>> out;
    for (const auto& name : names) out.push_back({name, {}});
    for (const auto& chain : result.chains) {
        const Eigen::Index S = chain.draws.rows();
        Eigen::MatrixXd c(S, static_cast<Eigen::Index>(names.size()));
        for (Eigen::Index s = 0; s < S; ++s)
            c.row(s) = model.constrain(chain.draws.row(s).transpose())
                           .head(static_cast<Eigen::Index>(names.size()))
                           .transpose();
        for (std::size_t j = 0; j < names.size(); ++j)
            out[j].second.push_back(c.col(static_cast<Eigen::Index>(j)));
    }
    return out;
}

// The quantities the stopping rule of a run until converged judges (UntilConverged).
std::vector<std::pair<std::string, mcmc::ConvergenceSummary>> ruleQuantities(
    const models::Model& model, const mcmc::SamplerResult& result,
    const std::vector<privacy::LipschitzAccumulator>& acc, const StreamedQuantities& streamed) {
    std::vector<std::pair<std::string, mcmc::ConvergenceSummary>> out;
    const bool mixture = model.family() == "normal-mixture";
    for (auto& [name, draws] : constrainedDraws(model, result))
        if (!mixture || name.rfind("tau[", 0) == 0 || name == "gamma")
            out.emplace_back(name, mcmc::summarize(draws));
    for (auto& [name, draws] : streamed.asDiagnostics())
        out.emplace_back(name, mcmc::summarize(draws));
    mcmc::ChainDraws ds;
    for (const auto& a : acc)
        ds.push_back(Eigen::Map<const Eigen::VectorXd>(a.drawMax().data(),
                                                       static_cast<Eigen::Index>(a.drawCount())));
    out.emplace_back("D_s", mcmc::summarize(ds));
    return out;
}

// The epsilon verdict on the draws so far, from the same inputs the runner gives it after
// the fit (epsilonChains): D_s per chain under the bound's q and, when `judgeF`, f_i per half
// chain over each chain's retained draws (chainRecordBounds).
privacy::EpsilonDiagnostics verdictSoFar(const models::Model& model, const mcmc::SamplerResult& run,
                                         const std::vector<privacy::LipschitzAccumulator>& acc,
                                         const Eigen::VectorXd& alpha, const UntilConverged& rule,
                                         bool judgeF, int threads) {
    Fit sofar;  // what epsilonChains reads: the chains' accumulators merged in order
    for (const auto& a : acc) {
        sofar.lipschitz.merge(a);
        sofar.chainRecordMax.push_back(a.recordMax());
    }
    const auto bound = privacy::lipschitzBound(sofar.lipschitz, rule.quantile);
    std::vector<privacy::HalfChainRecordMax> halves;
    if (judgeF) {
        std::vector<Eigen::Ref<const Eigen::MatrixXd>> draws;
        for (const auto& c : run.chains) draws.emplace_back(c.draws);
        halves = chainRecordBounds(model, draws, bound.keptDraws, alpha, threads).halves;
    }
    return privacy::diagnoseEpsilon(epsilonChains(sofar, bound, std::move(halves)), rule.verdict);
}

// Appends one block's chains to the run so far: draws and statistics in order, the state a
// continuation needs from the block.
void appendBlock(mcmc::SamplerResult& run, mcmc::SamplerResult&& block) {
    if (run.chains.empty()) {
        run = std::move(block);
        return;
    }
    for (std::size_t c = 0; c < run.chains.size(); ++c) {
        mcmc::ChainResult& to = run.chains[c];
        mcmc::ChainResult& from = block.chains[c];
        const Eigen::Index before = to.draws.rows(), added = from.draws.rows();
        to.draws.conservativeResize(before + added, Eigen::NoChange);
        to.draws.bottomRows(added) = from.draws;
        to.stats.insert(to.stats.end(), from.stats.begin(), from.stats.end());
        for (std::size_t j = 0; j < to.swapAcceptance.size() && j < from.swapAcceptance.size(); ++j)
            to.swapAcceptance[j] = (to.swapAcceptance[j] * static_cast<double>(before) +
                                    from.swapAcceptance[j] * static_cast<double>(added)) /
                                   static_cast<double>(before + added);
        to.samplingSeconds += from.samplingSeconds;
        to.gradientEvaluations += from.gradientEvaluations;
        to.warmupDivergences += from.warmupDivergences;
        to.stepSize = from.stepSize;
        to.invMetric = std::move(from.invMetric);
        to.lastQ = std::move(from.lastQ);
        to.replicas = std::move(from.replicas);
        to.ladder = std::move(from.ladder);
        to.rng = from.rng;
        to.swapParity = from.swapParity;
    }
    run.gradientEvaluations += block.gradientEvaluations;
}

// Blocks of so.draws draws per chain until the rule holds or the budget is spent.
Expected<mcmc::SamplerResult> sampleUntilConverged(
    const models::Model& model, const mcmc::LogDensity& target, mcmc::SamplerOptions so,
    const UntilConverged& rule, const Eigen::VectorXd& alpha,
    const std::vector<privacy::LipschitzAccumulator>& acc, const StreamedQuantities& streamed,
    std::chrono::steady_clock::time_point t0, UntilConvergedOutcome& outcome) {
    const int block = so.draws;
    mcmc::SamplerResult run;
    // What is still short, shown with every progress report of the next block (written only
    // between blocks, when no chain runs).
    std::string note;
    if (const ProgressCallback user = so.progress)
        so.progress = [user, &note](const Progress& p) {
            Progress q = p;
            q.stage += note;
            return user(q);
        };
    for (int draws = block;;) {
        so.draws = draws;
        const auto b0 = std::chrono::steady_clock::now();
        auto r = mcmc::sampleNuts(target, so);
        if (!r) return r.error();
        const double wall = secondsSince(b0);
        double warm = 0, sampling = 0;
        for (const auto& c : r->chains) {
            warm += c.warmupSeconds;
            sampling += c.samplingSeconds;
        }
        // Wall seconds per draw per chain, from this block's share of sampling.
        const double perDraw = wall * (sampling / std::max(warm + sampling, 1e-12)) / draws;
        ++outcome.blocks;
        outcome.drawsPerChain += draws;
        so.starts.clear();
        for (const auto& c : r->chains) so.starts.push_back(c.continuation());
        appendBlock(run, std::move(*r));
        const auto quantities = ruleQuantities(model, run, acc, streamed);
        outcome.shortfall = convergenceShortfall(quantities, rule);
        // The verdict's own lines, but a quantity the rule already finds short only once. The
        // f_i agreement costs a pass over every draw so far: judged only when nothing else is
        // short, so a run that needs many blocks does not pay it block after block.
        auto verdict = verdictSoFar(model, run, acc, alpha, rule, false, so.threads);
        if (rule.judgeRecordBounds && outcome.shortfall.empty() && verdict.converged)
            verdict = verdictSoFar(model, run, acc, alpha, rule, true, so.threads);
        for (auto& line : verdictShortfall(verdict, rule.verdict)) {
            const auto name = line.substr(0, line.find(':') + 1);
            if (std::none_of(outcome.shortfall.begin(), outcome.shortfall.end(),
                             [&](const std::string& l) { return l.rfind(name, 0) == 0; }))
                outcome.shortfall.push_back(std::move(line));
        }
        if (outcome.shortfall.empty()) {
            outcome.converged = true;
            return run;
        }
        if (so.cancel != nullptr && so.cancel->load()) return Error{"sampling cancelled"};
        // The next block: a full one if it fits in what is left of the budget, else what
        // fits; less than a tenth of a block is not worth it.
        const double left = rule.budgetSeconds - secondsSince(t0);
        const double fits = perDraw > 0 ? std::floor(left / perDraw) : block;
        draws = static_cast<int>(std::min<double>(block, std::max(0.0, fits)));
        if (draws < std::max(1, block / 10)) {
            outcome.budgetReached = true;
            double minEss = std::numeric_limits<double>::infinity();
            for (const auto& [name, q] : quantities)
                if (std::isfinite(q.rhat)) minEss = std::min({minEss, q.essBulk, q.essTail});
            if (minEss > 0 && minEss < rule.ess)
                outcome.secondsForEss = secondsSince(t0) * rule.ess / minEss;
            return run;
        }
        so.warmup = 0;
        note = " (until converged: block " + std::to_string(outcome.blocks + 1) +
               ", still short: " + outcome.shortfall.front() +
               (outcome.shortfall.size() > 1
                    ? " and " + std::to_string(outcome.shortfall.size() - 1) + " more"
                    : std::string()) +
               ")";
    }
}

}  // namespace

std::vector<std::string> convergenceShortfall(
    const std::vector<std::pair<std::string, mcmc::ConvergenceSummary>>& quantities,
    const UntilConverged& rule) {
    std::vector<std::string> out;
    for (const auto& [name, s] : quantities) {
        if (!std::isfinite(s.rhat)) continue;
        std::vector<std::string> parts;
        if (!(s.rhatBulk < rule.rhat) || !(s.rhatTail < rule.rhat))
            parts.push_back("R-hat " + fixed(std::max(s.rhatBulk, s.rhatTail), 3));
        if (!(s.essBulk >= rule.ess)) parts.push_back("bulk ESS " + fixed(s.essBulk, 0));
        if (!(s.essTail >= rule.ess)) parts.push_back("tail ESS " + fixed(s.essTail, 0));
        if (parts.empty()) continue;
        std::string line = name + ": ";
        for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : "") + parts[i];
        out.push_back(std::move(line));
    }
    return out;
}

std::string budgetReachedReason(const UntilConvergedOutcome& outcome, const UntilConverged& rule) {
    std::string why = "budget reached (mcmc.budget_seconds " + fixed(rule.budgetSeconds, 0) +
                      " s) before R-hat < " + fixed(rule.rhat, 2) +
                      ", ESS >= " + fixed(rule.ess, 0) + " and the epsilon verdict held";
    const auto& s = outcome.shortfall;
    if (!s.empty()) why += " for " + s.front();
    if (s.size() > 1) why += " and " + std::to_string(s.size() - 1) + " more";
    why += ": raise the budget";
    if (const double t = outcome.secondsForEss; t > 0 && std::isfinite(t))
        why += " (at the rate so far, ESS " + fixed(rule.ess, 0) + " would take about " +
               (t < 120    ? fixed(t, 0) + " s"
                : t < 7200 ? fixed(t / 60, 0) + " minutes"
                           : fixed(t / 3600, 1) + " hours") +
               " in all)";
    return why;
}

std::vector<std::string> verdictShortfall(const privacy::EpsilonDiagnostics& verdict,
                                          const privacy::EpsilonThresholds& thresholds) {
    if (verdict.converged) return {};
    // The verdict's reasons are its D_s checks and the f_i agreement; its figures, not a
    // second judgement, make the lines.
    std::vector<std::string> out;
    std::size_t fReasons = 0;
    if (verdict.fAgreement && !privacy::fAgreementHolds(*verdict.fAgreement, thresholds)) {
        const auto& f = *verdict.fAgreement;
        std::string line = "f_i agreement: rank correlation " + fixed(f.rankCorrelation, 3) +
                           ", median relative difference " +
                           fixed(100 * f.medianRelativeDifference, 1) + "%";
        if (f.drawsPerHalf < thresholds.fMinDrawsPerHalf)
            line += " (" + std::to_string(f.drawsPerHalf) + " draws in a half chain)";
        else if (!std::isnan(f.withinMedianRelativeDifference))
            line += " (within a chain " + fixed(f.withinRankCorrelation, 3) + ", " +
                    fixed(100 * f.withinMedianRelativeDifference, 1) + "%)";
        out.push_back(std::move(line));
        fReasons = 1;
    }
    if (verdict.reasons.size() > fReasons || out.empty())
        out.insert(out.begin(), "D_s: R-hat " +
                                    fixed(std::max(verdict.rhatBulk, verdict.rhatTail), 3) +
                                    ", bulk ESS " + fixed(verdict.essBulk, 0) + ", tail ESS " +
                                    fixed(verdict.essTail, 0) + " (epsilon verdict)");
    return out;
}

std::optional<mcmc::Kernel> kernelNamed(const std::string& name) {
    if (name == "nuts") return mcmc::Kernel::Nuts;
    if (name == "gibbs") return mcmc::Kernel::Gibbs;
    return std::nullopt;
}

Expected<Fit> fitModel(const models::Model& model, const Eigen::VectorXd& alpha,
                       const FitOptions& options) {
    if (static_cast<std::size_t>(alpha.size()) != model.recordCount())
        return Error{"the weights cover " + std::to_string(alpha.size()) +
                     " records but the model has " + std::to_string(model.recordCount())};
    if (const auto* pm = dynamic_cast<const models::PoissonMeans*>(&model))
        return fitExact(*pm, alpha, options);

    const auto t0 = std::chrono::steady_clock::now();
    const int chains = options.sampler.chains;
    const auto n = static_cast<Eigen::Index>(model.recordCount());
    // Per-chain slots: the draw hook runs concurrently for different chains.
    std::vector<privacy::LipschitzAccumulator> acc(static_cast<std::size_t>(chains),
                                                   privacy::LipschitzAccumulator(alpha));
    std::vector<Eigen::VectorXd> buffers(static_cast<std::size_t>(chains), Eigen::VectorXd(n));
    StreamedQuantities streamed(chains);
    mcmc::SamplerOptions so = options.sampler;
    so.kernel = options.kernel.value_or(model.preferredKernel());
    if (so.kernel == mcmc::Kernel::Gibbs && model.preferredKernel() != mcmc::Kernel::Gibbs)
        return Error{
            "the Gibbs sampler is available only for the normal mixture with tau "
            "sampled (model \"tau\": \"sampled\" or \"auto\"); use \"sampler\": "
            "\"nuts\" or \"auto\" for " +
            model.family()};
    so.onDraw = [&](int chain, int, const Eigen::VectorXd& q) {
        const auto c = static_cast<std::size_t>(chain);
        model.recordLogLik(q, buffers[c]);
        acc[c].addDraw(buffers[c]);
        streamed.totalLogLik[c].push_back(buffers[c].sum());
        streamed.meanPrediction[c].push_back(model.meanPrediction(q));
    };
    // Chains without a given start begin at the model's own initial point (jittered per
    // chain from the Init stream), not at the sampler's uniform(-2, 2) default: that default
    // puts log-scale intercepts and scales orders of magnitude from the data.
    if (so.starts.empty()) {
        for (int c = 0; c < chains; ++c) {
            Rng rng = makeRng(so.seed, static_cast<std::uint64_t>(c), Purpose::Init);
            mcmc::ChainStart start;
            start.q = model.initialPoint(rng);
            so.starts.push_back(std::move(start));
        }
    }
    models::WeightedPosterior target(model, alpha);
    UntilConvergedOutcome outcome;
    auto result = options.untilConverged
                      ? sampleUntilConverged(model, target, so, *options.untilConverged, alpha, acc,
                                             streamed, t0, outcome)
                      : mcmc::sampleNuts(target, so);
    if (!result) return result.error();

    Fit fit;
    if (options.untilConverged) fit.untilConverged = outcome;
    for (const auto& c : result->chains) {
        fit.ladders.push_back(c.ladder);
        fit.swapAcceptance.push_back(c.swapAcceptance);
    }
    const auto S = static_cast<int>(result->chains.front().draws.rows());
    const auto d = static_cast<Eigen::Index>(model.dimension());
    fit.draws.resize(static_cast<Eigen::Index>(chains) * S, d);
    for (int c = 0; c < chains; ++c) {
        fit.draws.middleRows(static_cast<Eigen::Index>(c) * S, S) =
            result->chains[static_cast<std::size_t>(c)].draws;
        fit.warmStarts.push_back(result->chains[static_cast<std::size_t>(c)].warmStart());
        fit.lipschitz.merge(acc[static_cast<std::size_t>(c)]);
        fit.chainRecordMax.push_back(acc[static_cast<std::size_t>(c)].recordMax());
    }
    mcmc::DiagnoseOptions dopt;
    dopt.maxTreeDepth = so.maxTreeDepth;
    // Parameters are judged on the reported (constrained) scale, where the names apply (the
    // sampler may move e.g. z = beta / tau). Mixture components switch labels: judge
    // convergence on the label-invariant quantities only.
    dopt.includeParameters = false;
    if (!isMixture(model)) dopt.quantities = constrainedDraws(model, *result);
    for (auto& q : streamed.asDiagnostics()) dopt.quantities.push_back(std::move(q));
    fit.diagnostics = mcmc::diagnose(*result, dopt);
    if (fit.untilConverged)
        fit.diagnostics.untilConverged = {outcome.blocks, outcome.converged, outcome.budgetReached,
                                          outcome.shortfall, outcome.drawsPerChain};
    fit.diagnostics.ladders = fit.ladders;
    fit.diagnostics.swapAcceptance = fit.swapAcceptance;
    fit.gradientEvaluations = result->gradientEvaluations;
    fit.seconds = secondsSince(t0);
    return fit;
}

namespace {

ParameterSummary summaryOf(std::string name, std::vector<double> v) {
    ParameterSummary p;
    p.name = std::move(name);
    const Eigen::Map<const Eigen::VectorXd> m(v.data(), static_cast<Eigen::Index>(v.size()));
    p.mean = vectorMean(m);
    p.sd = v.size() > 1 ? std::sqrt(vectorVariance(m)) : 0;
    std::sort(v.begin(), v.end());
    p.q05 = quantileSorted(v, 0.05);
    p.median = quantileSorted(v, 0.5);
    p.q95 = quantileSorted(v, 0.95);
    return p;
}

// At most this many draws feed the mixture's predictive quantiles (n predictions each).
constexpr Eigen::Index kPredictiveDraws = 400;

// The mixture's components switch labels within and between chains, so a summary of
// "beta[3, age]" pooled over chains mixes different components. Its label-invariant
// quantities instead: tau_j (shared by the components), gamma, the number of occupied
// components (pi_k n >= 1: expected to hold at least one record) and the 10%, 50% and 90%
// quantiles over the records of one posterior predictive draw of y (model scale).
std::vector<ParameterSummary> mixtureSummaries(const models::Model& model,
                                               const Eigen::MatrixXd& draws) {
    const auto names = model.parameterNames();
    std::vector<std::size_t> keep, pis;
    for (std::size_t j = 0; j < names.size(); ++j) {
        if (names[j].rfind("tau[", 0) == 0 || names[j] == "gamma") keep.push_back(j);
        if (names[j].rfind("pi[", 0) == 0) pis.push_back(j);
    }
    const double n = static_cast<double>(model.recordCount());
    std::vector<std::vector<double>> values(keep.size());
    std::vector<double> occupied, q10, q50, q90;
    const Eigen::Index step =
        std::max<Eigen::Index>(1, (draws.rows() + kPredictiveDraws - 1) / kPredictiveDraws);
    Eigen::VectorXd y(static_cast<Eigen::Index>(model.recordCount()));
    for (Eigen::Index s = 0; s < draws.rows(); ++s) {
        const Eigen::VectorXd q = draws.row(s).transpose();
        const Eigen::VectorXd c = model.constrain(q);
        for (std::size_t k = 0; k < keep.size(); ++k)
            values[k].push_back(c[static_cast<Eigen::Index>(keep[k])]);
        double occ = 0;
        for (auto j : pis) occ += c[static_cast<Eigen::Index>(j)] * n >= 1.0 ? 1.0 : 0.0;
        occupied.push_back(occ);
        if (s % step != 0 || y.size() == 0) continue;
        Rng rng = makeRng(static_cast<std::uint64_t>(s), 0, Purpose::PosteriorSummary);
        model.predict(q, rng, y);
        std::vector<double> sorted(y.data(), y.data() + y.size());
        std::sort(sorted.begin(), sorted.end());
        q10.push_back(quantileSorted(sorted, 0.1));
        q50.push_back(quantileSorted(sorted, 0.5));
        q90.push_back(quantileSorted(sorted, 0.9));
    }
    std::vector<ParameterSummary> out;
    for (std::size_t k = 0; k < keep.size(); ++k)
        out.push_back(summaryOf(names[keep[k]], std::move(values[k])));
    out.push_back(summaryOf("occupied components", std::move(occupied)));
    if (!q10.empty()) {
        out.push_back(summaryOf("predictive y q10 (model scale)", std::move(q10)));
        out.push_back(summaryOf("predictive y median (model scale)", std::move(q50)));
        out.push_back(summaryOf("predictive y q90 (model scale)", std::move(q90)));
    }
    return out;
}

}  // namespace

std::vector<ParameterSummary> summarizeParameters(const models::Model& model,
                                                  const Eigen::MatrixXd& draws) {
    if (draws.rows() == 0) return {};
    if (isMixture(model)) return mixtureSummaries(model, draws);
    const auto names = model.parameterNames();
    std::vector<std::vector<double>> values(names.size());
    for (Eigen::Index s = 0; s < draws.rows(); ++s) {
        Eigen::VectorXd c = model.constrain(draws.row(s).transpose());
        for (std::size_t j = 0; j < names.size() && j < static_cast<std::size_t>(c.size()); ++j)
            values[j].push_back(c[static_cast<Eigen::Index>(j)]);
    }
    std::vector<ParameterSummary> out;
    for (std::size_t j = 0; j < names.size(); ++j)
        if (!values[j].empty()) out.push_back(summaryOf(names[j], std::move(values[j])));
    return out;
}

privacy::EpsilonChains epsilonChains(const Fit& fit, const privacy::LipschitzBound& bound,
                                     std::vector<privacy::HalfChainRecordMax> recordBoundPerHalf) {
    privacy::EpsilonChains e;
    const auto& m = fit.lipschitz.drawMax();
    const std::size_t chains = std::max<std::size_t>(1, fit.chainRecordMax.size());
    const std::size_t perChain = m.size() / chains;
    std::vector<double> firstHalves, secondHalves;
    for (std::size_t c = 0; c < chains; ++c) {
        std::vector<double> d(m.begin() + static_cast<std::ptrdiff_t>(c * perChain),
                              m.begin() + static_cast<std::ptrdiff_t>((c + 1) * perChain));
        e.deltaPerChain.push_back(privacy::lipschitzBound(d, bound.quantile).delta);
        const auto middle = d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2);
        firstHalves.insert(firstHalves.end(), d.begin(), middle);
        secondHalves.insert(secondHalves.end(), middle, d.end());
        e.drawMax.push_back(std::move(d));
    }
    if (!firstHalves.empty() && !secondHalves.empty()) {
        e.deltaFirstHalf = privacy::lipschitzBound(firstHalves, bound.quantile).delta;
        e.deltaSecondHalf = privacy::lipschitzBound(secondHalves, bound.quantile).delta;
    }
    for (const auto& q : fit.diagnostics.quantities)
        if (q.name == kTotalLogLik) {
            e.loglikRhatBulk = q.summary.rhatBulk;
            e.loglikRhatTail = q.summary.rhatTail;
        }
    // The retained draw with the largest D_s sets Delta (its D_s is Delta when q = 1).
    std::size_t best = m.size();
    for (auto s : bound.keptDraws)
        if (best == m.size() || m[s] > m[best]) best = s;
    if (best < m.size()) {
        e.argmaxRecord = fit.lipschitz.drawArgmax()[best];
        e.argmaxLoglik = fit.lipschitz.drawArgmaxLogLik()[best];
    }
    e.recordMaxPerHalf = std::move(recordBoundPerHalf);
    return e;
}

Eigen::VectorXd recordBoundsOverDraws(const models::Model& model, const Eigen::MatrixXd& draws,
                                      const std::vector<std::size_t>& kept,
                                      const Eigen::VectorXd& alpha, int threads) {
    const auto n = static_cast<Eigen::Index>(model.recordCount());
    const std::size_t parts = static_cast<std::size_t>(std::max(1, threads));
    std::vector<Eigen::VectorXd> partMax(parts, Eigen::VectorXd::Zero(n));
    parallelFor(parts, threads, [&](std::size_t part) {
        Eigen::VectorXd l(n);
        auto& mx = partMax[part];
        for (std::size_t k = part; k < kept.size(); k += parts) {
            model.recordLogLik(draws.row(static_cast<Eigen::Index>(kept[k])).transpose(), l);
            for (Eigen::Index i = 0; i < n; ++i)
                mx[i] = std::max(mx[i], privacy::weightedAbsLogLik(alpha[i], l[i]));
        }
        return true;
    });
    Eigen::VectorXd out = partMax.front();
    for (std::size_t p = 1; p < parts; ++p) out = out.cwiseMax(partMax[p]);
    return out;
}

}  // namespace ppsynth::study
