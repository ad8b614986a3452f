#include "ppsynth/study/topcode.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/privacy/weights.hpp"

namespace ppsynth::study {

Expected<SynthesizerResult> topCodeComparator(
    const SynthesizerConfig& sc, std::span<const double> y, std::span<const std::int32_t> pattern,
    const privacy::RiskOptions& risk, double riskThreshold, std::span<const double> baselineIr,
    double whackAMoleRise, bool integer) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    const auto t0 = std::chrono::steady_clock::now();
    SynthesizerResult r;
    r.name = sc.name;
    r.scheme = Scheme::TopCode;
    privacy::TopCoded tc = privacy::topCode(y, sc.topcodeQ);
    if (integer) {
        tc.threshold = std::floor(tc.threshold);
        for (double& v : tc.values) v = std::min(v, tc.threshold);
    }
    TopCodeDetails d;
    d.q = sc.topcodeQ;
    d.threshold = tc.threshold;
    for (double v : y) d.capped += v > tc.threshold ? 1 : 0;
    r.details = d;
    const auto n = static_cast<Eigen::Index>(y.size());
    r.records.alpha = Eigen::VectorXd::Ones(n);
    r.records.recordDelta = Eigen::VectorXd::Constant(n, kNaN);
    r.deltaX = kNaN;
    r.deltaAlphaX = kNaN;
    r.deltaMethod = kNoFormalGuarantee;
    r.epsilon = {kNaN, kNaN, 1};
    r.global.epsilonLow = r.global.epsilonHigh = kNaN;
    r.weights = privacy::summarizeWeights(r.records.alpha);
    r.stageSeconds.synthesis = secondsSince(t0);
    const auto tr = std::chrono::steady_clock::now();
    std::vector<std::vector<double>> one{std::move(tc.values)};
    auto ir = privacy::marginalRisk(y, one, pattern, risk);
    if (!ir) return ir.error().prefixed("top-coding: ");
    r.records.ir = std::move(*ir);
    r.stageSeconds.risk = secondsSince(tr);
    r.irSummary = privacy::summarizeRisk(r.records.ir, riskThreshold);
    r.records.irTop = std::move(r.irSummary.top);
    r.irSummary.top.clear();
    r.records.whackAMole = privacy::whackAMole(baselineIr, r.records.ir, whackAMoleRise);
    r.synthetic = std::move(one);
    return r;
}

}  // namespace ppsynth::study
