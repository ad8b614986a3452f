// OLS against the closed-form simple regression, rank-deficient designs, and the regression
// utility (original interval vs combined synthetic interval, CI overlap) on cases worked by
// hand.
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <QTest>
#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "../common/near.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/ols.hpp"

using namespace ppsynth;
using namespace ppsynth::utility;

namespace {
// x = 1..5, y = (2, 4, 5, 4, 5): xbar = 3, ybar = 4, Sxx = 10, Sxy = 6, slope 0.6,
// intercept 4 - 0.6 * 3 = 2.2; residuals -0.8, 0.6, 1, -0.6, -0.2, RSS = 2.4, sigma^2 = 2.4/3
// = 0.8; se(slope) = sqrt(0.8 / 10), se(intercept) = sqrt(0.8 (1/5 + 9/10)) = sqrt(0.88);
// t_{3, 0.975} = 3.182446305.
Eigen::MatrixXd simpleX() {
    Eigen::MatrixXd X(5, 2);
    X << 1, 1, 1, 2, 1, 3, 1, 4, 1, 5;
    return X;
}
const std::vector<double> simpleY{2, 4, 5, 4, 5};
constexpr double t3 = 3.182446305;

// n records: an intercept, a categorical of `levels` levels dummy coded against level 0
// (every level present), and a numeric x; y = 1 + 0.5 x + a level effect + N(0, 1), and
// m = 3 synthetic y* drawn the same way.
struct ManyLevels {
    Eigen::MatrixXd X;
    std::vector<std::string> names;
    std::vector<double> y;
    std::vector<std::vector<double>> synthetic;
};
ManyLevels manyLevels(Eigen::Index n, Eigen::Index levels) {
    auto rng = makeRng(12, static_cast<std::uint64_t>(levels), Purpose::Test);
    boost::random::normal_distribution<double> z;
    ManyLevels d;
    d.X = Eigen::MatrixXd::Zero(n, levels + 1);
    d.names = {"(Intercept)"};
    for (Eigen::Index g = 1; g < levels; ++g) d.names.push_back("g[" + std::to_string(g) + "]");
    d.names.push_back("x_z");
    std::vector<double> effect(static_cast<std::size_t>(levels));
    for (auto& e : effect) e = z(rng);
    std::vector<double> mean(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index g = i % levels;
        d.X(i, 0) = 1;
        if (g > 0) d.X(i, g) = 1;
        d.X(i, levels) = z(rng);
        mean[static_cast<std::size_t>(i)] =
            1 + 0.5 * d.X(i, levels) + effect[static_cast<std::size_t>(g)];
    }
    auto draw = [&] {
        std::vector<double> y(mean);
        for (auto& v : y) v += z(rng);
        return y;
    };
    d.y = draw();
    for (int l = 0; l < 3; ++l) d.synthetic.push_back(draw());
    return d;
}

bool near(double a, double b, double tol) {
    if (std::isinf(a) || std::isinf(b)) return a == b || (std::abs(a) > 1e12 && std::abs(b) > 1e12);
    return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}
}  // namespace

