// IRLS logistic regression (closed-form group proportions, score equations, separation) and
// pMSE / S_pMSE (a case by hand, the per-dataset average, the separation warning, and the
// null expectation S_pMSE ~ 1 when both samples come from one distribution).
#include <QTest>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>

#include "../common/near.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/ols.hpp"
#include "ppsynth/utility/pmse.hpp"
#include "ppsynth/utility/statistics.hpp"

using namespace ppsynth;
using namespace ppsynth::utility;

namespace {
Eigen::MatrixXd withIntercept(const Eigen::VectorXd& x) {
    Eigen::MatrixXd X(x.size(), 2);
    X.col(0).setOnes();
    X.col(1) = x;
    return X;
}

double linear(const Eigen::MatrixXd& D, Eigen::Index i) {
    return 1 + 0.3 * D(i, 0) - 0.2 * D(i, 1) + 0.5 * D(i, 2);
}

// Rows (x1, x2, dummy, y) from one population: y | x ~ Poisson(exp(eta)), or N(eta, 1) when
// `gaussian`, with eta = 1 + 0.3 x1 - 0.2 x2 + 0.5 d.
Eigen::MatrixXd population(Rng& rng, Eigen::Index n, bool gaussian = false) {
    boost::random::normal_distribution<double> z;
    boost::random::uniform_int_distribution<int> coin(0, 2);
    Eigen::MatrixXd D(n, 4);
    for (Eigen::Index i = 0; i < n; ++i) {
        D(i, 0) = z(rng);
        D(i, 1) = z(rng);
        D(i, 2) = coin(rng) == 0 ? 1 : 0;
        if (gaussian) {
            D(i, 3) = linear(D, i) + z(rng);
        } else {
            boost::random::poisson_distribution<int> y(std::exp(linear(D, i)));
            D(i, 3) = y(rng);
        }
    }
    return D;
}

// Propensity predictors of n records: the dummies of a categorical with `levels` levels
// (level 0 the reference, every level present) and, when `numeric`, a normal column; y
// depends on both. Returned as (predictors, y, m = 2 synthetic y*).
struct ManyLevels {
    Eigen::MatrixXd P;
    std::vector<double> y;
    std::vector<std::vector<double>> synthetic;
    std::vector<std::string> names;
};
ManyLevels manyLevels(Eigen::Index n, Eigen::Index levels, bool numeric) {
    auto rng = makeRng(21, static_cast<std::uint64_t>(levels), Purpose::Test);
    boost::random::normal_distribution<double> z;
    ManyLevels d;
    d.P = Eigen::MatrixXd::Zero(n, levels - 1 + (numeric ? 1 : 0));
    for (Eigen::Index g = 1; g < levels; ++g) d.names.push_back("g[" + std::to_string(g) + "]");
    if (numeric) d.names.push_back("x_z");
    std::vector<double> mean(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index g = i % levels;
        if (g > 0) d.P(i, g - 1) = 1;
        double m = 0.1 * static_cast<double>(g % 7);
        if (numeric) m += 0.5 * (d.P(i, levels - 1) = z(rng));
        mean[static_cast<std::size_t>(i)] = m;
    }
    auto draw = [&](double shift) {
        std::vector<double> y(mean);
        for (auto& v : y) v += shift + z(rng);
        return y;
    };
    d.y = draw(0);
    d.synthetic = {draw(0), draw(0.2)};
    return d;
}
}  // namespace

