// summarize(): statistics checked against hand-computed values, identifier detection, and
// the suggested roles on small tables and on the bundled examples.
#include <QTest>
#include <boost/math/distributions/normal.hpp>
#include <limits>

#include "../common/near.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/data/inspect.hpp"

using namespace ppsynth::data;

namespace {

const ColumnSummary& col(const TableSummary& s, const std::string& name) {
    for (const auto& c : s.columns)
        if (c.name == name) return c;
    qFatal("no column %s", name.c_str());
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

Table smallTable() {
    Table t;
    (void)t.addColumn(Column::count("id", {1, 2, 3, 4, 5}));
    (void)t.addColumn(Column::numeric("income", {10, 20, 0, 40, 30}, {0, 0, 1, 0, 0}));
    (void)t.addColumn(Column::count("visits", {0, 1, 1, 2, 0}));
    (void)t.addColumn(
        Column::categorical("sex", {0, 1, 1, -1, 1}, {{"1", "male"}, {"2", "female"}}));
    (void)t.addColumn(Column::text("comment", {"a", "b", "", "a", "c"}, {0, 0, 1, 0, 0}));
    (void)t.addColumn(Column::numeric("constant", {7, 7, 7, 7, 7}));
    return t;
}

}  // namespace

class TstInspect : public QObject {
    Q_OBJECT
  private slots:
    void numericStatistics() {
        const auto s = summarize(smallTable());
        QCOMPARE(s.rows, std::size_t{5});
        QCOMPARE(s.columns.size(), std::size_t{6});
        const auto& inc = col(s, "income");
        QVERIFY(inc.type == ColumnType::Numeric);
        QCOMPARE(inc.missing, std::size_t{1});
        // {10, 20, 40, 30}: mean 25, squared deviations 225+25+225+25 = 500, sd sqrt(500/3).
        QCOMPARE(*inc.min, 10.0);
        QCOMPARE(*inc.max, 40.0);
        QCOMPARE(*inc.mean, 25.0);
        QVERIFY_NEAR(*inc.sd, std::sqrt(500.0 / 3.0), 1e-12);
        QCOMPARE(inc.distinct, std::size_t{4});
        QVERIFY(!inc.distinctCapped);
        QVERIFY(!inc.looksLikeId);
        const auto& v = col(s, "visits");
        QCOMPARE(v.distinct, std::size_t{3});
        QCOMPARE(*v.mean, 0.8);
    }

    // inf and NaN read from a file are counted apart; the statistics are over finite values.
    void nonFiniteValuesCountedApart() {
        const double inf = std::numeric_limits<double>::infinity();
        Table t;
        QVERIFY(
            t.addColumn(Column::numeric(
                            "x", {1, inf, 3, std::numeric_limits<double>::quiet_NaN(), 5, -inf}))
                .isOk());
        const TableSummary summary = summarize(t);  // col() refers into it
        const auto& x = col(summary, "x");
        QCOMPARE(x.nonFinite, std::size_t{3});
        QCOMPARE(x.missing, std::size_t{0});
        QCOMPARE(*x.min, 1.0);
        QCOMPARE(*x.max, 5.0);
        QCOMPARE(*x.mean, 3.0);
        QCOMPARE(x.distinct, std::size_t{3});
    }

    // Cells that were no numbers are reported with the reader's message, not as missing.
    void unreadCellsReported() {
        Column x = Column::numeric("x", {1, 2, 0, 4}, {0, 0, 1, 0});
        x.setUnreadCells({{2, "12abc"}}, "'f.csv' line 4, column 'x': '12abc' is not a number");
        Table t;
        QVERIFY(t.addColumn(std::move(x)).isOk());
        const TableSummary summary = summarize(t);
        const auto& s = col(summary, "x");
        QCOMPARE(s.notNumbers, std::size_t{1});
        QCOMPARE(s.missing, std::size_t{0});
        QCOMPARE(s.notNumbersMessage,
                 std::string("'f.csv' line 4, column 'x': '12abc' is not a number"));
    }

