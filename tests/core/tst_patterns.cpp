#include <QTest>
#include <algorithm>
#include <numeric>

#include "ppsynth/data/patterns.hpp"
#include "prep_fixtures.hpp"

using namespace ppsynth::data;
using fixtures::labels;
using fixtures::make;

using Members = std::vector<std::vector<std::size_t>>;
Q_DECLARE_METATYPE(std::vector<std::string>)
Q_DECLARE_METATYPE(std::vector<std::size_t>)
Q_DECLARE_METATYPE(std::vector<std::int32_t>)
Q_DECLARE_METATYPE(Members)

namespace {
std::vector<std::size_t> allRows(std::size_t n) {
    std::vector<std::size_t> r(n);
    std::iota(r.begin(), r.end(), std::size_t{0});
    return r;
}
}  // namespace

class TstPatterns : public QObject {
    Q_OBJECT
  private slots:
    // Hand-derived from the fixture (edu codes HS 0, College 1, Grad 2; sex F 0, M 1):
    // rows (1-based) 1 HS/F, 2 College/M, 3 Grad/M, 4 HS/F, 5 College/F, 6 HS/M, 7 Grad/F,
    // 8 College/M. Patterns are numbered in lexicographic order of the codes.
    void patterns_data() {
        QTest::addColumn<std::vector<std::string>>("known");
        QTest::addColumn<std::vector<std::size_t>>("rows");
        QTest::addColumn<std::vector<std::int32_t>>("id");
        QTest::addColumn<Members>("members");
        QTest::addColumn<std::vector<std::string>>("labels");
        QTest::addColumn<std::size_t>("singletons");
        QTest::newRow("edu, sex") << std::vector<std::string>{"edu", "sex"} << allRows(8)
                                  << std::vector<std::int32_t>{0, 3, 5, 0, 2, 1, 4, 3}
                                  << Members{{0, 3}, {5}, {4}, {1, 7}, {6}, {2}}
                                  << std::vector<std::string>{"edu=HS, sex=F",
                                                              "edu=HS, sex=M",
                                                              "edu=College, sex=F",
                                                              "edu=College, sex=M",
                                                              "edu=Grad, sex=F",
                                                              "edu=Grad, sex=M"}
                                  << std::size_t{4};
        QTest::newRow("sex, edu (order of known matters for ids only)")
            << std::vector<std::string>{"sex", "edu"} << allRows(8)
            << std::vector<std::int32_t>{0, 4, 5, 0, 1, 3, 2, 4}
            << Members{{0, 3}, {4}, {6}, {5}, {1, 7}, {2}}
            << std::vector<std::string>{"sex=F, edu=HS", "sex=F, edu=College", "sex=F, edu=Grad",
                                        "sex=M, edu=HS", "sex=M, edu=College", "sex=M, edu=Grad"}
            << std::size_t{4};
        QTest::newRow("sex") << std::vector<std::string>{"sex"} << allRows(8)
                             << std::vector<std::int32_t>{0, 1, 1, 0, 0, 1, 0, 1}
                             << Members{{0, 3, 4, 6}, {1, 2, 5, 7}}
                             << std::vector<std::string>{"sex=F", "sex=M"} << std::size_t{0};
        // Records are positions in `rows`: table rows 2, 3, 4, 8 -> College, Grad, HS, College.
        QTest::newRow("edu on a subset")
            << std::vector<std::string>{"edu"} << std::vector<std::size_t>{1, 2, 3, 7}
            << std::vector<std::int32_t>{1, 2, 0, 1} << Members{{2}, {0, 3}, {1}}
            << std::vector<std::string>{"edu=HS", "edu=College", "edu=Grad"} << std::size_t{2};
        QTest::newRow("no known variables")
            << std::vector<std::string>{} << allRows(8) << std::vector<std::int32_t>(8, 0)
            << Members{allRows(8)} << std::vector<std::string>{"all records"} << std::size_t{0};
        QTest::newRow("one record, no known")
            << std::vector<std::string>{} << std::vector<std::size_t>{5}
            << std::vector<std::int32_t>{0} << Members{{0}}
            << std::vector<std::string>{"all records"} << std::size_t{1};
    }
    void patterns() {
        QFETCH(std::vector<std::string>, known);
        QFETCH(std::vector<std::size_t>, rows);
        QFETCH(std::vector<std::int32_t>, id);
        QFETCH(Members, members);
        QFETCH(std::vector<std::string>, labels);
        QFETCH(std::size_t, singletons);
        auto p = computePatterns(fixtures::people(), known, rows);
        QVERIFY2(p.hasValue(), p.hasValue() ? "" : p.message().c_str());
        QCOMPARE(p->id, id);
        QCOMPARE(p->members, members);
        QCOMPARE(p->labels, labels);
        QCOMPARE(p->singletons, singletons);
        QCOMPARE(p->count(), members.size());
        std::vector<std::size_t> sizes;
        for (const auto& m : members) sizes.push_back(m.size());
        QCOMPARE(p->sizes(), sizes);
        for (std::size_t k = 0; k < p->count(); ++k) QCOMPARE(p->size(k), sizes[k]);
    }

