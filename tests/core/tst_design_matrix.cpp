#include <QRegularExpression>
#include <QTest>
#include <atomic>
#include <cmath>
#include <numeric>

#include "ppsynth/data/design_matrix.hpp"
#include "prep_fixtures.hpp"

using namespace ppsynth::data;
using fixtures::labels;
using fixtures::make;

Q_DECLARE_METATYPE(std::vector<std::string>)
Q_DECLARE_METATYPE(std::vector<double>)

namespace {
std::vector<std::size_t> allRows(std::size_t n) {
    std::vector<std::size_t> r(n);
    std::iota(r.begin(), r.end(), std::size_t{0});
    return r;
}

Roles peopleRoles() {
    Roles roles;
    roles.target = "income";
    // Deliberately mixed: X must still put categorical columns (edu, sex) before numeric
    // ones (age, visits), each group in this order.
    roles.predictors = {"age", "edu", "visits", "sex"};
    return roles;
}

bool near(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol) {
    return a.rows() == b.rows() && a.cols() == b.cols() && (a - b).cwiseAbs().maxCoeff() <= tol;
}

QString show(const Eigen::MatrixXd& m) {
    QString s;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        for (Eigen::Index j = 0; j < m.cols(); ++j) s += QString::number(m(i, j)) + " ";
        s += "\n";
    }
    return s;
}
}  // namespace

class TstDesignMatrix : public QObject {
    Q_OBJECT
  private slots:
    // The whole matrix, written out by hand from the fixture table:
    // age_z = (age - 30) / 2 and visits_z = (visits - 3) / 2 (sample sd 2, n - 1 = 7).
    void handComputed() {
        const auto table = fixtures::people();
        auto d = buildDesignMatrix(table, peopleRoles(), allRows(8));
        QVERIFY2(d.hasValue(), d.hasValue() ? "" : d.message().c_str());
        const std::vector<std::string> names{"(Intercept)", "edu[College]", "edu[Grad]",
                                             "sex[M]",      "age_z",        "visits_z"};
        QCOMPARE(d->coding.columnNames, names);
        Eigen::MatrixXd expected(8, 6);
        // clang-format off
        expected << 1, 0, 0, 0, -1.5,  0.0,
                    1, 1, 0, 1, -1.0, -1.5,
                    1, 0, 1, 1, -0.5,  1.5,
                    1, 0, 0, 0,  0.0, -0.5,
                    1, 1, 0, 0,  0.0,  0.5,
                    1, 0, 0, 1,  0.5,  0.0,
                    1, 0, 1, 0,  1.0, -1.0,
                    1, 1, 0, 1,  1.5,  1.0;
        // clang-format on
        QVERIFY2(near(d->X, expected, 1e-15), qPrintable(show(d->X)));

        // Kept standardization constants (sd with n - 1: with n it would be sqrt(3.5)).
        const auto& p = d->coding.predictors;
        QCOMPARE(p.size(), std::size_t{4});
        QCOMPARE(p[2].name, std::string("age"));
        QCOMPARE(p[2].mean, 30.0);
        QCOMPARE(p[2].sd, 2.0);
        QCOMPARE(p[3].name, std::string("visits"));
        QCOMPARE(p[3].mean, 3.0);
        QCOMPARE(p[3].sd, 2.0);
        QCOMPARE(p[0].referenceLabel, std::string("HS"));
        QCOMPARE(p[0].firstColumn, std::size_t{1});
        QCOMPARE(p[1].firstColumn, std::size_t{3});
        QCOMPARE(d->coding.ownerOf(0), std::ptrdiff_t{-1});
        QCOMPARE(d->coding.ownerOf(2), std::ptrdiff_t{0});
        QCOMPARE(d->coding.ownerOf(5), std::ptrdiff_t{3});

        // The unused level PhD gets no column, and that is said.
        QCOMPARE(d->notes, std::vector<std::string>{
                               "level 'PhD' of 'edu' has no records and gets no column"});
    }

