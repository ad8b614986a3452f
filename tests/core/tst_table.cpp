#include <QTest>
#include <cmath>
#include <limits>

#include "ppsynth/data/number_format.hpp"
#include "ppsynth/data/table.hpp"

using namespace ppsynth::data;

class TstTable : public QObject {
    Q_OBJECT
  private slots:
    void missingIsExplicit() {
        auto c = Column::numeric("x", {1.0, 2.0, 3.0}, {0, 1, 0});
        QCOMPARE(c.missingCount(), std::size_t{1});
        QVERIFY(c.isMissing(1));
        QVERIFY(std::isnan(c.value(1)));
        QCOMPARE(c.display(1), std::string());
        QCOMPARE(c.display(2), std::string("3"));
    }
    void allZeroMaskIsCanonical() {
        QVERIFY(Column::numeric("x", {1, 2}, {0, 0}) == Column::numeric("x", {1, 2}));
    }
    void addColumnChecksLengthAndName() {
        Table t;
        QVERIFY(t.addColumn(Column::numeric("a", {1, 2})).isOk());
        auto bad = t.addColumn(Column::numeric("b", {1}));
        QVERIFY(!bad.isOk());
        QCOMPARE(bad.message(), std::string("column 'b' has 1 rows but the table has 2"));
        QVERIFY(!t.addColumn(Column::numeric("a", {3, 4})).isOk());
    }
    void convertNumericToCategoricalSortsLevels() {
        auto c = Column::numeric("g", {3, 1, 2, 1}).convertedTo(ColumnType::Categorical);
        QVERIFY(c.hasValue());
        QCOMPARE(c->levels().size(), std::size_t{3});
        QCOMPARE(c->levels()[0].label, std::string("1"));
        QCOMPARE(c->code(0), 2);
        QCOMPARE(c->code(1), 0);
    }
    void convertRespectsLevelLimit() {
        auto c = Column::numeric("g", {1, 2, 3, 4}).convertedTo(ColumnType::Categorical, 3);
        QVERIFY(!c.hasValue());
        QVERIFY(QString::fromStdString(c.message()).contains("more than 3 distinct values"));
    }
    void countRejectsFractions() {
        auto c = Column::numeric("v", {1, 2.5}).convertedTo(ColumnType::Count);
        QVERIFY(!c.hasValue());
        QCOMPARE(c.message(),
                 std::string(
                     "column 'v' cannot be count: row 2: 2.5 is not a non-negative whole number"));
    }
    void textToNumericNamesRow() {
        auto c = Column::text("y", {"1", "n/a"}).convertedTo(ColumnType::Numeric);
        QVERIFY(!c.hasValue());
        QCOMPARE(c.message(),
                 std::string("column 'y' cannot be numeric: row 2: 'n/a' is not a number"));
    }
    void filteredRowsKeepsMask() {
        Table t;
        QVERIFY(t.addColumn(Column::numeric("a", {1, 2, 3}, {0, 1, 0})).isOk());
        auto f = t.filteredRows({1, 0, 1});
        QCOMPARE(f.rowCount(), std::size_t{2});
        QCOMPARE(f.column(0).missingCount(), std::size_t{0});
    }
    void numbersRoundTrip_data() {
        QTest::addColumn<double>("v");
        QTest::newRow("int") << 42.0;
        QTest::newRow("neg") << -7000.0;
        QTest::newRow("frac") << 0.1;
        QTest::newRow("tiny") << 1e-300;
        QTest::newRow("big") << 1.8e6;
    }
    void numbersRoundTrip() {
        QFETCH(double, v);
        QCOMPARE(parseNumber(formatNumber(v)).value(), v);
    }
    void wholeNumbersPrintInFull() {
        QCOMPARE(formatNumber(1000000), std::string("1000000"));
        QCOMPARE(formatNumber(-7000), std::string("-7000"));
        QCOMPARE(formatNumber(1e20), std::string("1e+20"));
        QCOMPARE(formatNumber(0.5), std::string("0.5"));
    }
    // The words files write for non-finite values, in any case; nothing else.
    void nonFiniteWords_data() {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<int>("kind");  // 1 inf, -1 -inf, 0 NaN, 2 not read
        for (const char* t : {"inf", "+inf", "Inf", "INF", "infinity", "Infinity", "+Infinity"})
            QTest::newRow(t) << std::string(t) << 1;
        for (const char* t : {"-inf", "-Inf", "-Infinity", "-INFINITY"})
            QTest::newRow(t) << std::string(t) << -1;
        for (const char* t : {"nan", "NaN", "NAN", "-nan"}) QTest::newRow(t) << std::string(t) << 0;
        for (const char* t : {"", "in", "infinit", "nana", "NA", " inf", "inf ", "1inf", "--inf"})
            QTest::newRow((std::string("not: ") + t).c_str()) << std::string(t) << 2;
    }
    void nonFiniteWords() {
        QFETCH(std::string, text);
        QFETCH(int, kind);
        const auto v = parseNonFinite(text);
        QCOMPARE(v.has_value(), kind != 2);
        if (kind == 0) QVERIFY(std::isnan(*v));
        if (kind == 1) QCOMPARE(*v, std::numeric_limits<double>::infinity());
        if (kind == -1) QCOMPARE(*v, -std::numeric_limits<double>::infinity());
    }
    void textToNumericReadsNonFinite() {
        const auto c = Column::text("x", {"1.5", "inf", "NaN"}).convertedTo(ColumnType::Numeric);
        QVERIFY(c.hasValue());
        QCOMPARE(c->value(1), std::numeric_limits<double>::infinity());
        QVERIFY(std::isnan(c->value(2)) && !c->isMissing(2));
    }
    void parseRejectsNonNumbers() {
        QVERIFY(!parseNumber("nan"));
        QVERIFY(!parseNumber("inf"));
        QVERIFY(!parseNumber("1.2.3"));
        QVERIFY(!parseNumber(""));
        QCOMPARE(parseNumber(" +3.5 ").value(), 3.5);
    }
};

QTEST_APPLESS_MAIN(TstTable)
#include "tst_table.moc"
