// The Studies page's cluster side, on the real main window: "Run on a Slurm cluster..." plans
// the folder, shows core's script before anything is submitted, writes it and names the
// command where sbatch is missing, and submits with sbatch where it is (a fake sbatch on PATH
// that records its arguments); the progress of a folder with items done, running, pending and
// failed (a fake squeue), the failed item's log; the summaries once every item is there.
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../core/test_files.hpp"
#include "ppsynth/study/cluster_slurm.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/simulate_config.hpp"
#include "ppsynth/study/study_folder.hpp"
#include "test_output.hpp"
#include "ui/main_window.hpp"
#include "ui/results/cluster_dialog.hpp"
#include "ui/results/cluster_progress_view.hpp"
#include "ui/results/studies_page.hpp"
#include "ui/shell/cluster_controller.hpp"
#include "ui/shell/sbatch_submitter.hpp"
#include "ui/shell/study_controller.hpp"

namespace fs = std::filesystem;
using namespace ppsynth;
namespace cluster = ppsynth::study::cluster;
using nlohmann::json;

namespace {

const QString kCli = QStringLiteral("/opt/ppsynth/bin/ppsynth-cli");

std::string sweepConfigText() {
    return R"({"data": {"path": ")" PPSYNTH_EXAMPLES_DIR R"(/poisson.csv", "target": "y"},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 5},
      "synthesis": {"m": 3}, "risk": {"L": 4}, "utility": {"bootstrap": 40},
      "sweep": {"points": [{"c": 0.7, "g": 0.0}, {"c": 0.5, "g": -0.3},
                           {"c": 1.0, "g": 0.0, "M": 3.5}]}})";
}

// Six items of two replicates each, about a second in all.
std::string simulateConfigText() {
    return R"({"model": "poisson", "sizes": [30, 80], "replicates": 6, "block_size": 2,
      "mcmc": {"draws": 120}, "seed": 13, "epsilon_grid": [4, 8, 12, 16]})";
}

void writeFile(const fs::path& path, const std::string& text, bool executable = false) {
    std::ofstream(path, std::ios::binary) << text;
    if (executable)
        fs::permissions(path,
                        fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
}

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

bool waitForJob(ui::JobRunnerBase* job) {
    if (!job->isRunning()) return true;
    QSignalSpy spy(job, &ui::JobRunnerBase::finished);
    return spy.wait(120000);
}

void saveScreenshot(QWidget* w, const QString& name) {
    w->grab().save(testing::outputDir(QStringLiteral("screenshots")) + QLatin1Char('/') + name);
}

}  // namespace

class TstClusterGui : public QObject {
    Q_OBJECT
    QByteArray path_;
    fs::path dir_;

    // Plans `config` into `folder` from the dialog, as a person would.
    void planFromDialog(ui::MainWindow& w, const fs::path& config, const fs::path& folder) {
        auto* c = w.studies()->cluster();
        c->setCliPath(kCli);
        w.studiesPage()->clusterButton()->click();
        auto* d = c->dialog();
        QVERIFY(d->isVisible());
        d->setConfigPath(q(config));
        d->setStudyFolder(q(folder));
        d->partitionEdit()->setText(QStringLiteral("short"));
        d->timeEdit()->setText(QStringLiteral("00:30:00"));
        d->cpusSpin()->setValue(2);
        d->memEdit()->setText(QStringLiteral("2G"));
        d->maxParallelSpin()->setValue(2);
        QVERIFY(!d->submitButton()->isEnabled());  // nothing planned yet
        d->planButton()->click();
        QVERIFY(waitForJob(c->planJob()));
        QVERIFY2(d->plan().has_value(), qPrintable(d->messageLabel()->text()));
    }

  private slots:
    void initTestCase() {
        QApplication::setApplicationName(QStringLiteral("ppsynth-cluster-gui-test"));
        QApplication::setOrganizationName(QStringLiteral("ppsynth-test"));
        path_ = qgetenv("PATH");
        dir_ = test::freshDir("tst_cluster_gui", "work");
        writeFile(dir_ / "sweep.json", sweepConfigText());
        writeFile(dir_ / "simulate.json", simulateConfigText());
    }
    void cleanup() { qputenv("PATH", path_); }