class TstUtilityPmse : public QObject {
    Q_OBJECT
  private slots:
    // One binary predictor: the MLE fits the group proportions. x = 0: 2 of 5, x = 1: 3 of 4,
    // so beta0 = logit(0.4) = log(2/3), beta1 = logit(0.75) - logit(0.4) = log(4.5), and the
    // deviance is -2 (2 log .4 + 3 log .6 + 3 log .75 + log .25) = 11.228797827.
    void logisticGroupProportions() {
        Eigen::VectorXd x(9), y(9);
        x << 0, 0, 0, 0, 0, 1, 1, 1, 1;
        y << 1, 0, 1, 0, 0, 1, 1, 0, 1;
        auto f = fitLogistic(withIntercept(x), y);
        QVERIFY(f.hasValue());
        QVERIFY(f->converged);
        QVERIFY(f->warning.empty());
        QVERIFY_NEAR(f->coefficients(0), std::log(2.0 / 3), 1e-9);
        QVERIFY_NEAR(f->coefficients(1), std::log(4.5), 1e-9);
        QVERIFY_NEAR(f->deviance, 11.228797827, 1e-8);
        QVERIFY_NEAR(f->fitted(0), 0.4, 1e-9);
        QVERIFY_NEAR(f->fitted(8), 0.75, 1e-9);
    }
    // A continuous case: at the MLE the score X'(y - p) vanishes.
    void logisticScoreEquations() {
        auto rng = makeRng(4, 0, Purpose::Test);
        boost::random::normal_distribution<double> z;
        boost::random::uniform_01<double> u;
        const Eigen::Index n = 400;
        Eigen::MatrixXd X(n, 3);
        Eigen::VectorXd y(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            X(i, 0) = 1;
            X(i, 1) = z(rng);
            X(i, 2) = 100 + 30 * z(rng);  // an unscaled column
            const double p = 1 / (1 + std::exp(-(-0.5 + 1.2 * X(i, 1) + 0.01 * (X(i, 2) - 100))));
            y(i) = u(rng) < p ? 1 : 0;
        }
        auto f = fitLogistic(X, y);
        QVERIFY(f.hasValue());
        QVERIFY(f->converged);
        QVERIFY(!f->separation);
        QVERIFY(f->warning.empty());
        QVERIFY(f->iterations <= 10);
        const Eigen::VectorXd score = X.transpose() * (y - f->fitted);
        for (Eigen::Index j = 0; j < 3; ++j)
            QVERIFY2(std::abs(score(j)) < 1e-6 * X.col(j).cwiseAbs().sum(),
                     qPrintable(QString::number(score(j))));
        QVERIFY(f->lastStep < 1e-4);
    }
    void logisticSeparation_data() {
        QTest::addColumn<std::vector<double>>("x");
        QTest::addColumn<std::vector<double>>("y");
        QTest::newRow("complete") << std::vector<double>{1, 2, 3, 4, 5, 6}
                                  << std::vector<double>{0, 0, 0, 1, 1, 1};
        QTest::newRow("quasi-complete")
            << std::vector<double>{1, 2, 3, 3, 4, 5} << std::vector<double>{0, 0, 0, 1, 1, 1};
    }
    void logisticSeparation() {
        QFETCH(std::vector<double>, x);
        QFETCH(std::vector<double>, y);
        const auto n = static_cast<Eigen::Index>(x.size());
        auto f = fitLogistic(withIntercept(Eigen::Map<Eigen::VectorXd>(x.data(), n)),
                             Eigen::Map<Eigen::VectorXd>(y.data(), n));
        QVERIFY(f.hasValue());
        QVERIFY(f->separation);
        QVERIFY2(QString::fromStdString(f->warning).contains("separates"),
                 qPrintable(QString::fromStdString(f->warning)));
    }
    // Quasi-separation hidden in a large, otherwise ordinary fit: a rare dummy is 1 only for
    // records with y = 1. The deviance criterion is met while that coefficient still runs off
    // and its fitted probabilities stay far from 1e-15; the Newton-step check catches it.
    void logisticHiddenQuasiSeparation() {
        auto rng = makeRng(6, 0, Purpose::Test);
        boost::random::normal_distribution<double> z;
        const Eigen::Index n = 2000;
        Eigen::MatrixXd X(n, 3);
        Eigen::VectorXd y(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            X(i, 0) = 1;
            X(i, 1) = z(rng);
            y(i) = z(rng) + X(i, 1) > 0 ? 1 : 0;
            X(i, 2) = 0;
        }
        int marked = 0;
        for (Eigen::Index i = 0; i < n && marked < 3; ++i)
            if (y(i) == 1) X(i, 2) = 1, ++marked;
        auto f = fitLogistic(X, y, {}, {"(intercept)", "x", "rare"});
        QVERIFY(f.hasValue());
        QVERIFY2(f->separation, qPrintable(QString::number(f->lastStep)));
        QVERIFY(!f->warning.empty());
    }
    void logisticErrors() {
        Eigen::VectorXd x(4), y(4);
        x << 1, 2, 3, 4;
        y << 0, 1, 2, 1;
        auto f = fitLogistic(withIntercept(x), y);
        QVERIFY(!f.hasValue());
        QVERIFY(QString::fromStdString(f.message()).contains("row 3"));
        Eigen::MatrixXd X(4, 3);
        X << withIntercept(x), 2 * x;
        y << 0, 1, 0, 1;
        QVERIFY(QString::fromStdString(fitLogistic(X, y).message()).contains("rank deficient"));
    }