    void categoricalLevels() {
        const auto s = summarize(smallTable());
        const auto& sex = col(s, "sex");
        QCOMPARE(sex.missing, std::size_t{1});
        QCOMPARE(sex.levels.size(), std::size_t{2});
        QCOMPARE(sex.levels[0].label, std::string("male"));
        QCOMPARE(sex.levels[0].count, std::size_t{1});
        QCOMPARE(sex.levels[1].label, std::string("female"));
        QCOMPARE(sex.levels[1].count, std::size_t{3});
        QVERIFY(!sex.min.has_value());
        QCOMPARE(col(s, "comment").distinct, std::size_t{3});
    }

    void allMissingHasNoStatistics() {
        Table t;
        (void)t.addColumn(Column::numeric("y", {0, 0}, {1, 1}));
        const auto s = summarize(t);
        QCOMPARE(s.columns.size(), std::size_t{1});
        QVERIFY(!s.columns[0].min && !s.columns[0].mean && !s.columns[0].sd);
        QVERIFY(s.roles.target.empty());
        QVERIFY(
            QString::fromStdString(s.roles.targetReason).contains("no numeric or count column"));
        QCOMPARE(s.roles.ignored.size(), std::size_t{1});
        QCOMPARE(s.roles.ignored[0].reason, std::string("every value is missing"));
    }

    void distinctIsCapped() {
        SummaryOptions o;
        o.distinctCap = 3;
        const TableSummary summary = summarize(smallTable(), o);
        const auto& inc = col(summary, "income");
        QCOMPARE(inc.distinct, std::size_t{3});
        QVERIFY(inc.distinctCapped);
    }

    void identifiers_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<bool>("isId");
        QTest::newRow("1..n") << "n" << QVector<double>{3, 1, 2, 4} << true;
        QTest::newRow("0..n-1") << "row" << QVector<double>{0, 1, 2, 3} << true;
        QTest::newRow("named id, gaps") << "person_id" << QVector<double>{101, 7, 55, 9} << true;
        QTest::newRow("camel ID") << "caseID" << QVector<double>{101, 7, 55, 9} << true;
        QTest::newRow("gaps, plain name") << "paid" << QVector<double>{101, 7, 55, 9} << false;
        // A household or person identifier repeats in a person-level or long file.
        QTest::newRow("repeat") << "id" << QVector<double>{1, 2, 2, 3} << true;
        QTest::newRow("household") << "HHID" << QVector<double>{9001, 9001, 9017, 9002} << true;
        QTest::newRow("repeated index") << "index" << QVector<double>{1, 2, 2, 3} << false;
        QTest::newRow("repeated record") << "record" << QVector<double>{1, 2, 2, 3} << false;
        QTest::newRow("fraction") << "id" << QVector<double>{1, 2, 3, 3.5} << false;
        // The words agencies name identifiers with.
        QTest::newRow("serial") << "SERIAL" << QVector<double>{9001, 9017, 9002, 9100} << true;
        QTest::newRow("record number") << "RecordNo" << QVector<double>{5, 80, 13, 2} << true;
        QTest::newRow("respondent") << "respondent" << QVector<double>{44, 12, 7, 90} << true;
        QTest::newRow("resp id") << "resp.id" << QVector<double>{44, 12, 7, 90} << true;
        QTest::newRow("a word inside") << "periodic" << QVector<double>{44, 12, 7, 90} << false;
        QTest::newRow("income in whole dollars")
            << "income" << QVector<double>{41000, 12500, 7300, 90210} << false;
        // Row names of a subset keep the original row numbers: no run, but the first column
        // under the name R (write.csv's empty header, read.csv's X, readr's ...1, Rdatasets'
        // rownames) or pandas (Unnamed: 0) gives them.
        QTest::newRow("R rownames") << "rownames" << QVector<double>{1, 1100, 7, 534} << true;
        QTest::newRow("empty header") << "column_1" << QVector<double>{1, 1100, 7, 534} << true;
        QTest::newRow("read.csv X") << "X" << QVector<double>{1, 1100, 7, 534} << true;
        QTest::newRow("readr") << "...1" << QVector<double>{1, 1100, 7, 534} << true;
        QTest::newRow("pandas") << "Unnamed: 0" << QVector<double>{1, 1100, 7, 534} << true;
        QTest::newRow("X with decimals") << "X" << QVector<double>{1.5, 11, 7, 534} << false;
        // R's make.unique ("7.1") and reshape ("1978.1") give row names with decimals.
        QTest::newRow("make.unique") << "rownames" << QVector<double>{2, 7, 7.1, 160} << true;
        QTest::newRow("reshape") << "column_1" << QVector<double>{1978.1, 1978.2, 2016.9} << true;
        // "1.1" and "1.10" are two row names but one number.
        QTest::newRow("1.1 and 1.10") << "rownames" << QVector<double>{1.1, 1.10, 1.2} << true;
        QTest::newRow("unnamed, repeated") << "column_1" << QVector<double>{2, 7, 7, 160} << false;
    }
    void identifiers() {
        QFETCH(QString, name);
        QFETCH(QVector<double>, values);
        QFETCH(bool, isId);
        Table t;
        (void)t.addColumn(Column::numeric(name.toStdString(), {values.begin(), values.end()}));
        QCOMPARE(summarize(t).columns[0].looksLikeId, isId);
    }