    // The script in the dialog is core's for the plan and the options, before anything is
    // submitted; editing an option shows the new script.
    void dialogShowsCoresScript() {
        const fs::path folder = dir_ / "planned";
        ui::MainWindow w;
        planFromDialog(w, dir_ / "sweep.json", folder);
        auto* d = w.studies()->cluster()->dialog();
        // Planned like --plan: every item listed, nothing computed, nothing submitted.
        QVERIFY(fs::is_regular_file(folder / "plan.json"));
        QVERIFY(test::filesUnder(folder / "items").empty());
        QVERIFY(!fs::exists(folder / "cluster" / "jobs.json"));
        std::string error;
        const auto plan = cluster::readPlan(folder.string(), error);
        QVERIFY2(plan.has_value(), error.c_str());
        QCOMPARE(plan->items.size(), std::size_t(4));
        QCOMPARE(plan->command, std::string("sweep"));
        QCOMPARE(d->items(), (std::vector<std::size_t>{0, 1, 2, 3}));
        cluster::SbatchOptions o;
        o.partition = "short";
        o.time = "00:30:00";
        o.cpusPerTask = 2;
        o.mem = "2G";
        o.maxParallel = 2;
        QCOMPARE(d->scriptView()->toPlainText(),
                 QString::fromStdString(cluster::sbatchScript(*plan, o, kCli.toStdString())));
        QVERIFY(d->scriptView()->isReadOnly());
        QVERIFY(d->scriptView()->toPlainText().contains(QStringLiteral("#SBATCH --mem=2G\n")));
        QCOMPARE(d->callsView()->toPlainText(),
                 QString::fromStdString(cluster::submitShell(
                     *plan, cluster::splitByDependency(*plan, {0, 1, 2, 3}), 2)));
        d->partitionEdit()->setText(QStringLiteral("long"));
        o.partition = "long";
        QCOMPARE(d->scriptView()->toPlainText(),
                 QString::fromStdString(cluster::sbatchScript(*plan, o, kCli.toStdString())));
        QVERIFY(d->submitButton()->isEnabled());
    }

    // Without sbatch the scripts are written (the text shown) and the message names the
    // command to run on a login node; nothing is submitted.
    void withoutSbatchTheScriptIsWrittenAndTheCommandNamed() {
        const fs::path folder = dir_ / "no_sbatch";
        const fs::path empty = dir_ / "empty_bin";
        fs::create_directories(empty);
        qputenv("PATH", QFile::encodeName(q(empty)));
        ui::MainWindow w;
        w.resize(1100, 760);
        planFromDialog(w, dir_ / "sweep.json", folder);
        auto* d = w.studies()->cluster()->dialog();
        QVERIFY(!d->sbatchAvailable());
        QCOMPARE(d->submitButton()->text(), QStringLiteral("Write the script"));
        d->submitButton()->click();
        const fs::path script = folder / "cluster" / "submit.sbatch";
        const fs::path shell = folder / "cluster" / "submit.sh";
        QVERIFY(fs::is_regular_file(script) && fs::is_regular_file(shell));
        QCOMPARE(QString::fromStdString(test::slurp(script)), d->scriptView()->toPlainText());
        QCOMPARE(QString::fromStdString(test::slurp(shell)), d->callsView()->toPlainText());
        const QString command =
            QStringLiteral("bash ") + QString::fromStdString(cluster::shellQuote(shell.string()));
        QCOMPARE(d->commandLine()->text(), command);
        QVERIFY(d->commandLine()->isVisible());
        QVERIFY2(d->messageLabel()->text().contains(QStringLiteral("sbatch is not on PATH")),
                 qPrintable(d->messageLabel()->text()));
        QVERIFY(!fs::exists(folder / "cluster" / "jobs.json"));
        saveScreenshot(d, QStringLiteral("cluster_dialog_no_sbatch.png"));
    }

