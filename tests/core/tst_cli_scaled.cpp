// `ppsynth-cli run` on the bundled example with the scaled scheme and the top-coding
// comparator (resources/examples/scaled_topcode_poisson.json): the summary lines say "no
// formal guarantee" where the comparator's epsilon would be and list every refit of the
// scale search, run.json has epsilon null with the flag and the refits, and the comparator
// is refused by `ppsynth-cli release`.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <filesystem>
#include <fstream>

#include "cli_process.hpp"

namespace fs = std::filesystem;

namespace {

ppsynth::test::CliOutput<QString> cli(const QStringList& args) {
    return ppsynth::test::runCli<QString>(args, 120000);
}

QString lineOf(const QString& out, const QString& start) {
    for (const auto& line : out.split('\n'))
        if (line.startsWith(start)) return line;
    return {};
}

}  // namespace

class TstCliScaled : public QObject {
    Q_OBJECT
    std::string dir_;

  private slots:
    void initTestCase() {
        dir_ = std::string(qgetenv("PPSYNTH_TEST_OUTPUT").constData());
        dir_ = (dir_.empty() ? std::string("/tmp") : dir_) + "/tst_cli_scaled";
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }

    void summaryLinesAndRunJson() {
        const QString out = QString::fromStdString(dir_ + "/run");
        const auto r =
            cli({"run", PPSYNTH_EXAMPLES_DIR "/scaled_topcode_poisson.json", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString tc = lineOf(r.out, "TopCoded: ");
        QVERIFY2(
            tc.startsWith("TopCoded: no formal guarantee (top-coded at the 0.975 quantile, t = "),
            qPrintable(r.out));
        QVERIFY2(!tc.contains("epsilon"), qPrintable(tc));
        const QString scaled = lineOf(r.out, "LW-scaled: epsilon ");
        QVERIFY2(scaled.contains("; scale a = ") &&
                     scaled.contains("for target epsilon 1.5 (reached)") &&
                     scaled.contains("refits: a 1 -> epsilon "),
                 qPrintable(r.out));
        QVERIFY2(lineOf(r.out, "LW-half: ").contains("scale a = 0.5 of lipschitz (given)"),
                 qPrintable(r.out));
        QVERIFY2(lineOf(r.out, "LW-too-high: ").contains("NOT REACHABLE"), qPrintable(r.out));

        // The top-coded data are the confidential values with the largest ones capped: kept
        // with the confidential files, never in a folder named "synthetic". (Release below
        // reads the folder back, this file included.)
        QVERIFY(fs::exists(dir_ + "/run/confidential/TopCoded_topcoded.csv"));
        QVERIFY(!fs::exists(dir_ + "/run/synthetic/TopCoded"));
        QVERIFY(fs::exists(dir_ + "/run/synthetic/LW-scaled/synthetic_01.csv"));

        std::ifstream in(dir_ + "/run/run.json");
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const auto j = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
        const auto s = j["synthesizers"].toObject();
        const auto top = s["TopCoded"].toObject();
        QVERIFY(top["epsilon"].isNull());
        QVERIFY(top["epsilon_total"].isNull());
        QCOMPARE(top["formal_guarantee"].toBool(true), false);
        QCOMPARE(top["topcode"].toObject()["q"].toDouble(), 0.975);
        QCOMPARE(top["m"].toInt(), 1);
        QVERIFY(top["utility"].toObject()["ecdf"].isObject());
        const auto sc = s["LW-scaled"].toObject();
        QCOMPARE(sc["formal_guarantee"].toBool(false), true);
        QCOMPARE(sc["scaled_of"].toString(), QString("lipschitz"));
        QCOMPARE(sc["target_epsilon"].toDouble(), 1.5);
        QVERIFY(sc["scale_converged"].toBool());
        const auto refits = sc["refits"].toArray();
        QCOMPARE(refits.size(), sc["fits"].toInt());
        QVERIFY(refits.size() >= 2);
        QCOMPARE(refits[0].toObject()["a"].toDouble(), 1.0);
        // The a = 1 refit is LW's own fit (same weights, same seed).
        QCOMPARE(refits[0].toObject()["epsilon"].toDouble(),
                 s["LW"].toObject()["epsilon"].toDouble());
        const auto high = s["LW-too-high"].toObject();
        QCOMPARE(high["scale_reachable"].toBool(true), false);
        QCOMPARE(high["scale"].toDouble(), 1.0);

        // The comparator is not released; the scaled synthesizer is.
        const auto refused = cli({"release", out, "--synthesizer", "TopCoded", "--out",
                                  QString::fromStdString(dir_ + "/bundle_tc")});
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("no formal privacy guarantee"), qPrintable(refused.err));
        QVERIFY(!fs::exists(dir_ + "/bundle_tc"));
        const auto released = cli({"release", out, "--synthesizer", "LW-scaled", "--out",
                                   QString::fromStdString(dir_ + "/bundle_scaled")});
        QVERIFY2(released.code == 0, qPrintable(released.err));
    }
};

QTEST_GUILESS_MAIN(TstCliScaled)
#include "tst_cli_scaled.moc"