    void referenceLevel_data() {
        QTest::addColumn<QString>("reference");
        QTest::addColumn<std::vector<std::string>>("names");
        QTest::addColumn<std::vector<double>>("firstDummy");  // column 1 of X
        QTest::newRow("default = first")
            << "" << std::vector<std::string>{"edu[College]", "edu[Grad]"}
            << std::vector<double>{0, 1, 0, 0, 1, 0, 0, 1};
        QTest::newRow("College") << "College" << std::vector<std::string>{"edu[HS]", "edu[Grad]"}
                                 << std::vector<double>{1, 0, 0, 1, 0, 1, 0, 0};
        QTest::newRow("Grad") << "Grad" << std::vector<std::string>{"edu[HS]", "edu[College]"}
                              << std::vector<double>{1, 0, 0, 1, 0, 1, 0, 0};
        QTest::newRow("HS explicit")
            << "HS" << std::vector<std::string>{"edu[College]", "edu[Grad]"}
            << std::vector<double>{0, 1, 0, 0, 1, 0, 0, 1};
    }
    void referenceLevel() {
        QFETCH(QString, reference);
        QFETCH(std::vector<std::string>, names);
        QFETCH(std::vector<double>, firstDummy);
        Roles roles;
        roles.target = "income";
        roles.predictors = {"edu"};
        if (!reference.isEmpty()) roles.referenceLevels["edu"] = reference.toStdString();
        auto d = buildDesignMatrix(fixtures::people(), roles, allRows(8));
        QVERIFY(d.hasValue());
        std::vector<std::string> expected{"(Intercept)"};
        expected.insert(expected.end(), names.begin(), names.end());
        QCOMPARE(d->coding.columnNames, expected);
        for (Eigen::Index i = 0; i < 8; ++i) QCOMPARE(d->X(i, 1), firstDummy[std::size_t(i)]);
        // Every row has exactly one of: the reference or one dummy.
        const Eigen::VectorXd dummies = d->X.rightCols(2).rowwise().sum();
        QVERIFY(dummies.maxCoeff() <= 1.0);
    }

    // Rows 2, 3, 5, 7, 8 (no HS record): the reference falls back to College, noted.
    void firstLevelWithoutRecords() {
        Roles roles;
        roles.target = "income";
        roles.predictors = {"edu"};
        const std::vector<std::size_t> rows{1, 2, 4, 6, 7};
        auto d = buildDesignMatrix(fixtures::people(), roles, rows);
        QVERIFY(d.hasValue());
        QCOMPARE(d->coding.columnNames, (std::vector<std::string>{"(Intercept)", "edu[Grad]"}));
        Eigen::MatrixXd expected(5, 2);
        expected << 1, 0, 1, 1, 1, 0, 1, 1, 1, 0;
        QVERIFY(near(d->X, expected, 0));
        QCOMPARE(d->notes,
                 (std::vector<std::string>{
                     "reference level of 'edu' is 'College', the first level with records ('HS' "
                     "has none)",
                     "levels 'HS' and 'PhD' of 'edu' have no records and get no column"}));
    }

    // Means and sds come from the given rows only: age 27, 28, 29 -> mean 28, sd 1.
    void standardizesOnGivenRows() {
        Roles roles;
        roles.target = "income";
        roles.predictors = {"age"};
        const std::vector<std::size_t> rows{0, 1, 2};
        auto d = buildDesignMatrix(fixtures::people(), roles, rows);
        QVERIFY(d.hasValue());
        QCOMPARE(d->coding.predictors[0].mean, 28.0);
        QCOMPARE(d->coding.predictors[0].sd, 1.0);
        Eigen::MatrixXd expected(3, 2);
        expected << 1, -1, 1, 0, 1, 1;
        QVERIFY(near(d->X, expected, 1e-15));
    }

    // New data gets the fitted coding: levels matched by label (here in another order),
    // the fitted mean and sd.
    void applyToNewData() {
        auto d = buildDesignMatrix(fixtures::people(), peopleRoles(), allRows(8));
        QVERIFY(d.hasValue());
        const auto fresh = make({
            Column::categorical("edu", {0, 1, 2}, labels({"Grad", "HS", "College"})),
            Column::categorical("sex", {1, 0, 1}, labels({"M", "F"})),  // F, M, F
            Column::numeric("age", {34, 26, 30}),
            Column::count("visits", {3, 7, 0}),
        });
        auto X = d->coding.apply(fresh);
        QVERIFY2(X.hasValue(), X.hasValue() ? "" : X.message().c_str());
        Eigen::MatrixXd expected(3, 6);
        // clang-format off
        expected << 1, 0, 1, 0,  2,  0.0,
                    1, 0, 0, 1, -2,  2.0,
                    1, 1, 0, 0,  0, -1.5;
        // clang-format on
        QVERIFY2(near(*X, expected, 1e-15), qPrintable(show(*X)));
        // Only some rows.
        const std::vector<std::size_t> rows{2};
        auto X2 = d->coding.apply(fresh, rows);
        QVERIFY(X2.hasValue());
        QVERIFY(near(*X2, expected.row(2), 1e-15));
        // The original table reproduces the fitted X.
        QVERIFY(near(*d->coding.apply(fixtures::people()), d->X, 0));
    }