    // Only the first column can hold row names: an X further right is a variable.
    void rowNamesOnlyInTheFirstColumn() {
        Table t;
        (void)t.addColumn(Column::numeric("wage", {5.1, 4.2, 5.1, 7.5}));
        (void)t.addColumn(Column::numeric("X", {1, 1100, 7, 534}));
        const auto s = summarize(t);
        QVERIFY(!col(s, "X").looksLikeId);
        QCOMPARE(s.roles.target, std::string("X"));

        Table r;
        (void)r.addColumn(Column::numeric("column_1", {1, 1100, 7, 534}));
        (void)r.addColumn(Column::numeric("wage", {5.1, 4.2, 6.0, 7.5}));
        const auto rs = summarize(r);
        QCOMPARE(rs.roles.target, std::string("wage"));
        QCOMPARE(rs.roles.ignored.size(), std::size_t{1});
        QCOMPARE(rs.roles.ignored[0].reason,
                 std::string("identifier: all distinct whole numbers 1..1100, in the first column "
                             "under the name R or pandas give row names; a record's label, not "
                             "data about it"));
        // Named like an identifier but not in the first column: the name is the reason.
        Table n;
        (void)n.addColumn(Column::numeric("wage", {5.1, 4.2, 5.1, 7.5}));
        (void)n.addColumn(Column::numeric("rownames", {1, 1100, 7, 534}));
        QVERIFY(summarize(n).roles.ignored[0].reason.find("named like one") != std::string::npos);
    }

    // Row names that are partly no numbers ("87a" beside 86 and 88) are still row names.
    void rowNamesWithTextCells() {
        Column names = Column::numeric("rownames", {86, 0, 88}, {0, 1, 0});
        names.setUnreadCells({{1, "87a"}},
                             "'f.csv' line 3, column 'rownames': '87a' is not a number");
        Table t;
        QVERIFY(t.addColumn(std::move(names)).isOk());
        QVERIFY(t.addColumn(Column::numeric("area", {3.5, 1.25, 7.0})).isOk());
        const auto s = summarize(t);
        QVERIFY(col(s, "rownames").looksLikeId);
        QCOMPARE(s.roles.target, std::string("area"));
    }

