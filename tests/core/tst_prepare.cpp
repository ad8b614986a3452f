#include <QTest>
#include <cmath>
#include <limits>

#include "../common/near.hpp"
#include "ppsynth/data/prepare.hpp"
#include "prep_fixtures.hpp"

using namespace ppsynth::data;
using fixtures::labels;
using fixtures::make;

namespace {

// One bad-input case: a table, roles and options that must fail with an exact message.
struct Case {
    Table table;
    Roles roles;
    PrepareOptions options;
};

Roles baseRoles() {
    Roles r;
    r.target = "income";
    r.predictors = {"edu", "sex", "age", "visits"};
    r.known = {"edu"};
    return r;
}

// Replaces the column of the same name, or adds it.
void put(Table& t, Column c) {
    const auto i = t.indexOf(c.name());
    const auto s = i ? t.replaceColumn(*i, std::move(c)) : t.addColumn(std::move(c));
    if (!s) qFatal("fixture: %s", s.message().c_str());
}

// The fixture with columns replaced or added.
Table peopleWith(std::vector<Column> cols) {
    Table t = fixtures::people();
    for (auto& c : cols) put(t, std::move(c));
    return t;
}
Table peopleWith(Column c) {
    return peopleWith(std::vector<Column>{std::move(c)});
}

std::vector<std::uint8_t> mask(std::size_t n, std::initializer_list<std::size_t> oneBasedRows) {
    std::vector<std::uint8_t> m(n, 0);
    for (auto r : oneBasedRows) m[r - 1] = 1;
    return m;
}

const std::vector<double> kIncome{12.5, 40, 55, 0, -2.5, 18, 70.25, 33};
const std::vector<double> kAge{27, 28, 29, 30, 30, 31, 32, 33};

}  // namespace

Q_DECLARE_METATYPE(Case)