    void applyRejects_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("level without records")
            << 0
            << "predictor 'edu' row 2: level 'PhD' had no records in the data the model was "
               "fitted on, so the model has no coefficient for it";
        QTest::newRow("missing cell")
            << 1 << "predictor 'age' row 1 is missing; choose listwise deletion or fix the file";
        QTest::newRow("type changed")
            << 2
            << "predictor 'sex' is numeric but the model was fitted with it categorical; "
               "change its type back";
        QTest::newRow("column gone") << 3 << "predictor 'visits' is not a column of the table";
    }
    void applyRejects() {
        QFETCH(int, which);
        QFETCH(QString, message);
        auto d = buildDesignMatrix(fixtures::people(), peopleRoles(), allRows(8));
        QVERIFY(d.hasValue());
        auto edu = Column::categorical("edu", {0, which == 0 ? 3 : 1},
                                       labels({"HS", "College", "Grad", "PhD"}));
        auto sex = Column::categorical("sex", {0, 1}, labels({"F", "M"}));
        auto age = Column::numeric("age", {30, 31});
        auto visits = Column::count("visits", {1, 2});
        if (which == 1) age = Column::numeric("age", {30, 31}, {1, 0});
        if (which == 2) sex = Column::numeric("sex", {0, 1});
        std::vector<Column> cols{edu, sex, age};
        if (which != 3) cols.push_back(visits);
        auto X = d->coding.apply(make(cols));
        QVERIFY(!X.hasValue());
        QCOMPARE(QString::fromStdString(X.message()), message);
    }

    // Strongly but not exactly collinear columns pass; exact ones do not (see tst_prepare
    // for the messages). x2 = x1 + a sin(7i): with a = 1e-3 the angle between the columns
    // is clear of the fast (Gram) check; with a = 1e-5 its sine is about 5e-7, which only
    // the pivoted QR can tell from 1e-7.
    void nearCollinear_data() {
        QTest::addColumn<double>("amplitude");
        QTest::addColumn<bool>("fullRank");
        QTest::newRow("1e-3") << 1e-3 << true;
        QTest::newRow("1e-5, decided by QR") << 1e-5 << true;
        QTest::newRow("1e-9, below tolerance") << 1e-9 << false;
        QTest::newRow("exact") << 0.0 << false;
    }
    void nearCollinear() {
        QFETCH(double, amplitude);
        QFETCH(bool, fullRank);
        std::vector<double> x1, x2;
        for (int i = 0; i < 50; ++i) {
            x1.push_back(i);
            x2.push_back(i + amplitude * std::sin(7.0 * i));
        }
        const auto t = make({Column::numeric("y", std::vector<double>(50, 1.0)),
                             Column::numeric("x1", x1), Column::numeric("x2", x2)});
        Roles roles;
        roles.target = "y";
        roles.predictors = {"x1", "x2"};
        auto d = buildDesignMatrix(t, roles, allRows(50));
        QCOMPARE(d.hasValue(), fullRank);
        if (!fullRank)
            QCOMPARE(QString::fromStdString(d.message()),
                     QString("predictors 'x1' and 'x2' are collinear: the design columns x1_z and "
                             "x2_z are linear combinations of each other; drop one of them"));
    }

    // A level with a single record among many is rare, not collinear.
    void rareLevelPasses() {
        const std::size_t n = 20000;
        std::vector<std::int32_t> codes(n, 0);
        codes[n / 2] = 1;
        for (std::size_t i = 0; i < n; i += 3) codes[i] = 2;
        const auto t = make({Column::numeric("y", std::vector<double>(n, 1.0)),
                             Column::categorical("g", codes, labels({"a", "rare", "b"}))});
        Roles roles;
        roles.target = "y";
        roles.predictors = {"g"};
        auto d = buildDesignMatrix(t, roles, allRows(n));
        QVERIFY2(d.hasValue(), d.hasValue() ? "" : d.message().c_str());
        QCOMPARE(d->X.col(1).sum(), 1.0);
    }

    // The run copies X for its model a block of columns at a time: an exact copy, or
    // "cancelled" when the flag is set.
    void copyDesignIsExactAndCancellable() {
        Eigen::MatrixXd X(50, 200);
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                X(i, j) = std::sin(0.1 * static_cast<double>(i) + static_cast<double>(j));
        const auto copy = copyDesign(X);
        QVERIFY(copy.hasValue());
        QVERIFY(*copy == X);
        std::atomic<bool> stop{true};
        const auto stopped = copyDesign(X, &stop);
        QVERIFY(!stopped);
        QCOMPARE(stopped.kind(), ppsynth::ErrorKind::Cancelled);
    }

    // Wide designs (hundreds of dummy columns) take the sparse route of the rank check: the
    // same verdicts and messages as the dense one, and a set cancel flag stops it.
    void wideDesign_data() {
        QTest::addColumn<bool>("nested");
        QTest::addColumn<double>("amplitude");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("full rank") << false << 1e-3 << QString();
        QTest::newRow("near collinear, decided by QR") << false << 1e-5 << QString();
        QTest::newRow("collinear numeric pair")
            << false << 1e-9
            << QString(
                   "predictors 'x1' and 'x2' are collinear: the design columns x1_z and "
                   "x2_z are linear combinations of each other; drop one of them");
        QTest::newRow("region nested in district")
            << true << 1e-3 << QString("predictors 'district' and 'region' are collinear");
    }
    void wideDesign() {
        QFETCH(bool, nested);
        QFETCH(double, amplitude);
        QFETCH(QString, refusal);
        const std::size_t n = 3000;
        const int districts = 300;
        std::vector<std::int32_t> district(n), region(n);
        std::vector<double> x1(n), x2(n);
        std::vector<std::string> districtLabels, regionLabels;
        for (int k = 0; k < districts; ++k) districtLabels.push_back("d" + std::to_string(k));
        for (int k = 0; k < 7; ++k) regionLabels.push_back("r" + std::to_string(k));
        for (std::size_t i = 0; i < n; ++i) {
            district[i] = static_cast<std::int32_t>((i * 7919) % districts);
            region[i] = nested ? district[i] % 7 : static_cast<std::int32_t>((i / 3) % 7);
            x1[i] = std::cos(0.37 * static_cast<double>(i));
            x2[i] = x1[i] + amplitude * std::sin(7.0 * static_cast<double>(i));
        }
        const auto t = make({Column::numeric("y", std::vector<double>(n, 1.0)),
                             Column::categorical("district", district, labels(districtLabels)),
                             Column::categorical("region", region, labels(regionLabels)),
                             Column::numeric("x1", x1), Column::numeric("x2", x2)});
        Roles roles;
        roles.target = "y";
        roles.predictors = {"district", "region", "x1", "x2"};
        DesignOptions options;
        options.maxLevels = 1000;
        auto d = buildDesignMatrix(t, roles, allRows(n), options);
        if (refusal.isEmpty()) {
            QVERIFY2(d.hasValue(), d.hasValue() ? "" : d.message().c_str());
            QCOMPARE(d->X.cols(), Eigen::Index{1 + 299 + 6 + 2});
            std::atomic<bool> stop{true};
            const auto s = checkFullRank(d->X, d->coding, options.rankTolerance, &stop);
            QCOMPARE(QString::fromStdString(s.message()), QString("cancelled"));
            options.cancel = &stop;
            const auto stopped = buildDesignMatrix(t, roles, allRows(n), options);
            QVERIFY(!stopped.hasValue());
            QCOMPARE(QString::fromStdString(stopped.message()), QString("cancelled"));
        } else {
            QVERIFY(!d.hasValue());
            const auto message = QString::fromStdString(d.message());
            QVERIFY2(message.startsWith(refusal), d.message().c_str());
            // About 300 / 7 district columns are involved: the list is cut, with the count.
            if (nested)
                QVERIFY2(message.contains(QRegularExpression(
                             "district\\[d\\d+\\], district\\[d\\d+\\] and \\d\\d more are "
                             "linear combinations")),
                         d.message().c_str());
        }
    }

    // The three-way dependency x3 = x1 + x2 names exactly those three columns, not the
    // bystander x4 or the intercept.
    void minimalDependentSet() {
        std::vector<double> x1, x2, x3, x4;
        for (int i = 0; i < 30; ++i) {
            x1.push_back(std::cos(1.3 * i));
            x2.push_back(i % 7);
            x4.push_back(i * i);
            x3.push_back(x1.back() + x2.back());
        }
        const auto t =
            make({Column::numeric("y", std::vector<double>(30, 1.0)), Column::numeric("x1", x1),
                  Column::numeric("x4", x4), Column::numeric("x2", x2), Column::numeric("x3", x3)});
        Roles roles;
        roles.target = "y";
        roles.predictors = {"x1", "x4", "x2", "x3"};
        auto d = buildDesignMatrix(t, roles, allRows(30));
        QVERIFY(!d.hasValue());
        QCOMPARE(QString::fromStdString(d.message()),
                 QString("predictors 'x1', 'x2' and 'x3' are collinear: the design columns x1_z, "
                         "x2_z and x3_z are linear combinations of each other; drop one of them"));
    }
};

QTEST_APPLESS_MAIN(TstDesignMatrix)
#include "tst_design_matrix.moc"
