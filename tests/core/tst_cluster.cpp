// Studies as Slurm job arrays on a real scheduler (scripts/slurm_single_node.sh starts one;
// scripts/test.sh does so in CI): a small sweep and a small simulation submitted with
// `ppsynth-cli cluster submit`, waited for, and compared with the local run; an item
// cancelled mid-way (scancel) and resubmitted with `cluster resubmit --failed`, nothing
// half-written read back. Skipped, with a message, where there is no Slurm to submit to.
#include <unistd.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <QThread>
#include <filesystem>

#include "cli_process.hpp"
#include "study_items_fixture.hpp"

namespace fs = std::filesystem;
using namespace ppsynth::test;

namespace {

CliOutput<QByteArray> cli(const QStringList& args) {
    return runCli<QByteArray>(args, 300000);
}

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

// Why these tests cannot run here, or "" when a Slurm takes jobs.
QString noSlurm() {
    if (::geteuid() != 0) return "not root (the single-node Slurm runs jobs as root)";
    if (QStandardPaths::findExecutable("sbatch").isEmpty())
        return "sbatch is not on PATH (start one with scripts/slurm_single_node.sh start)";
    QProcess sinfo;
    sinfo.start("sinfo", {"-h", "-o", "%t"});
    if (!sinfo.waitForFinished(20000)) {
        sinfo.kill();
        sinfo.waitForFinished();
        return "sinfo did not answer in 20 s: no Slurm controller (is SLURM_CONF set?)";
    }
    if (sinfo.exitCode() != 0)
        return "sinfo fails: no Slurm controller answers (is SLURM_CONF set?)";
    return "";
}

// Polls `cluster status DIR` until its output contains `text`; the last output either way.
QByteArray waitForStatus(const fs::path& dir, const QString& text, int timeoutS = 300) {
    QElapsedTimer t;
    t.start();
    QByteArray last;
    while (t.elapsed() < timeoutS * 1000LL) {
        auto r = cli({"cluster", "status", q(dir)});
        last = r.out + r.err;
        if (QString::fromUtf8(last).contains(text)) return last;
        QThread::msleep(1000);
    }
    return "timed out after " + QByteArray::number(timeoutS) + " s waiting for '" + text.toUtf8() +
           "'; last status:\n" + last;
}

}  // namespace

class TstCluster : public QObject {
    Q_OBJECT
    fs::path dir_;

  private slots:
    void initTestCase() {
        if (const QString why = noSlurm(); !why.isEmpty())
            QSKIP(qPrintable("no Slurm here: " + why));
        dir_ = scratchDir("tst_cluster");
        fs::create_directories(dir_);
        writeText(dir_ / "sweep.json", itemsSweepConfig());
        writeText(dir_ / "simulate.json", itemsSimulateConfig());
        // Items of about 7 s each (2.5 s with 400,000 draws on an idle machine finished before
        // the cancel reached them), so one can be cancelled while it runs.
        writeText(dir_ / "slow.json", itemsSimulateConfig(1200000, 4));
    }
    void sweepAsAnArrayMatchesTheLocalRun() {
        const fs::path local = dir_ / "sweep_local", split = dir_ / "sweep_slurm";
        QCOMPARE(cli({"sweep", q(dir_ / "sweep.json"), "--out", q(local)}).code, 0);
        QCOMPARE(cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split), "--plan"}).code, 0);
        auto s = cli({"cluster", "submit", q(split), "--engine", "slurm", "--max-parallel", "2",
                      "--time", "00:10:00"});
        QVERIFY2(s.code == 0, (s.out + s.err).constData());
        QVERIFY2(s.out.contains("after job"), s.out.constData());  // the points wait for item 0
        const auto status = waitForStatus(split, "4 of 4 done");
        QVERIFY2(status.contains("4 of 4 done"), status.constData());
        auto assembled = cli({"sweep", q(dir_ / "sweep.json"), "--out", q(split)});
        QVERIFY2(assembled.code == 0, assembled.err.constData());
        QVERIFY2(assembled.err.contains("0 points run, 4 resumed"), assembled.err.constData());
        compareWithLocal(split, local, true);
    }
    void simulationAsAnArrayMatchesTheLocalRun() {
        const fs::path local = dir_ / "sim_local", split = dir_ / "sim_slurm";
        QCOMPARE(cli({"simulate", q(dir_ / "simulate.json"), "--out", q(local)}).code, 0);
        QCOMPARE(cli({"simulate", q(dir_ / "simulate.json"), "--out", q(split), "--plan"}).code, 0);
        auto s = cli({"cluster", "submit", q(split), "--engine", "slurm"});
        QVERIFY2(s.code == 0, (s.out + s.err).constData());
        const auto status = waitForStatus(split, "6 of 6 done");
        QVERIFY2(status.contains("6 of 6 done"), status.constData());
        QCOMPARE(cli({"simulate", q(dir_ / "simulate.json"), "--out", q(split)}).code, 0);
        compareWithLocal(split, local, false);
    }
    void itemCancelledMidwayIsResubmitted() {
        const fs::path local = dir_ / "slow_local", split = dir_ / "slow_slurm";
        QCOMPARE(cli({"simulate", q(dir_ / "slow.json"), "--out", q(split), "--plan"}).code, 0);
        auto s = cli({"cluster", "submit", q(split), "--engine", "slurm", "--max-parallel", "1"});
        QVERIFY2(s.code == 0, (s.out + s.err).constData());
        // The first item to run is cancelled while it computes.
        const auto running = waitForStatus(split, ": running (job ", 120);
        const auto m = QRegularExpression(R"((\d+) \S+: running \(job (\d+_\d+)\))").match(running);
        QVERIFY2(m.hasMatch(), running.constData());
        const int item = m.captured(1).toInt();
        QThread::msleep(500);  // mid-way: past the start, writing nothing yet
        QProcess scancel;
        scancel.start("scancel", {m.captured(2)});
        QVERIFY(scancel.waitForFinished(30000));
        QCOMPARE(scancel.exitCode(), 0);
        const auto after = waitForStatus(split, "1 failed", 120);
        const QRegularExpression failedLine(QString("(^|\n)%1 \\S+: failed").arg(item));
        QVERIFY2(failedLine.match(QString::fromUtf8(after)).hasMatch(), after.constData());
        // Nothing half-written is taken for the item: its file is absent.
        auto plan = nlohmann::json::parse(slurp(split / "plan.json"));
        const std::string file = plan["items"][item]["file"].get<std::string>();
        QVERIFY2(!fs::exists(split / file), file.c_str());
        // Wait for the rest of the array, then resubmit the cancelled item.
        const auto rest = waitForStatus(split, "3 of 4 done", 300);
        QVERIFY2(rest.contains("1 failed"), rest.constData());
        auto again = cli({"cluster", "resubmit", q(split), "--failed"});
        QVERIFY2(again.code == 0, (again.out + again.err).constData());
        QVERIFY2(again.out.contains("submitted items " + QByteArray::number(item)),
                 again.out.constData());
        const auto done = waitForStatus(split, "4 of 4 done", 300);
        QVERIFY2(done.contains("4 of 4 done"), done.constData());
        QCOMPARE(cli({"simulate", q(dir_ / "slow.json"), "--out", q(split)}).code, 0);
        QCOMPARE(cli({"simulate", q(dir_ / "slow.json"), "--out", q(local)}).code, 0);
        compareWithLocal(split, local, false);
    }
};

QTEST_GUILESS_MAIN(TstCluster)
#include "tst_cluster.moc"