    // A categorical column with a different level in every row (mtcars' car names) labels the
    // records: as a predictor it would give each record its own coefficient.
    void levelPerRowIsALabel() {
        Table t;
        (void)t.addColumn(Column::categorical(
            "model", {0, 1, 2, 3},
            {{"a", "Mazda RX4"}, {"b", "Datsun 710"}, {"c", "Valiant"}, {"d", "Duster 360"}}));
        (void)t.addColumn(Column::categorical("gear", {0, 1, 1, 0}, {{"3", "3"}, {"4", "4"}}));
        (void)t.addColumn(Column::numeric("mpg", {21, 22.8, 18.1, 14.3}));
        const auto s = summarize(t);
        QVERIFY(col(s, "model").looksLikeId);
        QVERIFY(!col(s, "gear").looksLikeId);
        QCOMPARE(s.roles.predictors, (std::vector<std::string>{"gear"}));
        QCOMPARE(s.roles.ignored.size(), std::size_t{1});
        QCOMPARE(s.roles.ignored[0].reason,
                 std::string("a different value in every row (4 levels): a record's label, not "
                             "data about it; as a predictor it would single out every record"));
    }

    void missingCellMeansNotAnId() {
        Table t;
        (void)t.addColumn(Column::numeric("id", {1, 2, 3, 4}, {0, 0, 1, 0}));
        QVERIFY(!summarize(t).columns[0].looksLikeId);
    }

    void suggestedRoles() {
        const auto s = summarize(smallTable());
        // income (4 distinct) beats visits (3); id is skipped as an identifier.
        QCOMPARE(s.roles.target, std::string("income"));
        QVERIFY2(QString::fromStdString(s.roles.targetReason)
                     .contains("most distinct values (4 of 5 rows)"),
                 s.roles.targetReason.c_str());
        QVERIFY2(QString::fromStdString(s.roles.targetReason).contains("'id' was skipped"),
                 s.roles.targetReason.c_str());
        QCOMPARE(s.roles.predictors, (std::vector<std::string>{"visits", "sex"}));
        QVERIFY(s.roles.known.empty());
        QVERIFY(!s.roles.knownNote.empty());
        QCOMPARE(s.roles.ignored.size(), std::size_t{3});
        QCOMPARE(s.roles.ignored[0].name, std::string("id"));
        QCOMPARE(s.roles.ignored[0].reason,
                 std::string("identifier: all distinct whole numbers 1..5, and named like one; a "
                             "record's label, not data about it"));
        QCOMPARE(s.roles.ignored[1].name, std::string("comment"));
        QCOMPARE(s.roles.ignored[2].name, std::string("constant"));
    }

    // A positive, strongly right-skewed target gets log (or log-shift with zeros or negative
    // values) and the reason; a symmetric one none.
    void suggestedTransform_data() {
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<QString>("transform");
        QTest::addColumn<QString>("reason");  // a part of it
        QVector<double> lognormal, withZero, withLoss, symmetric, oneOutlier;
        const boost::math::normal normal;
        for (int i = 1; i <= 200; ++i) {
            // Normal quantiles: a lognormal(sigma 1) sample of skewness 3.6 whose maximum is
            // 16 times its median, so the skewness alone decides.
            const double z = boost::math::quantile(normal, (i - 0.5) / 200);
            lognormal << 30000 * std::exp(z);
            withZero << (i <= 5 ? 0.0 : 30000 * std::exp(z));
            withLoss << (i == 1 ? -7000.0 : 30000 * std::exp(z));
            symmetric << 50 + z;
            oneOutlier << (i == 200 ? 5000.0 : 100 + i % 7);
        }
        QTest::newRow("lognormal") << lognormal << "log"
                                   << "every value is positive";
        QTest::newRow("zeros") << withZero << "log-shift"
                               << "since it has zeros (min 0)";
        QTest::newRow("a loss") << withLoss << "log-shift"
                                << "since it has negative values (min -7000)";
        QTest::newRow("symmetric") << symmetric << ""
                                   << "";
        QTest::newRow("max 50 x median") << oneOutlier << "log"
                                         << "times its median";
        // pyreadstat's sample_large.sav: symmetric around a median of 0.5, so its maximum is
        // 2000 times the median; skewness 0, nothing to transform.
        QVector<double> aroundZero;
        for (int i = 0; i < 200; ++i)
            aroundZero << std::vector<double>{-1000.3, -1.4, 0.5, 1.1, 1000.3}[i % 5];
        QTest::newRow("symmetric, median near 0") << aroundZero << ""
                                                  << "";
    }
    void suggestedTransform() {
        QFETCH(QVector<double>, values);
        QFETCH(QString, transform);
        QFETCH(QString, reason);
        Table t;
        (void)t.addColumn(Column::numeric("income", {values.begin(), values.end()}));
        const auto s = summarize(t);
        QCOMPARE(s.roles.target, std::string("income"));
        QCOMPARE(QString::fromStdString(s.roles.transform), transform);
        if (transform.isEmpty()) {
            QVERIFY(s.roles.transformReason.empty());
            return;
        }
        QVERIFY2(QString::fromStdString(s.roles.transformReason).contains(reason),
                 s.roles.transformReason.c_str());
        QVERIFY(s.roles.transformReason.starts_with("'income' is strongly right-skewed ("));
        QVERIFY(s.roles.transformReason.ends_with("The normal mixture model is the other remedy"));
    }