    // By hand: one binary variable z; original (0, 0, 0, 1), synthetic (0, 1, 1, 1). N = 8,
    // c = 1/2; the propensity is the synthetic share of each group: z = 0: 1/4, z = 1: 3/4.
    // pMSE = (1/4)^2 = 1/16; k = 2, null (k - 1)(1 - c)^2 c / N = 1/64, S_pMSE = 4.
    void pmseByHand() {
        Eigen::MatrixXd o(4, 1), s(4, 1);
        o << 0, 0, 0, 1;
        s << 0, 1, 1, 1;
        auto r = pmse(o, s, {"z"});
        QVERIFY(r.hasValue());
        QVERIFY(r->warning.empty());
        QCOMPARE(r->k, 2);
        QCOMPARE(r->c, 0.5);
        QVERIFY_NEAR(r->pmse, 1.0 / 16, 1e-10);
        QVERIFY_NEAR(r->standardized, 4, 1e-8);
        // Unequal sizes: original (0, 0, 1), synthetic (0, 1, 1, 1, 1): c = 5/8;
        // z = 0: 1/3, z = 1: 4/5; pMSE = (3 (1/3 - 5/8)^2 + 5 (4/5 - 5/8)^2) / 8.
        Eigen::MatrixXd o2(3, 1), s2(5, 1);
        o2 << 0, 0, 1;
        s2 << 0, 1, 1, 1, 1;
        auto r2 = pmse(o2, s2);
        QVERIFY(r2.hasValue());
        const double expected =
            (3 * std::pow(1.0 / 3 - 0.625, 2) + 5 * std::pow(0.8 - 0.625, 2)) / 8;
        QVERIFY_NEAR(r2->pmse, expected, 1e-10);
        QVERIFY_NEAR(r2->standardized, expected / (0.375 * 0.375 * 0.625 / 8), 1e-7);
    }
    void pmseUtilityAveragesDatasets() {
        auto rng = makeRng(8, 0, Purpose::Test);
        const Eigen::MatrixXd D = population(rng, 300);
        const Eigen::MatrixXd predictors = D.leftCols(3);
        std::vector<double> y(D.col(3).data(), D.col(3).data() + 300);
        std::vector<std::vector<double>> syn;
        for (int l = 0; l < 3; ++l) {
            const Eigen::MatrixXd E = population(rng, 300);
            syn.emplace_back(E.col(3).data(), E.col(3).data() + 300);
        }
        PmseOptions opt;
        auto u = pmseUtility(predictors, y, syn, {"x1", "x2", "d"}, "income", opt);
        opt.threads = 2;
        auto u2 = pmseUtility(predictors, y, syn, {"x1", "x2", "d"}, "income", opt);
        QVERIFY(u.hasValue() && u2.hasValue());
        QVERIFY(u->warning.empty());
        double sum = 0;
        for (std::size_t l = 0; l < 3; ++l) {
            Eigen::MatrixXd o(300, 4), s(300, 4);
            o << predictors, D.col(3);
            s << predictors, Eigen::Map<const Eigen::VectorXd>(syn[l].data(), 300);
            auto r = pmse(o, s);
            QVERIFY_NEAR(r->pmse, u->perDataset[l].pmse, 1e-15);
            QCOMPARE(u2->perDataset[l].pmse, u->perDataset[l].pmse);
            sum += r->standardized;
        }
        QCOMPARE(u->perDataset[0].k, 5);
        QVERIFY_NEAR(u->standardized, sum / 3, 1e-12);
    }
    // The sparse form (dummies kept sparse, X'WX by a sparse LDLT) gives the dense form's
    // pMSE to rounding: partial synthesis through pmseUtility, and a fully synthetic dataset
    // (its own predictors: the original's rows in another order) through pmse.
    void sparseFormAgreesWithDense_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("levels");
        QTest::addColumn<bool>("numeric");
        QTest::newRow("5 levels and x") << 300 << 5 << true;
        QTest::newRow("150 levels") << 1200 << 150 << false;
        QTest::newRow("150 levels and x") << 1200 << 150 << true;
    }
    void sparseFormAgreesWithDense() {
        QFETCH(int, n);
        QFETCH(int, levels);
        QFETCH(bool, numeric);
        const auto d = manyLevels(n, levels, numeric);
        PmseOptions dense, sparse;
        dense.sparseColumns = 1000000;
        sparse.sparseColumns = 0;
        auto a = pmseUtility(d.P, d.y, d.synthetic, d.names, "y", dense);
        auto b = pmseUtility(d.P, d.y, d.synthetic, d.names, "y", sparse);
        QVERIFY2(a.hasValue(), a.hasValue() ? "" : a.message().c_str());
        QVERIFY2(b.hasValue(), b.hasValue() ? "" : b.message().c_str());
        QCOMPARE(a->warning, b->warning);
        QVERIFY_WITHIN(a->pmse, b->pmse, 1e-9 * a->pmse);
        QVERIFY_WITHIN(a->standardized, b->standardized, 1e-9 * a->standardized);
        for (std::size_t l = 0; l < 2; ++l) {
            QCOMPARE(a->perDataset[l].k, b->perDataset[l].k);
            QCOMPARE(a->perDataset[l].N, b->perDataset[l].N);
            QVERIFY_WITHIN(a->perDataset[l].pmse, b->perDataset[l].pmse,
                           1e-9 * a->perDataset[l].pmse);
        }
        // Fully synthetic: the synthetic predictors are the original rows reversed.
        const Eigen::MatrixXd reversed = d.P.colwise().reverse();
        auto fa = pmse(d.P, d.y, reversed, d.synthetic[1], {}, dense);
        auto fb = pmse(d.P, d.y, reversed, d.synthetic[1], {}, sparse);
        QVERIFY(fa.hasValue() && fb.hasValue());
        QVERIFY_WITHIN(fa->pmse, fb->pmse, 1e-9 * fa->pmse);
        QCOMPARE(fa->k, fb->k);
    }
    // The sparse logistic fit checks the rank and names a dependent column.
    void sparseLogisticRankDeficient() {
        Eigen::MatrixXd X(6, 3);
        X << 1, 1, 2, 1, 2, 4, 1, 3, 6, 1, 4, 8, 1, 5, 10, 1, 6, 12;
        Eigen::VectorXd y(6);
        y << 0, 1, 0, 1, 1, 0;
        const Eigen::SparseMatrix<double> S = X.sparseView();
        auto f = fitLogistic(S, y, {}, {"(intercept)", "x", "2x"});
        QVERIFY(!f.hasValue());
        const QString msg = QString::fromStdString(f.message());
        QVERIFY2(msg.contains("rank deficient") && (msg.contains("'x'") || msg.contains("'2x'")),
                 qPrintable(msg));
    }
    // Synthetic y far above every original y: the propensity model separates the halves; the
    // pMSE tends to its maximum c (1 - c) = 1/4 and a warning names the datasets.
    void pmseSeparationWarning() {
        auto rng = makeRng(9, 0, Purpose::Test);
        const Eigen::MatrixXd D = population(rng, 200);
        std::vector<double> y(D.col(3).data(), D.col(3).data() + 200);
        std::vector<double> shifted = y, same = y;
        for (auto& v : shifted) v += 1000;
        for (auto& v : same) v += 0.01;  // barely different: no warning
        auto u = pmseUtility(D.leftCols(3), y, {shifted, same});
        QVERIFY(u.hasValue());
        QVERIFY(u->perDataset[0].separation);
        QVERIFY(!u->perDataset[1].separation);
        QVERIFY_NEAR(u->perDataset[0].pmse, 0.25, 1e-6);
        const QString w = QString::fromStdString(u->warning);
        QVERIFY2(w.contains("1 of 2") && w.contains("dataset 1") && w.contains("separates"),
                 qPrintable(w));
    }
    void pmseErrors() {
        Eigen::MatrixXd o(4, 2), s(4, 2);
        o << 1, 1, 1, 2, 1, 3, 1, 4;
        s << 1, 2, 1, 3, 1, 1, 1, 5;
        auto r = pmse(o, s, {"one", "y"});
        QVERIFY(!r.hasValue());
        QVERIFY2(QString::fromStdString(r.message()).contains("'one' is constant"),
                 qPrintable(QString::fromStdString(r.message())));
        QVERIFY(!pmse(o, s.leftCols(1)).hasValue());
        const std::vector<double> y{1, 2, 3, 4};
        QVERIFY(!pmseUtility(o.rightCols(1), y, {{1, 2}}).hasValue());
        QVERIFY(!pmseUtility(o.rightCols(1), y, {}).hasValue());
    }

    // Null expectations of S_pMSE, averaged over R replicates. Snoke et al.'s denominator
    // (k - 1)(1 - c)^2 c / N is the mean of pMSE when the synthetic records are drawn from the
    // original data's own distribution, the original held fixed: a resample of the original
    // rows gives E[S_pMSE] = 1. Further cases check our reading of it (see pmse.hpp):
    //  - two independent samples of one population: the original fluctuates too, the label
    //    scores' variance grows by 1 / (1 - c), so E[S_pMSE] = 1 / (1 - c);
    //  - partial synthesis (shared predictors, Gaussian y, c = 1/2): the predictors' scores
    //    vanish and only y's is left, so E[S_pMSE] = 1 / (k - 1) when y* is drawn from the
    //    original's own OLS fit, and 2 / (k - 1) when y* is drawn from the true model.
    // Tolerance: 4 Monte Carlo standard errors of the mean (from the replicates' own sd) plus
    // 5% of the expectation for finite-N bias.
    void standardizedPmseNullMean_data() {
        QTest::addColumn<QString>("design");
        QTest::addColumn<int>("nOriginal");
        QTest::addColumn<int>("nSynthetic");
        QTest::addColumn<double>("expected");
        QTest::newRow("resample, c = 1/2") << "resample" << 500 << 500 << 1.0;
        QTest::newRow("resample, c = 1/3") << "resample" << 600 << 300 << 1.0;
        QTest::newRow("independent, c = 1/2") << "independent" << 500 << 500 << 2.0;
        QTest::newRow("partial, original fit") << "partial-fit" << 500 << 500 << 0.25;
        QTest::newRow("partial, true model") << "partial-truth" << 500 << 500 << 0.5;
    }
    void standardizedPmseNullMean() {
        QFETCH(QString, design);
        QFETCH(int, nOriginal);
        QFETCH(int, nSynthetic);
        QFETCH(double, expected);
        auto rng = makeRng(10, static_cast<std::uint64_t>(nSynthetic), Purpose::Test);
        boost::random::uniform_int_distribution<Eigen::Index> pick(0, nOriginal - 1);
        boost::random::normal_distribution<double> z;
        const int R = 400;
        std::vector<double> s;
        for (int r = 0; r < R; ++r) {
            const bool partial = design.startsWith("partial");
            const Eigen::MatrixXd o = population(rng, nOriginal, partial);
            Eigen::MatrixXd syn;
            if (design == "independent") {
                syn = population(rng, nSynthetic);
            } else if (design == "resample") {
                syn.resize(nSynthetic, o.cols());
                for (Eigen::Index i = 0; i < nSynthetic; ++i) syn.row(i) = o.row(pick(rng));
            } else if (design == "partial-truth") {
                syn = o;
                for (Eigen::Index i = 0; i < nOriginal; ++i) syn(i, 3) = linear(o, i) + z(rng);
            } else {
                Eigen::MatrixXd X(nOriginal, 4);
                X << Eigen::VectorXd::Ones(nOriginal), o.leftCols(3);
                const Eigen::VectorXd y = o.col(3);
                auto fit = fitOls(X, std::vector<double>(y.data(), y.data() + nOriginal));
                QVERIFY(fit.hasValue());
                const Eigen::VectorXd mu = X * fit->coefficients;
                syn = o;
                for (Eigen::Index i = 0; i < nOriginal; ++i)
                    syn(i, 3) = mu(i) + std::sqrt(fit->sigma2) * z(rng);
            }
            auto res = pmse(o, syn);
            QVERIFY(res.hasValue());
            QVERIFY(res->warning.empty());
            s.push_back(res->standardized);
        }
        const double m = mean(s), se = std::sqrt(variance(s) / R);
        QVERIFY2(std::abs(m - expected) < 4 * se + 0.05 * expected,
                 qPrintable(QString("mean S_pMSE %1, MC se %2").arg(m).arg(se)));
        qInfo("%s: mean S_pMSE over %d replicates %.4f (MC se %.4f), expected %.4f",
              qPrintable(design), R, m, se, expected);
    }
};

QTEST_GUILESS_MAIN(TstUtilityPmse)
#include "tst_utility_pmse.moc"