class TstPrepare : public QObject {
    Q_OBJECT
  private slots:
    // The whole pipeline on the fixture: log-shift with s = 1 - (-2.5) = 3.5.
    void preparesFixture() {
        const auto table = fixtures::people();
        Roles roles = baseRoles();
        roles.known = {"edu", "sex"};
        PrepareOptions opt;
        opt.transform = TransformKind::LogShift;
        auto in = prepareModelInputs(table, roles, opt);
        QVERIFY2(in.hasValue(), in.hasValue() ? "" : in.message().c_str());
        QCOMPARE(in->recordCount(), std::size_t{8});
        QCOMPARE(in->keptRows, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7}));
        QVERIFY(in->transform.kind == TransformKind::LogShift);
        QCOMPARE(in->transform.shift, 3.5);
        for (Eigen::Index i = 0; i < 8; ++i) {
            QCOMPARE(in->yOriginal(i), kIncome[std::size_t(i)]);
            QCOMPARE(in->y(i), std::log(kIncome[std::size_t(i)] + 3.5));
        }
        QCOMPARE(in->y(4), 0.0);  // the minimum maps to log 1
        QCOMPARE(in->columnNames(),
                 (std::vector<std::string>{"(Intercept)", "edu[College]", "edu[Grad]", "sex[M]",
                                           "age_z", "visits_z"}));
        QCOMPARE(in->X.rows(), Eigen::Index{8});
        QCOMPARE(in->X(1, 4), -1.0);  // (28 - 30) / 2
        QCOMPARE(in->X(2, 5), 1.5);   // (6 - 3) / 2
        QCOMPARE(in->patterns.count(), std::size_t{6});
        QCOMPARE(in->patterns.singletons, std::size_t{4});
        QCOMPARE(in->report.rowsInTable, std::size_t{8});
        QCOMPARE(in->report.rowsDropped, std::size_t{0});
        QCOMPARE(in->report.notes,
                 (std::vector<std::string>{
                     "log-shift transform: s = 1 - min(y) = 3.5 (min(y) = -2.5, row 5); z = "
                     "log(y + 3.5)",
                     "level 'PhD' of 'edu' has no records and gets no column"}));
    }

    void logShiftWithoutShiftIsNoted() {
        auto t = peopleWith(Column::numeric("income", {12.5, 40, 55, 1, 2.5, 18, 70.25, 33}));
        PrepareOptions opt;
        opt.transform = TransformKind::LogShift;
        auto in = prepareModelInputs(t, baseRoles(), opt);
        QVERIFY(in.hasValue());
        QCOMPARE(in->transform.shift, 0.0);
        QCOMPARE(in->report.notes.front(),
                 std::string("log-shift transform: min(y) = 1 (row 4) is positive, so s = 0 and "
                             "z = log(y)"));
    }

    // Rows 2, 7 (income) and 7, 8 (age) missing: listwise keeps table rows 1, 3, 4, 5, 6;
    // the coding is fitted on them alone (age 27, 29, 30, 30, 31: mean 29.4).
    void listwiseDeletion() {
        auto t = peopleWith({Column::numeric("income", kIncome, mask(8, {2, 7})),
                             Column::numeric("age", kAge, mask(8, {7, 8}))});
        Roles roles;
        roles.target = "income";
        roles.predictors = {"sex", "age"};
        roles.known = {"sex"};
        PrepareOptions opt;
        opt.missing = MissingPolicy::Listwise;
        auto in = prepareModelInputs(t, roles, opt);
        QVERIFY2(in.hasValue(), in.hasValue() ? "" : in.message().c_str());
        QCOMPARE(in->keptRows, (std::vector<std::size_t>{0, 2, 3, 4, 5}));
        QCOMPARE(in->report.rowsDropped, std::size_t{3});
        QCOMPARE(in->report.notes,
                 (std::vector<std::string>{"listwise deletion dropped 3 of 8 rows; missing "
                                           "values per column: 'income' 2 (rows 2, 7), 'age' 2 "
                                           "(rows 7, 8)"}));
        QCOMPARE(in->yOriginal, (Eigen::VectorXd(5) << 12.5, 55, 0, -2.5, 18).finished());
        QCOMPARE(in->y, in->yOriginal);  // transform none
        const auto& age = in->coding.predictors[1];
        QVERIFY_NEAR(age.mean, 29.4, 1e-13);
        // deviations -2.4, -0.4, 0.6, 0.6, 1.6: sum of squares 9.2, / 4 -> sd sqrt(2.3)
        QVERIFY_NEAR(age.sd, std::sqrt(2.3), 1e-13);
        // X over the kept rows: sex F, M, F, F, M.
        Eigen::MatrixXd expected(5, 3);
        const double s = std::sqrt(2.3);
        expected << 1, 0, -2.4 / s, 1, 1, -0.4 / s, 1, 0, 0.6 / s, 1, 0, 0.6 / s, 1, 1, 1.6 / s;
        QVERIFY((in->X - expected).cwiseAbs().maxCoeff() < 1e-13);
        QCOMPARE(in->patterns.members, (std::vector<std::vector<std::size_t>>{{0, 2, 3}, {1, 4}}));
        QCOMPARE(in->patterns.singletons, std::size_t{0});
    }

    void countModel() {
        Roles roles = baseRoles();
        roles.target = "visits";
        roles.predictors = {"edu", "age"};
        PrepareOptions opt;
        opt.countModel = true;
        auto in = prepareModelInputs(fixtures::people(), roles, opt);
        QVERIFY(in.hasValue());
        QCOMPARE(in->y, (Eigen::VectorXd(8) << 3, 0, 6, 2, 4, 3, 1, 5).finished());
        QVERIFY(in->transform == Transform{});
    }

    void policyNames() {
        QCOMPARE(std::string(toString(MissingPolicy::Error)), std::string("error"));
        QCOMPARE(std::string(toString(MissingPolicy::Listwise)), std::string("listwise"));
        QVERIFY(missingPolicyFromString("listwise") == MissingPolicy::Listwise);
        QVERIFY(!missingPolicyFromString("drop"));
    }

    // Every bad input with the exact message it must give.
    void badInput_data() {
        QTest::addColumn<Case>("c");
        QTest::addColumn<QString>("message");
        const PrepareOptions none;
        PrepareOptions listwise;
        listwise.missing = MissingPolicy::Listwise;
        PrepareOptions logT;
        logT.transform = TransformKind::Log;
        PrepareOptions count;
        count.countModel = true;

        {  // 100 rows, income missing in 12 of them
            std::vector<double> y, x;
            std::vector<std::uint8_t> m(100, 0);
            for (std::size_t i = 0; i < 100; ++i) {
                y.push_back(double(i));
                x.push_back(double(i % 10));
            }
            for (std::size_t r : {4, 18, 77, 80, 81, 82, 83, 90, 91, 92, 99, 100}) m[r - 1] = 1;
            Roles roles;
            roles.target = "income";
            roles.predictors = {"x"};
            QTest::newRow("missing, many")
                << Case{make({Column::numeric("income", y, m), Column::numeric("x", x)}), roles,
                        none}
                << "column 'income' has 12 missing values (rows 4, 18, 77, ...); choose listwise "
                   "deletion or fix the file";
        }
        QTest::newRow("missing, one")
            << Case{peopleWith(Column::numeric("age", kAge, mask(8, {2}))), baseRoles(), none}
            << "column 'age' has 1 missing value (row 2); choose listwise deletion or fix the file";
        QTest::newRow("missing, target named first")
            << Case{peopleWith({Column::numeric("age", kAge, mask(8, {1})),
                                Column::numeric("income", kIncome, mask(8, {3, 5}))}),
                    baseRoles(), none}
            << "column 'income' has 2 missing values (rows 3, 5); choose listwise deletion or fix "
               "the file";
        QTest::newRow("missing, exactly three rows")
            << Case{peopleWith(Column::numeric("age", kAge, mask(8, {1, 2, 8}))), baseRoles(), none}
            << "column 'age' has 3 missing values (rows 1, 2, 8); choose listwise deletion or fix "
               "the file";
        QTest::newRow("nothing left after deletion")
            << Case{peopleWith({Column::numeric("income", kIncome, mask(8, {1, 2, 3, 4})),
                                Column::numeric("age", kAge, mask(8, {5, 6, 7, 8}))}),
                    baseRoles(), listwise}
            << "no rows left after listwise deletion: each of the 8 rows has a missing value in "
               "'income' or 'age'; fix the file or remove predictors with many missing values";
        {
            Table empty = make({Column::numeric("income", {}), Column::numeric("age", {})});
            Roles roles;
            roles.target = "income";
            roles.predictors = {"age"};
            QTest::newRow("empty table") << Case{empty, roles, none} << "the table has no rows";
        }

        {
            Roles roles;
            roles.target = "notes";
            roles.predictors = {"age"};
            QTest::newRow("text target")
                << Case{peopleWith(Column::text("notes", {"a", "b", "c", "d", "e", "f", "g", "h"})),
                        roles, none}
                << "target 'notes' is text; the target must be numeric or count: change its type "
                   "or pick another target";
            roles.target = "sex";
            QTest::newRow("categorical target")
                << Case{fixtures::people(), roles, none}
                << "target 'sex' is categorical; the target must be numeric or count: change its "
                   "type or pick another target";
            roles.target = "salary";
            QTest::newRow("target not a column")
                << Case{fixtures::people(), roles, none}
                << "target 'salary' is not a column of the table; pick one of its columns";
            roles.target = "";
            QTest::newRow("no target")
                << Case{fixtures::people(), roles, none}
                << "no target chosen; pick the sensitive variable (a numeric or count column) to "
                   "synthesize";
        }

        QTest::newRow("count model, fraction")
            << Case{fixtures::people(), baseRoles(), count}
            << "column 'income' row 1: 12.5 is not a non-negative whole number; a count model "
               "needs counts: choose a continuous model or fix the file";
        QTest::newRow("count model, negative")
            << Case{peopleWith(Column::numeric("income", {1, 2, -3, 4, 5, 6, 7, 8})), baseRoles(),
                    count}
            << "column 'income' row 3: -3 is not a non-negative whole number; a count model needs "
               "counts: choose a continuous model or fix the file";
        {
            PrepareOptions countLog = count;
            countLog.transform = TransformKind::Log;
            QTest::newRow("count model with a transform")
                << Case{fixtures::people(), baseRoles(), countLog}
                << "a count model takes the target as it is: set the transform to 'none' (it is "
                   "'log')";
        }

        QTest::newRow("log of zero")
            << Case{fixtures::people(), baseRoles(), logT}
            << "column 'income' row 4: the log transform needs positive values but this value is "
               "0; choose the 'log-shift' transform (log(y + s) with s = 1 - min(y)) instead";
        {  // row 4 dropped by listwise deletion: the first offender is table row 5
            PrepareOptions lw = logT;
            lw.missing = MissingPolicy::Listwise;
            QTest::newRow("log after deletion names the table row")
                << Case{peopleWith(Column::numeric("age", kAge, mask(8, {4}))), baseRoles(), lw}
                << "column 'income' row 5: the log transform needs positive values but this value "
                   "is -2.5; choose the 'log-shift' transform (log(y + s) with s = 1 - min(y)) "
                   "instead";
        }

        {
            Roles roles = baseRoles();
            roles.predictors.push_back("const");
            QTest::newRow("constant numeric predictor")
                << Case{peopleWith(Column::numeric("const", std::vector<double>(8, 40))), roles,
                        none}
                << "predictor 'const' is constant (every used record has 40); remove it from the "
                   "predictors";
            roles.predictors.back() = "country";
            QTest::newRow("constant categorical predictor")
                << Case{peopleWith(Column::categorical("country", std::vector<std::int32_t>(8, 1),
                                                       labels({"AU", "NZ"}))),
                        roles, none}
                << "predictor 'country' has the single level 'NZ' in every used record, so it is "
                   "constant; remove it from the predictors";
        }
        {  // urban_type Rural exactly when urban is No: urban[Yes] + urban_type[Rural] = 1
            Roles roles;
            roles.target = "income";
            roles.predictors = {"urban", "age", "urban_type"};
            QTest::newRow("collinear categorical predictors")
                << Case{peopleWith({Column::categorical("urban", {0, 1, 1, 0, 1, 0, 0, 1},
                                                        labels({"No", "Yes"})),
                                    Column::categorical("urban_type", {1, 0, 0, 1, 0, 1, 1, 0},
                                                        labels({"Urban", "Rural"}))}),
                        roles, none}
                << "predictors 'urban' and 'urban_type' are collinear: the design columns "
                   "(Intercept), urban[Yes] and urban_type[Rural] are linear combinations of each "
                   "other; drop one of them";
            roles.predictors = {"age", "visits", "age2"};
            std::vector<double> age2;
            for (double a : kAge) age2.push_back(2 * a + 3);
            QTest::newRow("collinear numeric predictors")
                << Case{peopleWith(Column::numeric("age2", age2)), roles, none}
                << "predictors 'age' and 'age2' are collinear: the design columns age_z and age2_z "
                   "are linear combinations of each other; drop one of them";
            roles.predictors = {"sex", "age", "male"};
            QTest::newRow("numeric copy of a dummy")
                << Case{peopleWith(Column::numeric("male", {0, 1, 1, 0, 0, 1, 0, 1})), roles, none}
                << "predictors 'sex' and 'male' are collinear: the design columns (Intercept), "
                   "sex[M] and male_z are linear combinations of each other; drop one of them";
        }
        {  // listwise keeps table rows 1, 2, 3, 6: 4 records for 6 columns
            QTest::newRow("more columns than records")
                << Case{peopleWith(Column::numeric("income", kIncome, mask(8, {4, 5, 7, 8}))),
                        baseRoles(), listwise}
                << "the design has 6 columns but only 4 records are used; a regression needs at "
                   "least as many records as columns: remove predictors or merge levels";
        }
        {
            PrepareOptions few;
            few.maxLevels = 2;
            QTest::newRow("too many levels")
                << Case{fixtures::people(), baseRoles(), few}
                << "predictor 'edu' has 3 levels, more than the limit of 2; merge levels, remove "
                   "it from the predictors, or raise the level limit (data.max_levels)";
        }

        {
            Roles roles = baseRoles();
            roles.predictors.push_back("income");
            QTest::newRow("target among predictors")
                << Case{fixtures::people(), roles, none}
                << "'income' is the target and cannot also be a predictor; remove it from the "
                   "predictors";
            roles = baseRoles();
            roles.predictors.push_back("zip");
            QTest::newRow("predictor not a column")
                << Case{fixtures::people(), roles, none}
                << "predictor 'zip' is not a column of the table; remove it from the predictors";
            roles = baseRoles();
            roles.predictors.push_back("age");
            QTest::newRow("predictor twice")
                << Case{fixtures::people(), roles, none}
                << "predictor 'age' is listed twice; remove the second entry";
            roles = baseRoles();
            roles.predictors.push_back("notes");
            QTest::newRow("text predictor")
                << Case{peopleWith(Column::text("notes", std::vector<std::string>(8, "x"))), roles,
                        none}
                << "predictor 'notes' is text, which no model can use; change its type to "
                   "categorical or remove it from the predictors";
        }
        {
            Roles roles = baseRoles();
            roles.known = {"age"};
            QTest::newRow("known variable not categorical")
                << Case{fixtures::people(), roles, none}
                << "known variable 'age' must be a categorical predictor; change its type to "
                   "categorical or remove it from the known variables";
            roles = baseRoles();
            roles.predictors = {"edu", "age"};
            roles.known = {"sex"};
            QTest::newRow("known variable not a predictor")
                << Case{fixtures::people(), roles, none}
                << "known variable 'sex' must be a categorical predictor; add it to the "
                   "predictors or remove it from the known variables";
            roles = baseRoles();
            roles.known = {"income"};
            QTest::newRow("target as known variable")
                << Case{fixtures::people(), roles, none}
                << "'income' is the target and cannot also be a known variable; remove it from "
                   "the known variables";
        }
        {
            Roles roles = baseRoles();
            roles.referenceLevels["edu"] = "Primary";
            QTest::newRow("reference level unknown")
                << Case{fixtures::people(), roles, none}
                << "reference level 'Primary' of 'edu' is not one of its levels (HS, College, "
                   "Grad, PhD); pick one of them";
            roles.referenceLevels["edu"] = "PhD";
            QTest::newRow("reference level without records")
                << Case{fixtures::people(), roles, none}
                << "reference level 'PhD' of 'edu' has no records among the used rows; pick a "
                   "level that occurs";
            roles.referenceLevels = {{"age", "30"}};
            QTest::newRow("reference level of a numeric")
                << Case{fixtures::people(), roles, none}
                << "a reference level is set for 'age', which is numeric; remove that setting or "
                   "change its type to categorical";
            roles.referenceLevels = {{"region", "N"}};
            QTest::newRow("reference level of a non-predictor")
                << Case{fixtures::people(), roles, none}
                << "a reference level is set for 'region', which is not a predictor; remove that "
                   "setting or add 'region' to the predictors";
        }
        // inf, -inf and NaN read from a file: values no model takes, named by row.
        const double inf = std::numeric_limits<double>::infinity();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("non-finite target")
            << Case{peopleWith(Column::numeric("income", {12.5, 40, inf, 0, -2.5, nan, 70.25, 33})),
                    baseRoles(), none}
            << "column 'income' row 3: inf is not a finite number (2 such values: rows 3, 6); a "
               "model needs finite numbers: fix the file, or read such cells as missing (add "
               "their spelling, such as inf or NaN, to the missing-value tokens) and choose "
               "listwise deletion";
        QTest::newRow("non-finite predictor")
            << Case{peopleWith(Column::numeric("age", {27, 28, 29, 30, 30, 31, 32, -inf})),
                    baseRoles(), none}
            << "column 'age' row 8: -inf is not a finite number (1 such value: row 8); a model "
               "needs finite numbers: fix the file, or read such cells as missing (add their "
               "spelling, such as inf or NaN, to the missing-value tokens) and choose listwise "
               "deletion";
        QTest::newRow("non-finite count target")
            << Case{peopleWith(Column::numeric("income", {12, 40, 55, 0, 2, 18, 70, inf})),
                    baseRoles(), count}
            << "column 'income' row 8: inf is not a finite number (1 such value: row 8); a model "
               "needs finite numbers: fix the file, or read such cells as missing (add their "
               "spelling, such as inf or NaN, to the missing-value tokens) and choose listwise "
               "deletion";
        {  // A column read as numbers with a cell that is none: the reader's message.
            Column age = Column::numeric("age", kAge, mask(8, {4}));
            age.setUnreadCells({{3, "3O"}},
                               "'people.csv' line 5, column 'age': '3O' is not a number");
            QTest::newRow("unread cell in a predictor")
                << Case{peopleWith(std::move(age)), baseRoles(), listwise}
                << "'people.csv' line 5, column 'age': '3O' is not a number";
        }
    }
    // Values too large for the models' scale are found here, before any chain starts, with
    // the record and what to do (issue: "the initial point must have 5 finite values").
    void hugeValues_data() {
        QTest::addColumn<Case>("c");
        QTest::addColumn<QString>("message");
        const QString continuous =
            " is too large to model on this scale (values up to 1e+100 in absolute value, or "
            "the model's sums of squares overflow); choose the 'log', 'log-shift' or 'asinh' "
            "transform, or rescale the column (divide it by a power of ten)";
        const PrepareOptions none;
        auto income = [](std::size_t row, double v) {
            std::vector<double> y = kIncome;
            y[row - 1] = v;
            return peopleWith(Column::numeric("income", y));
        };
        QTest::newRow("1e308, transform none") << Case{income(3, 1e308), baseRoles(), none}
                                               << "column 'income' row 3: 1e+308" + continuous;
        // Finite sums, but y^2 overflows in the normal model's starting values.
        QTest::newRow("1e200") << Case{income(6, 1e200), baseRoles(), none}
                               << "column 'income' row 6: 1e+200" + continuous;
        QTest::newRow("-1e160") << Case{income(1, -1e160), baseRoles(), none}
                                << "column 'income' row 1: -1e+160" + continuous;
        // Kept rows are counted in the file's rows: row 5 of the file, the 4th record.
        {
            std::vector<double> y = kIncome;
            y[4] = 1e300;
            PrepareOptions listwise;
            listwise.missing = MissingPolicy::Listwise;
            QTest::newRow("row of the file after listwise deletion")
                << Case{peopleWith({Column::numeric("income", y),
                                    Column::numeric("age", kAge, mask(8, {2}))}),
                        baseRoles(), listwise}
                << "column 'income' row 5: 1e+300" + continuous;
        }
        {
            Roles roles = baseRoles();
            roles.target = "visits";
            roles.predictors = {"edu", "age"};
            PrepareOptions count;
            count.countModel = true;
            std::vector<double> visits{3, 0, 6, 2, 4, 3, 1, 5};
            visits[7] = 1e308;
            QTest::newRow("count 1e308")
                << Case{peopleWith(Column::numeric("visits", visits)), roles, count}
                << "column 'visits' row 8: 1e+308 is too large for a count model (counts up to "
                   "1e+100); choose a continuous model with the 'log' transform or fix the file";
        }
    }
    void hugeValues() {
        QFETCH(Case, c);
        QFETCH(QString, message);
        auto in = prepareModelInputs(c.table, c.roles, c.options);
        QVERIFY(!in.hasValue());
        QCOMPARE(QString::fromStdString(in.message()), message);
    }
    // On the log scale the same values are modest: accepted.
    void hugeValuesUnderALogTransform_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("log") << int(TransformKind::Log);
        QTest::newRow("asinh") << int(TransformKind::Asinh);
    }
    void hugeValuesUnderALogTransform() {
        QFETCH(int, kind);
        std::vector<double> y{12.5, 40, 1e308, 1e200, 2.5, 18, 70.25, 33};
        PrepareOptions o;
        o.transform = static_cast<TransformKind>(kind);
        auto in = prepareModelInputs(peopleWith(Column::numeric("income", y)), baseRoles(), o);
        QVERIFY2(in.hasValue(), in.hasValue() ? "" : in.message().c_str());
        QVERIFY(in->y.allFinite() && in->y.maxCoeff() < 710);
    }
    void badInput() {
        QFETCH(Case, c);
        QFETCH(QString, message);
        auto in = prepareModelInputs(c.table, c.roles, c.options);
        QVERIFY(!in.hasValue());
        QCOMPARE(QString::fromStdString(in.message()), message);
    }
};

QTEST_APPLESS_MAIN(TstPrepare)
#include "tst_prepare.moc"
