#include "ppsynth/utility/bootstrap.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "ppsynth/common/parallel.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::utility {

namespace {

constexpr std::size_t kChunk = 25;  // replicates per work item

// A bootstrap sample is a multiset of the sorted original values, described by how often each
// position was drawn. Every statistic here is a mean or a type-7 order statistic, so it is read
// off the counts in O(n) without sorting the replicate.
class ReplicateEvaluator {
  public:
    ReplicateEvaluator(std::span<const double> sorted, const std::vector<Statistic>& statistics)
        : sorted_(sorted), statistics_(statistics), counts_(sorted.size()) {
        const double last = static_cast<double>(sorted.size() - 1);
        for (const auto& s : statistics) {
            if (!s.isOrderStatistic()) continue;
            const double h = last * s.orderProbability();
            const auto lo = static_cast<std::size_t>(std::floor(h));
            ranks_.push_back(lo);
            ranks_.push_back(std::min(lo + 1, sorted.size() - 1));
        }
        std::sort(ranks_.begin(), ranks_.end());
        ranks_.erase(std::unique(ranks_.begin(), ranks_.end()), ranks_.end());
        rankValues_.resize(ranks_.size());
    }

    // Draws one replicate from `rng` and writes statistic k's value to out[k].
    void run(Rng& rng, std::span<double> out) {
        const std::size_t n = sorted_.size();
        std::fill(counts_.begin(), counts_.end(), 0U);
        for (std::size_t i = 0; i < n; ++i) ++counts_[uniformIndex(rng, n)];

        double sum = 0;
        std::size_t cumulative = 0, r = 0;
        for (std::size_t j = 0; j < n; ++j) {
            if (counts_[j] == 0) continue;
            sum += static_cast<double>(counts_[j]) * sorted_[j];
            cumulative += counts_[j];
            // Order statistic of rank k (0-based) is the first position whose cumulative
            // count exceeds k.
            while (r < ranks_.size() && ranks_[r] < cumulative) rankValues_[r++] = sorted_[j];
        }
        const double last = static_cast<double>(n - 1);
        for (std::size_t k = 0; k < statistics_.size(); ++k) {
            const auto& s = statistics_[k];
            if (!s.isOrderStatistic()) {
                out[k] = sum / static_cast<double>(n);
                continue;
            }
            const double h = last * s.orderProbability();
            const auto lo = static_cast<std::size_t>(std::floor(h));
            const std::size_t hi = std::min(lo + 1, n - 1);
            const double xlo = valueAtRank(lo), xhi = valueAtRank(hi);
            out[k] = xlo + (h - static_cast<double>(lo)) * (xhi - xlo);
        }
    }

  private:
    double valueAtRank(std::size_t rank) const {
        const auto it = std::lower_bound(ranks_.begin(), ranks_.end(), rank);
        return rankValues_[static_cast<std::size_t>(it - ranks_.begin())];
    }

    std::span<const double> sorted_;
    const std::vector<Statistic>& statistics_;
    std::vector<std::uint32_t> counts_;
    std::vector<std::size_t> ranks_;
    std::vector<double> rankValues_;
};

// replicates[source][statistic][b]
using Replicates = std::vector<std::vector<std::vector<double>>>;

Expected<Replicates> drawReplicates(const std::vector<std::vector<double>>& sortedSources,
                                    std::uint64_t firstSourceId,
                                    const std::vector<Statistic>& statistics,
                                    const BootstrapOptions& options) {
    const auto B = static_cast<std::size_t>(options.replicates);
    const std::size_t S = sortedSources.size(), K = statistics.size();
    const std::size_t chunks = (B + kChunk - 1) / kChunk;
    Replicates reps(S, std::vector<std::vector<double>>(K, std::vector<double>(B)));

    std::atomic<std::size_t> done{0};
    std::atomic<bool> cancelled{false};
    const double total = static_cast<double>(S * B);
    parallelFor(S * chunks, options.threads, [&](std::size_t item) {
        const std::size_t s = item / chunks, c = item % chunks;
        ReplicateEvaluator eval(sortedSources[s], statistics);
        std::vector<double> out(K);
        const std::size_t end = std::min(B, (c + 1) * kChunk);
        // Asked after every replicate (one is O(n)), so a Stop is honoured within one.
        for (std::size_t b = c * kChunk; b < end; ++b) {
            if (cancelled.load()) return false;
            const std::uint64_t stream = ((firstSourceId + s) << 32) | b;
            Rng rng = makeRng(options.seed, stream, Purpose::Bootstrap);
            eval.run(rng, out);
            for (std::size_t k = 0; k < K; ++k) reps[s][k][b] = out[k];
            const Progress p{"bootstrap", 0, static_cast<double>(++done), total};
            if (report(options.progress, p) == Continue::Stop) {
                cancelled = true;
                return false;
            }
        }
        return true;
    });
    if (cancelled) return Error::cancelled("bootstrap cancelled");
    return reps;
}

Interval percentileInterval(std::span<const double> sortedReps, double level) {
    return {quantileSorted(sortedReps, (1 - level) / 2),
            quantileSorted(sortedReps, (1 + level) / 2)};
}

std::vector<double> quantileFunction(std::span<const double> sortedReps,
                                     const std::vector<double>& grid) {
    std::vector<double> q(grid.size());
    for (std::size_t j = 0; j < grid.size(); ++j) q[j] = quantileSorted(sortedReps, grid[j]);
    return q;
}

Status validateInputs(const std::vector<Statistic>& statistics, const BootstrapOptions& options) {
    if (auto st = options.validate(); !st) return st;
    return validateStatistics(statistics);
}

std::vector<double> sortedCopy(std::span<const double> v) {
    std::vector<double> s(v.begin(), v.end());
    std::sort(s.begin(), s.end());
    return s;
}

}  // namespace

