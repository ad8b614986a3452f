// What a run fits, said before it fits it, and the predictors it refuses to fit silently:
// the design summary (data/design_summary.hpp), a categorical predictor whose levels are
// all numbers (data/design_matrix.hpp's maxWholeNumberLevels rule) and a constant target.
#include <QTest>
#include <cmath>
#include <numeric>

#include "ppsynth/data/design_summary.hpp"
#include "ppsynth/data/prepare.hpp"
#include "prep_fixtures.hpp"

using namespace ppsynth::data;
using fixtures::labels;
using fixtures::make;

Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

// n rows: y varies, x cycles through the given level labels.
Table withLevels(const std::vector<std::string>& levelLabels, std::size_t n = 60) {
    std::vector<std::int32_t> codes;
    std::vector<double> y;
    for (std::size_t i = 0; i < n; ++i) {
        codes.push_back(static_cast<std::int32_t>(i % levelLabels.size()));
        y.push_back(10.0 + static_cast<double>((i * 37) % 23));
    }
    return make({Column::categorical("x", codes, labels(levelLabels)), Column::numeric("y", y)});
}

std::vector<std::string> numbered(int from, int to, const std::string& prefix = "") {
    std::vector<std::string> out;
    for (int k = from; k <= to; ++k) out.push_back(prefix + std::to_string(k));
    return out;
}

Roles xRoles() {
    Roles r;
    r.target = "y";
    r.predictors = {"x"};
    return r;
}

}  // namespace

class TstModelDesign : public QObject {
    Q_OBJECT
  private slots:
    // The people fixture: edu (3 levels with records, HS the reference), sex, age and visits
    // standardized (mean 30 and 3, sd 2 both: prep_fixtures.hpp).
    void summaryOfPeople() {
        Roles roles;
        roles.target = "income";
        roles.predictors = {"age", "edu", "visits", "sex"};
        PrepareOptions po;
        po.transform = TransformKind::LogShift;
        auto in = prepareModelInputs(fixtures::people(), roles, po);
        QVERIFY2(in, in ? "" : in.message().c_str());
        const auto d = summarizeDesign(*in, "income");
        QCOMPARE(d.columns, std::size_t{6});
        QCOMPARE(d.coefficients(), std::size_t{6});
        QCOMPARE(d.records, std::size_t{8});
        QCOMPARE(d.predictors.size(), std::size_t{4});
        QCOMPARE(d.predictors[0].name, std::string("edu"));
        QCOMPARE(d.predictors[0].type, std::string("categorical"));
        QCOMPARE(d.predictors[0].levels, std::size_t{3});
        QCOMPARE(d.predictors[0].reference, std::string("HS"));
        QCOMPARE(d.predictors[0].columns, (std::vector<std::string>{"edu[College]", "edu[Grad]"}));
        QCOMPARE(d.predictors[2].name, std::string("age"));
        QCOMPARE(d.predictors[2].type, std::string("numeric"));
        QCOMPARE(d.predictors[2].columns, std::vector<std::string>{"age_z"});
        QCOMPARE(*d.predictors[2].mean, 30.0);
        QCOMPARE(*d.predictors[2].sd, 2.0);
        QCOMPARE(d.predictors[3].type, std::string("count"));

        const auto lines = describeDesign(d);
        QCOMPARE(lines.size(), std::size_t{5});
        QCOMPARE(lines[0],
                 std::string("model design: y = 'income' transformed by log(y + 3.5), 8 records, "
                             "4 predictors, X has 6 columns (the intercept included): 6 "
                             "coefficients"));
        QCOMPARE(lines[1], std::string("  edu: categorical, 3 levels, reference 'HS', 2 columns: "
                                       "edu[College], edu[Grad]"));
        QCOMPARE(lines[3], std::string("  age: numeric, standardized with mean 30, sd 2, 1 "
                                       "column: age_z"));

        // The mixture's components each have their own coefficients; Poisson means none.
        const auto mix = summarizeDesign(*in, "income", 20);
        QCOMPARE(mix.coefficients(), std::size_t{120});
        QVERIFY(describeDesign(mix)[0].ends_with(
            "each of the 20 mixture components has its own: 120 coefficients"));
        const auto means = summarizeDesign(*in, "income", 1, false);
        QCOMPARE(means.coefficients(), std::size_t{0});
    }

    // A long dummy block is named in part, its count in full.
    void longColumnListIsCut() {
        auto in = prepareModelInputs(withLevels(numbered(1, 12, "g")), xRoles());
        QVERIFY2(in, in ? "" : in.message().c_str());
        const auto lines = describeDesign(summarizeDesign(*in, "y"), 3);
        QCOMPARE(lines[1], std::string("  x: categorical, 12 levels, reference 'g1', 11 columns: "
                                       "x[g2], x[g3], x[g4], ... (8 more)"));
    }

