// `ppsynth-cli run` end to end with the real executable: the output folder's layout and
// run.json's contract keys (issue 4), the confidential folder kept apart from what is
// released, Ctrl-C (SIGINT) ending with exit 130 and nothing written, --overwrite
// replacing only a run folder, and clear messages for bad configurations.
#include <signal.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>
#include <filesystem>
#include <fstream>

#include "cli_process.hpp"
#include "ppsynth/data/io.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;

namespace {

using Result = ppsynth::test::CliOutput<QByteArray>;

Result cli(const QStringList& args, int timeoutMs = 120000) {
    return ppsynth::test::runCli<QByteArray>(args, timeoutMs);
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
}

// The poisson example with the conjugate model (exact draws): a full run in about a second.
std::string quickConfig(const std::string& extra = "") {
    return R"({"data": {"path": ")" PPSYNTH_EXAMPLES_DIR R"(/poisson.csv", "target": "y"},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 3},
      "synthesis": {"m": 3}, "risk": {"L": 3},
      "utility": {"bootstrap": 100)" +
           extra + R"(},
      "synthesizers": [
        {"name": "Unweighted", "scheme": "unweighted"},
        {"name": "LW", "scheme": "lipschitz", "c": 0.7},
        {"name": "Pairwise", "scheme": "pairwise", "source": "synthetic"},
        {"name": "EM", "scheme": "scalar", "match": "LW"}]})";
}

// Longest JSON array anywhere in the document: run.json holds nothing record-level.
qsizetype longestArray(const QJsonValue& v) {
    qsizetype best = 0;
    if (v.isArray()) {
        best = v.toArray().size();
        for (const auto& e : v.toArray()) best = std::max(best, longestArray(e));
    } else if (v.isObject()) {
        for (const auto& e : v.toObject()) best = std::max(best, longestArray(e));
    }
    return best;
}

}  // namespace

class TstCliRun : public QObject {
    Q_OBJECT
    std::string dir_;

