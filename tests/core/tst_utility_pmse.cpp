// IRLS logistic regression (closed-form group proportions, score equations, separation) and
// pMSE / S_pMSE (a case by hand, the per-dataset average, the separation warning, and the
// null expectation S_pMSE ~ 1 when both samples come from one distribution).
#include <QTest>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>

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
        QVERIFY(std::abs(f->coefficients(0) - std::log(2.0 / 3)) < 1e-9);
        QVERIFY(std::abs(f->coefficients(1) - std::log(4.5)) < 1e-9);
        QVERIFY(std::abs(f->deviance - 11.228797827) < 1e-8);
        QVERIFY(std::abs(f->fitted(0) - 0.4) < 1e-9);
        QVERIFY(std::abs(f->fitted(8) - 0.75) < 1e-9);
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
        QVERIFY(std::abs(r->pmse - 1.0 / 16) < 1e-10);
        QVERIFY(std::abs(r->standardized - 4) < 1e-8);
        // Unequal sizes: original (0, 0, 1), synthetic (0, 1, 1, 1, 1): c = 5/8;
        // z = 0: 1/3, z = 1: 4/5; pMSE = (3 (1/3 - 5/8)^2 + 5 (4/5 - 5/8)^2) / 8.
        Eigen::MatrixXd o2(3, 1), s2(5, 1);
        o2 << 0, 0, 1;
        s2 << 0, 1, 1, 1, 1;
        auto r2 = pmse(o2, s2);
        QVERIFY(r2.hasValue());
        const double expected =
            (3 * std::pow(1.0 / 3 - 0.625, 2) + 5 * std::pow(0.8 - 0.625, 2)) / 8;
        QVERIFY(std::abs(r2->pmse - expected) < 1e-10);
        QVERIFY(std::abs(r2->standardized - expected / (0.375 * 0.375 * 0.625 / 8)) < 1e-7);
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
            QVERIFY(std::abs(r->pmse - u->perDataset[l].pmse) < 1e-15);
            QCOMPARE(u2->perDataset[l].pmse, u->perDataset[l].pmse);
            sum += r->standardized;
        }
        QCOMPARE(u->perDataset[0].k, 5);
        QVERIFY(std::abs(u->standardized - sum / 3) < 1e-12);
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
        QVERIFY(std::abs(u->perDataset[0].pmse - 0.25) < 1e-6);
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