class TstUtilityRegression : public QObject {
    Q_OBJECT
  private slots:
    void closedForm() {
        auto f = fitOls(simpleX(), simpleY, {"(intercept)", "x"});
        QVERIFY(f.hasValue());
        QVERIFY_NEAR(f->coefficients(0), 2.2, 1e-12);
        QVERIFY_NEAR(f->coefficients(1), 0.6, 1e-12);
        QVERIFY_NEAR(f->sigma2, 0.8, 1e-12);
        QCOMPARE(f->df, 3);
        QVERIFY_NEAR(f->standardErrors(0), std::sqrt(0.88), 1e-12);
        QVERIFY_NEAR(f->standardErrors(1), std::sqrt(0.08), 1e-12);
        // cov(intercept, slope) = -sigma^2 xbar / Sxx = -0.24
        QVERIFY_NEAR(f->covariance(0, 1), -0.24, 1e-12);
        QVERIFY_NEAR(f->intervals[1].lower, (0.6 - t3 * std::sqrt(0.08)), 1e-8);
        QVERIFY_NEAR(f->intervals[1].upper, (0.6 + t3 * std::sqrt(0.08)), 1e-8);
        QCOMPARE(f->names[1], std::string("x"));
    }
    // Columns on wildly different scales (income-like and tiny) against the normal equations.
    void scaledColumnsMatchNormalEquations() {
        auto rng = makeRng(1, 0, Purpose::Test);
        boost::random::normal_distribution<double> z;
        const Eigen::Index n = 300;
        Eigen::MatrixXd X(n, 4);
        Eigen::VectorXd y(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            X(i, 0) = 1;
            X(i, 1) = 5e4 + 2e4 * z(rng);
            X(i, 2) = 1e-3 * z(rng);
            X(i, 3) = z(rng);
            y(i) = 3 + 1e-4 * X(i, 1) + 200 * X(i, 2) - X(i, 3) + z(rng);
        }
        std::vector<double> yv(y.data(), y.data() + n);
        auto f = fitOls(X, yv);
        QVERIFY(f.hasValue());
        const Eigen::MatrixXd XtX = X.transpose() * X;
        const Eigen::VectorXd beta = XtX.ldlt().solve(X.transpose() * y);
        const double s2 = (y - X * beta).squaredNorm() / double(n - 4);
        const Eigen::MatrixXd cov = s2 * XtX.inverse();
        for (Eigen::Index j = 0; j < 4; ++j) {
            QVERIFY_NEAR(f->coefficients(j) / beta(j), 1, 1e-7);
            QVERIFY_NEAR(f->standardErrors(j) / std::sqrt(cov(j, j)), 1, 1e-7);
        }
        QCOMPARE(f->names[2], std::string("column 3"));
    }
    void rankDeficientNamesColumns() {
        // a + b = 1: the dummy trap with an intercept.
        Eigen::MatrixXd X(6, 3);
        X << 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1;
        const std::vector<double> y{1, 2, 3, 4, 5, 6};
        auto f = fitOls(X, y, {"(intercept)", "sex=f", "sex=m"});
        QVERIFY(!f.hasValue());
        const QString msg = QString::fromStdString(f.message());
        QVERIFY2(msg.contains("rank 2 of 3"), qPrintable(msg));
        QVERIFY(msg.contains("'sex=f'") || msg.contains("'sex=m'") ||
                msg.contains("'(intercept)'"));
        QVERIFY(msg.contains("linear combination"));
        // A column of zeros, too few rows, a NaN.
        Eigen::MatrixXd Z = simpleX();
        Z.col(1).setZero();
        QVERIFY(QString::fromStdString(fitOls(Z, simpleY, {"a", "b"}).message())
                    .contains("'b' is all zero"));
        QVERIFY(!fitOls(simpleX().topRows(2), std::vector<double>{1, 2}).hasValue());
        Eigen::MatrixXd W = simpleX();
        W(3, 1) = std::nan("");
        QVERIFY(QString::fromStdString(fitOls(W, simpleY).message()).contains("row 4"));
    }
    // Synthetic y* = y exactly (m = 2): b = 0, so the synthetic interval is the normal one
    // with the same centre and se; nested inside the t_3 interval:
    // I = (w_s / w_o + 1) / 2 = (1.959963985 / 3.182446305 + 1) / 2.
    void identicalSyntheticData() {
        auto r = regressionUtility(simpleX(), simpleY, {simpleY, simpleY});
        QVERIFY(r.hasValue());
        for (const auto& c : r->coefficients) {
            QCOMPARE(c.synthetic.b, 0.0);
            QVERIFY(std::isinf(c.synthetic.df));
            QVERIFY_NEAR(c.synthetic.qbar, c.original, 1e-12);
            QVERIFY_NEAR(c.overlap, (1.959963985 / t3 + 1) / 2, 1e-8);
        }
    }
    // y* = y - 1 and y + 1: the intercepts are 1.2 and 3.2, the slopes stay 0.6 and every
    // residual (so every u) is unchanged. Intercept: qbar = 2.2, b = 2, ubar = 0.88,
    // T = 2/2 + 0.88 = 1.88, df = 1 (1 + 0.88 / 1)^2 = 3.5344. Slope: b = 0, T = 0.08.
    void shiftedSyntheticData() {
        std::vector<double> lo = simpleY, hi = simpleY;
        for (auto& v : lo) v -= 1;
        for (auto& v : hi) v += 1;
        auto r = regressionUtility(simpleX(), simpleY, {lo, hi});
        QVERIFY(r.hasValue());
        const auto& a = r->coefficients[0];
        QVERIFY_NEAR(a.synthetic.qbar, 2.2, 1e-12);
        QVERIFY_NEAR(a.synthetic.b, 2, 1e-12);
        QVERIFY_NEAR(a.synthetic.ubar, 0.88, 1e-12);
        QVERIFY_NEAR(a.synthetic.T, 1.88, 1e-12);
        QVERIFY_NEAR(a.synthetic.df, 3.5344, 1e-12);
        const auto& s = r->coefficients[1];
        QVERIFY_NEAR(s.synthetic.T, 0.08, 1e-12);
        QVERIFY_NEAR(r->meanOverlap, (a.overlap + s.overlap) / 2, 1e-15);
        // The synthetic intercept interval is wider than the original and contains it:
        // I = (w_o / w_s + 1) / 2.
        QVERIFY_NEAR(a.overlap, (a.originalInterval.width() / a.synthetic.interval.width() + 1) / 2,
                     1e-12);
    }
    // The sparse form (normal equations, sparse LDLT, the diagonal of (X'X)^-1 only) gives
    // the dense QR's regression utility to rounding, on a design with dummy columns.
    void sparseFormAgreesWithDense_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("levels");
        QTest::newRow("5 levels") << 200 << 5;
        QTest::newRow("150 levels") << 900 << 150;
    }
    void sparseFormAgreesWithDense() {
        QFETCH(int, n);
        QFETCH(int, levels);
        const auto d = manyLevels(n, levels);
        RegressionOptions dense, sparse;
        dense.sparseColumns = 1000000;
        sparse.sparseColumns = 0;
        auto a = regressionUtility(d.X, d.y, d.synthetic, d.names, dense);
        auto b = regressionUtility(d.X, d.y, d.synthetic, d.names, sparse);
        QVERIFY2(a.hasValue(), a.hasValue() ? "" : a.message().c_str());
        QVERIFY2(b.hasValue(), b.hasValue() ? "" : b.message().c_str());
        QCOMPARE(a->coefficients.size(), b->coefficients.size());
        constexpr double tol = 1e-8;
        for (std::size_t j = 0; j < a->coefficients.size(); ++j) {
            const auto &x = a->coefficients[j], &y = b->coefficients[j];
            QCOMPARE(x.name, y.name);
            QVERIFY2(near(x.original, y.original, tol), x.name.c_str());
            QVERIFY(near(x.originalInterval.lower, y.originalInterval.lower, tol));
            QVERIFY(near(x.originalInterval.upper, y.originalInterval.upper, tol));
            QVERIFY(near(x.synthetic.qbar, y.synthetic.qbar, tol));
            QVERIFY(near(x.synthetic.b, y.synthetic.b, 1e-6));
            QVERIFY(near(x.synthetic.ubar, y.synthetic.ubar, tol));
            QVERIFY(near(x.synthetic.df, y.synthetic.df, 1e-6));
            QVERIFY(near(x.overlap, y.overlap, 1e-6));
        }
        QVERIFY(near(a->meanOverlap, b->meanOverlap, 1e-6));
    }
    // The sparse form's rank check names a column of the dummy trap, as the dense one does.
    void sparseFormRankDeficient() {
        auto d = manyLevels(200, 5);
        Eigen::MatrixXd X(d.X.rows(), d.X.cols() + 1);
        X << d.X, Eigen::VectorXd::Ones(d.X.rows()) - d.X.middleCols(1, 4).rowwise().sum();
        auto names = d.names;
        names.push_back("g[0]");
        RegressionOptions sparse;
        sparse.sparseColumns = 0;
        auto r = regressionUtility(X, d.y, d.synthetic, names, sparse);
        QVERIFY(!r.hasValue());
        const QString msg = QString::fromStdString(r.message());
        QVERIFY2(msg.contains("rank deficient") && msg.contains("linear combination"),
                 qPrintable(msg));
        QVERIFY2(msg.contains("'g[") || msg.contains("'(Intercept)'"), qPrintable(msg));
    }
    void regressionUtilityErrors() {
        QVERIFY(!regressionUtility(simpleX(), simpleY, {simpleY}).hasValue());
        auto r = regressionUtility(simpleX(), simpleY, {simpleY, {1, 2}});
        QVERIFY(!r.hasValue());
        QVERIFY(QString::fromStdString(r.message()).contains("synthetic dataset 2"));
    }
};

QTEST_GUILESS_MAIN(TstUtilityRegression)
#include "tst_utility_regression.moc"