    // Where sbatch is on PATH the dialog submits with it (without blocking): item 0 first,
    // the grid points after it, each job recorded; the progress view follows the folder.
    void fakeSbatchIsCalledWithCoresArguments() {
        const fs::path folder = dir_ / "submitted";
        const fs::path bin = dir_ / "fake_bin";
        fs::create_directories(bin);
        fs::remove(bin / "calls.txt");
        // Records its arguments, one call a line, and answers job ids 4001, 4002, ...
        writeFile(bin / "sbatch",
                  "#!/bin/sh\nlog=\"${0%/*}/calls.txt\"\necho \"$*\" >> \"$log\"\nn=0\n"
                  "while read -r line; do n=$((n+1)); done < \"$log\"\necho $((4000+n))\n",
                  true);
        qputenv("PATH", QFile::encodeName(q(bin)));
        ui::MainWindow w;
        w.resize(1100, 760);
        planFromDialog(w, dir_ / "sweep.json", folder);
        auto* c = w.studies()->cluster();
        auto* d = c->dialog();
        QVERIFY(d->sbatchAvailable());
        QCOMPARE(d->submitButton()->text(), QStringLiteral("Submit to Slurm"));
        QSignalSpy done(c->submitter(), &ui::SbatchSubmitter::finished);
        d->submitButton()->click();
        QVERIFY(done.count() == 1 || done.wait(20000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
        const std::string script = (folder / "cluster" / "submit.sbatch").string();
        QCOMPARE(test::slurp(bin / "calls.txt"),
                 "--parsable --array=0%2 " + script +
                     "\n--parsable --array=1-3%2 --dependency=afterok:4001 " + script + "\n");
        const json jobs = json::parse(test::slurp(folder / "cluster" / "jobs.json"));
        QCOMPARE(jobs["jobs"].size(), std::size_t(2));
        QCOMPARE(jobs["jobs"][0]["id"].get<std::string>(), std::string("4001"));
        QCOMPARE(jobs["jobs"][0]["items"], json({0}));
        QCOMPARE(jobs["jobs"][1]["id"].get<std::string>(), std::string("4002"));
        QCOMPARE(jobs["jobs"][1]["items"], json({1, 2, 3}));
        const QString message = d->messageLabel()->text();
        QVERIFY2(message.contains(QStringLiteral("items 0 as job 4001")) &&
                     message.contains(QStringLiteral("items 1-3 as job 4002 (after job 4001)")),
                 qPrintable(message));
        QVERIFY(!d->submitButton()->isEnabled());  // not twice
        // The Studies page follows the folder.
        QCOMPARE(c->watchedFolder(), QDir::cleanPath(q(folder)));
        QCOMPARE(w.studiesPage()->tabs()->currentWidget(), w.studiesPage()->clusterView());
        saveScreenshot(d, QStringLiteral("cluster_dialog_submitted.png"));
    }

    // sbatch's refusal is shown as it said it, with what to do; nothing is recorded.
    void sbatchErrorIsShownVerbatim() {
        const fs::path folder = dir_ / "refused";
        const fs::path bin = dir_ / "refusing_bin";
        fs::create_directories(bin);
        writeFile(bin / "sbatch",
                  "#!/bin/sh\necho 'sbatch: error: invalid partition specified: short' >&2\n"
                  "echo 'sbatch: error: Batch job submission failed: Invalid partition name "
                  "specified' >&2\nexit 1\n",
                  true);
        qputenv("PATH", QFile::encodeName(q(bin)));
        ui::MainWindow w;
        planFromDialog(w, dir_ / "simulate.json", folder);
        auto* c = w.studies()->cluster();
        auto* d = c->dialog();
        QSignalSpy done(c->submitter(), &ui::SbatchSubmitter::finished);
        d->submitButton()->click();
        QVERIFY(done.count() == 1 || done.wait(20000));
        QVERIFY(!done.first().at(0).toBool());
        const QString message = d->messageLabel()->text();
        QVERIFY2(message.contains(QStringLiteral(
                     "sbatch: error: invalid partition specified: short\nsbatch: error: Batch "
                     "job submission failed: Invalid partition name specified")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("sinfo")), qPrintable(message));
        // The command as it ran (its %2 throttle is not a placeholder) and sbatch's exit code.
        QVERIFY2(message.contains(QStringLiteral("--array=0-5%2 ")) &&
                     message.contains(QStringLiteral("(exit code 1)")),
                 qPrintable(message));
        QVERIFY(!fs::exists(folder / "cluster" / "jobs.json"));
        QVERIFY(d->submitButton()->isEnabled());  // change the options, submit again
    }

    // A folder the cluster is filling: two items done, one running, one pending, two failed
    // (a fake squeue that knows only the running and the pending task); the first failed
    // item's log is shown. Opening it computes nothing.
    void progressShowsDoneRunningFailed() {
        const fs::path folder = dir_ / "in_progress";
        auto planned = study::planStudyFolder((dir_ / "simulate.json").string(), folder.string());
        QVERIFY2(bool(planned), planned ? "" : planned.message().c_str());
        auto config = study::loadSimulateConfig((dir_ / "simulate.json").string());
        QVERIFY(bool(config));
        study::StudyOptions two;
        two.items = study::StudyOptions::ItemRange{0, 1};
        QVERIFY(bool(study::runSimulation(*config, folder.string(), two)));
        fs::create_directories(folder / "cluster" / "logs");
        writeFile(folder / "cluster" / "jobs.json",
                  R"({"jobs": [{"id": "4242", "items": [2, 3, 4, 5]}]})");
        writeFile(folder / "cluster" / "logs" / "item-3.log",
                  "starting item 3\nslurmstepd: error: Detected 1 oom_kill event in "
                  "StepId=4242_3.batch. Some of the step tasks have been OOM Killed.\n");
        const fs::path bin = dir_ / "squeue_bin";
        fs::create_directories(bin);
        writeFile(bin / "squeue",
                  "#!/bin/sh\necho '4242_2|RUNNING|None'\necho '4242_4|PENDING|Priority'\n", true);
        qputenv("PATH", QFile::encodeName(q(bin)));

        ui::MainWindow w;
        w.resize(1100, 760);
        w.show();
        auto* c = w.studies()->cluster();
        QVERIFY(w.studies()->openStudyFolder(q(folder)));
        QVERIFY(waitForJob(c->statusJob()));
        auto* view = w.studiesPage()->clusterView();
        const QString summary = view->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral(
                     "2 of 6 done, 1 running, 1 pending, 2 failed, 0 not submitted")),
                 qPrintable(summary));
        QCOMPARE(view->progressBar()->value(), 2);
        QCOMPARE(view->progressBar()->maximum(), 6);
        QCOMPARE(view->table()->rowCount(), 6);
        const QStringList states{QStringLiteral("done"),    QStringLiteral("done"),
                                 QStringLiteral("running"), QStringLiteral("failed"),
                                 QStringLiteral("pending"), QStringLiteral("failed")};
        for (int i = 0; i < 6; ++i) QCOMPARE(view->table()->item(i, 2)->text(), states[i]);
        // The same states as `ppsynth-cli cluster status` (core's clusterStatus).
        auto status = cluster::clusterStatus(folder.string());
        QVERIFY(bool(status));
        QCOMPARE(status->counts.failed, std::size_t(2));
        // The first failed item's log, reachable from the view.
        QVERIFY2(view->logView()->toPlainText().contains(QStringLiteral("oom_kill")),
                 qPrintable(view->logView()->toPlainText()));
        QCOMPARE(view->shownLogPath(), q(folder / "cluster" / "logs" / "item-3.log"));
        QVERIFY(view->openLogButton()->isEnabled());
        // Nothing computed here, nothing assembled.
        QCOMPARE(test::filesUnder(folder / "items").size(), std::size_t(2));
        QVERIFY(!fs::exists(folder / "replicates.csv"));
        QCOMPARE(c->watchedFolder(), QDir::cleanPath(q(folder)));
        QCOMPARE(w.studiesPage()->tabs()->currentWidget(), view);
        saveScreenshot(&w, QStringLiteral("cluster_progress.png"));

        // An item lands: the watcher or the timer shows it, without blocking.
        c->setRefreshInterval(300);
        two.items = study::StudyOptions::ItemRange{2, 2};
        QVERIFY(bool(study::runSimulation(*config, folder.string(), two)));
        QTRY_VERIFY_WITH_TIMEOUT(
            view->summaryLabel()->text().contains(QStringLiteral("3 of 6 done")), 20000);
        QCOMPARE(view->table()->item(2, 2)->text(), QStringLiteral("done"));
    }

