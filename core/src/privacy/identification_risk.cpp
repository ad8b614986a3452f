#include "ppsynth/privacy/identification_risk.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <string>

#include "ppsynth/common/moments.hpp"
#include "ppsynth/common/parallel.hpp"
#include "ppsynth/common/quantile.hpp"
#include "privacy/dataset_mean.hpp"

namespace ppsynth::privacy {

namespace {

// Records grouped by pattern, computed once and shared by every dataset.
struct Groups {
    std::vector<std::vector<std::size_t>> members;
};

Expected<Groups> groupByPattern(std::span<const std::int32_t> pattern, std::size_t n) {
    if (pattern.size() != n)
        return Error{"the pattern ids cover " + std::to_string(pattern.size()) +
                     " records but y has " + std::to_string(n)};
    Groups g;
    for (std::size_t i = 0; i < n; ++i) {
        if (pattern[i] < 0) return Error{"record " + std::to_string(i + 1) + " has no pattern id"};
        const auto p = static_cast<std::size_t>(pattern[i]);
        if (p >= g.members.size()) g.members.resize(p + 1);
        g.members[p].push_back(i);
    }
    return g;
}

Status checkShapes(std::span<const double> y, const std::vector<std::vector<double>>& synthetic) {
    if (synthetic.empty()) return Error{"identification risk needs at least one synthetic dataset"};
    for (std::size_t l = 0; l < synthetic.size(); ++l)
        if (synthetic[l].size() != y.size())
            return Error{"synthetic dataset " + std::to_string(l + 1) + " has " +
                         std::to_string(synthetic[l].size()) + " records but the original has " +
                         std::to_string(y.size())};
    return {};
}

// "v is close to y_i": the one predicate of METHOD.md 4.1 (strict), used both for T_i and for
// the close sets, so the two never disagree at an exact boundary (with integer counts and
// r = 0.07, y = 100 gives rad = 7.000000000000001 and 100 - rad rounds to 93: a bound test
// would leave y* = 93 out of the set while |93 - 100| < rad puts it in).
bool isClose(double v, double yi, double rad) {
    return std::abs(v - yi) < rad;
}

// The close set of record i within a pattern is the index range [lo, hi) of the pattern's
// sorted synthetic values v with isClose(v, y_i, rad). |v - y_i| computed in floating point
// is monotone on either side of y_i, so the set is an interval found by two binary searches
// on the same predicate.
struct CloseRange {
    std::size_t lo = 0, hi = 0;
    std::size_t size() const { return hi - lo; }
};

CloseRange closeRange(const std::vector<double>& sortedSynth, double yi, double rad) {
    CloseRange c;
    // Before lo: below y_i and not close; before hi: below y_i or close.
    c.lo = static_cast<std::size_t>(
        std::partition_point(sortedSynth.begin(), sortedSynth.end(),
                             [&](double v) { return v < yi && !isClose(v, yi, rad); }) -
        sortedSynth.begin());
    c.hi = static_cast<std::size_t>(
        std::partition_point(sortedSynth.begin(), sortedSynth.end(),
                             [&](double v) { return v < yi || isClose(v, yi, rad); }) -
        sortedSynth.begin());
    if (c.hi < c.lo) c.hi = c.lo;  // rad == 0: nothing is close
    return c;
}

// Units of work (records, pairs) between two stop checks within one dataset.
constexpr std::size_t kPollEvery = std::size_t{1} << 20;

template <typename PerDataset>
Status forEachDataset(const std::vector<std::vector<double>>& synthetic, const RiskOptions& options,
                      PerDataset&& perDataset) {
    std::atomic<std::size_t> finished{0};
    std::atomic<bool> cancelled{false};
    const std::size_t L = synthetic.size();
    // Asked between datasets and by perDataset within one (pairwise: every few thousand
    // pairs), so a Stop is honoured promptly.
    auto stop = [&] {
        if (cancelled.load()) return true;
        const Progress p{"risk", 0, static_cast<double>(finished.load()), static_cast<double>(L)};
        if (report(options.progress, p) == Continue::Stop) cancelled = true;
        return cancelled.load();
    };
    parallelFor(L, options.threads, [&](std::size_t l) {
        if (stop()) return false;
        perDataset(l, stop);
        ++finished;
        return !stop();
    });
    if (cancelled) return Error::cancelled("identification risk cancelled");
    return {};
}

}  // namespace

Expected<std::vector<double>> marginalRisk(std::span<const double> y,
                                           const std::vector<std::vector<double>>& synthetic,
                                           std::span<const std::int32_t> pattern,
                                           const RiskOptions& options) {
    if (auto s = checkShapes(y, synthetic); !s) return s.error();
    auto groups = groupByPattern(pattern, y.size());
    if (!groups) return groups.error();
    const std::size_t L = synthetic.size();
    std::vector<std::vector<double>> perDataset(L, std::vector<double>(y.size(), 0.0));
    auto status = forEachDataset(synthetic, options, [&](std::size_t l, const auto& stop) {
        const auto& ys = synthetic[l];
        std::vector<double> sorted;
        std::size_t work = 0;
        for (const auto& members : groups->members) {
            if ((work += members.size()) > kPollEvery) {
                work = 0;
                if (stop()) return;
            }
            const double m = static_cast<double>(members.size());
            sorted.clear();
            for (auto h : members) sorted.push_back(ys[h]);
            std::sort(sorted.begin(), sorted.end());
            for (auto i : members) {
                const double rad = options.radius.around(y[i]);
                const bool T = isClose(ys[i], y[i], rad);
                if (!T) continue;
                const auto close = closeRange(sorted, y[i], rad);
                perDataset[l][i] = (m - static_cast<double>(close.size())) / m;
            }
        }
    });
    if (!status) return status.error();
    return detail::meanOverDatasets(perDataset, y.size());
}

Expected<PairwiseRisk> pairwiseRisk(std::span<const double> y,
                                    const std::vector<std::vector<double>>& synthetic,
                                    std::span<const std::int32_t> pattern,
                                    const RiskOptions& options) {
    if (auto s = checkShapes(y, synthetic); !s) return s.error();
    auto groups = groupByPattern(pattern, y.size());
    if (!groups) return groups.error();
    const std::size_t n = y.size();
    const std::size_t L = synthetic.size();
    std::vector<std::vector<double>> atL(L, std::vector<double>(n, 0.0));
    std::vector<std::vector<double>> irL(L, std::vector<double>(n, 0.0));
    auto status = forEachDataset(synthetic, options, [&](std::size_t l, const auto& stop) {
        const auto& ys = synthetic[l];
        std::size_t work = 0;
        auto due = [&](std::size_t units) {
            if ((work += units) <= kPollEvery) return false;
            work = 0;
            return stop();
        };
        std::vector<double> sorted;
        std::vector<CloseRange> close;
        std::vector<std::size_t> flagged;  // positions within the pattern with T = 1
        for (const auto& members : groups->members) {
            const std::size_t M = members.size();
            if (due(M)) return;
            const double m = static_cast<double>(M);
            sorted.clear();
            for (auto h : members) sorted.push_back(ys[h]);
            std::sort(sorted.begin(), sorted.end());
            close.assign(M, {});
            flagged.clear();
            for (std::size_t a = 0; a < M; ++a) {
                const auto i = members[a];
                const double rad = options.radius.around(y[i]);
                close[a] = closeRange(sorted, y[i], rad);
                if (isClose(ys[i], y[i], rad)) {
                    flagged.push_back(a);
                    irL[l][i] = (m - static_cast<double>(close[a].size())) / m;
                }
            }
            if (M == 1) {
                atL[l][members[0]] = 1.0 - irL[l][members[0]];
                continue;
            }
            // IR_ij is zero unless both T_i and T_j are 1, so only flagged pairs lower at_i.
            for (auto a : members) atL[l][a] = 1.0;
            for (std::size_t u = 0; u < flagged.size(); ++u) {
                if (due(flagged.size())) return;
                const auto& ci = close[flagged[u]];
                double sumIr = 0;
                for (std::size_t v = 0; v < flagged.size(); ++v) {
                    if (u == v) continue;
                    const auto& cj = close[flagged[v]];
                    const std::size_t lo = std::max(ci.lo, cj.lo), hi = std::min(ci.hi, cj.hi);
                    const std::size_t both = hi > lo ? hi - lo : 0;
                    const std::size_t either = ci.size() + cj.size() - both;
                    sumIr += (m - static_cast<double>(either)) / m;
                }
                atL[l][members[flagged[u]]] = 1.0 - sumIr / (m - 1.0);
            }
        }
    });
    if (!status) return status.error();
    auto out = detail::meanPairwise(atL, irL, n);
    for (const auto& members : groups->members) out.singletons += members.size() == 1;
    return out;
}

RiskSummary summarizeRisk(std::span<const double> ir, double threshold, std::size_t topK) {
    RiskSummary s;
    s.threshold = threshold;
    if (ir.empty()) return s;
    std::vector<double> sorted(ir.begin(), ir.end());
    std::sort(sorted.begin(), sorted.end());
    s.mean = mean(sorted);
    s.median = quantileSorted(sorted, 0.5);
    s.q1 = quantileSorted(sorted, 0.25);
    s.q3 = quantileSorted(sorted, 0.75);
    s.iqr = s.q3 - s.q1;
    s.max = sorted.back();
    s.aboveThreshold = static_cast<std::size_t>(
        std::count_if(ir.begin(), ir.end(), [&](double v) { return v > threshold; }));
    std::vector<std::size_t> idx(ir.size());
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    const std::size_t k = std::min(topK, idx.size());
    // Ties keep record order so the table is stable.
    std::partial_sort(
        idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k), idx.end(),
        [&](std::size_t a, std::size_t b) { return ir[a] > ir[b] || (ir[a] == ir[b] && a < b); });
    s.top.assign(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k));
    return s;
}

std::vector<std::size_t> whackAMole(std::span<const double> baseline, std::span<const double> other,
                                    double rise) {
    std::vector<std::size_t> out;
    const std::size_t n = std::min(baseline.size(), other.size());
    for (std::size_t i = 0; i < n; ++i)
        if (other[i] - baseline[i] > rise) out.push_back(i);
    return out;
}

}  // namespace ppsynth::privacy
