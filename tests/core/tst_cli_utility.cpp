// `ppsynth-cli utility` end to end: the real executable on the bundled income_survey example
// against synthetic files in three formats (CSV, Stata, SPSS), the JSON key contract, the
// human table, and clear errors on bad inputs.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <cmath>
#include <filesystem>

#include "cli_process.hpp"
#include "ppsynth/data/io.hpp"

using namespace ppsynth;

namespace {

using Result = test::CliOutput<QByteArray>;

Result cli(const QStringList& args) {
    return test::runCli<QByteArray>(args, 120000);
}

QString example() {
    return QStringLiteral(PPSYNTH_EXAMPLES_DIR "/income_survey.csv");
}

// income multiplied by a deterministic factor per row and dataset.
data::Table perturbed(const data::Table& t, int l) {
    data::Table s = t;
    const auto idx = *s.indexOf("income");
    std::vector<double> y = s.column(idx).values();
    for (std::size_t i = 0; i < y.size(); ++i)
        y[i] = std::round(y[i] * (1 + 0.2 * std::sin(static_cast<double>(i * (l + 3)))));
    (void)s.replaceColumn(idx, data::Column::numeric("income", y));
    return s;
}

}  // namespace

class TstCliUtility : public QObject {
    Q_OBJECT
    std::string dir_;

