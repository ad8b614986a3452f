// The GUI's cluster route on a real Slurm (scripts/slurm_single_node.sh start; label
// `cluster`): a small sweep planned and submitted from "Run on a Slurm cluster...", followed
// on the Studies page until every item is done, then its curve read from the same files as a
// local run. Skipped, with a message, where there is no Slurm to submit to.
#include <unistd.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <filesystem>
#include <fstream>

#include "../core/test_files.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/sweep.hpp"
#include "ppsynth/study/sweep_config.hpp"
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

namespace {

// Why this test cannot run here, or "" when a Slurm takes jobs.
QString noSlurmHere() {
    if (::geteuid() != 0) return "not root (the single-node Slurm runs jobs as root)";
    if (QStandardPaths::findExecutable("sbatch").isEmpty()) return "sbatch is not on PATH";
    QProcess sinfo;
    sinfo.start("sinfo", {"-h", "-o", "%t"});
    if (!sinfo.waitForFinished(20000) || sinfo.exitCode() != 0) {
        sinfo.kill();
        sinfo.waitForFinished();
        return "no Slurm controller answers sinfo (start one with scripts/slurm_single_node.sh "
               "start and export SLURM_CONF)";
    }
    return "";
}

// Four items (the shared fit and three points) of about a second each.
std::string slurmSweepConfig() {
    return R"({"data": {"path": ")" PPSYNTH_EXAMPLES_DIR R"(/poisson.csv", "target": "y"},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 5},
      "synthesis": {"m": 3}, "risk": {"L": 4}, "utility": {"bootstrap": 40},
      "sweep": {"points": [{"c": 0.7, "g": 0.0}, {"c": 0.5, "g": -0.3},
                           {"c": 1.0, "g": 0.0, "M": 3.5}]}})";
}

bool waitForJob(ui::JobRunnerBase* job, int ms = 120000) {
    if (!job->isRunning()) return true;
    QSignalSpy spy(job, &ui::JobRunnerBase::finished);
    return spy.wait(ms);
}

}  // namespace

class TstClusterGuiSlurm : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        if (const QString why = noSlurmHere(); !why.isEmpty())
            QSKIP(qPrintable("no Slurm here: " + why));
        QApplication::setApplicationName(QStringLiteral("ppsynth-cluster-gui-slurm-test"));
        QApplication::setOrganizationName(QStringLiteral("ppsynth-test"));
    }

    void sweepSubmittedFromTheDialogReachesDone() {
        const fs::path dir = test::freshDir("tst_cluster_gui_slurm", "work");
        const fs::path config = dir / "sweep.json";
        std::ofstream(config) << slurmSweepConfig();
        const fs::path folder = dir / "on_slurm";

        ui::MainWindow w;
        w.resize(1100, 760);
        auto* c = w.studies()->cluster();
        c->setCliPath(QStringLiteral(PPSYNTH_CLI));
        c->setRefreshInterval(1000);
        w.studiesPage()->clusterButton()->click();
        auto* d = c->dialog();
        d->setConfigPath(QString::fromStdString(config.string()));
        d->setStudyFolder(QString::fromStdString(folder.string()));
        d->maxParallelSpin()->setValue(2);
        d->planButton()->click();
        QVERIFY(waitForJob(c->planJob()));
        QVERIFY2(d->plan().has_value(), qPrintable(d->messageLabel()->text()));
        QVERIFY(d->sbatchAvailable());
        QElapsedTimer t;
        t.start();
        QSignalSpy submitted(c->submitter(), &ui::SbatchSubmitter::finished);
        d->submitButton()->click();
        QVERIFY(submitted.count() == 1 || submitted.wait(60000));
        QVERIFY2(submitted.first().at(0).toBool(), qPrintable(submitted.first().at(1).toString()));
        const qint64 submitMs = t.elapsed();

        // Followed on the Studies page until every item is done, then read as a local run.
        auto* view = w.studiesPage()->clusterView();
        bool shotWhileRunning = false;
        while (!c->watchedFolder().isEmpty() && t.elapsed() < 600000) {
            QTest::qWait(200);
            const QString s = view->summaryLabel()->text();
            if (!shotWhileRunning && s.contains(QStringLiteral("running")) &&
                !s.contains(QStringLiteral(" 0 running"))) {
                w.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                              QStringLiteral("/cluster_progress_slurm.png"));
                shotWhileRunning = true;
            }
        }
        QVERIFY2(c->watchedFolder().isEmpty(), qPrintable(view->summaryLabel()->text()));
        QVERIFY(waitForJob(w.studies()->studyJob()));
        const qint64 doneMs = t.elapsed();
        QVERIFY2(view->summaryLabel()->text().contains(QStringLiteral("4 of 4 done")),
                 qPrintable(view->summaryLabel()->text()));
        QVERIFY(w.studiesPage()->curveCard() != nullptr);
        w.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                      QStringLiteral("/cluster_done_slurm.png"));
        qInfo("submitted in %.1f s; every item done and the curve shown %.1f s after the click",
              submitMs / 1000.0, doneMs / 1000.0);

        // The same curve as a local run of the same configuration.
        auto sweep = study::loadSweepConfig(config.string());
        QVERIFY(bool(sweep));
        auto data = study::readRunData(sweep->run);
        QVERIFY(bool(data));
        QVERIFY(bool(study::runSweep(*sweep, *data, (dir / "local").string(), {})));
        QVERIFY(test::slurp(folder / "sweep.csv") == test::slurp(dir / "local" / "sweep.csv"));
    }
};

QTEST_MAIN(TstClusterGuiSlurm)
#include "tst_cluster_gui_slurm.moc"
