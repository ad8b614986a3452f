#include "ppsynth/utility/ecdf.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ppsynth/utility/statistics.hpp"

namespace ppsynth::utility {

namespace {

std::vector<double> sortedSample(std::span<const double> v) {
    std::vector<double> s(v.begin(), v.end());
    std::sort(s.begin(), s.end());
    return s;
}

// Merge of two sorted samples: at each distinct value both ECDFs step past all its copies, and
// the difference there is counted once per pooled record holding that value.
EcdfDistance distanceSorted(const std::vector<double>& o, const std::vector<double>& s) {
    const double no = static_cast<double>(o.size()), ns = static_cast<double>(s.size());
    std::size_t i = 0, j = 0;
    EcdfDistance d;
    double sumSq = 0;
    while (i < o.size() || j < s.size()) {
        const double v = j == s.size() || (i < o.size() && o[i] <= s[j]) ? o[i] : s[j];
        std::size_t ties = 0;
        for (; i < o.size() && o[i] == v; ++i) ++ties;
        for (; j < s.size() && s[j] == v; ++j) ++ties;
        const double diff = static_cast<double>(i) / no - static_cast<double>(j) / ns;
        d.maxAbs = std::max(d.maxAbs, std::abs(diff));
        sumSq += static_cast<double>(ties) * diff * diff;
    }
    d.meanSquare = sumSq / (no + ns);
    return d;
}

}  // namespace

Expected<EcdfDistance> ecdfDistance(std::span<const double> original,
                                    std::span<const double> synthetic) {
    if (auto st = validateSample(original, "the confidential data"); !st) return st.error();
    if (auto st = validateSample(synthetic, "the synthetic data"); !st) return st.error();
    return distanceSorted(sortedSample(original), sortedSample(synthetic));
}

Expected<EcdfUtility> ecdfUtility(std::span<const double> original,
                                  const std::vector<std::vector<double>>& synthetic,
                                  const ProgressCallback& progress) {
    if (auto st = validateSample(original, "the confidential data"); !st) return st.error();
    if (synthetic.empty()) return Error{"the ECDF distances need at least one synthetic dataset"};
    const auto o = sortedSample(original);
    EcdfUtility u;
    for (std::size_t l = 0; l < synthetic.size(); ++l) {
        if (report(progress, {"ecdf", 0, static_cast<double>(l),
                              static_cast<double>(synthetic.size())}) == Continue::Stop)
            return Error::cancelled("ECDF cancelled");
        if (auto st = validateSample(synthetic[l], "synthetic dataset " + std::to_string(l + 1));
            !st)
            return st.error();
        const auto d = distanceSorted(o, sortedSample(synthetic[l]));
        u.perDataset.push_back(d);
        u.maxAbs += d.maxAbs;
        u.meanSquare += d.meanSquare;
    }
    const double m = static_cast<double>(synthetic.size());
    u.maxAbs /= m;
    u.meanSquare /= m;
    return u;
}

}  // namespace ppsynth::utility
