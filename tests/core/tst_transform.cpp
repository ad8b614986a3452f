#include <QTest>
#include <cmath>
#include <limits>
#include <vector>

#include "../common/near.hpp"
#include "ppsynth/data/transform.hpp"

using namespace ppsynth::data;

Q_DECLARE_METATYPE(TransformKind)
Q_DECLARE_METATYPE(std::vector<double>)

namespace {
constexpr double kEps = std::numeric_limits<double>::epsilon();
}

class TstTransform : public QObject {
    Q_OBJECT
  private slots:
    // The names are a JSON contract: both directions, exactly these strings.
    void names_data() {
        QTest::addColumn<TransformKind>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("none") << TransformKind::None << "none";
        QTest::newRow("log") << TransformKind::Log << "log";
        QTest::newRow("log-shift") << TransformKind::LogShift << "log-shift";
        QTest::newRow("asinh") << TransformKind::Asinh << "asinh";
    }
    void names() {
        QFETCH(TransformKind, kind);
        QFETCH(QString, name);
        QCOMPARE(QString::fromUtf8(toString(kind).data(), qsizetype(toString(kind).size())), name);
        QVERIFY(transformKindFromString(name.toStdString()) == std::optional<TransformKind>(kind));
    }
    void unknownNames() {
        QVERIFY(!transformKindFromString("Log"));
        QVERIFY(!transformKindFromString("logshift"));
        QVERIFY(!transformKindFromString(""));
    }

    // s = 1 - min(y) when min(y) <= 0, else 0; hand-computed.
    void shift_data() {
        QTest::addColumn<std::vector<double>>("y");
        QTest::addColumn<double>("shift");
        QTest::newRow("negative min") << std::vector<double>{3, -2.5, 7} << 3.5;
        QTest::newRow("zero min") << std::vector<double>{0, 1, 5} << 1.0;
        QTest::newRow("positive min") << std::vector<double>{2, 5} << 0.0;
        QTest::newRow("tiny positive") << std::vector<double>{1e-300, 5} << 0.0;
        QTest::newRow("large negative") << std::vector<double>{-1000, 10} << 1001.0;
        QTest::newRow("single") << std::vector<double>{-4} << 5.0;
    }
    void shift() {
        QFETCH(std::vector<double>, y);
        QFETCH(double, shift);
        auto t = fitTransform(TransformKind::LogShift, y);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        QVERIFY(t->kind == TransformKind::LogShift);
        QCOMPARE(t->shift, shift);
        // The smallest value lands on log(1) = 0 whenever a shift is used.
        const double lo = *std::min_element(y.begin(), y.end());
        if (shift > 0) QCOMPARE(t->forward(lo), 0.0);
    }
    void otherKindsHaveNoShift() {
        const std::vector<double> y{-3, 0, 2};
        QCOMPARE(fitTransform(TransformKind::None, y)->shift, 0.0);
        QCOMPARE(fitTransform(TransformKind::Asinh, y)->shift, 0.0);
        QCOMPARE(fitTransform(TransformKind::Log, std::vector<double>{1, 2})->shift, 0.0);
    }

    // Hand-computed forward values.
    void forwardValues_data() {
        QTest::addColumn<TransformKind>("kind");
        QTest::addColumn<double>("shift");
        QTest::addColumn<double>("y");
        QTest::addColumn<double>("z");
        QTest::newRow("none") << TransformKind::None << 0.0 << -2.5 << -2.5;
        QTest::newRow("log e^2") << TransformKind::Log << 0.0 << std::exp(2.0) << 2.0;
        QTest::newRow("log 1") << TransformKind::Log << 0.0 << 1.0 << 0.0;
        QTest::newRow("log-shift min") << TransformKind::LogShift << 3.5 << -2.5 << 0.0;
        QTest::newRow("log-shift 0.5") << TransformKind::LogShift << 3.5 << 0.5 << std::log(4.0);
        QTest::newRow("asinh 0") << TransformKind::Asinh << 0.0 << 0.0 << 0.0;
        // asinh(3/4) = log(3/4 + sqrt(9/16 + 1)) = log(3/4 + 5/4) = log 2
        QTest::newRow("asinh 0.75") << TransformKind::Asinh << 0.0 << 0.75 << std::log(2.0);
        QTest::newRow("asinh -0.75") << TransformKind::Asinh << 0.0 << -0.75 << -std::log(2.0);
    }
    void forwardValues() {
        QFETCH(TransformKind, kind);
        QFETCH(double, shift);
        QFETCH(double, y);
        QFETCH(double, z);
        const Transform t{kind, shift};
        QVERIFY_WITHIN(t.forward(y), z, 4 * kEps * std::max(1.0, std::abs(z)));
    }