    // The bundled income example: negative incomes, so log-shift.
    void incomeExampleGetsLogShift() {
        const auto s = summarize(makeExample(ExampleId::IncomeSurvey));
        QCOMPARE(s.roles.target, std::string("income"));
        QCOMPARE(s.roles.transform, std::string("log-shift"));
    }

    void tieGoesToNumeric() {
        Table t;
        (void)t.addColumn(Column::count("k", {0, 1, 1}));
        (void)t.addColumn(Column::numeric("x", {0.5, 1.5, 0.5}));
        const auto s = summarize(t);
        QCOMPARE(s.roles.target, std::string("x"));
        QCOMPARE(s.roles.predictors, std::vector<std::string>{"k"});
    }

    void examples_data() {
        QTest::addColumn<int>("id");
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("predictors");
        QTest::newRow("poisson") << int(ExampleId::Poisson) << "y" << 0;
        QTest::newRow("nb_mixture") << int(ExampleId::NbMixture) << "y" << 0;
        // income is continuous; doctor_visits (a count with few values) stays a predictor.
        QTest::newRow("income_survey") << int(ExampleId::IncomeSurvey) << "income" << 11;
        QTest::newRow("lognormal_mixture") << int(ExampleId::LognormalMixture) << "y" << 15;
    }
    void examples() {
        QFETCH(int, id);
        QFETCH(QString, target);
        QFETCH(int, predictors);
        const Table t = makeExample(static_cast<ExampleId>(id));
        const auto s = summarize(t);
        QCOMPARE(s.rows, t.rowCount());
        QCOMPARE(QString::fromStdString(s.roles.target), target);
        QCOMPARE(s.roles.predictors.size(), static_cast<std::size_t>(predictors));
        QVERIFY(s.roles.ignored.empty());
        for (const auto& c : s.columns) {
            QCOMPARE(c.missing, std::size_t{0});
            QVERIFY(!c.looksLikeId);
            if (c.type == ColumnType::Categorical) {
                std::size_t total = 0;
                for (const auto& l : c.levels) total += l.count;
                QCOMPARE(total, t.rowCount());
            }
        }
        if (id == int(ExampleId::IncomeSurvey)) {
            QVERIFY(contains(s.roles.predictors, "doctor_visits"));
            const auto& inc = col(s, "income");
            QVERIFY(*inc.min >= -7000 && *inc.max <= 1'800'000);
            QCOMPARE(col(s, "family_size").levels.size(), std::size_t{11});
        }
    }
};

QTEST_APPLESS_MAIN(TstInspect)
#include "tst_inspect.moc"
