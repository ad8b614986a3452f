#include "ppsynth/utility/kde.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "ppsynth/common/moments.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::utility {

namespace {

// The kernel is cut at this many bandwidths: exp(-12.5) ~ 3.7e-6 of the peak is dropped.
constexpr double kKernelCut = 5.0;
// R's density() extends the grid this many bandwidths beyond the data.
constexpr double kGridCut = 3.0;
// Lattice half-width limit (in bins): beyond it the bandwidth dwarfs the grid range.
constexpr std::size_t kMaxKernelBins = std::size_t{1} << 18;

std::string num(double v) {
    return data::formatNumber(v);
}

// bw.nrd0 on already sorted values; `first` is the first value in the caller's order (R's
// last-resort fallback uses x[1]).
double nrd0Sorted(std::span<const double> sorted, double first) {
    const double hi = standardDeviation(sorted);  // 0 for a single value
    const double iqr = quantileSorted(sorted, 0.75) - quantileSorted(sorted, 0.25);
    double lo = std::min(hi, iqr / 1.34);
    if (!(lo > 0)) lo = hi;
    if (!(lo > 0)) lo = std::abs(first);
    if (!(lo > 0)) lo = 1.0;
    return 0.9 * lo * std::pow(static_cast<double>(sorted.size()), -0.2);
}

Status checkInput(std::span<const double> values, const KdeOptions& o) {
    if (values.empty()) return Error{"density estimate: there are no values"};
    if (o.gridSize < 2) return Error{"density estimate: the grid needs at least 2 points"};
    if (o.bins < 1) return Error{"density estimate: bins must be at least 1"};
    if (!(o.bandwidthMultiplier > 0) || !std::isfinite(o.bandwidthMultiplier)) {
        return Error{"density estimate: the bandwidth multiplier must be positive, got " +
                     num(o.bandwidthMultiplier)};
    }
    if (o.bandwidth && (!(*o.bandwidth > 0) || !std::isfinite(*o.bandwidth))) {
        return Error{"density estimate: the bandwidth must be positive, got " + num(*o.bandwidth)};
    }
    if (o.lower && o.upper && !(*o.lower < *o.upper)) {
        return Error{"density estimate: the support [" + num(*o.lower) + ", " + num(*o.upper) +
                     "] is empty"};
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) {
            return Error{"density estimate: value " + std::to_string(i + 1) + " is not finite"};
        }
        if ((o.lower && values[i] < *o.lower) || (o.upper && values[i] > *o.upper)) {
            return Error{"density estimate: value " + std::to_string(i + 1) + " (" +
                         num(values[i]) + ") lies outside the support [" +
                         (o.lower ? num(*o.lower) : "-inf") + ", " +
                         (o.upper ? num(*o.upper) : "inf") + "]"};
        }
    }
    return Status::ok();
}