    // inverse(forward(y)) == y up to the rounding of z: exp and sinh amplify z's rounding
    // error by |z|, so the tolerance is 2 eps (1 + |z|) on the scale max(|y|, s).
    void roundTrip_data() {
        QTest::addColumn<TransformKind>("kind");
        QTest::addColumn<std::vector<double>>("y");
        const std::vector<double> positive{1e-300, 1e-8, 0.1, 1, 2.5, 1234.5678, 1e15, 1e300};
        const std::vector<double> any{-1e300, -1e6, -3.25, -1e-12, 0, 1e-300, 0.1, 7, 1e8, 1e300};
        QTest::newRow("none") << TransformKind::None << any;
        QTest::newRow("log") << TransformKind::Log << positive;
        QTest::newRow("log-shift")
            << TransformKind::LogShift << std::vector<double>{-1e6, -3.25, -1e-12, 0, 0.1, 7, 1e8};
        QTest::newRow("log-shift positive") << TransformKind::LogShift << positive;
        QTest::newRow("asinh") << TransformKind::Asinh << any;
    }
    void roundTrip() {
        QFETCH(TransformKind, kind);
        QFETCH(std::vector<double>, y);
        auto t = fitTransform(kind, y);
        QVERIFY(t.hasValue());
        for (double v : y) {
            const double z = t->forward(v);
            QVERIFY(std::isfinite(z));
            const double back = t->inverse(z);
            const double tol = 2 * kEps * (1 + std::abs(z)) * std::max(std::abs(v), t->shift);
            QVERIFY2(std::abs(back - v) <= tol, qPrintable(QStringLiteral("y=%1 back=%2 tol=%3")
                                                               .arg(v, 0, 'g', 17)
                                                               .arg(back, 0, 'g', 17)
                                                               .arg(tol)));
        }
        // The vector forms agree with the scalar ones.
        const Eigen::VectorXd yv =
            Eigen::Map<const Eigen::VectorXd>(y.data(), Eigen::Index(y.size()));
        const Eigen::VectorXd zv = t->forward(yv);
        for (Eigen::Index i = 0; i < yv.size(); ++i) {
            QCOMPARE(zv(i), t->forward(yv(i)));
            QCOMPARE(t->inverse(zv)(i), t->inverse(zv(i)));
        }
    }

    // dz/dy against a central finite difference; logJacobian = log dz/dy.
    void derivative_data() {
        QTest::addColumn<TransformKind>("kind");
        QTest::addColumn<double>("shift");
        QTest::addColumn<double>("y");
        QTest::newRow("none") << TransformKind::None << 0.0 << 3.0;
        QTest::newRow("log") << TransformKind::Log << 0.0 << 0.7;
        QTest::newRow("log-shift") << TransformKind::LogShift << 3.5 << -1.0;
        QTest::newRow("asinh") << TransformKind::Asinh << 0.0 << -2.0;
        QTest::newRow("asinh big") << TransformKind::Asinh << 0.0 << 250.0;
    }
    void derivative() {
        QFETCH(TransformKind, kind);
        QFETCH(double, shift);
        QFETCH(double, y);
        const Transform t{kind, shift};
        const double h = 1e-5 * std::max(1.0, std::abs(y));
        const double fd = (t.forward(y + h) - t.forward(y - h)) / (2 * h);
        QVERIFY_WITHIN(t.derivative(y), fd, 1e-8 * std::max(1.0, std::abs(fd)));
        QVERIFY_WITHIN(t.logJacobian(y), std::log(t.derivative(y)), 1e-14);
    }

    // Log of a non-positive value names the first offending row (1-based table row) and
    // the value and suggests log-shift.
    void logRejectsNonPositive_data() {
        QTest::addColumn<std::vector<double>>("y");
        QTest::addColumn<QString>("column");
        QTest::addColumn<bool>("withRows");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero, table rows")
            << std::vector<double>{2, 0, -1} << "income" << true
            << "column 'income' row 8: the log transform needs positive values but this value "
               "is 0; choose the 'log-shift' transform (log(y + s) with s = 1 - min(y)) instead";
        QTest::newRow("negative, positions")
            << std::vector<double>{2, 5, -1.5} << "" << false
            << "row 3: the log transform needs positive values but this value is -1.5; choose "
               "the 'log-shift' transform (log(y + s) with s = 1 - min(y)) instead";
    }
    void logRejectsNonPositive() {
        QFETCH(std::vector<double>, y);
        QFETCH(QString, column);
        QFETCH(bool, withRows);
        QFETCH(QString, message);
        const std::vector<std::size_t> rows{3, 7, 9};
        const std::string col = column.toStdString();
        auto t = fitTransform(
            TransformKind::Log, y, col,
            withRows ? std::span<const std::size_t>(rows) : std::span<const std::size_t>());
        QVERIFY(!t.hasValue());
        QCOMPARE(QString::fromStdString(t.message()), message);
    }
    void rejectsNonFinite() {
        const std::vector<double> y{1, std::numeric_limits<double>::infinity()};
        auto t = fitTransform(TransformKind::Asinh, y, "w");
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("column 'w' row 2: the value is not a finite number"));
    }
    void logShiftRejectsHugeNegative() {
        const std::vector<double> y{5, -1e20};
        auto t = fitTransform(TransformKind::LogShift, y, "w");
        QVERIFY(!t.hasValue());
        QCOMPARE(QString::fromStdString(t.message()),
                 QString("column 'w' row 2: the value -1e+20 is "
                         "too far below zero for the 'log-shift' transform; "
                         "rescale the variable or choose 'asinh'"));
    }
};

QTEST_APPLESS_MAIN(TstTransform)
#include "tst_transform.moc"
