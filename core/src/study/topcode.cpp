#include "ppsynth/study/topcode.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "ppsynth/common/not_a_number.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/privacy/weights.hpp"

namespace ppsynth::study {

namespace {

// y capped at its q-quantile; counts at the quantile rounded down, so they stay whole.
privacy::TopCoded capped(std::span<const double> y, double q, bool integer) {
    privacy::TopCoded tc = privacy::topCode(y, q);
    if (integer) {
        tc.threshold = std::floor(tc.threshold);
        for (double& v : tc.values) v = std::min(v, tc.threshold);
    }
    return tc;
}

std::size_t countAbove(std::span<const double> y, double t) {
    std::size_t n = 0;
    for (double v : y) n += v > t ? 1 : 0;
    return n;
}

// What every top-coded result has: no weights, no bound, no epsilon.
SynthesizerResult noGuarantee(const SynthesizerConfig& sc, std::size_t n) {
    SynthesizerResult r;
    r.name = sc.name;
    r.scheme = Scheme::TopCode;
    r.records.alpha = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(n));
    r.records.recordDelta = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(n), kNaN);
    r.deltaX = kNaN;
    r.deltaAlphaX = kNaN;
    r.deltaMethod = kNoFormalGuarantee;
    r.epsilon = {kNaN, kNaN, 1};
    r.global.epsilonLow = r.global.epsilonHigh = kNaN;
    r.weights = privacy::summarizeWeights(r.records.alpha);
    return r;
}

// IR_i over the one top-coded dataset, its summary and the whack-a-mole records.
void addRisk(SynthesizerResult& r, std::vector<double> ir, double riskThreshold,
             std::span<const double> baselineIr, double whackAMoleRise) {
    r.records.ir = std::move(ir);
    r.irSummary = privacy::summarizeRisk(r.records.ir, riskThreshold);
    r.records.irTop = std::move(r.irSummary.top);
    r.irSummary.top.clear();
    r.records.whackAMole = privacy::whackAMole(baselineIr, r.records.ir, whackAMoleRise);
}

}  // namespace

Expected<SynthesizerResult> topCodeComparator(
    const SynthesizerConfig& sc, std::span<const double> y, std::span<const std::int32_t> pattern,
    const privacy::RiskOptions& risk, double riskThreshold, std::span<const double> baselineIr,
    double whackAMoleRise, bool integer) {
    const auto t0 = std::chrono::steady_clock::now();
    SynthesizerResult r = noGuarantee(sc, y.size());
    privacy::TopCoded tc = capped(y, sc.topcodeQ, integer);
    TopCodeDetails d;
    d.q = sc.topcodeQ;
    d.threshold = tc.threshold;
    d.capped = countAbove(y, tc.threshold);
    r.details = d;
    r.stageSeconds.synthesis = secondsSince(t0);
    const auto tr = std::chrono::steady_clock::now();
    std::vector<std::vector<double>> one{std::move(tc.values)};
    auto ir = privacy::marginalRisk(y, one, pattern, risk);
    if (!ir) return ir.error().prefixed("top-coding: ");
    r.stageSeconds.risk = secondsSince(tr);
    addRisk(r, std::move(*ir), riskThreshold, baselineIr, whackAMoleRise);
    r.synthetic = std::move(one);
    return r;
}

Expected<SynthesizerResult> topCodeComparatorSeveral(
    const SynthesizerConfig& sc, std::span<const double> y, const std::vector<std::string>& names,
    const std::vector<bool>& integer, std::span<const std::int32_t> pattern,
    const privacy::RiskOptions& risk, const std::vector<privacy::Radius>& radii,
    double riskThreshold, std::span<const double> baselineIr, double whackAMoleRise) {
    const std::size_t q = names.size();
    if (q == 0 || y.size() % q != 0 || integer.size() != q)
        return Error::internal("top-coding: the values do not hold every sensitive variable");
    const std::size_t n = y.size() / q;
    const auto t0 = std::chrono::steady_clock::now();
    SynthesizerResult r = noGuarantee(sc, n);
    TopCodeDetails d;
    d.q = sc.topcodeQ;
    std::vector<double> values;
    values.reserve(y.size());
    for (std::size_t k = 0; k < q; ++k) {
        const auto yk = y.subspan(k * n, n);
        privacy::TopCoded tc = capped(yk, sc.topcodeQ, integer[k]);
        d.variables.push_back({names[k], tc.threshold, countAbove(yk, tc.threshold)});
        values.insert(values.end(), tc.values.begin(), tc.values.end());
    }
    d.threshold = d.variables.front().threshold;
    d.capped = d.variables.front().capped;
    r.details = d;
    r.stageSeconds.synthesis = secondsSince(t0);
    const auto tr = std::chrono::steady_clock::now();
    std::vector<std::vector<double>> one{std::move(values)};
    auto ir = privacy::boxMarginalRisk(y, q, one, pattern, risk, radii);
    if (!ir) return ir.error().prefixed("top-coding: ");
    r.stageSeconds.risk = secondsSince(tr);
    addRisk(r, std::move(*ir), riskThreshold, baselineIr, whackAMoleRise);
    r.synthetic = std::move(one);
    return r;
}

}  // namespace ppsynth::study
