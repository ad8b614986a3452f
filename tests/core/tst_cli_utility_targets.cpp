// `ppsynth-cli utility --target a,b` (METHOD.md section 9) on the files of a real run with two
// sensitive variables: every measure per variable and the joint ones are the numbers the run
// wrote to run.json (same core code, same seeds with --seed and --synthesizer), the human table
// shows the joint part, and a missing or misused target is an error naming it and the file.
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_process.hpp"
#include "ppsynth/data/io.hpp"
#include "run_maker.hpp"
#include "test_files.hpp"

using namespace ppsynth;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kRows = 240;

test::CliOutput<QByteArray> cli(const QStringList& args) {
    return test::runCli<QByteArray>(args, 120000);
}

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

// What depends on the machine or on the run only: timings, and the posterior comparison (the
// CLI has no posterior).
void dropRunOnly(json& j) {
    if (j.is_object()) {
        j.erase("seconds");
        j.erase("parameters");
        for (auto& [key, value] : j.items()) dropRunOnly(value);
    } else if (j.is_array()) {
        for (auto& e : j) dropRunOnly(e);
    }
}

}  // namespace

class TstCliUtilityTargets : public QObject {
    Q_OBJECT
    fs::path dir_, data_, run_;

    QStringList files(const std::string& synthesizer) const {
        QStringList out;
        for (int l = 1; l <= 3; ++l)
            out << q(run_ / "synthetic" / synthesizer /
                     ("synthetic_0" + std::to_string(l) + ".csv"));
        return out;
    }

  private slots:
    // income then food spending on the first 240 households, m = 3, short chains.
    void initTestCase() {
        dir_ = test::freshDir("tst_cli_utility_targets", "case");
        auto t = data::readTable(PPSYNTH_EXAMPLES_DIR "/household_spending.csv");
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        std::vector<std::uint8_t> keep(t->rowCount(), 0);
        for (std::size_t i = 0; i < kRows; ++i) keep[i] = 1;
        data_ = dir_ / "households.csv";
        QVERIFY(data::writeTable(t->filteredRows(keep), data_.string()).isOk());
        const json config = {
            {"data",
             {{"path", data_.string()},
              {"targets", json::array({"income", "exp_food"})},
              {"predictors", json::array({"gender", "region"})},
              {"transform", "log-shift"}}},
            {"model", {{"family", "normal"}}},
            {"mcmc",
             {{"chains", 2}, {"warmup", 150}, {"draws", 150}, {"seed", 11}, {"threads", 2}}},
            {"synthesis", {{"m", 3}}},
            {"utility", {{"bootstrap", 100}}},
            {"synthesizers",
             {{{"name", "Unweighted"}, {"scheme", "unweighted"}},
              {{"name", "LW"}, {"scheme", "lipschitz"}, {"c", 0.7}, {"g", 0.0}}}}};
        std::ofstream(dir_ / "config.json") << config.dump(2);
        run_ = dir_ / "run";
        fixture::writeRun(fixture::runConfig((dir_ / "config.json").string()), run_);
        QVERIFY(fs::exists(run_ / "run.json"));
    }

    void sameNumbersAsTheRun_data() {
        QTest::addColumn<QString>("synthesizer");
        QTest::newRow("Unweighted") << "Unweighted";
        QTest::newRow("LW") << "LW";
    }
    void sameNumbersAsTheRun() {
        QFETCH(QString, synthesizer);
        const std::string name = synthesizer.toStdString();
        const auto r = cli(
            QStringList{"utility", "--original", q(data_), "--synthetic"} + files(name) +
            QStringList{"--target", "income,exp_food", "--regress", "gender,region", "--bootstrap",
                        "100", "--seed", "11", "--synthesizer", synthesizer, "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        json mine = json::parse(r.out.toStdString());
        json run = json::parse(test::slurp(run_ / "run.json"))["synthesizers"][name]["utility"];
        QVERIFY(run.contains("variables") && run.contains("joint"));
        QCOMPARE(mine["variables"].size(), std::size_t{2});
        QCOMPARE(mine["variables"][1]["target"].get<std::string>(), std::string("exp_food"));
        QVERIFY(mine["joint"]["correlation"]["frobenius"].is_number());
        QVERIFY(mine["joint"]["pmse"]["s_pmse"].is_number());
        QCOMPARE(mine["joint"]["regressions"].size(), std::size_t{2});
        dropRunOnly(mine);
        dropRunOnly(run);
        for (const char* part : {"variables", "joint"})
            QVERIFY2(mine[part] == run[part],
                     (std::string(part) + ": CLI " + mine[part].dump().substr(0, 400) + "\nrun " +
                      run[part].dump().substr(0, 400))
                         .c_str());
        QVERIFY(mine == run);
    }

    void humanTable() {
        const auto r = cli(
            QStringList{"utility", "--original", q(data_), "--synthetic"} + files("LW") +
            QStringList{"--target", "income,exp_food", "--regress", "region", "--bootstrap", "50"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        for (const char* s :
             {"synthetic dataset(s) of 'income'", "synthetic dataset(s) of 'exp_food'",
              "joint utility of 'income' 'exp_food'", "joint pMSE", "Frobenius norm",
              "income ~ exp_food", "exp_food on the predictors and the other targets"})
            QVERIFY2(out.contains(s), s);
    }

    void badTargets_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        // A synthetic file without the second target.
        auto s = data::readTable(files("LW")[0].toStdString());
        QVERIFY(s.hasValue());
        data::Table without;
        for (const auto& c : s->columns())
            if (c.name() != "exp_food") QVERIFY(without.addColumn(c).isOk());
        const fs::path noFood = dir_ / "no_food.csv";
        QVERIFY(data::writeTable(without, noFood.string()).isOk());
        const QStringList lw = files("LW");
        QTest::newRow("unknown target")
            << (QStringList{"--synthetic"} + lw + QStringList{"--target", "income,exp_fod"})
            << "households.csv' has no column 'exp_fod'";
        QTest::newRow("target missing from a file")
            << QStringList{"--synthetic", lw[0], q(noFood), "--target", "income,exp_food"}
            << "no_food.csv' has no column 'exp_food'";
        QTest::newRow("twice") << (QStringList{"--synthetic"} + lw +
                                   QStringList{"--target", "income,exp_food,income"})
                               << "--target names 'income' twice";
        QTest::newRow("target as predictor")
            << (QStringList{"--synthetic"} + lw +
                QStringList{"--target", "income,exp_food", "--regress", "region,exp_food"})
            << "'exp_food' is a target; it cannot be in --regress";
        QTest::newRow("full") << (QStringList{"--synthetic"} + lw +
                                  QStringList{"--target", "income,exp_food", "--full"})
                              << "--full takes one --target";
    }
    void badTargets() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const auto r = cli(QStringList{"utility", "--original", q(data_)} + args);
        QVERIFY(r.code != 0);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_APPLESS_MAIN(TstCliUtilityTargets)
#include "tst_cli_utility_targets.moc"
