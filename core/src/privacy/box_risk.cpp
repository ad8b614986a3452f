#include "ppsynth/privacy/box_risk.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <numeric>
#include <string>

#include "ppsynth/common/parallel.hpp"
#include "privacy/dataset_mean.hpp"

namespace ppsynth::privacy {

namespace {

// The one closeness predicate of METHOD.md 4.1 (strict), per variable.
bool closeTo(double v, double yi, double rad) {
    return std::abs(v - yi) < rad;
}

struct Layout {
    std::size_t n = 0, q = 1;
    std::vector<Radius> radii;
};

Expected<Layout> checkInputs(std::span<const double> y, std::size_t q,
                             const std::vector<std::vector<double>>& synthetic,
                             std::span<const std::int32_t> pattern, const RiskOptions& options,
                             const std::vector<Radius>& radii) {
    if (q == 0) return Error{"identification risk needs at least one sensitive variable"};
    if (y.size() % q != 0)
        return Error{"the original values (" + std::to_string(y.size()) +
                     ") are not a whole number of records for " + std::to_string(q) +
                     " sensitive variables"};
    Layout lay{y.size() / q, q, radii};
    if (lay.radii.empty()) lay.radii.assign(q, options.radius);
    if (lay.radii.size() != q)
        return Error{"got " + std::to_string(lay.radii.size()) + " radii for " + std::to_string(q) +
                     " sensitive variables"};
    if (synthetic.empty()) return Error{"identification risk needs at least one synthetic dataset"};
    for (std::size_t l = 0; l < synthetic.size(); ++l)
        if (synthetic[l].size() != y.size())
            return Error{"synthetic dataset " + std::to_string(l + 1) + " has " +
                         std::to_string(synthetic[l].size() / q) +
                         " records but the original has " + std::to_string(lay.n)};
    if (pattern.size() != lay.n)
        return Error{"the pattern ids cover " + std::to_string(pattern.size()) +
                     " records but y has " + std::to_string(lay.n)};
    for (std::size_t i = 0; i < lay.n; ++i)
        if (pattern[i] < 0) return Error{"record " + std::to_string(i + 1) + " has no pattern id"};
    return lay;
}

std::vector<std::vector<std::size_t>> groups(std::span<const std::int32_t> pattern) {
    std::vector<std::vector<std::size_t>> members;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const auto p = static_cast<std::size_t>(pattern[i]);
        if (p >= members.size()) members.resize(p + 1);
        members[p].push_back(i);
    }
    return members;
}

// One pattern in one dataset: its members sorted by the first variable's synthetic value,
// and for each member (in pattern order) T, the first-variable interval [lo, hi) of sorted
// positions and, within it, which positions are close in every variable.
class PatternBoxes {
  public:
    PatternBoxes(const Layout& lay, std::span<const double> y, const std::vector<double>& ys,
                 const std::vector<std::size_t>& members, bool keepSets)
        : lay_(lay), y_(y), ys_(ys), members_(members) {
        const std::size_t M = members.size();
        order_.resize(M);
        std::iota(order_.begin(), order_.end(), std::size_t{0});
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
            return ys[members[a]] < ys[members[b]];
        });
        sorted_.resize(M);
        for (std::size_t s = 0; s < M; ++s) sorted_[s] = ys[members[order_[s]]];
        words_ = (M + 63) / 64;
        T_.assign(M, 0);
        count_.assign(M, 0);
        lo_.assign(M, 0);
        hi_.assign(M, 0);
        if (keepSets) bits_.assign(M * words_, 0);
        for (std::size_t a = 0; a < M; ++a) build(a, keepSets);
    }

    std::size_t size() const { return members_.size(); }
    bool flagged(std::size_t a) const { return T_[a] != 0; }
    std::size_t count(std::size_t a) const { return count_[a]; }
    // IR_i of every flagged member into ir (indexed by record); their positions into flagged.
    void marginal(std::vector<double>& ir, std::vector<std::size_t>* flagged = nullptr) const {
        const double m = static_cast<double>(size());
        for (std::size_t a = 0; a < size(); ++a) {
            if (!this->flagged(a)) continue;
            if (flagged) flagged->push_back(a);
            ir[members_[a]] = (m - static_cast<double>(count(a))) / m;
        }
    }
    // |c_a ∩ c_b| over the words where both first-variable intervals lie.
    std::size_t common(std::size_t a, std::size_t b) const {
        const std::size_t lo = std::max(lo_[a], lo_[b]), hi = std::min(hi_[a], hi_[b]);
        if (hi <= lo) return 0;
        const std::uint64_t* x = &bits_[a * words_];
        const std::uint64_t* z = &bits_[b * words_];
        std::size_t c = 0;
        for (std::size_t w = lo / 64; w <= (hi - 1) / 64; ++w)
            c += static_cast<std::size_t>(std::popcount(x[w] & z[w]));
        return c;
    }

  private:
    double yv(std::size_t k, std::size_t i) const { return y_[k * lay_.n + i]; }
    double sv(std::size_t k, std::size_t i) const { return ys_[k * lay_.n + i]; }
    double rad(std::size_t k, std::size_t i) const { return lay_.radii[k].around(yv(k, i)); }

    bool boxClose(std::size_t h, std::size_t i) const {
        for (std::size_t k = 0; k < lay_.q; ++k)
            if (!closeTo(sv(k, h), yv(k, i), rad(k, i))) return false;
        return true;
    }

    void build(std::size_t a, bool keepSets) {
        const std::size_t i = members_[a];
        T_[a] = boxClose(i, i) ? 1 : 0;
        // The first variable's close values form an interval of the sorted values (as in
        // identification_risk.cpp's closeRange: two searches on the same predicate).
        const double yi = yv(0, i), r0 = rad(0, i);
        const auto lo = static_cast<std::size_t>(
            std::partition_point(sorted_.begin(), sorted_.end(),
                                 [&](double v) { return v < yi && !closeTo(v, yi, r0); }) -
            sorted_.begin());
        auto hi = static_cast<std::size_t>(
            std::partition_point(sorted_.begin(), sorted_.end(),
                                 [&](double v) { return v < yi || closeTo(v, yi, r0); }) -
            sorted_.begin());
        if (hi < lo) hi = lo;
        lo_[a] = lo;
        hi_[a] = hi;
        std::size_t c = 0;
        for (std::size_t s = lo; s < hi; ++s) {
            const std::size_t h = members_[order_[s]];
            bool close = true;
            for (std::size_t k = 1; k < lay_.q && close; ++k)
                close = closeTo(sv(k, h), yv(k, i), rad(k, i));
            if (!close) continue;
            ++c;
            if (keepSets) bits_[a * words_ + s / 64] |= std::uint64_t{1} << (s % 64);
        }
        count_[a] = c;
    }

    const Layout& lay_;
    std::span<const double> y_;
    const std::vector<double>& ys_;
    const std::vector<std::size_t>& members_;
    std::vector<std::size_t> order_;
    std::vector<double> sorted_;
    std::size_t words_ = 0;
    std::vector<std::uint8_t> T_;
    std::vector<std::size_t> count_, lo_, hi_;
    std::vector<std::uint64_t> bits_;
};

