// The papers' qualitative findings on the bundled examples, as assertions with stated
// tolerances (slow: NUTS fits; about a minute in all on 2 shared cores, most of it the
// income_survey case). Each case is one run, deterministic from its seed; the figures each
// assertion compares are printed with qInfo. Paper 000 sec. 5.2 is tst_paper000_sec52.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../common/near.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/privacy/identification_risk.hpp"
#include "ppsynth/study/runner.hpp"

using namespace ppsynth;

namespace {

Expected<study::RunResult> run(const std::string& json, data::ExampleId example) {
    auto config = study::parseRunConfig(json);
    if (!config) return config.error();
    return study::runStudy(*config, data::makeExample(example));
}

double quantile(std::vector<double> s, double p) {
    std::sort(s.begin(), s.end());
    return quantileSorted(s, p);
}

double median(const Eigen::VectorXd& v) {
    return quantile(std::vector<double>(v.data(), v.data() + v.size()), 0.5);
}

// Median over records of Delta_{alpha,x_i} / Delta_{alpha,x}: how close the records' bounds
// sit to the one that sets epsilon (papers' "efficiency" of a weighting).
double medianBoundShare(const study::SynthesizerResult& s) {
    return median(s.records.recordDelta / s.deltaAlphaX);
}

}  // namespace