  private slots:
    void initTestCase() {
        dir_ = std::string(qgetenv("PPSYNTH_TEST_OUTPUT").constData()) + "/tst_cli_utility";
        if (dir_.starts_with("/tst_cli_utility")) dir_ = "/tmp/tst_cli_utility";
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        auto t = data::readTable(example().toStdString());
        QVERIFY(t.hasValue());
        QVERIFY(data::writeTable(perturbed(*t, 0), dir_ + "/s1.csv").isOk());
        QVERIFY(data::writeTable(perturbed(*t, 1), dir_ + "/s2.dta").isOk());
        QVERIFY(data::writeTable(perturbed(*t, 2), dir_ + "/s3.sav").isOk());
        std::vector<std::uint8_t> keep(t->rowCount(), 1);
        keep.back() = 0;
        QVERIFY(data::writeTable(t->filteredRows(keep), dir_ + "/short.csv").isOk());
        QVERIFY(data::writeTable(*t, dir_ + "/same.csv").isOk());
        // Row 3's gender changed: the file is no longer partially synthetic.
        data::Table moved = *t;
        const auto g = *moved.indexOf("gender");
        const auto& col = moved.column(g);
        std::vector<std::int32_t> codes = col.codes();
        codes[2] = codes[2] == 0 ? 1 : 0;  // the other of the two levels
        QVERIFY(moved.replaceColumn(g, data::Column::categorical("gender", codes, col.levels()))
                    .isOk());
        QVERIFY(data::writeTable(moved, dir_ + "/moved.csv").isOk());
    }
    void jsonKeysOfTheContract() {
        const auto r =
            cli({"utility", "--original", example(), "--synthetic",
                 QString::fromStdString(dir_ + "/s1.csv"), QString::fromStdString(dir_ + "/s2.dta"),
                 QString::fromStdString(dir_ + "/s3.sav"), "--target", "income", "--regress",
                 "age,gender", "--bootstrap", "200", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["records"].toInt(), 6208);
        QCOMPARE(j["datasets"].toInt(), 3);
        QCOMPARE(j["bootstrap"].toInt(), 200);
        QVERIFY(j["ecdf"].toObject()["U_m"].isDouble());
        QVERIFY(j["ecdf"].toObject()["U_a"].isDouble());
        const auto pmse = j["pmse"].toObject();
        QVERIFY(pmse["pmse"].isDouble() && pmse["s_pmse"].isDouble());
        QVERIFY(pmse["s_pmse_reference"].isDouble());
        QCOMPARE(pmse["k"].toInt(), 1 + 4 + 1 + 1);  // intercept, 4 age dummies, gender, y
        const auto reg = j["regression"].toArray();
        QCOMPARE(reg.size(), 6);
        QCOMPARE(reg[0].toObject()["term"].toString(), QString("(Intercept)"));
        for (const auto& v : reg) {
            const auto t = v.toObject();
            QVERIFY(t["term"].isString());
            for (const char* side : {"original", "synthetic"})
                for (const char* key : {"estimate", "lower", "upper"})
                    QVERIFY2(t[side].toObject()[key].isDouble(), key);
            QVERIFY(t["ci_overlap"].isDouble());
            QVERIFY(t["ci_overlap"].toDouble() <= 1);
        }
        const auto stats = j["statistics"].toArray();
        QCOMPARE(stats.size(), 4);
        QCOMPARE(stats[3].toObject()["name"].toString(), QString("quantile 0.9"));
        QCOMPARE(stats[0].toObject()["per_dataset"].toArray().size(), 3);
    }
    // The original as its own synthetic data: identical ECDFs, full overlap of the
    // regression intervals up to the t vs normal quantile (b = 0 means df = infinity).
    void originalAgainstItself() {
        const auto same = QString::fromStdString(dir_ + "/same.csv");
        const auto r =
            cli({"utility", "--original", example(), "--synthetic", same, same, "--target",
                 "income", "--regress", "gender", "--bootstrap", "50", "--no-pmse", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["ecdf"].toObject()["U_m"].toDouble(), 0.0);
        QCOMPARE(j["pmse"].toObject()["computed"].toBool(), false);
        for (const auto& v : j["regression"].toArray()) {
            const auto t = v.toObject();
            QCOMPARE(t["synthetic"].toObject()["estimate"].toDouble(),
                     t["original"].toObject()["estimate"].toDouble());
            QVERIFY(t["ci_overlap"].toDouble() > 0.99);
        }
    }
    void humanTableByDefault() {
        const auto r =
            cli({"utility", "--original", example(), "--synthetic",
                 QString::fromStdString(dir_ + "/s1.csv"), QString::fromStdString(dir_ + "/s2.dta"),
                 "--target", "income", "--regress", "education", "--bootstrap", "100",
                 "--quantiles", "0.5,0.99"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        for (const char* s : {"CI overlap", "quantile 0.99", "education[master's degree]", "U_m",
                              "S_pMSE", "reference"})
            QVERIFY2(out.contains(s), s);
    }
    // Fully synthetic files (--full): the predictors may differ and the row count too.
    void fullySyntheticFiles() {
        const auto moved = QString::fromStdString(dir_ + "/moved.csv");
        const auto shortFile = QString::fromStdString(dir_ + "/short.csv");
        const auto r =
            cli({"utility", "--original", example(), "--synthetic", moved, shortFile, "--target",
                 "income", "--regress", "age,gender", "--bootstrap", "50", "--full", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["regression"].toArray().size(), 0);
        QCOMPARE(j["fully_synthetic"].toBool(), true);
        QCOMPARE(j["pmse"].toObject()["s_pmse_reference"].toDouble(), 1.0);
        QVERIFY(j["pmse"].toObject()["s_pmse"].isDouble());
        QVERIFY(j["warnings"].toArray()[0].toString().startsWith("regression: skipped"));
    }
    void badInputs_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const auto s1 = QString::fromStdString(dir_ + "/s1.csv");
        const auto shortFile = QString::fromStdString(dir_ + "/short.csv");
        QTest::newRow("missing target")
            << QStringList{"--synthetic", s1, "--target", "nope"} << "has no column 'nope'";
        QTest::newRow("missing predictor")
            << QStringList{"--synthetic", s1, "--target", "income", "--regress", "agee"}
            << "no column 'agee'";
        QTest::newRow("fewer rows")
            << QStringList{"--synthetic", s1, shortFile, "--target", "income"}
            << "short.csv' has 6207 rows";
        QTest::newRow("predictor changed")
            << QStringList{"--synthetic", s1,       QString::fromStdString(dir_ + "/moved.csv"),
                           "--target",    "income", "--regress",
                           "age,gender"}
            << "moved.csv': column 'gender' differs from the original in row 3";
        QTest::newRow("predictor changed, hint")
            << QStringList{"--synthetic", QString::fromStdString(dir_ + "/moved.csv"),
                           "--target",    "income",
                           "--regress",   "gender"}
            << "use --full";
        QTest::newRow("text target")
            << QStringList{"--synthetic", s1, "--target", "gender"} << "not numbers";
        QTest::newRow("quantile out of range")
            << QStringList{"--synthetic", s1, "--target", "income", "--quantiles", "1.5"}
            << "quantiles";
        QTest::newRow("missing file")
            << QStringList{"--synthetic", s1 + ".nope", "--target", "income"} << "synthetic";
    }
    void badInputs() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const auto r = cli(QStringList{"utility", "--original", example()} + args);
        QVERIFY(r.code != 0);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_APPLESS_MAIN(TstCliUtility)
#include "tst_cli_utility.moc"
