// The utility report of METHOD.md section 6 assembled from its parts: hand computations on
// tiny data (statistics, CI overlap, combining rules, ECDF distances, pMSE), the null
// expectation of S_pMSE in the three settings a user meets (a resample; partial synthesis
// from fixed parameters; partial synthesis from posterior draws), warnings instead of wrong
// numbers, the JSON contract and its round trip, and the runner's "utility" stage.
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <QTest>
#include <boost/random/chi_squared_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <mutex>
#include <nlohmann/json.hpp>

#include "ppsynth/common/quantile.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/utility_json.hpp"
#include "ppsynth/study/utility_report.hpp"
#include "ppsynth/utility/bootstrap.hpp"
#include "ppsynth/utility/pmse.hpp"

using namespace ppsynth;
using namespace ppsynth::study;

namespace {

UtilityInputs tinyInputs() {
    UtilityInputs in;
    in.target = "y";
    in.original = {1, 2, 3, 4};
    in.synthetic = {{1, 2, 3, 5}, {2, 3, 4, 5}};
    in.regressionDesign = Eigen::MatrixXd::Ones(4, 1);  // y on an intercept: the mean
    in.regressionNames = {"(Intercept)"};
    in.propensityPredictors.resize(4, 0);
    return in;
}

UtilityOptions fastOptions() {
    UtilityOptions o;
    o.bootstrap = 200;
    o.gridPoints = 11;
    return o;
}

double karr(double lo, double uo, double ls, double us) {
    const double inter = std::min(uo, us) - std::max(lo, ls);
    return 0.5 * (inter / (uo - lo) + inter / (us - ls));
}

bool close(double a, double b, double tol = 1e-12) {
    return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

// Mean S_pMSE of the report over `reps` runs of a synthesizer in the partial-synthesis
// setting y = 1 + 0.5 x + e: y* from the OLS fit with fixed parameters, or from a posterior
// predictive draw (flat prior: sigma^2 ~ RSS / chi2_{n-2}, beta ~ N(beta_hat, sigma^2
// (X'X)^-1)), one fresh draw per dataset.
double partialSynthesisMeanSPmse(bool posterior, int k, double* se) {
    const int n = 400, m = 60, reps = 5;
    auto rng = makeRng(77, posterior ? 1 : 0, Purpose::Test);
    boost::random::normal_distribution<double> z;
    std::vector<double> all;
    for (int rep = 0; rep < reps; ++rep) {
        Eigen::MatrixXd X(n, 2);
        Eigen::VectorXd y(n);
        for (int i = 0; i < n; ++i) {
            X(i, 0) = 1;
            X(i, 1) = z(rng);
            y(i) = 1 + 0.5 * X(i, 1) + z(rng);
        }
        const Eigen::MatrixXd XtXi = (X.transpose() * X).inverse();
        const Eigen::VectorXd beta = XtXi * X.transpose() * y;
        const double rss = (y - X * beta).squaredNorm();
        const Eigen::MatrixXd L = XtXi.llt().matrixL();
        UtilityInputs in;
        in.original.assign(y.data(), y.data() + n);
        in.propensityPredictors = X.rightCols(1);
        in.propensityNames = {"x"};
        in.posteriorPredictive = posterior;
        for (int l = 0; l < m; ++l) {
            Eigen::VectorXd b = beta;
            double sigma = std::sqrt(rss / (n - 2));
            if (posterior) {
                boost::random::chi_squared_distribution<double> chi(n - 2);
                sigma = std::sqrt(rss / chi(rng));
                Eigen::Vector2d e(z(rng), z(rng));
                b += sigma * L * e;
            }
            std::vector<double> ys(n);
            for (int i = 0; i < n; ++i) ys[i] = X.row(i).dot(b) + sigma * z(rng);
            in.synthetic.push_back(std::move(ys));
        }
        UtilityOptions o = fastOptions();
        o.bootstrap = 2;
        auto r = computeUtility(in, o, 5, 2);
        if (!r) qFatal("%s", r.message().c_str());
        if (r->pmse.k != k) qFatal("k = %d", r->pmse.k);
        for (double s : r->pmse.perDatasetSPmse) all.push_back(s);
        if (!std::isfinite(r->pmse.sPmseReference)) qFatal("no reference");
    }
    double mean = 0;
    for (double s : all) mean += s / static_cast<double>(all.size());
    double var = 0;
    for (double s : all) var += (s - mean) * (s - mean) / static_cast<double>(all.size() - 1);
    *se = std::sqrt(var / static_cast<double>(all.size()));
    return mean;
}

// A categorical predictor of `levels` levels (every level present, level 0 the reference)
// and a numeric one, partial synthesis with m = 3: wide enough that the regression and the
// propensity model take their sparse forms.
UtilityInputs manyLevelInputs(int n, int levels) {
    auto rng = makeRng(31, static_cast<std::uint64_t>(levels), Purpose::Test);
    boost::random::normal_distribution<double> z;
    UtilityInputs in;
    in.target = "y";
    in.regressionDesign = Eigen::MatrixXd::Zero(n, levels + 1);
    in.regressionNames = {"(Intercept)"};
    for (int g = 1; g < levels; ++g) in.regressionNames.push_back("g[" + std::to_string(g) + "]");
    in.regressionNames.push_back("x_z");
    for (int i = 0; i < n; ++i) {
        const int g = i % levels;
        in.regressionDesign(i, 0) = 1;
        if (g > 0) in.regressionDesign(i, g) = 1;
        in.regressionDesign(i, levels) = z(rng);
        in.original.push_back(0.1 * (g % 5) + in.regressionDesign(i, levels) + z(rng));
    }
    for (int l = 0; l < 3; ++l) {
        std::vector<double> ys = in.original;
        for (auto& v : ys) v += 0.5 * z(rng);
        in.synthetic.push_back(std::move(ys));
    }
    in.propensityPredictors = in.regressionDesign.rightCols(levels);
    in.propensityNames.assign(in.regressionNames.begin() + 1, in.regressionNames.end());
    return in;
}

}  // namespace

class TstUtilityReport : public QObject {
    Q_OBJECT
  private slots:
    // Statistics: the sample values by hand (type 7), intervals from the bootstrap, and the
    // CI overlap recomputed from the reported intervals with Karr et al.'s formula.
    void statisticsByHand() {
        auto r = computeUtility(tinyInputs(), fastOptions(), 3);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        QCOMPARE(r->records, std::size_t{4});
        QCOMPARE(r->datasets, std::size_t{2});
        QCOMPARE(r->statistics.size(), std::size_t{4});
        QCOMPARE(r->statistics[0].name, std::string("mean"));
        QCOMPARE(r->statistics[2].name, std::string("quantile 0.15"));
        QCOMPARE(r->statistics[0].original.estimate, 2.5);
        QCOMPARE(r->statistics[1].original.estimate, 2.5);
        // type 7: h = 3 * 0.15 = 0.45 -> 1 + 0.45 * (2 - 1)
        QVERIFY(close(r->statistics[2].original.estimate, 1.45));
        QVERIFY(close(r->statistics[3].original.estimate, 3.7));  // h = 2.7 -> 3 + 0.7
        // Synthetic: the mean over datasets of each dataset's value.
        QCOMPARE(r->statistics[0].perDataset, (std::vector<double>{2.75, 3.5}));
        QVERIFY(close(r->statistics[0].synthetic.estimate, 3.125));
        QCOMPARE(r->statistics[1].perDataset, (std::vector<double>{2.5, 3.5}));
        for (const auto& s : r->statistics) {
            QVERIFY(s.original.lower <= s.original.upper);
            QCOMPARE(s.originalQuantiles.size(), std::size_t{11});
            QCOMPARE(s.syntheticQuantiles.size(), std::size_t{11});
            if (s.original.upper > s.original.lower && s.synthetic.upper > s.synthetic.lower)
                QVERIFY(close(s.ciOverlap, karr(s.original.lower, s.original.upper,
                                                s.synthetic.lower, s.synthetic.upper)));
        }
        QCOMPARE(r->grid.size(), std::size_t{11});
    }
    // "quantiles": [] in a configuration compares the mean and the median only, as its
    // saved copy says (it used to bring back the default quantiles silently).
    void noQuantilesMeansMeanAndMedian() {
        auto c = parseRunConfig(R"({"data": {"path": "d.csv", "target": "y"},
            "utility": {"quantiles": []}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        QVERIFY(c->utility.quantiles.empty());
        UtilityOptions o = fastOptions();
        o.quantiles = c->utility.quantiles;
        auto r = computeUtility(tinyInputs(), o, 3);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        QCOMPARE(r->statistics.size(), std::size_t{2});
        QCOMPARE(r->statistics[0].name, std::string("mean"));
        QCOMPARE(r->statistics[1].name, std::string("median"));
    }
    // Intercept-only regression: q_l = mean, u_l = s^2 / n; the combining rules by hand.
    void combiningRulesByHand() {
        auto r = computeUtility(tinyInputs(), fastOptions(), 3);
        QVERIFY(r.hasValue());
        QCOMPARE(r->regression.size(), std::size_t{1});
        const auto& t = r->regression[0];
        QCOMPARE(t.term, std::string("(Intercept)"));
        QVERIFY(close(t.original.estimate, 2.5));
        // s^2 = 5/3, u = 5/12, t_{3, .975} = 3.182446305
        QVERIFY(close(t.original.upper - 2.5, 3.182446305284263 * std::sqrt(5.0 / 12), 1e-9));
        QVERIFY(close(t.synthetic.estimate, 3.125));
        QVERIFY(close(t.b, 0.28125));                        // (0.375^2 * 2) / (m - 1)
        QVERIFY(close(t.ubar, (35.0 / 48 + 5.0 / 12) / 2));  // (2.9167/4 + 1.6667/4) / 2
        const double bm = 0.28125 / 2;
        QVERIFY(close(t.df, std::pow(1 + t.ubar / bm, 2), 1e-12));
        QVERIFY(close(t.ciOverlap, karr(t.original.lower, t.original.upper, t.synthetic.lower,
                                        t.synthetic.upper)));
        QVERIFY(close(r->regressionMeanOverlap, t.ciOverlap));
    }
    // ECDF distances by hand: {1,2,3,4} vs {1,2,3,5}: only z = 4 differs (by 1/4), so
    // U_m = 1/4, U_a = (1/16) / 8; vs {2,3,4,5}: 7 of the 8 pooled points differ by 1/4.
    void ecdfByHand() {
        auto r = computeUtility(tinyInputs(), fastOptions(), 3);
        QVERIFY(r.hasValue());
        QCOMPARE(r->ecdf.perDataset.size(), std::size_t{2});
        QVERIFY(close(r->ecdf.perDataset[0].maxAbs, 0.25));
        QVERIFY(close(r->ecdf.perDataset[0].meanSquare, 0.0625 / 8));
        QVERIFY(close(r->ecdf.perDataset[1].meanSquare, 7 * 0.0625 / 8));
        QVERIFY(close(r->ecdf.Um, 0.25));
        QVERIFY(close(r->ecdf.Ua, 0.03125));
    }
    // pMSE with y alone in the propensity model (k = 2): {0,0,0,1} against {1,1,1,1} has
    // propensities 1/3 (for y = 0 ... ) computed directly, and the report's average.
    void pmseMatchesDirectComputation() {
        UtilityInputs in = tinyInputs();
        in.original = {0, 1, 0, 1, 2, 1};
        in.synthetic = {{1, 1, 0, 2, 2, 1}, {0, 2, 1, 1, 2, 2}};
        in.regressionDesign.resize(6, 0);
        in.propensityPredictors.resize(6, 0);
        auto r = computeUtility(in, fastOptions(), 3);
        QVERIFY(r.hasValue());
        QVERIFY(r->pmse.computed);
        QCOMPARE(r->pmse.k, 2);
        QCOMPARE(r->pmse.N, std::size_t{12});
        QCOMPARE(r->pmse.c, 0.5);
        double sum = 0;
        for (int l = 0; l < 2; ++l) {
            Eigen::MatrixXd o(6, 1), s(6, 1);
            for (int i = 0; i < 6; ++i) {
                o(i, 0) = in.original[static_cast<std::size_t>(i)];
                s(i, 0) = in.synthetic[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)];
            }
            auto d = utility::pmse(o, s);
            QVERIFY(d.hasValue());
            QVERIFY(close(r->pmse.perDatasetPmse[static_cast<std::size_t>(l)], d->pmse));
            sum += d->standardized;
        }
        QVERIFY(close(r->pmse.sPmse, sum / 2));
        QVERIFY(close(r->pmse.sPmseReference, 2.0));  // 2 / (k - 1) for posterior draws
        in.posteriorPredictive = false;
        auto r2 = computeUtility(in, fastOptions(), 3);
        QVERIFY(close(r2->pmse.sPmseReference, 1.0));
        UtilityOptions off = fastOptions();
        off.pmse = false;
        auto r3 = computeUtility(in, off, 3);
        QVERIFY(!r3->pmse.computed);
        QVERIFY(std::isnan(r3->pmse.sPmse));
    }
    // A resample of the original's own values: Snoke et al.'s null, E[S_pMSE] = 1. Mean over
    // 300 datasets (k = 2, so each S_pMSE is about chi^2_1), tolerance 4 Monte Carlo SE.
    void sPmseNearOneForAResample() {
        const int n = 500, m = 300;
        auto rng = makeRng(11, 0, Purpose::Test);
        boost::random::normal_distribution<double> z;
        UtilityInputs in;
        for (int i = 0; i < n; ++i) in.original.push_back(std::exp(z(rng)));
        for (int l = 0; l < m; ++l) {
            std::vector<double> s(n);
            for (auto& v : s) v = in.original[utility::uniformIndex(rng, n)];
            in.synthetic.push_back(std::move(s));
        }
        in.propensityPredictors.resize(n, 0);
        UtilityOptions o = fastOptions();
        o.bootstrap = 2;
        auto r = computeUtility(in, o, 5, 2);
        QVERIFY(r.hasValue());
        double var = 0;
        for (double s : r->pmse.perDatasetSPmse) var += (s - r->pmse.sPmse) * (s - r->pmse.sPmse);
        const double se = std::sqrt(var / (m - 1) / m);
        qInfo("resample: mean S_pMSE %.3f (MC se %.3f)", r->pmse.sPmse, se);
        QVERIFY2(std::abs(r->pmse.sPmse - 1) < 4 * se + 0.03,
                 qPrintable(QString::number(r->pmse.sPmse)));
    }
    // Fully synthetic data: rows (x and y together) resampled from the original, each dataset
    // with its own predictors. Snoke et al.'s null: E[S_pMSE] = 1 = s_pmse_reference; the
    // regression is skipped with a warning.
    void fullySyntheticResampleHasSPmseNearOne() {
        const int n = 400, m = 200;
        auto rng = makeRng(13, 0, Purpose::Test);
        boost::random::normal_distribution<double> z;
        UtilityInputs in;
        in.propensityPredictors.resize(n, 2);
        for (int i = 0; i < n; ++i) {
            in.propensityPredictors(i, 0) = z(rng);
            in.propensityPredictors(i, 1) = z(rng) > 0 ? 1 : 0;
            in.original.push_back(std::exp(0.5 * in.propensityPredictors(i, 0) + z(rng)));
        }
        in.propensityNames = {"x", "d"};
        in.regressionDesign = Eigen::MatrixXd::Ones(n, 1);
        for (int l = 0; l < m; ++l) {
            Eigen::MatrixXd P(n, 2);
            std::vector<double> y(n);
            for (int i = 0; i < n; ++i) {
                const auto j = utility::uniformIndex(rng, n);
                P.row(i) = in.propensityPredictors.row(static_cast<Eigen::Index>(j));
                y[static_cast<std::size_t>(i)] = in.original[j];
            }
            in.synthetic.push_back(std::move(y));
            in.syntheticPropensityPredictors.push_back(std::move(P));
        }
        UtilityOptions o = fastOptions();
        o.bootstrap = 2;
        auto r = computeUtility(in, o, 5, 2);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        QCOMPARE(r->pmse.k, 4);
        QCOMPARE(r->pmse.sPmseReference, 1.0);
        QVERIFY(r->fullySynthetic);
        QVERIFY(utilityReportFromJson(toJson(*r))->fullySynthetic);
        QVERIFY(r->regression.empty());
        QVERIFY(!r->warnings.empty() && r->warnings[0].starts_with("regression: skipped"));
        double var = 0;
        for (double s : r->pmse.perDatasetSPmse) var += (s - r->pmse.sPmse) * (s - r->pmse.sPmse);
        const double se = std::sqrt(var / (m - 1) / m);
        qInfo("fully synthetic resample: mean S_pMSE %.3f (MC se %.3f)", r->pmse.sPmse, se);
        QVERIFY2(std::abs(r->pmse.sPmse - 1) < 4 * se + 0.05,
                 qPrintable(QString::number(r->pmse.sPmse)));
        // The same data read as partial synthesis (shared predictors) is a different setting.
        UtilityInputs partial = in;
        partial.syntheticPropensityPredictors.clear();
        auto rp = computeUtility(partial, o, 5, 2);
        QVERIFY(rp.hasValue());
        QVERIFY(rp->pmse.sPmseReference < 1);
    }
    // Partial synthesis (x released as is, c = 1/2, k = 3): only y's score is left. With y*
    // from the confidential fit's fixed parameters E[S_pMSE] = 1/(k-1) = 0.5; from posterior
    // predictive draws the parameter uncertainty doubles the variance of sum(y* - y), giving
    // 2/(k-1) = 1, which is the report's s_pmse_reference for a run. (An earlier session's
    // note of 0.25 for posterior draws does not survive this check.)
    void sPmseReferenceForPartialSynthesis() {
        double se = 0;
        const double fixed = partialSynthesisMeanSPmse(false, 3, &se);
        qInfo("partial, fixed parameters: mean S_pMSE %.3f (MC se %.3f), reference 0.5", fixed, se);
        QVERIFY2(std::abs(fixed - 0.5) < 4 * se + 0.05 * 0.5, qPrintable(QString::number(fixed)));
        const double posterior = partialSynthesisMeanSPmse(true, 3, &se);
        qInfo("partial, posterior draws: mean S_pMSE %.3f (MC se %.3f), reference 1", posterior,
              se);
        QVERIFY2(std::abs(posterior - 1.0) < 4 * se + 0.05, qPrintable(QString::number(posterior)));
        QCOMPARE(sPmseReference(3, true), 1.0);
        QCOMPARE(sPmseReference(3, false), 0.5);
    }
    // Synthetic values that the propensity model separates perfectly: a warning, not an
    // error and not a silent number.
    void separationGivesAWarning() {
        UtilityInputs in = tinyInputs();
        in.original = {1, 2, 3, 4, 1.5, 2.5};
        in.synthetic = {{11, 12, 13, 14, 11.5, 12.5}, {21, 22, 23, 24, 21.5, 22.5}};
        in.regressionDesign = Eigen::MatrixXd::Ones(6, 1);
        in.propensityPredictors.resize(6, 0);
        auto r = computeUtility(in, fastOptions(), 3);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        QVERIFY(!r->pmse.warnings.empty());
        bool mentioned = false;
        for (const auto& w : r->warnings) mentioned = mentioned || w.starts_with("pMSE:");
        QVERIFY(mentioned);
        // The intervals do not overlap at all: the overlap is negative, not clipped to 0.
        QVERIFY(r->statistics[0].ciOverlap < 0);
    }
    void zeroWidthIntervalIsUndefinedWithAWarning() {
        UtilityInputs in = tinyInputs();
        in.original = {5, 5, 5, 5};
        in.synthetic = {{5, 5, 5, 6}, {5, 5, 6, 5}};
        in.regressionDesign.resize(4, 0);
        UtilityOptions o = fastOptions();
        o.pmse = false;
        auto r = computeUtility(in, o, 3);
        QVERIFY(r.hasValue());
        QVERIFY(std::isnan(r->statistics[1].ciOverlap));  // median: [5, 5]
        // Every statistic of a constant original has a zero-width interval: one warning each.
        QCOMPARE(r->warnings.size(), std::size_t{4});
        QVERIFY(r->warnings[1].starts_with("median: no CI overlap"));
    }
    void badInputsAreErrors() {
        UtilityInputs in = tinyInputs();
        in.synthetic[1].pop_back();
        auto r = computeUtility(in, fastOptions(), 3);
        QVERIFY(!r.hasValue());
        QVERIFY(r.message().find("synthetic dataset 2") != std::string::npos);
        in = tinyInputs();
        in.synthetic.clear();
        QVERIFY(!computeUtility(in, fastOptions(), 3).hasValue());
        // Propensity predictors of other records: an error, not a pMSE of y alone.
        in = tinyInputs();
        in.propensityPredictors = Eigen::MatrixXd::Ones(3, 2);
        r = computeUtility(in, fastOptions(), 3);
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("predictors have 3 rows, the original data 4 records") !=
                     std::string::npos,
                 r.message().c_str());
        UtilityOptions o = fastOptions();
        o.quantiles = {1.5};
        QVERIFY(!computeUtility(tinyInputs(), o, 3).hasValue());
        o = fastOptions();
        o.level = 1;
        QVERIFY(!computeUtility(tinyInputs(), o, 3).hasValue());
        // m = 1: no combining rules, a warning instead.
        in = tinyInputs();
        in.synthetic.pop_back();
        auto one = computeUtility(in, fastOptions(), 3);
        QVERIFY(one.hasValue());
        QVERIFY(one->regression.empty());
        QVERIFY(!one->warnings.empty());
    }
    void cancelStops() {
        ProgressCallback stop = [](const Progress&) { return Continue::Stop; };
        auto r = computeUtility(tinyInputs(), fastOptions(), 3, 1, stop);
        QVERIFY(!r.hasValue());
        QVERIFY(r.message().find("cancelled") != std::string::npos);
        QVERIFY(r.kind() == ErrorKind::Cancelled);
    }
    // A Stop answered in the middle of a stage on a many-level design is honoured at once: the
    // stage asks after every few units of work (a bootstrap replicate, 64 columns of the
    // regression's inverse diagonal, an ECDF dataset, a Newton iteration of the first
    // dataset's propensity fit), so the third question of the stage comes with at most
    // maxDone units done, and the callback is hardly asked again afterwards (each question
    // after the Stop would be more work done after it).
    void stopMidStageOnManyLevels_data() {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<double>("maxDone");
        QTest::newRow("bootstrap") << "bootstrap" << 3.0;
        QTest::newRow("regression") << "regression" << 128.0;
        QTest::newRow("ecdf") << "ecdf" << 2.0;
        QTest::newRow("pmse") << "pmse" << 0.0;
    }
    void stopMidStageOnManyLevels() {
        QFETCH(QString, stage);
        QFETCH(double, maxDone);
        const auto in = manyLevelInputs(1500, 300);
        constexpr int kAskedBeforeStop = 2;  // the stage's own start, then one from inside
        std::mutex mutex;
        int askedInStage = 0, askedAfterStop = 0;
        bool stopped = false;
        Progress atStop;
        ProgressCallback progress = [&](const Progress& p) {
            std::lock_guard lock(mutex);
            if (stopped) {
                ++askedAfterStop;
                return Continue::Stop;
            }
            if (p.stage != stage.toStdString() || ++askedInStage <= kAskedBeforeStop)
                return Continue::Yes;
            stopped = true;
            atStop = p;
            return Continue::Stop;
        };
        auto r = computeUtility(in, fastOptions(), 3, 1, progress);
        QVERIFY2(stopped, "the stage never asked from inside");
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("cancelled") != std::string::npos, r.message().c_str());
        // The stop noticed inside the stage's own computation (the regression, the ECDF, the
        // propensity fit) reaches the report as a cancellation, told by its kind.
        QVERIFY2(r.kind() == ErrorKind::Cancelled, toString(r.kind()));
        qInfo("stopped at %s %.0f/%.0f; asked %d times after", atStop.stage.c_str(), atStop.done,
              atStop.total, askedAfterStop);
        QVERIFY2(atStop.done <= maxDone, "the stage did too much work between two questions");
        QVERIFY(askedAfterStop <= 1);
    }
    void sameSeedSameReportForAnyThreadCount() {
        auto a = computeUtility(tinyInputs(), fastOptions(), 9, 1);
        auto b = computeUtility(tinyInputs(), fastOptions(), 9, 2);
        a->seconds = b->seconds = {};
        QCOMPARE(toJson(*a), toJson(*b));
        auto c = computeUtility(tinyInputs(), fastOptions(), 10, 1);
        c->seconds = {};
        QVERIFY(toJson(*a) != toJson(*c));
    }
    void compareParametersRatios() {
        ParameterSummary w{"beta", 1, 0.5, 0, 1, 2}, u{"beta", 1, 0.25, 0.5, 1, 1.5};
        ParameterSummary only{"sigma", 1, 1, 0, 1, 2};
        auto c = compareParameters({w, only}, {u});
        QCOMPARE(c.size(), std::size_t{1});
        QCOMPARE(c[0].name, std::string("beta"));
        QCOMPARE(c[0].widthRatio, 2.0);
    }
    // The key names of the contract, null for undefined numbers, and toJson(fromJson(x)) = x.
    void jsonContractAndRoundTrip() {
        UtilityInputs in = tinyInputs();
        in.weightedParameters = {{"beta", 1, 0.5, 0, 1, 2}};
        in.unweightedParameters = {{"beta", 1, 0.25, 0.5, 1, 1.5}};
        auto r = computeUtility(in, fastOptions(), 3);
        QVERIFY(r.hasValue());
        r->statistics[1].ciOverlap = kUndefined;
        r->warnings.push_back("a note");
        const std::string text = toJson(*r);
        const auto j = nlohmann::json::parse(text);
        QVERIFY(j["ecdf"].contains("U_m") && j["ecdf"].contains("U_a"));
        QVERIFY(j["pmse"].contains("pmse") && j["pmse"].contains("s_pmse") &&
                j["pmse"].contains("s_pmse_reference"));
        const auto& t = j["regression"][0];
        QCOMPARE(t["term"].get<std::string>(), std::string("(Intercept)"));
        for (const char* side : {"original", "synthetic"})
            for (const char* key : {"estimate", "lower", "upper"})
                QVERIFY2(t[side][key].is_number(), key);
        QVERIFY(t["ci_overlap"].is_number());
        QVERIFY(j["statistics"][1]["ci_overlap"].is_null());
        QCOMPARE(j["parameters"][0]["width_ratio"].get<double>(), 2.0);
        auto back = utilityReportFromJson(text);
        QVERIFY2(back.hasValue(), back.hasValue() ? "" : back.message().c_str());
        QVERIFY(std::isnan(back->statistics[1].ciOverlap));
        QCOMPARE(back->statistics[2].statistic.probability, 0.15);
        QCOMPARE(toJson(*back), text);
        // Malformed documents are errors naming the key.
        auto bad = utilityReportFromJson(R"({"ecdf": {"U_m": "x", "U_a": 0}, "pmse": {}})");
        QVERIFY(!bad.hasValue());
        QVERIFY(bad.message().find("U_m") != std::string::npos);
        QVERIFY(!utilityReportFromJson("not json").hasValue());
        auto failed = utilityReportFromJson(R"({"error": "regress: no such column"})");
        QVERIFY(!failed.hasValue());
        QVERIFY(failed.message().find("no such column") != std::string::npos);
    }
    // A run computes each synthesizer's utility as a stage and run.json carries it.
    void runnerComputesUtility() {
        auto c = parseRunConfig(R"({
          "data": {"path": "poisson.csv", "target": "y"},
          "model": {"family": "poisson-means"},
          "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 3},
          "synthesis": {"m": 3}, "risk": {"L": 3},
          "utility": {"quantiles": [0.1, 0.9], "bootstrap": 100, "grid_points": 21},
          "synthesizers": [
            {"name": "Unweighted", "scheme": "unweighted"},
            {"name": "LW", "scheme": "lipschitz", "c": 0.7}
          ]})");
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        const auto table = data::makeExample(data::ExampleId::Poisson);
        std::vector<std::string> stages;
        std::mutex mu;
        RunOptions ro;
        ro.progress = [&](const Progress& p) {
            std::lock_guard lock(mu);
            if (stages.empty() || stages.back() != p.stage) stages.push_back(p.stage);
            return Continue::Yes;
        };
        auto run = runStudy(*c, table, ro);
        QVERIFY2(run.hasValue(), run.hasValue() ? "" : run.message().c_str());
        QVERIFY(std::find(stages.begin(), stages.end(), "LW: utility") != stages.end());
        for (const auto& s : run->synthesizers) {
            QVERIFY2(s.utility.has_value(), s.utilityError.c_str());
            QCOMPARE(s.utility->datasets, std::size_t{3});
            QCOMPARE(s.utility->statistics.size(), std::size_t{4});
            QCOMPARE(s.utility->statistics[2].name, std::string("quantile 0.1"));
            QCOMPARE(s.utility->grid.size(), std::size_t{21});
            QVERIFY(s.utility->regression.size() == 1);  // intercept only: no predictors
            QVERIFY(s.stageSeconds.utility > 0);
            QCOMPARE(s.seconds, s.stageSeconds.fits);
        }
        // LW's posterior against the unweighted one: weighting widens the interval.
        const auto* lw = run->find("LW");
        QVERIFY(!lw->utility->parameters.empty());
        QVERIFY(lw->utility->parameters[0].widthRatio > 1);
        const auto j = nlohmann::json::parse(runSummaryJson(*run));
        const auto& u = j["synthesizers"]["LW"]["utility"];
        QVERIFY(u["ecdf"]["U_m"].is_number());
        QVERIFY(u["pmse"]["s_pmse"].is_number());
        QVERIFY(j["synthesizers"]["LW"]["stage_seconds"].contains("utility"));
        auto back = utilityReportFromJson(u.dump());
        QVERIFY(back.hasValue());
        QCOMPARE(back->statistics[0].original.estimate,
                 lw->utility->statistics[0].original.estimate);
        // The configuration round-trips the block; unknown keys are errors.
        auto again = parseRunConfig(toJson(*c));
        QVERIFY(again.hasValue());
        QCOMPARE(again->utility.bootstrap, 100);
        QCOMPARE(again->utility.quantiles, (std::vector<double>{0.1, 0.9}));
        auto bad = parseRunConfig(R"({"data": {"path": "p.csv", "target": "y"},
          "utility": {"bootstraps": 10}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        QVERIFY(!bad.hasValue());
        QVERIFY(bad.message().find("unknown key 'bootstraps'") != std::string::npos);
        auto badRegress =
            parseRunConfig(R"({"data": {"path": "p.csv", "target": "y", "predictors": ["a"]},
          "utility": {"regress": ["b"]}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        QVERIFY(!badRegress.hasValue());
        QVERIFY(badRegress.message().find("'b'") != std::string::npos);
        // Disabled: no report, no time.
        auto off = parseRunConfig(R"({"data": {"path": "poisson.csv", "target": "y"},
          "model": {"family": "poisson-means"}, "mcmc": {"chains": 1, "warmup": 0, "draws": 100},
          "synthesis": {"m": 2}, "risk": {"L": 2}, "utility": {"enabled": false},
          "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        auto runOff = runStudy(*off, table);
        QVERIFY(runOff.hasValue());
        QVERIFY(!runOff->synthesizers[0].utility);
    }
    // Inputs from tables (the CLI's path): rows must match, predictors must be unchanged.
    void inputsFromTables() {
        const auto table = data::makeExample(data::ExampleId::IncomeSurvey);
        std::vector<data::Table> synth{table, table};
        auto in = utilityInputsFromTables(table, synth, "income", {"age", "gender"});
        QVERIFY2(in.hasValue(), in.hasValue() ? "" : in.message().c_str());
        QCOMPARE(in->regressionNames.front(), std::string("(Intercept)"));
        QCOMPARE(static_cast<std::size_t>(in->regressionDesign.rows()), table.rowCount());
        QCOMPARE(in->propensityPredictors.cols() + 1, in->regressionDesign.cols());
        QVERIFY(!in->posteriorPredictive);
        auto missing = utilityInputsFromTables(table, synth, "nope", {});
        QVERIFY(!missing.hasValue());
        QVERIFY(missing.message().find("'nope'") != std::string::npos);
        std::vector<std::uint8_t> keep(table.rowCount(), 1);
        keep[0] = 0;
        std::vector<data::Table> shorter{table.filteredRows(keep)};
        auto rows = utilityInputsFromTables(table, shorter, "income", {});
        QVERIFY(!rows.hasValue());
        QVERIFY(rows.message().find("rows") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TstUtilityReport)
#include "tst_utility_report.moc"
