// fitAny: the conditionals of several sensitive variables fitted with one weight vector, and
// their draws joined into one fit whose Lipschitz quantities come from the joint l.
#include <algorithm>
#include <chrono>

#include "ppsynth/common/parallel.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/study/joint_model.hpp"

namespace ppsynth::study {

namespace {

// Every conditional's diagnostics as one: counts added, quantities named by the variable,
// the worst R-hat and ESS, the per-chain figures at their worst.
mcmc::RunDiagnostics joinDiagnostics(const JointModel& joint, const std::vector<Fit>& fits,
                                     int draws) {
    mcmc::RunDiagnostics out;
    out.draws = draws;
    bool first = true;
    for (std::size_t k = 0; k < fits.size(); ++k) {
        const auto& d = fits[k].diagnostics;
        const std::string& name = joint.parts()[k].target;
        out.divergences += d.divergences;
        out.treeDepthSaturated += d.treeDepthSaturated;
        if (out.divergencesPerChain.size() < d.divergencesPerChain.size())
            out.divergencesPerChain.resize(d.divergencesPerChain.size(), 0);
        for (std::size_t c = 0; c < d.divergencesPerChain.size(); ++c)
            out.divergencesPerChain[c] += d.divergencesPerChain[c];
        if (out.ebfmi.empty())
            out.ebfmi = d.ebfmi;
        else
            for (std::size_t c = 0; c < std::min(out.ebfmi.size(), d.ebfmi.size()); ++c)
                out.ebfmi[c] = std::min(out.ebfmi[c], d.ebfmi[c]);
        for (auto qd : d.quantities) {
            qd.name = name + ": " + qd.name;
            out.quantities.push_back(std::move(qd));
        }
        out.maxRhat = first ? d.maxRhat : std::max(out.maxRhat, d.maxRhat);
        out.minEssBulk = first ? d.minEssBulk : std::min(out.minEssBulk, d.minEssBulk);
        out.minEssTail = first ? d.minEssTail : std::min(out.minEssTail, d.minEssTail);
        first = false;
        for (const auto& w : d.warnings) out.warnings.push_back(name + ": " + w);
        const auto& u = d.untilConverged;
        out.untilConverged.blocks = std::max(out.untilConverged.blocks, u.blocks);
        out.untilConverged.converged = (k == 0 || out.untilConverged.converged) && u.converged;
        out.untilConverged.budgetReached = out.untilConverged.budgetReached || u.budgetReached;
        for (const auto& s : u.shortfall) out.untilConverged.shortfall.push_back(name + ": " + s);
    }
    return out;
}

std::optional<UntilConvergedOutcome> joinOutcomes(const JointModel& joint,
                                                  const std::vector<Fit>& fits, int perChain) {
    if (!fits.front().untilConverged) return std::nullopt;
    UntilConvergedOutcome out;
    out.converged = true;
    out.drawsPerChain = perChain;
    for (std::size_t k = 0; k < fits.size(); ++k) {
        const auto& u = *fits[k].untilConverged;
        out.blocks = std::max(out.blocks, u.blocks);
        out.converged = out.converged && u.converged;
        out.budgetReached = out.budgetReached || u.budgetReached;
        for (const auto& s : u.shortfall)
            out.shortfall.push_back(joint.parts()[k].target + ": " + s);
    }
    return out;
}

}  // namespace

Expected<Fit> fitAny(const models::Model& model, const Eigen::VectorXd& alpha,
                     const FitOptions& options) {
    const auto* joint = dynamic_cast<const JointModel*>(&model);
    if (!joint) return fitModel(model, alpha, options);
    const auto t0 = std::chrono::steady_clock::now();
    const auto& parts = joint->parts();
    const std::size_t q = parts.size();
    const auto chains = static_cast<std::size_t>(options.sampler.chains);
    const bool warm = options.sampler.starts.size() == q * chains;
    std::vector<Fit> fits;
    for (std::size_t k = 0; k < q; ++k) {
        FitOptions fo = options;
        // The first conditional on the run's own seed (its chains are those of a run of y^(1)
        // alone); the others on streams of their own.
        if (k > 0)
            fo.sampler.seed = namedSeed(options.sampler.seed, "conditional " + parts[k].target);
        fo.sampler.starts.clear();
        if (warm)
            fo.sampler.starts.assign(
                options.sampler.starts.begin() + static_cast<std::ptrdiff_t>(k * chains),
                options.sampler.starts.begin() + static_cast<std::ptrdiff_t>((k + 1) * chains));
        if (const ProgressCallback user = options.sampler.progress)
            fo.sampler.progress = [user, target = parts[k].target](const Progress& p) {
                Progress r = p;
                r.stage = target + " " + p.stage;
                return user(r);
            };
        auto f = fitModel(*parts[k].model, alpha, fo);
        if (!f) return f.error().prefixed("sensitive variable '" + parts[k].target + "': ");
        fits.push_back(std::move(*f));
    }
    // Draw s of the joint is draw s of every conditional, chain by chain; a run until
    // converged may have sampled more blocks for one conditional than another: each chain is
    // cut to the shortest.
    Eigen::Index perChain = fits.front().draws.rows() / static_cast<Eigen::Index>(chains);
    for (const auto& f : fits)
        perChain = std::min(perChain, f.draws.rows() / static_cast<Eigen::Index>(chains));
    const auto n = static_cast<Eigen::Index>(joint->recordCount());
    Fit out;
    out.draws.resize(static_cast<Eigen::Index>(chains) * perChain,
                     static_cast<Eigen::Index>(joint->dimension()));
    for (std::size_t k = 0; k < q; ++k) {
        const Eigen::Index own = fits[k].draws.rows() / static_cast<Eigen::Index>(chains);
        for (Eigen::Index c = 0; c < static_cast<Eigen::Index>(chains); ++c)
            out.draws.block(c * perChain, parts[k].offset, perChain, parts[k].dimension) =
                fits[k].draws.middleRows(c * own, perChain);
    }
    // The joint l_{s,i} = sum_k l^(k)_{s,i}, streamed chain by chain as fitModel streams one.
    std::vector<privacy::LipschitzAccumulator> acc(chains, privacy::LipschitzAccumulator(alpha));
    parallelFor(chains, options.sampler.threads, [&](std::size_t c) {
        Eigen::VectorXd l(n);
        for (Eigen::Index t = 0; t < perChain; ++t) {
            joint->recordLogLik(
                out.draws.row(static_cast<Eigen::Index>(c) * perChain + t).transpose(), l);
            acc[c].addDraw(l);
        }
        return true;
    });
    for (const auto& a : acc) {
        out.lipschitz.merge(a);
        out.chainRecordMax.push_back(a.recordMax());
    }
    out.exact = std::all_of(fits.begin(), fits.end(), [](const Fit& f) { return f.exact; });
    out.untilConverged = joinOutcomes(*joint, fits, static_cast<int>(perChain));
    out.diagnostics = joinDiagnostics(
        *joint, fits, static_cast<int>(static_cast<Eigen::Index>(chains) * perChain));
    for (const auto& f : fits) {
        // Exact (conjugate) fits have no chain state: placeholders keep the layout.
        if (f.warmStarts.size() != chains)
            out.warmStarts.insert(out.warmStarts.end(), chains, mcmc::ChainStart{});
        else
            out.warmStarts.insert(out.warmStarts.end(), f.warmStarts.begin(), f.warmStarts.end());
        out.gradientEvaluations += f.gradientEvaluations;
    }
    out.seconds = secondsSince(t0);
    return out;
}

}  // namespace ppsynth::study