    // Reordering the records permutes ids' owners but not the partition or the numbering.
    void independentOfRecordOrder() {
        const auto table = fixtures::people();
        const std::vector<std::size_t> forward = allRows(8);
        std::vector<std::size_t> backward(forward.rbegin(), forward.rend());
        auto a = computePatterns(table, {"edu", "sex"}, forward);
        auto b = computePatterns(table, {"edu", "sex"}, backward);
        QVERIFY(a.hasValue() && b.hasValue());
        QCOMPARE(a->labels, b->labels);
        for (std::size_t i = 0; i < 8; ++i) QCOMPARE(a->id[i], b->id[7 - i]);
    }

    // Every record in exactly one pattern, sizes add up to n (a larger random-ish table).
    void partitionInvariants() {
        const std::size_t n = 5000;
        std::vector<std::int32_t> g1(n), g2(n), g3(n);
        for (std::size_t i = 0; i < n; ++i) {
            g1[i] = std::int32_t((i * 7919) % 13);
            g2[i] = std::int32_t((i * 104729) % 5);
            g3[i] = std::int32_t((i * i) % 11);
        }
        std::vector<Level> l13 = labels(std::vector<std::string>(13, "")),
                           l5 = labels(std::vector<std::string>(5, "")),
                           l11 = labels(std::vector<std::string>(11, ""));
        const auto t = make({Column::categorical("a", g1, l13), Column::categorical("b", g2, l5),
                             Column::categorical("c", g3, l11)});
        auto p = computePatterns(t, {"a", "b", "c"}, allRows(n));
        QVERIFY(p.hasValue());
        std::vector<int> seen(n, 0);
        std::size_t total = 0, singles = 0;
        for (std::size_t k = 0; k < p->count(); ++k) {
            const auto& m = p->members[k];
            QVERIFY(std::is_sorted(m.begin(), m.end()));
            total += m.size();
            singles += m.size() == 1;
            for (std::size_t r : m) {
                ++seen[r];
                QCOMPARE(p->id[r], std::int32_t(k));
                QCOMPARE(g1[r], g1[m.front()]);
                QCOMPARE(g2[r], g2[m.front()]);
                QCOMPARE(g3[r], g3[m.front()]);
            }
        }
        QCOMPARE(total, n);
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
        QCOMPARE(p->singletons, singles);
        QVERIFY(p->count() <= 13u * 5u * 11u);
    }

    void errors_data() {
        QTest::addColumn<QString>("known");
        QTest::addColumn<QString>("message");
        QTest::newRow("not categorical")
            << "age"
            << "known variable 'age' must be a categorical predictor; change its type to "
               "categorical or remove it from the known variables";
        QTest::newRow("absent") << "zip"
                                << "known variable 'zip' is not a column of the table";
        QTest::newRow("missing cell")
            << "region"
            << "known variable 'region' row 2 is missing; choose listwise deletion or fix the file";
    }
    void errors() {
        QFETCH(QString, known);
        QFETCH(QString, message);
        auto t = fixtures::people();
        QVERIFY(t.addColumn(
                     Column::categorical("region", {0, -1, 1, 0, 0, 1, 1, 0}, labels({"N", "S"})))
                    .isOk());
        auto p = computePatterns(t, {known.toStdString()}, allRows(8));
        QVERIFY(!p.hasValue());
        QCOMPARE(QString::fromStdString(p.message()), message);
    }
};

QTEST_APPLESS_MAIN(TstPatterns)
#include "tst_patterns.moc"