// Datasets in parallel, with the caller's stop check between them (as identification_risk.cpp).
template <typename PerDataset>
Status forEachDataset(std::size_t L, const RiskOptions& options, PerDataset&& perDataset) {
    std::atomic<std::size_t> finished{0};
    std::atomic<bool> cancelled{false};
    auto stop = [&] {
        if (cancelled.load()) return true;
        const Progress p{"risk", 0, static_cast<double>(finished.load()), static_cast<double>(L)};
        if (report(options.progress, p) == Continue::Stop) cancelled = true;
        return cancelled.load();
    };
    parallelFor(L, options.threads, [&](std::size_t l) {
        if (stop()) return false;
        perDataset(l);
        ++finished;
        return !stop();
    });
    if (cancelled) return Error::cancelled("identification risk cancelled");
    return {};
}

}  // namespace

Expected<std::vector<double>> boxMarginalRisk(std::span<const double> y, std::size_t q,
                                              const std::vector<std::vector<double>>& synthetic,
                                              std::span<const std::int32_t> pattern,
                                              const RiskOptions& options,
                                              const std::vector<Radius>& radii) {
    auto lay = checkInputs(y, q, synthetic, pattern, options, radii);
    if (!lay) return lay.error();
    const std::size_t n = lay->n, L = synthetic.size();
    const auto members = groups(pattern);
    std::vector<std::vector<double>> perDataset(L, std::vector<double>(n, 0.0));
    auto status = forEachDataset(L, options, [&](std::size_t l) {
        for (const auto& g : members)
            PatternBoxes(*lay, y, synthetic[l], g, false).marginal(perDataset[l]);
    });
    if (!status) return status.error();
    return detail::meanOverDatasets(perDataset, n);
}

Expected<PairwiseRisk> boxPairwiseRisk(std::span<const double> y, std::size_t q,
                                       const std::vector<std::vector<double>>& synthetic,
                                       std::span<const std::int32_t> pattern,
                                       const RiskOptions& options,
                                       const std::vector<Radius>& radii) {
    auto lay = checkInputs(y, q, synthetic, pattern, options, radii);
    if (!lay) return lay.error();
    const std::size_t n = lay->n, L = synthetic.size();
    const auto members = groups(pattern);
    std::vector<std::vector<double>> atL(L, std::vector<double>(n, 0.0));
    std::vector<std::vector<double>> irL(L, std::vector<double>(n, 0.0));
    auto status = forEachDataset(L, options, [&](std::size_t l) {
        std::vector<std::size_t> flagged;
        for (const auto& g : members) {
            const std::size_t M = g.size();
            const double m = static_cast<double>(M);
            const PatternBoxes boxes(*lay, y, synthetic[l], g, M > 1);
            flagged.clear();
            boxes.marginal(irL[l], &flagged);
            if (M == 1) {
                atL[l][g[0]] = 1.0 - irL[l][g[0]];
                continue;
            }
            // IR_ij is zero unless T_i = T_j = 1: only flagged pairs lower at_i.
            for (auto i : g) atL[l][i] = 1.0;
            for (std::size_t u = 0; u < flagged.size(); ++u) {
                double sumIr = 0;
                for (std::size_t v = 0; v < flagged.size(); ++v) {
                    if (u == v) continue;
                    const std::size_t both = boxes.common(flagged[u], flagged[v]);
                    const std::size_t either =
                        boxes.count(flagged[u]) + boxes.count(flagged[v]) - both;
                    sumIr += (m - static_cast<double>(either)) / m;
                }
                atL[l][g[flagged[u]]] = 1.0 - sumIr / (m - 1.0);
            }
        }
    });
    if (!status) return status.error();
    auto out = detail::meanPairwise(atL, irL, n);
    for (const auto& g : members) out.singletons += g.size() == 1;
    return out;
}

}  // namespace ppsynth::privacy