  private slots:
    void initTestCase() {
        dir_ = std::string(qgetenv("PPSYNTH_TEST_OUTPUT").constData());
        dir_ = (dir_.empty() ? std::string("/tmp") : dir_) + "/tst_cli_run";
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void outputsAndContractKeys() {
        writeFile(dir_ + "/quick.json", quickConfig());
        const std::string out = dir_ + "/out";
        const auto r = cli({"run", QString::fromStdString(dir_ + "/quick.json"), "--out",
                            QString::fromStdString(out), "--keep-draws"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QString::fromUtf8(r.out).contains("LW: epsilon"));
        QVERIFY(QString::fromUtf8(r.err).contains("wrote"));
        std::ifstream in(out + "/run.json");
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const auto j = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
        const auto synths = j["synthesizers"].toObject();
        QCOMPARE(synths.size(), 4);
        for (const auto& name : {"Unweighted", "LW", "Pairwise", "EM"}) {
            const auto s = synths[name].toObject();
            for (const char* key :
                 {"delta_x", "delta_alpha_x", "epsilon", "epsilon_total", "seconds"})
                QVERIFY2(s[key].isDouble(), key);
            QVERIFY(s["delta_method"].isString());
            QVERIFY(s["weights"].isObject() && s["ir"].isObject());
            const auto d = s["diagnostics"].toObject();
            for (const char* key : {"rhat_max", "ess_bulk_min", "ess_tail_min", "divergences"})
                QVERIFY2(d.contains(key), key);
            const auto st = s["stage_seconds"].toObject();
            for (const char* key : {"fits", "weights", "synthesis", "risk", "utility"})
                QVERIFY2(st[key].isDouble(), key);
            QCOMPARE(s["seconds"].toDouble(), st["fits"].toDouble());
            QCOMPARE(s["epsilon_total"].toDouble(), 3 * s["epsilon"].toDouble());
            const auto u = s["utility"].toObject();
            QVERIFY(u["ecdf"].toObject()["U_m"].isDouble());
            QVERIFY(u["pmse"].toObject()["s_pmse"].isDouble());
            QVERIFY(u["regression"].isArray());
            for (int l = 1; l <= 3; ++l)
                QVERIFY(fs::exists(out + "/synthetic/" + name + "/synthetic_0" + std::to_string(l) +
                                   ".csv"));
            QVERIFY(!fs::exists(out + "/synthetic/" + name + "/synthetic_04.csv"));
            QVERIFY(fs::exists(out + "/confidential/" + name + "_records.csv"));
            QVERIFY(fs::exists(out + "/confidential/" + name + "_draws.csv"));
        }
        // Nothing record-level in run.json (the example has 1000 records).
        QVERIFY(longestArray(QJsonValue(j)) < 1000);
        // The released files hold the input's columns, the target replaced; the records
        // file (confidential) holds the contract's columns.
        auto orig = ppsynth::data::readTable(PPSYNTH_EXAMPLES_DIR "/poisson.csv");
        auto syn = ppsynth::data::readTable(out + "/synthetic/LW/synthetic_01.csv");
        QVERIFY(orig.hasValue() && syn.hasValue());
        QCOMPARE(syn->columnCount(), orig->columnCount());
        QCOMPARE(syn->rowCount(), orig->rowCount());
        QVERIFY(syn->find("y")->values() != orig->find("y")->values());
        std::ifstream rec(out + "/confidential/Pairwise_records.csv");
        std::string header;
        std::getline(rec, header);
        QCOMPARE(header, std::string("row,y,alpha,f,lipschitz,ir,pairwise_weight"));
        for (const auto& entry : fs::recursive_directory_iterator(out + "/synthetic"))
            QVERIFY2(entry.path().filename().string().find("records") == std::string::npos,
                     entry.path().c_str());
        // A second run into the same folder is refused.
        const auto again = cli({"run", QString::fromStdString(dir_ + "/quick.json"), "--out",
                                QString::fromStdString(out)});
        QCOMPARE(again.code, 1);
        QVERIFY(QString::fromUtf8(again.err).contains("already exists"));
    }
    // --overwrite, and demo (which always overwrites), replace only an earlier run folder
    // holding nothing else. A folder of someone's files is refused, and kept, before anything
    // is read or computed; so is a run folder with a report left in it.
    void overwriteReplacesOnlyARunFolder() {
        const QString quick = QString::fromStdString(dir_ + "/quick.json");
        writeFile(quick.toStdString(), quickConfig());
        const QString noData = QString::fromStdString(dir_ + "/no_data.json");
        writeFile(noData.toStdString(), R"({"data": {"path": "no_such.csv", "target": "y"},
                  "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        const std::string docs = dir_ + "/documents";
        fs::create_directories(docs + "/letters");
        writeFile(docs + "/thesis.tex", "\\documentclass{article}\n");
        writeFile(docs + "/letters/2024.txt", "Dear\n");
        const QString docsArg = QString::fromStdString(docs);
        for (const QStringList& args : {QStringList{"run", quick, "--out", docsArg, "--overwrite"},
                                        QStringList{"run", noData, "--out", docsArg, "--overwrite"},
                                        QStringList{"demo", "--out", docsArg}}) {
            const auto r = cli(args);
            const QString err = QString::fromUtf8(r.err);
            QVERIFY2(r.code == 1, qPrintable(args.join(' ') + ": " + err));
            QVERIFY2(err.contains(QStringLiteral("'") + docsArg +
                                  "' is a folder that is not a ppsynth run folder (no run.json, "
                                  "it holds 'letters/', 'thesis.tex'); it is not replaced, "
                                  "choose another output folder"),
                     qPrintable(err));
            QVERIFY2(!err.contains("wrote") && !err.contains("no_such.csv"), qPrintable(err));
            QVERIFY(fs::exists(docs + "/thesis.tex") && fs::exists(docs + "/letters/2024.txt"));
        }
        // An earlier run folder is replaced (also named with a trailing separator)...
        const std::string out = dir_ + "/again";
        const QString outArg = QString::fromStdString(out);
        auto r = cli({"run", quick, "--out", outArg});
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({"run", quick, "--out", outArg});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("already exists") &&
                     r.err.contains("(--overwrite replaces an earlier run folder)"),
                 r.err.constData());
        r = cli({"run", quick, "--out", outArg + "/", "--overwrite"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(fs::exists(out + "/run.json"));
        // ... but not with a report kept in it.
        writeFile(out + "/report.html", "<html>CONFIDENTIAL</html>\n");
        r = cli({"run", noData, "--out", outArg, "--overwrite"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("is a ppsynth run folder but also holds 'report.html', which the "
                                "run did not write; it is not replaced (that would delete them): "
                                "move them out first or choose another output folder"),
                 r.err.constData());
        QVERIFY(fs::exists(out + "/report.html") && fs::exists(out + "/run.json"));
        for (const auto& entry : fs::directory_iterator(dir_))  // no temporary folder left
            QVERIFY2(entry.path().filename().string().find(".partial-") == std::string::npos,
                     entry.path().c_str());
    }
    // Replacing an earlier run that cannot be deleted (a file in it cannot): the new run is
    // written, and a warning says where the earlier one was left and to remove it by hand
    // (was: exit 1 with the earlier run half-deleted and no run at --out).
    void overwriteSaysWhereAnUndeletableEarlierRunWasLeft() {
        const std::string base = dir_ + "/undeletable";
        fs::create_directories(base);
        const QString quick = QString::fromStdString(base + "/quick.json");
        writeFile(quick.toStdString(), quickConfig());
        const fs::path out = fs::path(base) / "out";
        const QString outArg = QString::fromStdString(out.string());
        auto r = cli({"run", quick, "--out", outArg, "--keep-draws"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto cleanup = qScopeGuard([base] {
            for (const auto& e : fs::directory_iterator(base))
                ppsynth::test::makeDeletable(e.path() / "confidential" / "LW_draws.csv");
        });
        if (!ppsynth::test::makeUndeletable(out / "confidential" / "LW_draws.csv"))
            QSKIP("a file cannot be made undeletable here");
        r = cli({"run", quick, "--out", outArg, "--overwrite"});
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(r.code == 0, qPrintable(err));
        QVERIFY(fs::exists(out / "run.json") && !fs::exists(out / "confidential" / "LW_draws.csv"));
        std::vector<fs::path> old;
        for (const auto& e : fs::directory_iterator(base))
            if (e.path().filename().string().rfind("out.old-", 0) == 0) old.push_back(e.path());
        QCOMPARE(old.size(), std::size_t{1});
        QVERIFY(fs::exists(old.front() / "confidential" / "LW_draws.csv"));
        for (const QString& part :
             {QStringLiteral("warning: the new run folder is in '%1', but the run folder it "
                             "replaced could not be deleted (")
                  .arg(outArg),
              QStringLiteral("): it was left in '%1'; remove that folder by hand\n")
                  .arg(QString::fromStdString(old.front().string()))})
            QVERIFY2(err.contains(part), qPrintable(err));
    }

    // inspect reads a ';' file with decimal commas and -9 for missing as told, and a bad
    // option is refused in the flags' own words.
    void inspectTakesReadOptions() {
        const std::string file = dir_ + "/european.csv";
        writeFile(file, "id;income\n1;1234,5\n2;-9\n3;2,25\n");
        const auto r = cli({"inspect", QString::fromStdString(file), "--json", "--delimiter", ";",
                            "--decimal", ",", "--missing", "-9"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QJsonObject income;
        for (const auto& c : doc.value("columns").toArray())
            if (c.toObject().value("name").toString() == "income") income = c.toObject();
        QCOMPARE(income.value("type").toString(), QStringLiteral("numeric"));
        QCOMPARE(income.value("missing").toInt(), 1);
        const auto bad = cli({"inspect", QString::fromStdString(file), "--decimal", "x"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--decimal must be"), bad.err.constData());
    }
    // Grouped thousands: without --thousands the column is categorical and a note names the
    // flag's setting; with it the column is numeric; the flag is checked against --decimal.
    void inspectTakesThousands() {
        const std::string file = dir_ + "/grouped.csv";
        writeFile(file, "id;income\n1;1.234,5\n2;12.500\n3;2.000.000\n");
        const auto incomeType = [](const QByteArray& out) {
            for (const auto& c : QJsonDocument::fromJson(out).object().value("columns").toArray())
                if (c.toObject().value("name").toString() == "income")
                    return c.toObject().value("type").toString();
            return QString();
        };
        const auto plain = cli({"inspect", QString::fromStdString(file)});
        QVERIFY2(plain.code == 0, plain.err.constData());
        QVERIFY2(plain.out.contains("set the thousands separator option to '.' (point) and the "
                                    "decimal separator option to ','"),
                 plain.out.constData());
        const auto asText = cli({"inspect", QString::fromStdString(file), "--json"});
        QCOMPARE(incomeType(asText.out), QStringLiteral("categorical"));
        const auto grouped =
            cli({"inspect", QString::fromStdString(file), "--json", "--thousands", "."});
        QVERIFY2(grouped.code == 0, grouped.err.constData());
        QCOMPARE(incomeType(grouped.out), QStringLiteral("numeric"));
        const auto clash =
            cli({"inspect", QString::fromStdString(file), "--thousands", ".", "--decimal", "."});
        QCOMPARE(clash.code, 2);
        QVERIFY2(clash.err.contains("--thousands and --decimal are both '.'"),
                 clash.err.constData());
    }

    // One cell that is no number among numbers: inspect reads the column as numbers and
    // names the line and the cell; a run that uses the column is refused with that message.
    // A value of inf is read as such and refused by the run, naming the row.
    void badCellNamedByInspectAndRun() {
        const std::string file = dir_ + "/bad_cell.csv";
        std::string csv = "y,g\n";
        for (int i = 1; i <= 40; ++i)
            csv += (i == 18 ? std::string("12abc") : std::to_string(i * 1.5)) +
                   (i % 2 ? ",a\n" : ",b\n");
        writeFile(file, csv);
        const QString message = QStringLiteral("'%1' line 19, column 'y': '12abc' is not a number")
                                    .arg(QString::fromStdString(file));
        const auto r = cli({"inspect", QString::fromStdString(file)});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(message), qPrintable(out));
        QVERIFY2(out.contains(QRegularExpression(
                     QStringLiteral("\\ny +numeric +0  1 cell is not a number"))),
                 qPrintable(out));
        const std::string config = dir_ + "/bad_cell.json";
        const auto runOn = [&](const std::string& data) {
            writeFile(config,
                      R"({"data": {"path": ")" + data + R"(", "target": "y", "predictors": ["g"]},
                  "mcmc": {"chains": 1, "warmup": 50, "draws": 50, "seed": 1},
                  "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
            return cli({"run", QString::fromStdString(config), "--out",
                        QString::fromStdString(dir_ + "/bad_cell_out")});
        };
        const auto run = runOn(file);
        QCOMPARE(run.code, 1);
        QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
        QVERIFY(!fs::exists(dir_ + "/bad_cell_out"));

        const std::string infinite = dir_ + "/infinite.csv";
        writeFile(infinite, "y,g\n1.5,a\n2.5,b\nInf,a\n4,b\n5.5,a\n");
        const auto inf = runOn(infinite);
        QCOMPARE(inf.code, 1);
        QVERIFY2(inf.err.contains("column 'y' row 3: inf is not a finite number"),
                 inf.err.constData());
    }

    // SIGINT during the fits: exit 130 (the time it took is printed), the message, and no
    // folder (not even a half-written temporary one).
    void ctrlCLeavesNothing() {
        // A real MCMC fit on the income example, long enough to be interrupted.
        writeFile(dir_ + "/slow.json",
                  R"({"data": {"path": ")" PPSYNTH_EXAMPLES_DIR R"(/income_survey.csv",
                      "target": "income", "predictors": ["gender", "age", "education"],
                      "transform": "log-shift"},
                      "model": {"family": "normal-mixture", "K": 5},
                      "mcmc": {"chains": 2, "warmup": 5000, "draws": 5000, "threads": 2},
                      "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        const std::string out = dir_ + "/cancelled";
        QProcess p;
        p.start(QStringLiteral(PPSYNTH_CLI), {"run", QString::fromStdString(dir_ + "/slow.json"),
                                              "--out", QString::fromStdString(out)});
        QVERIFY(p.waitForStarted());
        QTest::qWait(1500);
        QCOMPARE(p.state(), QProcess::Running);
        QElapsedTimer t;
        t.start();
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        qInfo("exited %lld ms after SIGINT", static_cast<long long>(t.elapsed()));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(
            QString::fromUtf8(p.readAllStandardError()).contains("cancelled: nothing was written"),
            "message");
        QVERIFY(!fs::exists(out));
        for (const auto& entry : fs::directory_iterator(dir_))
            QVERIFY2(entry.path().filename().string().find("cancelled") == std::string::npos,
                     entry.path().c_str());
    }
    // A synthesizer's name is data, never a path: a name that would lead the records file
    // into a release bundle beside the output is refused before anything is read or run,
    // and the bundle's file is untouched.
    void hostileNamesNeverEscape_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("into a bundle") << "../../bundle/data/leak"
                                       << "starts with '.'";
        QTest::newRow("slash") << "x/../../../bundle/data/leak"
                               << "contains '/'";
        QTest::newRow("dot dot") << ".."
                                 << "folder reference";
        QTest::newRow("backslash") << "..\\\\..\\\\leak"
                                   << "starts with '.'";
    }
    void hostileNamesNeverEscape() {
        QFETCH(QString, name);
        QFETCH(QString, message);
        const fs::path base = fs::path(dir_) / "hostile";
        fs::remove_all(base);
        fs::create_directories(base / "bundle" / "data");
        writeFile((base / "bundle" / "data" / "leak_records.csv").string(), "released\n");
        std::string config = quickConfig();
        const std::string lw = R"("name": "LW")";
        config.replace(config.find(lw), lw.size(), "\"name\": \"" + name.toStdString() + "\"");
        const std::string match = R"("match": "LW")";
        config.replace(config.find(match), match.size(),
                       "\"match\": \"" + name.toStdString() + "\"");
        writeFile((base / "hostile.json").string(), config);
        const fs::path out = base / "out";
        const auto r = cli({"run", QString::fromStdString((base / "hostile.json").string()),
                            "--out", QString::fromStdString(out.string())});
        QCOMPARE(r.code, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains("synthesizers[1]"), r.err.constData());
        QCOMPARE(ppsynth::test::slurp(base / "bundle" / "data" / "leak_records.csv"),
                 std::string("released\n"));
        QCOMPARE(ppsynth::test::filesUnder(base / "bundle"),
                 std::vector<std::string>{"data/leak_records.csv"});
        for (const auto& e : fs::directory_iterator(base))
            QVERIFY2(e.path().filename() == "bundle" || e.path().filename() == "hostile.json",
                     e.path().c_str());
    }

    // Rows dropped for missing values are said in the summary, not only in run.json.
    void listwiseDeletionIsReported() {
        std::string csv = "y\n";
        for (int i = 0; i < 40; ++i)
            csv += (i == 4 || i == 9 || i == 30) ? "NA\n" : std::to_string(i % 7) + "\n";
        writeFile(dir_ + "/gaps.csv", csv);
        writeFile(dir_ + "/gaps.json", R"({"data": {"path": "gaps.csv", "target": "y",
            "missing": "listwise"}, "model": {"family": "poisson-means"},
            "mcmc": {"chains": 1, "warmup": 0, "draws": 50, "seed": 3},
            "synthesis": {"m": 2}, "risk": {"L": 2}, "utility": {"enabled": false},
            "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        const auto r = cli({"run", QString::fromStdString(dir_ + "/gaps.json"), "--out",
                            QString::fromStdString(dir_ + "/gaps_out")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("records: 37 of 40 rows modelled, 3 dropped by listwise deletion "
                              "(missing values)"),
                 r.out.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains("note: listwise deletion dropped 3 of 40 rows"),
                 r.err.constData());
    }

    // SIGINT during the utility stage of a run whose predictor has 1000 levels (the level
    // limit, data.max_levels, raised): exit 130, the message, and nothing written. The
    // regression and pMSE of such a design used to run for minutes without asking the stop
    // check; the time from the signal to the exit is printed, not asserted. (1000 levels, not
    // 5000: building the design's rank check alone takes a minute at 5000.)
    void ctrlCDuringUtilityOnManyLevels() {
        {
            std::ofstream csv(dir_ + "/many_levels.csv");
            csv << "y,x,area\n";
            for (int i = 0; i < 3000; ++i)
                csv << (i * 7 + i / 13) % 5 << "," << (i % 97) / 10.0 << ",A" << i % 1000 << "\n";
        }
        writeFile(dir_ + "/many_levels.json", R"({"data": {"path": ")" + dir_ +
                                                  R"(/many_levels.csv", "target": "y",
                      "predictors": ["x", "area"], "max_levels": 2000},
                      "model": {"family": "poisson-means"},
                      "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 3},
                      "synthesis": {"m": 200}, "risk": {"L": 3}, "utility": {"bootstrap": 2},
                      "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        const std::string out = dir_ + "/many_levels_out";
        QProcess p;
        p.setReadChannel(QProcess::StandardError);
        p.start(QStringLiteral(PPSYNTH_CLI),
                {"run", QString::fromStdString(dir_ + "/many_levels.json"), "--out",
                 QString::fromStdString(out)});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        while (!err.contains(": utility") && p.waitForReadyRead(120000))
            err += p.readAllStandardError();
        QVERIFY2(err.contains(": utility"), err.constData());
        QTest::qWait(300);  // past the (tiny) bootstrap, into the regression and pMSE
        QCOMPARE(p.state(), QProcess::Running);
        QElapsedTimer t;
        t.start();
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        const bool finished = p.waitForFinished(120000);
        qInfo("exited %lld ms after SIGINT in the utility stage",
              static_cast<long long>(t.elapsed()));
        if (!finished) {
            p.kill();
            p.waitForFinished();
        }
        QVERIFY(finished);
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        err += p.readAllStandardError();
        QVERIFY2(err.contains("cancelled: nothing was written"), err.constData());
        QVERIFY(!fs::exists(out));
        for (const auto& entry : fs::directory_iterator(dir_))
            QVERIFY2(entry.path().filename().string().find("many_levels_out") == std::string::npos,
                     entry.path().c_str());
    }
    void badConfigurations_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "{ nope"
                                  << "not valid JSON";
        QTest::newRow("unknown key") << QString::fromStdString(quickConfig(", \"bootstraps\": 3"))
                                     << "unknown key 'bootstraps'";
        QTest::newRow("missing data file") << R"({"data": {"path": "no_such.csv", "target": "y"},
                  "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
                                           << "no_such.csv";
        QTest::newRow("unknown scheme") << R"({"data": {"path": "x.csv", "target": "y"},
                  "synthesizers": [{"name": "U", "scheme": "magic"}]})"
                                        << "unknown scheme 'magic'";
        QTest::newRow("match names nobody") << R"({"data": {"path": "x.csv", "target": "y"},
                  "synthesizers": [{"name": "EM", "scheme": "scalar", "match": "LW"}]})"
                                            << "'match' names 'LW'";
        QTest::newRow("bad quantile")
            << QString::fromStdString(quickConfig(", \"quantiles\": [2]")) << "quantile";
        QTest::newRow("key twice")
            << QString::fromStdString(quickConfig(", \"bootstrap\": 50"))
            << "utility: key 'bootstrap' appears twice; delete one of the two";
        QTest::newRow("mcmc key out of range")
            << R"({"data": {"path": "x.csv", "target": "y"}, "mcmc": {"chains": 4, "thin": 0},
                  "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "mcmc: 'thin' is 0 but must be at least 1";
        QTest::newRow("huge value, transform none")
            << R"({"data": {"path": "huge.csv", "target": "y"}, "model": {"family": "normal"},
                  "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "column 'y' row 3: 1e+308 is too large to model on this scale";
    }
    void badConfigurations() {
        QFETCH(QString, config);
        QFETCH(QString, message);
        writeFile(dir_ + "/huge.csv", "y\n1.5\n2\n1e308\n4\n");
        const std::string path = dir_ + "/bad.json";
        writeFile(path, config.toStdString());
        const std::string out = dir_ + "/bad_out";
        const auto r =
            cli({"run", QString::fromStdString(path), "--out", QString::fromStdString(out)});
        QCOMPARE(r.code, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!fs::exists(out));
    }
};

QTEST_APPLESS_MAIN(TstCliRun)
#include "tst_cli_run.moc"