    // Item 0 failed, so the points wait forever (DependencyNeverSatisfied): the dialog,
    // opened from the followed folder, is filled in with it, submits every item again and
    // cancels the stuck tasks first, as `ppsynth-cli cluster resubmit --failed` does.
    void resubmissionCancelsStuckTasks() {
        const fs::path folder = dir_ / "resubmit";
        auto planned = study::planStudyFolder((dir_ / "sweep.json").string(), folder.string());
        QVERIFY2(bool(planned), planned ? "" : planned.message().c_str());
        fs::create_directories(folder / "cluster" / "logs");
        writeFile(folder / "cluster" / "jobs.json",
                  R"({"jobs": [{"id": "76", "items": [0]}, {"id": "77", "items": [1, 2, 3]}]})");
        const fs::path bin = dir_ / "resubmit_bin";
        fs::create_directories(bin);
        fs::remove(bin / "calls.txt");
        fs::remove(bin / "scancel.txt");
        writeFile(bin / "squeue",
                  "#!/bin/sh\nfor t in 1 2 3; do echo \"77_$t|PENDING|DependencyNeverSatisfied\"; "
                  "done\n",
                  true);
        writeFile(bin / "scancel", "#!/bin/sh\necho \"$*\" >> \"${0%/*}/scancel.txt\"\n", true);
        writeFile(bin / "sbatch",
                  "#!/bin/sh\nlog=\"${0%/*}/calls.txt\"\necho \"$*\" >> \"$log\"\nn=0\n"
                  "while read -r line; do n=$((n+1)); done < \"$log\"\necho $((500+n))\n",
                  true);
        qputenv("PATH", QFile::encodeName(q(bin)));

        ui::MainWindow w;
        auto* c = w.studies()->cluster();
        QVERIFY(w.studies()->openStudyFolder(q(folder)));
        QVERIFY(waitForJob(c->statusJob()));
        auto* view = w.studiesPage()->clusterView();
        QVERIFY2(view->summaryLabel()->text().contains(QStringLiteral("4 failed")),
                 qPrintable(view->summaryLabel()->text()));
        w.studiesPage()->clusterButton()->click();
        auto* d = c->dialog();
        QCOMPARE(d->studyFolder(), QDir::toNativeSeparators(q(folder)));
        QCOMPARE(d->configPath(), QDir::toNativeSeparators(q(dir_ / "sweep.json")));
        d->planButton()->click();
        QVERIFY(waitForJob(c->planJob()));
        QCOMPARE(d->items(), (std::vector<std::size_t>{0, 1, 2, 3}));
        QSignalSpy done(c->submitter(), &ui::SbatchSubmitter::finished);
        d->submitButton()->click();
        QVERIFY(done.count() == 1 || done.wait(20000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(fs::exists(bin / "scancel.txt"), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(test::slurp(bin / "scancel.txt"), std::string("77_1 77_2 77_3\n"),
                                  20000);
        QVERIFY(test::slurp(bin / "calls.txt").find("--dependency=afterok:501") !=
                std::string::npos);
    }

    // Every item there: the summaries, the same files as a local run, on the Studies page.
    void everyItemDoneShowsTheSummaries() {
        const fs::path folder = dir_ / "finished";
        const fs::path local = dir_ / "local";
        auto planned = study::planStudyFolder((dir_ / "simulate.json").string(), folder.string());
        QVERIFY(bool(planned));
        auto config = study::loadSimulateConfig((dir_ / "simulate.json").string());
        study::StudyOptions all;
        all.items = study::StudyOptions::ItemRange{0, 5};
        QVERIFY(bool(study::runSimulation(*config, folder.string(), all)));
        QVERIFY(bool(study::runSimulation(*config, local.string(), {})));
        qputenv("PATH", QFile::encodeName(q(dir_ / "empty_bin")));

        ui::MainWindow w;
        auto* c = w.studies()->cluster();
        QVERIFY(w.studies()->openStudyFolder(q(folder)));
        QVERIFY(waitForJob(c->statusJob()));
        QVERIFY(waitForJob(w.studies()->studyJob()));
        QVERIFY(c->watchedFolder().isEmpty());  // done following
        QVERIFY(!w.studiesPage()->simulationCards().isEmpty());
        for (const char* f : {"replicates.csv", "distribution.csv", "delta_hat.csv"})
            QVERIFY2(test::slurp(folder / f) == test::slurp(local / f), f);
    }
};

QTEST_MAIN(TstClusterGui)
#include "tst_cluster_gui.moc"