    // A categorical predictor whose levels are all numbers: refused when one has decimals or
    // when more whole numbers than the limit (20) are there; a few whole-number codes kept
    // with a note. A code with a leading zero ("01") is a code, not a number.
    void numberLevels_data() {
        QTest::addColumn<std::vector<std::string>>("levels");
        QTest::addColumn<QString>("error");  // a part of the message; empty: accepted
        QTest::addColumn<QString>("note");   // a part of a note; empty: no note about it
        QTest::newRow("17-digit decimals")
            << std::vector<std::string>{"2.0499999523162842", "3.5", "4.25"}
            << "some with decimals (such as '2.0499999523162842')"
            << "";
        QTest::newRow("negative decimal")
            << std::vector<std::string>{"1", "2", "-0.5"} << "some with decimals (such as '-0.5')"
            << "";
        QTest::newRow("25 whole numbers") << numbered(1, 25)
                                          << "25 levels are all whole numbers (1 to 25), more "
                                             "than the 20 a set of category codes usually has"
                                          << "";
        QTest::newRow("20 whole numbers") << numbered(1, 20) << ""
                                          << "are the whole numbers 1 to 20: they are treated as "
                                             "20 categories";
        QTest::newRow("region codes 1-3")
            << std::vector<std::string>{"1", "2", "3"} << ""
            << "are the whole numbers 1 to 3: they are treated as 3 categories (codes); if they "
               "are quantities, set its type to numeric";
        QTest::newRow("codes with leading zeros") << numbered(10, 34, "0") << ""
                                                  << "";
        QTest::newRow("words") << std::vector<std::string>{"North", "South", "East"} << ""
                               << "";
        QTest::newRow("numbers and a word") << std::vector<std::string>{"1.5", "2.5", "other"} << ""
                                            << "";
    }
    void numberLevels() {
        QFETCH(std::vector<std::string>, levels);
        QFETCH(QString, error);
        QFETCH(QString, note);
        auto in = prepareModelInputs(withLevels(levels), xRoles());
        if (!error.isEmpty()) {
            QVERIFY(!in);
            QVERIFY2(QString::fromStdString(in.message()).contains(error), in.message().c_str());
            QVERIFY2(in.message().starts_with("predictor 'x' is categorical but its "),
                     in.message().c_str());
            QVERIFY2(in.message().ends_with(
                         "set its type to numeric (data.types: {\"x\": \"numeric\"} in a "
                         "configuration, the Type column on the Data page); if they really are "
                         "category codes, relabel them as text (such as 'group " +
                         levels.front() + "')"),
                     in.message().c_str());
            return;
        }
        QVERIFY2(in, in ? "" : in.message().c_str());
        bool found = false;
        for (const auto& n : in->report.notes)
            found = found || QString::fromStdString(n).contains(QStringLiteral("whole numbers"));
        if (note.isEmpty()) {
            QVERIFY(!found);
        } else {
            bool matched = false;
            for (const auto& n : in->report.notes)
                matched = matched || QString::fromStdString(n).contains(note);
            QVERIFY2(matched,
                     in->report.notes.empty() ? "no notes" : in->report.notes.front().c_str());
        }
    }

    // The whole refusal for the case, as a person reads it.
    void decimalLevelsMessage() {
        auto in = prepareModelInputs(withLevels({"2.0499999523162842", "3.5", "4.25"}), xRoles());
        QVERIFY(!in);
        QCOMPARE(in.message(),
                 std::string("predictor 'x' is categorical but its 3 levels are all numbers, "
                             "some with decimals (such as '2.0499999523162842'): it was probably "
                             "meant to be numeric, and as categorical it adds 2 dummy columns to "
                             "the model instead of one slope; set its type to numeric "
                             "(data.types: {\"x\": \"numeric\"} in a configuration, the Type "
                             "column on the Data page); if they really are category codes, "
                             "relabel them as text (such as 'group 2.0499999523162842')"));
    }

    // The level limit names the column, its count and the setting that raises it.
    void levelLimitNamesTheSetting() {
        PrepareOptions po;
        po.maxLevels = 10;
        auto in = prepareModelInputs(withLevels(numbered(1, 12, "g")), xRoles(), po);
        QVERIFY(!in);
        QCOMPARE(in.message(),
                 std::string("predictor 'x' has 12 levels, more than the limit of 10; merge "
                             "levels, remove it from the predictors, or raise the level limit "
                             "(data.max_levels)"));
    }

    // A constant target is refused as a constant predictor is.
    void constantTarget() {
        Table t = make({Column::numeric("y", std::vector<double>(8, 5.0)),
                        Column::numeric("age", {27, 28, 29, 30, 30, 31, 32, 33})});
        Roles r;
        r.target = "y";
        r.predictors = {"age"};
        auto in = prepareModelInputs(t, r);
        QVERIFY(!in);
        QCOMPARE(in.message(),
                 std::string("target 'y' is constant (every used record has 5), so there is "
                             "nothing to synthesize and no risk to measure; pick another target "
                             "or check the file"));
    }
};

QTEST_APPLESS_MAIN(TstModelDesign)
#include "tst_model_design.moc"