Expected<Density> densityWithBandwidth(std::span<const double> values, double vmin, double vmax,
                                       double h, const KdeOptions& o) {
    double a = o.from.value_or(vmin - kGridCut * h);
    double b = o.to.value_or(vmax + kGridCut * h);
    if (o.lower) a = std::max(a, *o.lower);
    if (o.upper) b = std::min(b, *o.upper);
    if (!(a < b)) {
        return Error{"density estimate: the grid range [" + num(a) + ", " + num(b) + "] is empty"};
    }

    // Lattice: `refine` bins per grid step, so grid point i is lattice point i * refine.
    const std::size_t steps = o.gridSize - 1;
    std::size_t refine = std::max<std::size_t>(1, (o.bins + steps / 2) / steps);
    double delta = (b - a) / static_cast<double>(steps * refine);
    auto kernelBins = [&] { return static_cast<std::size_t>(std::ceil(kKernelCut * h / delta)); };
    if (kernelBins() > kMaxKernelBins) {  // a coarser lattice keeps the kernel affordable
        refine = 1;
        delta = (b - a) / static_cast<double>(steps);
    }
    const std::size_t halfWidth = kernelBins();
    if (halfWidth > kMaxKernelBins) {
        return Error{"density estimate: the bandwidth " + num(h) +
                     " is too large for the grid range [" + num(a) + ", " + num(b) +
                     "]; widen the range or lower the bandwidth multiplier"};
    }

    // Linear binning of the values (and their reflections at the bounds) onto the lattice,
    // shifted by halfWidth so every bin that can reach a grid point has an index.
    const std::size_t nBins = steps * refine + 2 * halfWidth + 1;
    std::vector<double> counts(nBins, 0.0);
    const double origin = a - static_cast<double>(halfWidth) * delta;
    const double last = static_cast<double>(nBins - 1);
    auto add = [&](double x) {
        const double u = (x - origin) / delta;
        if (!(u >= 0) || u > last) return;  // too far to reach any grid point
        const auto j = static_cast<std::size_t>(u);
        const double f = u - static_cast<double>(j);
        counts[j] += 1.0 - f;
        if (j + 1 < nBins) counts[j + 1] += f;
    };
    if (o.lower && o.upper) {
        // Between two bounds the reflections repeat with period 2W (reflecting a reflection):
        // add every image that reaches the lattice so no mass leaks even when h ~ W.
        const double period = 2.0 * (*o.upper - *o.lower);
        const double highest = origin + last * delta;
        for (double x : values) {
            for (double base : {x, 2.0 * *o.lower - x}) {
                double img = base - period * std::floor((base - origin) / period);
                for (; img <= highest; img += period) add(img);
            }
        }
    } else {
        for (double x : values) {
            add(x);
            if (o.lower) add(2.0 * *o.lower - x);
            if (o.upper) add(2.0 * *o.upper - x);
        }
    }
    std::size_t firstBin = 0;
    while (firstBin < nBins && counts[firstBin] == 0.0) ++firstBin;
    std::size_t lastBin = nBins;
    while (lastBin > firstBin && counts[lastBin - 1] == 0.0) --lastBin;

    std::vector<double> kernel(halfWidth + 1);
    for (std::size_t d = 0; d <= halfWidth; ++d) {
        const double z = static_cast<double>(d) * delta / h;
        kernel[d] = std::exp(-0.5 * z * z);
    }
    const double norm =
        1.0 / (static_cast<double>(values.size()) * h * std::sqrt(2.0 * std::numbers::pi));

    Density out;
    out.bandwidth = h;
    out.x.resize(o.gridSize);
    out.y.resize(o.gridSize);
    for (std::size_t i = 0; i < o.gridSize; ++i) {
        const std::size_t centre = i * refine + halfWidth;
        const std::size_t lo = std::max(firstBin, centre - halfWidth);
        const std::size_t hi = std::min(lastBin, centre + halfWidth + 1);
        double s = 0;
        for (std::size_t j = lo; j < hi; ++j) {
            s += counts[j] * kernel[j > centre ? j - centre : centre - j];
        }
        out.x[i] = i == steps ? b : a + static_cast<double>(i * refine) * delta;
        out.y[i] = s * norm;
    }
    return out;
}

}  // namespace

double bandwidthNrd0(std::span<const double> values) {
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    return nrd0Sorted(sorted, values.front());
}

Expected<Density> kernelDensity(std::span<const double> values, const KdeOptions& options) {
    if (Status s = checkInput(values, options); !s) return s.error();
    const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
    const double h =
        options.bandwidth.value_or(bandwidthNrd0(values)) * options.bandwidthMultiplier;
    return densityWithBandwidth(values, *mn, *mx, h, options);
}

Expected<ViolinSummary> violinSummary(std::span<const double> values, const KdeOptions& options) {
    if (Status s = checkInput(values, options); !s) return s.error();
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    const double h = options.bandwidth.value_or(nrd0Sorted(sorted, values.front())) *
                     options.bandwidthMultiplier;
    auto density = densityWithBandwidth(values, sorted.front(), sorted.back(), h, options);
    if (!density) return density.error();

    ViolinSummary v;
    v.grid = std::move(density->x);
    v.density = std::move(density->y);
    v.bandwidth = h;
    v.n = sorted.size();
    v.min = sorted.front();
    v.max = sorted.back();
    v.q1 = quantileSorted(sorted, 0.25);
    v.median = quantileSorted(sorted, 0.5);
    v.q3 = quantileSorted(sorted, 0.75);
    double sum = 0;
    for (double x : values) sum += x;
    v.mean = sum / static_cast<double>(v.n);
    return v;
}