Status BootstrapOptions::validate() const {
    if (replicates < 2)
        return Error{
            "the bootstrap needs at least 2 replicates (B = " + std::to_string(replicates) + ")"};
    if (replicates > (1 << 30)) return Error{"the bootstrap allows at most 2^30 replicates"};
    if (!(level > 0 && level < 1))
        return Error{"interval level " + data::formatNumber(level) +
                     " must lie strictly between 0 and 1"};
    if (gridPoints < 2)
        return Error{"the quantile grid needs at least 2 points (got " +
                     std::to_string(gridPoints) + ")"};
    return {};
}

std::vector<double> quantileGrid(int points) {
    std::vector<double> g(static_cast<std::size_t>(std::max(points, 2)));
    const double last = static_cast<double>(g.size() - 1);
    for (std::size_t j = 0; j < g.size(); ++j) g[j] = static_cast<double>(j) / last;
    return g;
}

Expected<std::vector<BootstrapSummary>> bootstrapOriginal(std::span<const double> y,
                                                          const std::vector<Statistic>& statistics,
                                                          const BootstrapOptions& options) {
    if (auto st = validateInputs(statistics, options); !st) return st.error();
    if (auto st = validateSample(y, "the confidential data"); !st) return st.error();
    const std::vector<std::vector<double>> sources{sortedCopy(y)};
    auto reps = drawReplicates(sources, 0, statistics, options);
    if (!reps) return reps.error();

    const auto grid = quantileGrid(options.gridPoints);
    std::vector<BootstrapSummary> out;
    for (std::size_t k = 0; k < statistics.size(); ++k) {
        std::vector<double>& r = (*reps)[0][k];
        BootstrapSummary s;
        s.statistic = statistics[k];
        s.estimate = evaluateSorted(statistics[k], sources[0]);
        s.perDataset = {s.estimate};
        s.standardError = std::sqrt(variance(r));
        std::sort(r.begin(), r.end());
        s.interval = percentileInterval(r, options.level);
        s.quantileFunction = quantileFunction(r, grid);
        out.push_back(std::move(s));
    }
    return out;
}

Expected<std::vector<BootstrapSummary>> bootstrapSynthetic(
    const std::vector<std::vector<double>>& synthetic, const std::vector<Statistic>& statistics,
    const BootstrapOptions& options) {
    if (auto st = validateInputs(statistics, options); !st) return st.error();
    if (synthetic.empty()) return Error{"the bootstrap needs at least one synthetic dataset"};
    if (synthetic.size() >= (std::size_t{1} << 31))
        return Error{"too many synthetic datasets for the bootstrap streams"};
    std::vector<std::vector<double>> sources;
    for (std::size_t l = 0; l < synthetic.size(); ++l) {
        if (auto st = validateSample(synthetic[l], "synthetic dataset " + std::to_string(l + 1));
            !st)
            return st.error();
        sources.push_back(sortedCopy(synthetic[l]));
    }
    auto reps = drawReplicates(sources, 1, statistics, options);
    if (!reps) return reps.error();

    const std::size_t m = synthetic.size();
    const auto grid = quantileGrid(options.gridPoints);
    std::vector<BootstrapSummary> out;
    for (std::size_t k = 0; k < statistics.size(); ++k) {
        BootstrapSummary s;
        s.statistic = statistics[k];
        s.quantileFunction.assign(grid.size(), 0.0);
        std::vector<double> pooled;
        pooled.reserve(m * static_cast<std::size_t>(options.replicates));
        for (std::size_t l = 0; l < m; ++l) {
            s.perDataset.push_back(evaluateSorted(statistics[k], sources[l]));
            std::vector<double>& r = (*reps)[l][k];
            std::sort(r.begin(), r.end());
            const auto q = quantileFunction(r, grid);
            for (std::size_t j = 0; j < grid.size(); ++j) s.quantileFunction[j] += q[j];
            pooled.insert(pooled.end(), r.begin(), r.end());
        }
        for (double& q : s.quantileFunction) q /= static_cast<double>(m);
        s.estimate = mean(s.perDataset);
        s.standardError = std::sqrt(variance(pooled));
        std::sort(pooled.begin(), pooled.end());
        s.interval = percentileInterval(pooled, options.level);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace ppsynth::utility
