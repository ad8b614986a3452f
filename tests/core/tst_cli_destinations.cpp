// Through the real executable: every command that writes refuses an --out it cannot write
// before it reads anything (its configuration, its data, a run folder), and what a killed run
// left beside --out is named by the next run and removed by `ppsynth-cli clean`.
#include <unistd.h>

#include <QTest>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "run_fixture.hpp"
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
    return test::freshDir("tst_cli_destinations", name);
}

void writeFile(const fs::path& p, const std::string& text = "x\n") {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

std::vector<std::string> entries(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// A folder nobody may create entries in: read-only permissions, or for root (whom they do not
// stop) the immutable attribute. False when neither works here.
bool makeUnwritable(const fs::path& dir) {
    if (::geteuid() == 0)
        return std::system(("chattr +i '" + dir.string() + "' 2>/dev/null").c_str()) == 0;
    std::error_code ec;
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec, ec);
    return !ec;
}

void makeWritable(const fs::path& dir) {
    if (::geteuid() == 0) {
        [[maybe_unused]] const int rc =
            std::system(("chattr -i '" + dir.string() + "' 2>/dev/null").c_str());
        return;
    }
    std::error_code ec;
    fs::permissions(dir, fs::perms::owner_all, ec);
}

// What a run killed while writing its folder leaves: confidential records among them.
void makePartialRun(const fs::path& p) {
    writeFile(p / "run.json", "{}\n");
    writeFile(p / "synthetic" / "LW" / "synthetic_01.csv", "visits\n31\n");
    writeFile(p / "confidential" / "LW_records.csv", "row,y,alpha\n1,31,0.93\n");
}

const QString kPoisson = QStringLiteral(PPSYNTH_EXAMPLES_DIR "/poisson.csv");

}  // namespace

