// `ppsynth-cli sweep|simulate --plan / --item / --items` and `cluster submit --dry-run` with
// the real executable and no scheduler: items computed by separate processes, two of them at
// the same moment, assemble the same results as one local run; the sbatch script runs one
// item per array task with the grid points after the shared unweighted fit.
#include <QFile>
#include <QProcess>
#include <QTest>
#include <filesystem>

#include "cli_process.hpp"
#include "study_items_fixture.hpp"

namespace fs = std::filesystem;
using namespace ppsynth::test;

namespace {

CliOutput<QByteArray> cli(const QStringList& args) {
    return runCli<QByteArray>(args, 120000);
}

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

}  // namespace

class TstCliItems : public QObject {
    Q_OBJECT
    fs::path dir_;

  private slots:
    void initTestCase() {
        dir_ = scratchDir("tst_cli_items");
        fs::create_directories(dir_);
        writeText(dir_ / "sweep.json", itemsSweepConfig());
        writeText(dir_ / "simulate.json", itemsSimulateConfig());
    }
    void sweepItemsAsSeparateProcessesMatchALocalRun() {
        const fs::path local = dir_ / "sweep_local", split = dir_ / "sweep_split";
        QCOMPARE(cli({"sweep", q(dir_ / "sweep.json"), "--out", q(local)}).code, 0);
        auto planned = cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split), "--plan"});
        QVERIFY2(planned.code == 0, planned.err.constData());
        QVERIFY2(planned.err.contains("4 items"), planned.err.constData());
        auto early = cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split), "--items", "2-x"});
        QCOMPARE(early.code, 2);
        QVERIFY2(early.err.contains("A-B"), early.err.constData());
        // A grid point waits for item 0, which saves the unweighted fit the points share.
        auto waiting = cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split), "--item", "1"});
        QCOMPARE(waiting.code, 1);
        QVERIFY2(waiting.err.contains("compute item 0 first"), waiting.err.constData());
        QVERIFY(!fs::exists(split / "items" / "point_1.json"));
        auto zero = cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split), "--item", "0"});
        QVERIFY2(zero.code == 0, zero.err.constData());
        // Items 1, 2 and 2 again, three processes at the same moment; then 0 and 3.
        std::vector<std::unique_ptr<QProcess>> running;
        for (const char* item : {"1", "2", "2"}) {
            running.push_back(std::make_unique<QProcess>());
            running.back()->start(QStringLiteral(PPSYNTH_CLI), {"sweep", q(dir_ / "sweep.json"),
                                                                "--out", q(split), "--item", item});
        }
        for (auto& p : running) {
            QVERIFY(p->waitForFinished(120000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
        }
        auto rest = cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split), "--items", "0-3"});
        QVERIFY2(rest.code == 0, rest.err.constData());
        QVERIFY2(rest.err.contains("1 computed, 3 already saved"), rest.err.constData());
        QVERIFY2(rest.err.contains("the shared unweighted fit read from item 0's"),
                 rest.err.constData());
        QVERIFY(!fs::exists(split / "sweep.csv"));
        auto assembled = cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split)});
        QVERIFY2(assembled.code == 0, assembled.err.constData());
        QVERIFY2(assembled.err.contains("0 points run, 4 resumed"), assembled.err.constData());
        compareWithLocal(split, local, true);
    }
    void simulationItemsAsSeparateProcessesMatchALocalRun() {
        const fs::path local = dir_ / "sim_local", split = dir_ / "sim_split";
        QCOMPARE(cli({"simulate", q(dir_ / "simulate.json"), "--out", q(local)}).code, 0);
        QCOMPARE(cli({"simulate", q(dir_ / "simulate.json"), "--out", q(split), "--plan"}).code, 0);
        for (const char* range : {"3-5", "0-2"})
            QCOMPARE(
                cli({"simulate", q(dir_ / "simulate.json"), "--out", q(split), "--items", range})
                    .code,
                0);
        QCOMPARE(cli({"simulate", q(dir_ / "simulate.json"), "--out", q(split)}).code, 0);
        compareWithLocal(split, local, false);
    }
    void itemOfAnUnplannedFolderIsRefused() {
        auto r = cli(
            {"simulate", q(dir_ / "simulate.json"), "--out", q(dir_ / "unplanned"), "--item", "0"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("--plan"), r.err.constData());
        QVERIFY(!fs::exists(dir_ / "unplanned" / "config.json"));
    }
    void dryRunWritesTheArrayScript() {
        const fs::path split = dir_ / "sweep_dry";
        QCOMPARE(cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split), "--plan"}).code, 0);
        auto r = cli({"cluster", "submit", q(split), "--engine", "slurm", "--partition", "short",
                      "--time", "00:30:00", "--cpus-per-task", "2", "--mem", "2G", "--max-parallel",
                      "3", "--dry-run"});
        QVERIFY2(r.code == 0, r.err.constData());
        const std::string script = slurp(split / "cluster" / "submit.sbatch");
        for (const char* line :
             {"#SBATCH --partition=short\n", "#SBATCH --time=00:30:00\n",
              "#SBATCH --cpus-per-task=2\n", "#SBATCH --mem=2G\n", "/cluster/logs/item-%a.log\n",
              " sweep '", "--item \"$SLURM_ARRAY_TASK_ID\"\n"})
            QVERIFY2(script.find(line) != std::string::npos, (script + "\nlacks: " + line).c_str());
        // Item 0 (the shared fit) first, the grid points after it.
        QVERIFY2(r.out.contains("--array=0%3 "), r.out.constData());
        QVERIFY2(r.out.contains("--array=1-3%3 --dependency=afterok:${FIRST%%;*}"),
                 r.out.constData());
        QVERIFY(fs::exists(split / "cluster" / "submit.sh"));
        QVERIFY(!fs::exists(split / "cluster" / "jobs.json"));  // nothing submitted
        auto status = cli({"cluster", "status", q(split)});
        QCOMPARE(status.code, 0);
        QVERIFY2(
            status.out.contains("0 of 4 done, 0 running, 0 pending, 0 failed, 4 not submitted"),
            status.out.constData());
    }
    // submit.sh run by hand (after --dry-run, or where ppsynth cannot reach sbatch) records
    // the jobs it submits, so `cluster status` follows them (a fake sbatch and squeue here).
    void statusFollowsJobsSubmittedBySubmitShByHand() {
        const fs::path split = dir_ / "sweep_by_hand";
        QCOMPARE(cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split), "--plan"}).code, 0);
        QCOMPARE(cli({"cluster", "submit", q(split), "--dry-run"}).code, 0);
        const fs::path bin = dir_ / "fake_slurm";
        fs::create_directories(bin);
        writeText(bin / "sbatch",
                  "#!/bin/sh\nn=$(cat \"$0.next\" 2>/dev/null || echo 501)\n"
                  "echo $((n + 1)) > \"$0.next\"\necho \"$n;cluster\"\n");
        writeText(bin / "squeue",
                  "#!/bin/sh\necho '501_0|RUNNING|None'\necho '502_1|PENDING|Dependency'\n"
                  "echo '502_2|PENDING|Dependency'\necho '502_3|PENDING|Dependency'\n");
        writeText(bin / "sacct", "#!/bin/sh\nexit 0\n");
        for (const char* f : {"sbatch", "squeue", "sacct"})
            fs::permissions(bin / f, fs::perms::owner_all, fs::perm_options::add);
        struct RestorePath {
            QByteArray path = qgetenv("PATH");
            ~RestorePath() { qputenv("PATH", path); }
        } restore;
        qputenv("PATH", QFile::encodeName(q(bin)) + ":/usr/bin:/bin");
        QProcess sh;
        sh.start("/bin/bash", {q(split / "cluster" / "submit.sh")});
        QVERIFY(sh.waitForFinished(30000));
        QVERIFY2(sh.exitCode() == 0, sh.readAllStandardError().constData());
        const QByteArray said = sh.readAllStandardOutput();
        QVERIFY2(said.contains("submitted items 1-3 as job 502"), said.constData());
        QVERIFY(!fs::exists(split / "cluster" / "jobs.json"));  // ppsynth submitted nothing
        auto status = cli({"cluster", "status", q(split)});
        QCOMPARE(status.code, 0);
        QVERIFY2(status.out.contains("0 unweighted: running (job 501_0)"), status.out.constData());
        QVERIFY2(status.out.contains("3 point_3: pending (job 502_3, Dependency)"),
                 status.out.constData());
        QVERIFY2(
            status.out.contains("0 of 4 done, 1 running, 3 pending, 0 failed, 0 not submitted"),
            status.out.constData());
    }
    void resubmitKeepsTheFirstSubmissionsScript() {
        const fs::path split = dir_ / "sim_resubmit";
        QCOMPARE(cli({"simulate", q(dir_ / "simulate.json"), "--out", q(split), "--plan"}).code, 0);
        QCOMPARE(cli({"cluster", "submit", q(split), "--partition", "long", "--time", "01:00:00",
                      "--dry-run"})
                     .code,
                 0);
        // A job the scheduler has forgotten, whose items left no files: they failed.
        writeText(split / "cluster" / "jobs.json",
                  R"({"jobs": [{"id": "4242424", "items": [0, 1, 2, 3, 4, 5]}]})");
        auto status = cli({"cluster", "status", q(split)});
        QVERIFY2(status.out.contains("6 failed"), status.out.constData());
        QVERIFY2(status.out.contains("cluster resubmit"), status.out.constData());
        auto r = cli({"cluster", "resubmit", q(split), "--failed", "--dry-run"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("--array=0-5 "), r.out.constData());
        const std::string script = slurp(split / "cluster" / "submit.sbatch");
        QVERIFY2(
            script.find("#SBATCH --partition=long\n#SBATCH --time=01:00:00\n") != std::string::npos,
            script.c_str());
    }
    void clusterOnAnUnplannedFolderSaysToPlan() {
        auto r = cli({"cluster", "status", q(dir_ / "nothing")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("--plan"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TstCliItems)
#include "tst_cli_items.moc"