bool spansOrdersOfMagnitude(std::span<const double> values, double ratio) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (double v : values)
        if (v > 0 && std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    return hi > 0 && hi >= ratio * lo;
}

Expected<ViolinSummary> logViolinSummary(std::span<const double> values,
                                         const KdeOptions& options) {
    KdeOptions plain;  // the marks need no support bounds; the outline is redone below
    plain.gridSize = 2;
    auto v = violinSummary(values, plain);
    if (!v) return v;
    std::vector<double> logs;
    logs.reserve(values.size());
    for (double x : values)
        if (x > 0) logs.push_back(std::log10(x));
    if (logs.empty())
        return Error{"a log-scale violin needs a positive value; every value is 0 or below"};
    KdeOptions o;
    o.gridSize = options.gridSize;
    o.bins = options.bins;
    o.bandwidthMultiplier = options.bandwidthMultiplier;
    // A value bounded above by 1 (a weight) is bounded above by 0 on the log scale.
    if (options.upper) o.upper = std::log10(*options.upper);
    auto d = kernelDensity(logs, o);
    if (!d) return d.error();
    v->grid.clear();
    for (double g : d->x) v->grid.push_back(std::pow(10.0, g));
    v->density = std::move(d->y);
    v->bandwidth = d->bandwidth;
    v->logScale = true;
    v->zeros = values.size() - logs.size();
    v->minPositive = std::numeric_limits<double>::infinity();
    for (double x : values)
        if (x > 0) v->minPositive = std::min(v->minPositive, x);
    return v;
}

Expected<DensityComparison> compareDensities(std::span<const double> confidential,
                                             std::span<const double> synthetic,
                                             const KdeOptions& options,
                                             std::optional<double> tailQuantile) {
    if (tailQuantile && !(*tailQuantile >= 0 && *tailQuantile < 1)) {
        return Error{"density comparison: the tail quantile must lie in [0, 1), got " +
                     num(*tailQuantile)};
    }
    for (auto [values, what] :
         {std::pair{confidential, "confidential"}, std::pair{synthetic, "synthetic"}}) {
        if (Status s = checkInput(values, options); !s) {
            return s.error().prefixed(std::string(what) + " ");
        }
    }
    const double multiplier = options.bandwidthMultiplier;
    const double hc = options.bandwidth.value_or(bandwidthNrd0(confidential)) * multiplier;
    const double hs = options.bandwidth.value_or(bandwidthNrd0(synthetic)) * multiplier;
    const auto [cmin, cmax] = std::minmax_element(confidential.begin(), confidential.end());
    const auto [smin, smax] = std::minmax_element(synthetic.begin(), synthetic.end());
    KdeOptions common = options;
    common.from = options.from.value_or(std::min(*cmin - kGridCut * hc, *smin - kGridCut * hs));
    common.to = options.to.value_or(std::max(*cmax + kGridCut * hc, *smax + kGridCut * hs));

    DensityComparison out;
    auto conf = densityWithBandwidth(confidential, *cmin, *cmax, hc, common);
    if (!conf) return conf.error().prefixed("confidential ");
    auto synth = densityWithBandwidth(synthetic, *smin, *smax, hs, common);
    if (!synth) return synth.error().prefixed("synthetic ");
    out.confidential = std::move(*conf);
    out.synthetic = std::move(*synth);
    if (tailQuantile) {
        KdeOptions tail = common;
        tail.from = quantile(confidential, *tailQuantile);
        tail.to = out.confidential.x.back();
        if (*tail.from < *tail.to) {
            auto ct = densityWithBandwidth(confidential, *cmin, *cmax, hc, tail);
            auto st = densityWithBandwidth(synthetic, *smin, *smax, hs, tail);
            if (!ct) return ct.error().prefixed("confidential tail ");
            if (!st) return st.error().prefixed("synthetic tail ");
            out.confidentialTail = std::move(*ct);
            out.syntheticTail = std::move(*st);
        }
    }
    return out;
}

}  // namespace ppsynth::utility