class TstCliDestinations : public QObject {
    Q_OBJECT
  private slots:
    // Every command that writes a folder or file refuses an --out it cannot write (exit 1,
    // the message naming the path and why) before it reads anything: the configuration given
    // is not even JSON, the data and run folders do not exist, and none of that is mentioned.
    // Nothing is created.
    void unwritableOutRefusedFirst_data() {
        QTest::addColumn<QStringList>("args");  // OUT stands for the destination
        QTest::addColumn<QString>("where");     // "file", "proc" or "locked"
        const QStringList commands[] = {
            {"run", "CONFIG", "--out", "OUT"},
            {"demo", "--out", "OUT"},
            {"sweep", "CONFIG", "--out", "OUT"},
            {"simulate", "CONFIG", "--out", "OUT"},
            {"release", "EMPTY", "--synthesizer", "LW", "--out", "OUT"},
            {"risk", "--original", kPoisson, "--synthetic", "MISSING", "--target", "y", "--out",
             "OUT"},
            {"examples", "--out", "OUT"},
        };
        for (const auto& args : commands)
            for (const char* where : {"file", "proc", "locked"})
                QTest::addRow("%s under %s", qPrintable(args.front()), where)
                    << args << QString::fromLatin1(where);
    }
    void unwritableOutRefusedFirst() {
        QFETCH(QStringList, args);
        QFETCH(QString, where);
        const fs::path dir = freshDir("refused");
        writeFile(dir / "config.json", "this is not a configuration\n");
        writeFile(dir / "notes.txt", "someone's notes\n");
        fs::create_directories(dir / "empty");
        fs::create_directories(dir / "locked");
        fs::path out;
        QString reason;
        if (where == "file") {
            out = dir / "notes.txt" / "out";
            reason = QStringLiteral("'%1' is a file, not a folder").arg(q(dir / "notes.txt"));
        } else if (where == "proc") {
            out = "/proc/self/ppsynth-out";
            reason = QStringLiteral("nothing can be made in '/proc/self'");
        } else {
            if (!makeUnwritable(dir / "locked")) QSKIP("cannot make a folder unwritable here");
            out = dir / "locked" / "out";
            reason = QStringLiteral("permission denied in '%1'").arg(q(dir / "locked"));
        }
        args.replaceInStrings(QStringLiteral("OUT"), q(out));
        args.replaceInStrings(QStringLiteral("CONFIG"), q(dir / "config.json"));
        args.replaceInStrings(QStringLiteral("EMPTY"), q(dir / "empty"));
        args.replaceInStrings(QStringLiteral("MISSING"), q(dir / "missing.csv"));
        const Result r = cli(args);
        makeWritable(dir / "locked");
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("error: --out: cannot write '%1': ").arg(q(out))) ||
                     r.err.contains(QStringLiteral("error: cannot write '%1': ").arg(q(out))),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(reason), qPrintable(r.err));
        QCOMPARE(r.err.count(QStringLiteral("error:")), 1);
        // Nothing else was looked at: not the configuration, the data or the run folder.
        for (const char* other : {"config.json", "JSON", "missing.csv", "empty", "run.json"})
            QVERIFY2(!r.err.contains(QLatin1String(other)), qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        QCOMPARE(entries(dir),
                 (std::vector<std::string>{"config.json", "empty", "locked", "notes.txt"}));
        QVERIFY(fs::is_empty(dir / "locked") && fs::is_empty(dir / "empty"));
    }

    // A run killed while writing left OUT.partial-PID with confidential records: the next run
    // names it and says how to remove it (and removes nothing itself); `clean --dry-run` lists
    // it; `clean` removes it and says so, and nothing else: not the run folder, not a folder
    // of that name pattern holding something ppsynth did not write, not one whose process is
    // still running.
    void leftoverNamedByNextRunAndRemovedByClean() {
        const fs::path dir = freshDir("leftover");
        const std::string config = fixture::writeInputs(dir / "inputs");
        QVERIFY(!config.empty());
        const fs::path out = dir / "out";
        const fs::path partial = dir / "out.partial-999999";
        makePartialRun(partial);
        makePartialRun(dir / "out.partial-999998");
        writeFile(dir / "out.partial-999998" / "my_notes.txt");  // not what a run writes
        makePartialRun(dir / "out.partial-1");                   // init's: alive

        Result r = cli({"run", QString::fromStdString(config), "--out", q(out)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(
                     QStringLiteral("warning: an earlier ppsynth was stopped before it finished "
                                    "and left '%1' (an unfinished run folder of process 999999, "
                                    "which is no longer running); it may hold confidential "
                                    "files: remove it with 'ppsynth-cli clean %2'")
                         .arg(q(partial), q(out))),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("note: found '%1' (an unfinished run folder of "
                                               "process 1, which is still running")
                                    .arg(q(dir / "out.partial-1"))),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains("999998"), qPrintable(r.err));
        QVERIFY(fs::exists(partial / "confidential" / "LW_records.csv"));
        QVERIFY(fs::is_regular_file(out / "run.json"));

        r = cli({"clean", q(out), "--dry-run"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("would remove '%1' (an unfinished run folder of "
                                               "process 999999, which is no longer running)")
                                    .arg(q(partial))),
                 qPrintable(r.out));
        QVERIFY(fs::exists(partial));

        r = cli({"clean", q(out)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("removed '%1' (an unfinished run folder of process "
                                               "999999, which is no longer running)")
                                    .arg(q(partial))),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("left '%1'").arg(q(dir / "out.partial-1"))),
                 qPrintable(r.out));
        QVERIFY2(!r.out.contains("999998"), qPrintable(r.out));
        QCOMPARE(entries(dir), (std::vector<std::string>{"inputs", "out", "out.partial-1",
                                                         "out.partial-999998"}));
        QVERIFY(fs::is_regular_file(out / "run.json"));
        QVERIFY(fs::exists(dir / "out.partial-999998" / "my_notes.txt"));

        fs::remove_all(dir / "out.partial-1");
        r = cli({"clean", q(out)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("nothing to clean")), qPrintable(r.out));
    }
};

QTEST_MAIN(TstCliDestinations)
#include "tst_cli_destinations.moc"
