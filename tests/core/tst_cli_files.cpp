// Commands that write files into a place the person names, through the real executable:
// `risk --out FILE` and `examples --out DIR` refuse a file already there (before any work,
// nothing written) unless --overwrite, never replace a folder, and leave no temporary file.
#include <QProcess>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "ppsynth/data/examples.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

using Result = test::CliOutput<QString>;

Result cli(const QStringList& args) {
    return test::runCli<QString>(args, 120000);
}

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

fs::path freshDir(const std::string& name) {
    return test::freshDir("tst_cli_files", name);
}

// Every entry of `dir` (not recursive), sorted: temporaries left beside the outputs show.
std::vector<std::string> entries(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

const QString kPoisson = QStringLiteral(PPSYNTH_EXAMPLES_DIR "/poisson.csv");

QStringList riskArgs(const fs::path& out, const QString& synthetic = kPoisson) {
    return {"risk",     "--original", kPoisson, "--synthetic", synthetic,
            "--target", "y",          "--out",  q(out)};
}

}  // namespace

class TstCliFiles : public QObject {
    Q_OBJECT
  private slots:
    // An existing --out file is refused before anything is read (a missing synthetic file is
    // not even noticed), and kept; --overwrite replaces it; a folder is never replaced.
    void riskRefusesAnExistingFile() {
        const fs::path dir = freshDir("risk");
        const fs::path out = dir / "risks.csv";
        std::ofstream(out) << "someone's file\n";
        Result r = cli(riskArgs(out, q(dir / "no_such_synthetic.csv")));
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("error: '%1' already exists; choose another file "
                                               "or allow overwriting (--overwrite replaces it)")
                                    .arg(q(out))),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains("no_such_synthetic"), qPrintable(r.err));
        QCOMPARE(test::slurp(out), std::string("someone's file\n"));

        r = cli(riskArgs(out) << "--overwrite");
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(test::slurp(out).rfind("row,ir\n1,", 0) == 0);
        QCOMPARE(entries(dir), std::vector<std::string>{"risks.csv"});

        const fs::path folder = dir / "folder.csv";
        fs::create_directories(folder);
        r = cli(riskArgs(folder) << "--overwrite");
        QCOMPARE(r.code, 1);
        QVERIFY2(
            r.err.contains(
                QStringLiteral("'%1' exists and is not a file; it is not replaced").arg(q(folder))),
            qPrintable(r.err));
        QVERIFY(fs::is_directory(folder) && fs::is_empty(folder));

        // Nothing there: written as before.
        r = cli(riskArgs(dir / "new.csv"));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(entries(dir), (std::vector<std::string>{"folder.csv", "new.csv", "risks.csv"}));
    }

    // examples checks every file before writing any: one already there stops them all (named
    // in the message) and is kept; --overwrite replaces it; a folder of that name never is.
    void examplesRefuseExistingFiles() {
        const fs::path dir = freshDir("examples");
        std::vector<std::string> all;
        for (const auto& e : data::exampleList()) all.push_back(std::string(e.name) + ".csv");
        std::sort(all.begin(), all.end());
        QVERIFY(all.size() >= 2);
        std::ofstream(dir / "poisson.csv") << "my own counts\n";
        std::ofstream(dir / "notes.txt") << "kept\n";
        Result r = cli({"examples", "--out", q(dir)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("'%1' already holds 'poisson.csv'; choose another "
                                               "folder or allow overwriting (--overwrite "
                                               "replaces it)")
                                    .arg(q(dir))),
                 qPrintable(r.err));
        QCOMPARE(entries(dir), (std::vector<std::string>{"notes.txt", "poisson.csv"}));
        QCOMPARE(test::slurp(dir / "poisson.csv"), std::string("my own counts\n"));

        r = cli({"examples", "--out", q(dir), "--overwrite"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        std::vector<std::string> expected = all;
        expected.push_back("notes.txt");
        std::sort(expected.begin(), expected.end());
        QCOMPARE(entries(dir), expected);
        QVERIFY(test::slurp(dir / "poisson.csv").rfind("y\n", 0) == 0);

        // All of them there: named, a few at a time.
        r = cli({"examples", "--out", q(dir)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("already holds '%1', '%2'")
                         .arg(QString::fromStdString(all[0]), QString::fromStdString(all[1]))),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("(--overwrite replaces them)"), qPrintable(r.err));

        const fs::path other = freshDir("examples_folder");
        fs::create_directories(other / "poisson.csv");
        r = cli({"examples", "--out", q(other), "--overwrite"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("exists and is not a file; it is not replaced"), qPrintable(r.err));
        QCOMPARE(entries(other), std::vector<std::string>{"poisson.csv"});

        // A new folder: made and filled as before.
        r = cli({"examples", "--out", q(other / "new")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(entries(other / "new"), all);
    }
};

QTEST_MAIN(TstCliFiles)
#include "tst_cli_files.moc"
