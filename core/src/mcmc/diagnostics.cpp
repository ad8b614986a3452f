#include "ppsynth/mcmc/diagnostics.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <numeric>
#include <span>

#include "ppsynth/common/moments.hpp"
#include "ppsynth/common/not_a_number.hpp"
#include "ppsynth/common/quantile.hpp"

namespace ppsynth::mcmc {
namespace {

// In-place iterative radix-2 FFT; a.size() must be a power of two.
void fft(std::vector<std::complex<double>>& a, bool inverse) {
    const std::size_t n = a.size();
    for (std::size_t i = 1, j = 0; i < n; ++i) {
        std::size_t bit = n >> 1;
        for (; (j & bit) != 0; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) std::swap(a[i], a[j]);
    }
    const double pi = std::acos(-1.0);
    for (std::size_t len = 2; len <= n; len <<= 1) {
        const double angle = 2 * pi / static_cast<double>(len) * (inverse ? 1 : -1);
        const std::complex<double> wlen(std::cos(angle), std::sin(angle));
        for (std::size_t i = 0; i < n; i += len) {
            std::complex<double> w(1);
            for (std::size_t k = 0; k < len / 2; ++k) {
                const std::complex<double> u = a[i + k];
                const std::complex<double> v = a[i + k + len / 2] * w;
                a[i + k] = u + v;
                a[i + k + len / 2] = u - v;
                w *= wlen;
            }
        }
    }
    if (inverse)
        for (auto& x : a) x /= static_cast<double>(n);
}

bool finiteAndVaries(const Eigen::MatrixXd& m) {
    if (m.size() == 0 || !m.allFinite()) return false;
    return m.maxCoeff() > m.minCoeff();
}

std::string format(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string percent(int part, int whole) {
    return format("%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
}

}  // namespace

Eigen::MatrixXd splitChains(const ChainDraws& chains) {
    const Eigen::Index n = chains.empty() ? 0 : chains.front().size();
    const Eigen::Index half = n / 2;
    Eigen::MatrixXd out(half, 2 * static_cast<Eigen::Index>(chains.size()));
    for (std::size_t c = 0; c < chains.size(); ++c) {
        const auto j = 2 * static_cast<Eigen::Index>(c);
        out.col(j) = chains[c].head(half);
        out.col(j + 1) = chains[c].segment(n - half, half);
    }
    return out;
}

Eigen::MatrixXd rankNormalize(const Eigen::MatrixXd& draws) {
    const Eigen::Index size = draws.size();
    std::vector<std::pair<double, Eigen::Index>> sorted(static_cast<std::size_t>(size));
    for (Eigen::Index i = 0; i < size; ++i)
        sorted[static_cast<std::size_t>(i)] = {draws.data()[i], i};
    std::sort(sorted.begin(), sorted.end());
    Eigen::MatrixXd out(draws.rows(), draws.cols());
    // Double precision throughout (Boost would otherwise promote to long double).
    using Policy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
    const boost::math::normal_distribution<double, Policy> normal;
    for (Eigen::Index i = 0; i < size;) {
        // Ties share their average rank.
        Eigen::Index j = i + 1;
        const double v = sorted[static_cast<std::size_t>(i)].first;
        while (j < size && sorted[static_cast<std::size_t>(j)].first == v) ++j;
        const double avgRank = 0.5 * static_cast<double>(i + 1 + j);  // mean of i+1..j
        const double z =
            boost::math::quantile(normal, (avgRank - 0.375) / (static_cast<double>(size) + 0.25));
        for (Eigen::Index k = i; k < j; ++k)
            out.data()[sorted[static_cast<std::size_t>(k)].second] = z;
        i = j;
    }
    return out;
}

double rhatBasic(const Eigen::MatrixXd& draws) {
    const auto n = static_cast<double>(draws.rows());
    const Eigen::Index m = draws.cols();
    if (draws.rows() < 2 || m < 2) return kNaN;
    const Eigen::RowVectorXd means = draws.colwise().mean();
    const double grand = means.mean();
    const double b = n * (means.array() - grand).square().sum() / static_cast<double>(m - 1);
    const double w = (draws.rowwise() - means).array().square().colwise().sum().sum() / (n - 1) /
                     static_cast<double>(m);
    return std::sqrt((b / w + n - 1) / n);
}

Eigen::VectorXd autocovariance(const Eigen::VectorXd& x) {
    const auto n = static_cast<std::size_t>(x.size());
    Eigen::VectorXd out = Eigen::VectorXd::Zero(x.size());
    if (n == 0) return out;
    std::size_t size = 1;
    while (size < 2 * n) size <<= 1;  // zero padding: no circular wrap-around
    const double mean = x.mean();
    std::vector<std::complex<double>> a(size, 0.0);
    for (std::size_t i = 0; i < n; ++i) a[i] = x[static_cast<Eigen::Index>(i)] - mean;
    fft(a, false);
    for (auto& v : a) v = std::norm(v);
    fft(a, true);
    for (std::size_t k = 0; k < n; ++k)
        out[static_cast<Eigen::Index>(k)] = a[k].real() / static_cast<double>(n);
    return out;
}

double essBasic(const Eigen::MatrixXd& draws) {
    const Eigen::Index n = draws.rows();
    const Eigen::Index m = draws.cols();
    if (n < 4 || m < 1 || !finiteAndVaries(draws)) return kNaN;
    // Autocovariances by lag, filled on demand: well-mixed chains stop after a few lags,
    // where direct sums beat an FFT; beyond kDirectLags the FFT fills all lags at once.
    constexpr Eigen::Index kDirectLags = 24;
    const Eigen::MatrixXd centred = draws.rowwise() - draws.colwise().mean();
    Eigen::MatrixXd acov(n, m);
    Eigen::Index known = 0;  // lags [0, known) are filled
    auto ensureLag = [&](Eigen::Index lag) {
        if (lag < known) return;
        if (lag < kDirectLags) {
            const Eigen::Index upTo = std::min(n, kDirectLags);
            for (Eigen::Index k = known; k < upTo; ++k)
                for (Eigen::Index c = 0; c < m; ++c)
                    acov(k, c) = centred.col(c).head(n - k).dot(centred.col(c).tail(n - k)) /
                                 static_cast<double>(n);
            known = upTo;
        } else {
            for (Eigen::Index c = 0; c < m; ++c) acov.col(c) = autocovariance(draws.col(c));
            known = n;
        }
    };
    ensureLag(0);
    Eigen::VectorXd chainMean = draws.colwise().mean().transpose();
    Eigen::VectorXd chainVar =
        acov.row(0).transpose() * static_cast<double>(n) / static_cast<double>(n - 1);
    const double w = chainVar.mean();
    double varPlus = w * static_cast<double>(n - 1) / static_cast<double>(n);
    if (m > 1) varPlus += vectorVariance(chainMean);
    if (!(varPlus > 0)) return kNaN;

    // Geyer's initial positive sequence over pairs of lags, made monotone.
    Eigen::VectorXd rho = Eigen::VectorXd::Zero(n);
    auto rhoAt = [&](Eigen::Index lag) {
        ensureLag(lag);
        return 1 - (w - acov.row(lag).mean()) / varPlus;
    };
    double rhoEven = 1;
    double rhoOdd = rhoAt(1);
    rho[0] = rhoEven;
    rho[1] = rhoOdd;
    Eigen::Index t = 1;
    while (t < n - 4 && rhoEven + rhoOdd > 0) {
        rhoEven = rhoAt(t + 1);
        rhoOdd = rhoAt(t + 2);
        if (rhoEven + rhoOdd >= 0) {
            rho[t + 1] = rhoEven;
            rho[t + 2] = rhoOdd;
        }
        t += 2;
    }
    const Eigen::Index maxT = t;
    if (rhoEven > 0) rho[maxT + 1] = rhoEven;  // antithetic chains: keep the last even lag
    for (Eigen::Index i = 1; i + 3 <= maxT; i += 2) {
        if (rho[i + 1] + rho[i + 2] > rho[i - 1] + rho[i]) {
            rho[i + 1] = (rho[i - 1] + rho[i]) / 2;
            rho[i + 2] = rho[i + 1];
        }
    }
    const double total = static_cast<double>(n * m);
    double tau = -1 + 2 * rho.head(maxT).sum() + rho[maxT + 1];
    tau = std::max(tau, 1 / std::log10(total));  // caps ESS at S log10 S
    return total / tau;
}

double quantile(Eigen::VectorXd values, double p) {
    std::sort(values.data(), values.data() + values.size());
    return quantileOfSorted(values, p);
}

double quantileOfSorted(const Eigen::VectorXd& values, double p) {
    if (values.size() == 0) return kNaN;
    return quantileSorted(
        std::span<const double>(values.data(), static_cast<std::size_t>(values.size())), p);
}

ConvergenceSummary summarize(const ChainDraws& chains) {
    ConvergenceSummary s;
    Eigen::Index total = 0;
    for (const auto& c : chains) total += c.size();
    Eigen::VectorXd pooled(total);
    Eigen::Index at = 0;
    for (const auto& c : chains) {
        pooled.segment(at, c.size()) = c;
        at += c.size();
    }
    s.mean = total > 0 ? pooled.mean() : kNaN;
    s.sd = std::sqrt(vectorVariance(pooled));

    const Eigen::MatrixXd split = splitChains(chains);
    if (split.rows() < 2 || !finiteAndVaries(split)) {
        s.rhat = s.rhatBulk = s.rhatTail = s.essBulk = s.essTail = kNaN;
        return s;
    }
    Eigen::VectorXd sorted = split.reshaped();
    std::sort(sorted.data(), sorted.data() + sorted.size());
    const double median = quantileOfSorted(sorted, 0.5);
    const Eigen::MatrixXd ranked = rankNormalize(split);
    s.rhatBulk = rhatBasic(ranked);
    s.rhatTail = rhatBasic(rankNormalize((split.array() - median).abs().matrix()));
    s.rhat = std::max(s.rhatBulk, s.rhatTail);

    s.essBulk = essBasic(ranked);
    const double q05 = quantileOfSorted(sorted, 0.05);
    const double q95 = quantileOfSorted(sorted, 0.95);
    const double ess05 = essBasic((split.array() <= q05).cast<double>().matrix());
    const double ess95 = essBasic((split.array() <= q95).cast<double>().matrix());
    s.essTail = std::isnan(ess05) || std::isnan(ess95) ? s.essBulk : std::min(ess05, ess95);
    return s;
}

ChainDraws parameterDraws(const SamplerResult& result, Eigen::Index c) {
    ChainDraws out;
    out.reserve(result.chains.size());
    for (const ChainResult& chain : result.chains) out.emplace_back(chain.draws.col(c));
    return out;
}

double ebfmi(const std::vector<DrawStats>& stats) {
    const std::size_t n = stats.size();
    if (n < 2) return kNaN;
    double mean = 0;
    for (const DrawStats& s : stats) mean += s.energy;
    mean /= static_cast<double>(n);
    double var = 0;
    double diff2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
        var += (stats[i].energy - mean) * (stats[i].energy - mean);
        if (i > 0) diff2 += std::pow(stats[i].energy - stats[i - 1].energy, 2);
    }
    return (diff2 / static_cast<double>(n - 1)) / (var / static_cast<double>(n));
}

RunDiagnostics diagnose(const SamplerResult& result, const DiagnoseOptions& options) {
    RunDiagnostics d;
    const int chains = static_cast<int>(result.chains.size());
    for (int c = 0; c < chains; ++c) {
        const ChainResult& chain = result.chains[static_cast<std::size_t>(c)];
        int div = 0;
        for (const DrawStats& s : chain.stats) {
            div += s.divergent ? 1 : 0;
            d.treeDepthSaturated += s.treeDepth >= options.maxTreeDepth ? 1 : 0;
        }
        d.draws += static_cast<int>(chain.stats.size());
        d.divergences += div;
        d.divergencesPerChain.push_back(div);
        d.ebfmi.push_back(ebfmi(chain.stats));
    }

    if (options.includeParameters && !result.chains.empty()) {
        const Eigen::Index dim = result.chains.front().draws.cols();
        for (Eigen::Index p = 0; p < dim; ++p) {
            const auto i = static_cast<std::size_t>(p);
            std::string name = i < options.parameterNames.size()
                                   ? options.parameterNames[i]
                                   : "parameter " + std::to_string(p + 1);
            d.quantities.push_back({std::move(name), summarize(parameterDraws(result, p))});
        }
    }
    for (const auto& [name, draws] : options.quantities)
        d.quantities.push_back({name, summarize(draws)});

    // Sampler warnings.
    if (d.divergences > 0)
        d.warnings.push_back(std::to_string(d.divergences) + " of " + std::to_string(d.draws) +
                             " draws (" + percent(d.divergences, d.draws) +
                             ") ended in a divergence: the sampler cannot follow the posterior's "
                             "geometry there and estimates may be biased; raise adaptDelta or "
                             "reparameterize the model");
    if (d.treeDepthSaturated > 0)
        d.warnings.push_back(
            std::to_string(d.treeDepthSaturated) + " of " + std::to_string(d.draws) + " draws (" +
            percent(d.treeDepthSaturated, d.draws) + ") hit the maximum tree depth " +
            std::to_string(options.maxTreeDepth) +
            ": trajectories were cut short, so sampling is inefficient");
    for (int c = 0; c < chains; ++c) {
        const double e = d.ebfmi[static_cast<std::size_t>(c)];
        if (e < options.ebfmiThreshold)
            d.warnings.push_back(
                "chain " + std::to_string(c + 1) + ": E-BFMI " + format("%.2f", e) + " is below " +
                format("%.2g", options.ebfmiThreshold) + ": the sampler may not explore the tails");
    }

    // Convergence warnings per quantity.
    const double essThreshold = options.essPerChainThreshold * chains;
    d.maxRhat = kNaN;
    d.minEssBulk = d.minEssTail = kNaN;
    for (const QuantityDiagnostics& q : d.quantities) {
        const ConvergenceSummary& s = q.summary;
        if (std::isnan(s.rhat)) {
            if (!std::isfinite(s.mean))
                d.warnings.push_back("'" + q.name +
                                     "': some draws are not finite; R-hat and ESS are undefined");
            continue;
        }
        d.maxRhat = std::isnan(d.maxRhat) ? s.rhat : std::max(d.maxRhat, s.rhat);
        d.minEssBulk = std::isnan(d.minEssBulk) ? s.essBulk : std::min(d.minEssBulk, s.essBulk);
        d.minEssTail = std::isnan(d.minEssTail) ? s.essTail : std::min(d.minEssTail, s.essTail);
        if (s.rhat > options.rhatThreshold)
            d.warnings.push_back("'" + q.name + "': R-hat " + format("%.3f", s.rhat) +
                                 " is above " + format("%.3g", options.rhatThreshold) +
                                 ": the chains disagree; run longer or look for several modes");
        if (s.essBulk < essThreshold)
            d.warnings.push_back("'" + q.name + "': bulk ESS " + format("%.0f", s.essBulk) +
                                 " is below " + format("%.0f", essThreshold) +
                                 ": its mean and median are estimated imprecisely; run longer");
        if (s.essTail < essThreshold)
            d.warnings.push_back("'" + q.name + "': tail ESS " + format("%.0f", s.essTail) +
                                 " is below " + format("%.0f", essThreshold) +
                                 ": its tail quantiles are estimated imprecisely; run longer");
    }
    return d;
}

int keptDrawsPerChain(const RunDiagnostics& d, int chains, int configured) {
    const auto& u = d.untilConverged;
    if (u.blocks == 0) return configured;
    if (u.drawsPerChain > 0) return u.drawsPerChain;
    return chains > 0 ? d.draws / chains : configured;
}

}  // namespace ppsynth::mcmc