class TstPaperFindings : public QObject {
    Q_OBJECT
  private slots:
    // Paper 001 sec. 3.1 (Figure 1b), the real Poisson regression: LW downweights only the
    // records with the largest log-likelihoods, CW (IR from the data, Algorithm 2) lowers
    // the bulk too, so LW's median weight is above CW's. Tolerance: by at least 0.05
    // (measured on seeds 1-4: 0.966-0.968 against 0.896).
    void lwKeepsTheBulkAboveCwOnPoisson() {
        auto r = run(R"({
          "data": {"path": "poisson.csv", "target": "y"},
          "model": {"family": "poisson"},
          "mcmc": {"chains": 2, "warmup": 500, "draws": 500, "seed": 11, "threads": 2},
          "synthesis": {"m": 2}, "risk": {"L": 2}, "utility": {"enabled": false},
          "synthesizers": [
            {"name": "LW", "scheme": "lipschitz", "c": 1.0, "g": 0.0},
            {"name": "CW", "scheme": "marginal", "source": "data", "c": 1.0, "g": 0.0}
          ]})",
                     data::ExampleId::Poisson);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        const auto& lw = *r->find("LW");
        const auto& cw = *r->find("CW");
        qInfo(
            "poisson: median weight LW %.4f, CW %.4f (mean %.4f, %.4f); Delta_alpha,x %.3f, "
            "%.3f (Delta_x %.3f)",
            lw.weights.median, cw.weights.median, lw.weights.mean, cw.weights.mean, lw.deltaAlphaX,
            cw.deltaAlphaX, lw.deltaX);
        QVERIFY(lw.deltaAlphaX < lw.deltaX && cw.deltaAlphaX < cw.deltaX);
        QVERIFY(lw.weights.median > cw.weights.median + 0.05);
    }

    // Paper 001 sec. 4.2 (Figures 5-6, appendix Table 1) on the skewed NB mixture with the
    // negative binomial synthesizer: re-weighting keeps an equivalent Delta_{alpha,x} and
    // raises the weights and the record-level bounds, of LW and of CW. Tolerances: Delta of
    // the _final run within [0.95, 1.02] of its base's (the 2% is the search's); mean weight
    // up by at least 0.01 (LW, measured 0.025) and 0.03 (CW, measured 0.05-0.065).
    void reweightingRaisesWeightsAtEqualDeltaOnNbMixture() {
        auto r = run(R"({
          "data": {"path": "nb_mixture.csv", "target": "y"},
          "model": {"family": "negbin"},
          "mcmc": {"chains": 2, "warmup": 500, "draws": 500, "seed": 11, "threads": 2},
          "synthesis": {"m": 2}, "risk": {"L": 2}, "utility": {"enabled": false},
          "synthesizers": [
            {"name": "LW", "scheme": "lipschitz", "c": 1.0, "g": 0.0},
            {"name": "LW_final", "scheme": "reweight", "base": "LW", "k": "auto"},
            {"name": "CW", "scheme": "marginal", "source": "data", "c": 1.0, "g": 0.0},
            {"name": "CW_final", "scheme": "reweight", "base": "CW", "k": "auto"}
          ]})",
                     data::ExampleId::NbMixture);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        for (const char* name : {"LW", "CW"}) {
            const auto& base = *r->find(name);
            const auto& fin = *r->find(std::string(name) + "_final");
            const auto n = base.records.alpha.size();
            Eigen::Index notLower = 0;
            for (Eigen::Index i = 0; i < n; ++i)
                notLower += fin.records.alpha[i] >= base.records.alpha[i] - 1e-9;
            qInfo(
                "nb_mixture %s -> %s_final: k %.4f; Delta_alpha,x %.4f -> %.4f (ratio %.4f); "
                "mean weight %.4f -> %.4f, median %.4f -> %.4f; median Delta_i/Delta %.3f -> "
                "%.3f; weight not lowered for %lld of %lld records",
                name, name, fin.reweight()->k, base.deltaAlphaX, fin.deltaAlphaX,
                fin.deltaAlphaX / base.deltaAlphaX, base.weights.mean, fin.weights.mean,
                base.weights.median, fin.weights.median, medianBoundShare(base),
                medianBoundShare(fin), static_cast<long long>(notLower), static_cast<long long>(n));
            QVERIFY(fin.deltaAlphaX <= 1.02 * base.deltaAlphaX);
            QVERIFY(fin.deltaAlphaX >= 0.95 * base.deltaAlphaX);
            QVERIFY(fin.weights.median >= base.weights.median);
            QVERIFY(medianBoundShare(fin) > medianBoundShare(base));
            // k = 1 (found for LW) can only raise a weight: Delta_i <= Delta. With k < 1 (CW,
            // like the paper's 0.95) the records at the bound lose a little, so "every record
            // higher" (Figure 6b) is asserted for LW only.
            if (fin.reweight()->k == 1.0) QCOMPARE(notLower, n);
        }
        QVERIFY(r->find("LW_final")->weights.mean > r->find("LW")->weights.mean + 0.01);
        QVERIFY(r->find("CW_final")->weights.mean > r->find("CW")->weights.mean + 0.03);
        // The paper: CW gains more from re-weighting than LW.
        QVERIFY(medianBoundShare(*r->find("CW_final")) - medianBoundShare(*r->find("CW")) >
                medianBoundShare(*r->find("LW_final")) - medianBoundShare(*r->find("LW")));
    }

    // Paper 004 sec. 3.3 (Figure 7): known {gender, age, region} (40 patterns), r = 20% of
    // y, L = 20, c = 1, g = 0; IR_i is the marginal IR of each synthesizer's own L datasets
    // and the IQR is over the n records. Pairwise compresses the IR distribution: a smaller
    // IQR than Marginal (paper 0.1385 vs 0.1534), a similar mean, a shorter tail. Our
    // synthesizer is the normal regression on log-shifted income, not the K = 20 mixture.
    //
    // The weights' IR must come from the confidential data (source "data", y* = y, T = 1):
    // that reproduces the paper's Figure 10 (pairwise weights mostly about 0.25, the largest
    // incomes about 0.1; here median 0.28, min 0.14) and its IQRs (this run 0.134 vs 0.153;
    // `ppsynth-cli run` on the CSV with seeds 3, 7, 21: 0.133-0.136 vs 0.153-0.157). With the
    // unweighted fit's synthetic datasets as the source, T_i is rarely 1 (mean IR 0.15), so
    // 1 - IR_i is near 1, and at_i >= 1 - IR_i always (IR_ij <= IR_i when T_i = 1): pairwise
    // weights have median about 0.98, Pairwise is practically the Synthesizer and its IQR is
    // not smaller than Marginal's (CLI, seed 7: 0.1225 vs 0.1212). The case checks that
    // reason on the Synthesizer's datasets. Not reproduced, so not asserted: the paper's
    // downward shift from the Synthesizer (here its mean IR, 0.150, is the lowest of the
    // three). Tolerance: Pairwise's IQR below Marginal's by at least 0.01 (paper: 0.0149);
    // its 99th percentile of IR below Marginal's.
    void pairwiseCompressesIrOnIncomeSurvey() {
        auto r = run(R"({
          "data": {"path": "income_survey.csv", "target": "income",
                   "predictors": ["gender", "age", "education", "region", "urban", "marital",
                                  "urban_type", "cbsa", "family_size", "earners"],
                   "known": ["gender", "age", "region"], "transform": "log-shift"},
          "model": {"family": "normal"},
          "mcmc": {"chains": 2, "warmup": 200, "draws": 200, "seed": 7, "threads": 2},
          "synthesis": {"m": 20},
          "risk": {"radius": 0.2, "radius_mode": "percentage", "L": 20},
          "utility": {"enabled": false},
          "synthesizers": [
            {"name": "Synthesizer", "scheme": "unweighted"},
            {"name": "Marginal", "scheme": "marginal", "source": "data", "c": 1.0, "g": 0.0},
            {"name": "Pairwise", "scheme": "pairwise", "source": "data", "c": 1.0, "g": 0.0}
          ]})",
                     data::ExampleId::IncomeSurvey);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        QCOMPARE(r->inputs.patterns.count(), std::size_t{40});
        const auto& u = *r->find("Synthesizer");
        const auto& mg = *r->find("Marginal");
        const auto& pw = *r->find("Pairwise");
        for (const auto* s : {&u, &mg, &pw})
            qInfo(
                "income_survey %s: IR IQR %.4f (q1 %.4f, q3 %.4f), mean %.4f, max %.4f, "
                "%zu above 0.5, %zu whack-a-mole; weights median %.3f, min %.3f",
                s->name.c_str(), s->irSummary.iqr, s->irSummary.q1, s->irSummary.q3,
                s->irSummary.mean, s->irSummary.max, s->irSummary.aboveThreshold,
                s->records.whackAMole.size(), s->weights.median, s->weights.min);
        QVERIFY(pw.irSummary.iqr < mg.irSummary.iqr - 0.01);
        QVERIFY_NEAR(pw.irSummary.mean, mg.irSummary.mean, 0.02);
        // The tail: the top 1% of records (the single largest IR is one record of 6208 and
        // moves with any change of the chains).
        const double pw99 = quantile(pw.records.ir, 0.99), mg99 = quantile(mg.records.ir, 0.99);
        qInfo("IR 99th percentile: Pairwise %.4f, Marginal %.4f", pw99, mg99);
        QVERIFY(pw99 < mg99);
        QVERIFY(pw.irSummary.aboveThreshold <= mg.irSummary.aboveThreshold);
        QVERIFY(pw.records.whackAMole.size() < mg.records.whackAMole.size());
        // Figure 10's level: most pairwise weights well below 1.
        QVERIFY(pw.weights.median < 0.5);

        // Why the source matters. Same datasets, so at_i >= 1 - IR_i record by record; on
        // the Synthesizer's datasets both are close to 1.
        const auto n = static_cast<std::size_t>(r->inputs.yOriginal.size());
        const std::vector<double> y(r->inputs.yOriginal.data(), r->inputs.yOriginal.data() + n);
        privacy::RiskOptions ro;
        ro.threads = 2;
        QCOMPARE(u.synthetic.size(), std::size_t{20});
        auto syn = privacy::pairwiseRisk(y, u.synthetic, r->inputs.patterns.id, ro);
        QVERIFY(syn.hasValue());
        Eigen::VectorXd at(static_cast<Eigen::Index>(n)), oneMinusIr(at.size());
        for (std::size_t i = 0; i < n; ++i) {
            const auto k = static_cast<Eigen::Index>(i);
            at[k] = syn->at[i];
            oneMinusIr[k] = 1 - syn->marginal[i];
            QVERIFY(at[k] >= oneMinusIr[k] - 1e-12);
            QVERIFY(pw.records.alpha[k] >= mg.records.alpha[k] - 1e-12);
        }
        qInfo(
            "weights from the Synthesizer's datasets instead: pairwise median %.3f, "
            "marginal median %.3f",
            median(at), median(oneMinusIr));
        QVERIFY(median(at) > 0.9);
    }
};

QTEST_APPLESS_MAIN(TstPaperFindings)
#include "tst_paper_findings.moc"
