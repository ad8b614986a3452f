// The whole workflow through the real main window, offscreen: read income_survey with the
// background reader, set the roles in the Data page's combos, choose the model and a quick
// LW + EM comparison, run it on worker threads and check what the window shows (epsilon of
// both, the live preview now fed by the unweighted fit), cancel a second run midway (the
// window keeps working, the first run is untouched), compare two runs, save the project and
// reopen it in a new window. A 10 ms timer probe measures the longest event-loop stall
// during the runs. Screenshots go to test-output/screenshots.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStringList>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "ppsynth/data/roles.hpp"
#include "ppsynth/privacy/weights.hpp"
#include "test_output.hpp"
#include "ui/charts/chart_view.hpp"
#include "ui/charts/plot_chart.hpp"
#include "ui/charts/scatter_chart.hpp"
#include "ui/charts/violin_chart.hpp"
#include "ui/column_panel.hpp"
#include "ui/data_page.hpp"
#include "ui/main_window.hpp"
#include "ui/results/chart_card.hpp"
#include "ui/results/compare_view.hpp"
#include "ui/results/results_page.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/run/run_progress.hpp"
#include "ui/setup/knob_editor.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/setup/weight_preview_panel.hpp"
#include "ui/shell/page_settings.hpp"
#include "ui/shell/project_controller.hpp"
#include "ui/shell/run_library.hpp"
#include "ui/table_model.hpp"

using namespace ppsynth;
using ui::SynthesizerRow;
using ui::SynthesizersPage;

using ppsynth::testing::outputDir;

namespace {

void screenshot(QWidget* w, const QString& name) {
    QCoreApplication::processEvents();
    const QString file = outputDir(QStringLiteral("screenshots")) + QLatin1Char('/') + name;
    QVERIFY2(w->grab().save(file), qPrintable(file));
}

// The longest gap between ticks of a 10 ms timer: how long the event loop was stalled.
// The machine is shared (load averages of 10-12 on 2 cores while other builds run), so the
// probe also reads how long the GUI thread sat runnable in the kernel's run queue waiting
// for a CPU (/proc/thread-self/schedstat, field 2): the stall the application itself
// causes (work or blocking on the GUI thread) is the gap minus that wait.
class StallProbe : public QObject {
  public:
    ~StallProbe() override { stopSampler(); }
    // `fresh`: forget earlier gaps (false resumes after a pause that is not measured).
    void start(bool fresh = true) {
        if (fresh) {
            maxGapMs_ = 0;
            ownStallMs_ = 0;
            maxWorkMs_ = 0;
            ticks_ = 0;
            clock_.start();
        }
        last_ = clock_.elapsed();
        lastCpu_ = threadCpuMs();
        lastUsage_ = usage();
        lastQueued_ = queuedMs();
        startSampler();
        connect(&timer_, &QTimer::timeout, this, [this] {
            const qint64 now = clock_.elapsed();
            heartbeat_.store(now);
            const double cpu = threadCpuMs();
            const rusage u = usage();
            const double queued = queuedMs();
            const double gap = double(now - last_);
            const double waited = queued - lastQueued_;
            ownStallMs_ = std::max(ownStallMs_, gap - waited);
            maxWorkMs_ = std::max(maxWorkMs_, cpu - lastCpu_);
            if (now - last_ > maxGapMs_) {
                maxGapMs_ = now - last_;
                // Why: GUI-thread CPU (work), run-queue wait (the machine's load), voluntary
                // switches (waits: locks, I/O, the idle event loop), page faults.
                maxGapCpuMs_ = cpu - lastCpu_;
                gapWhy_ = QStringLiteral(
                              "at %1 ms: %2 ms waiting for a CPU; %3 voluntary and "
                              "%4 involuntary context switches, %5 major page faults")
                              .arg(now)
                              .arg(waited, 0, 'f', 1)
                              .arg(u.ru_nvcsw - lastUsage_.ru_nvcsw)
                              .arg(u.ru_nivcsw - lastUsage_.ru_nivcsw)
                              .arg(u.ru_majflt - lastUsage_.ru_majflt);
            }
            last_ = now;
            lastCpu_ = cpu;
            lastUsage_ = u;
            lastQueued_ = queued;
            ++ticks_;
        });
        timer_.start(10);
    }
    void stop() {
        timer_.stop();
        timer_.disconnect();
        stopSampler();
    }
    // What the GUI thread was in (its current system call, from another thread) while the
    // probe's timer was overdue by more than 40 ms: "poll" is the idle event loop, "futex" a
    // lock, "running" work.
    QString stalledIn() const {
        std::lock_guard lock(samplesMutex_);
        QStringList out;
        for (const auto& [what, n] : samples_) out << QStringLiteral("%1 x%2").arg(what).arg(n);
        return out.isEmpty() ? QStringLiteral("no samples") : out.join(QStringLiteral(", "));
    }
    qint64 maxGapMs() const { return maxGapMs_; }
    double maxGapCpuMs() const { return maxGapCpuMs_; }
    const QString& gapWhy() const { return gapWhy_; }
    // The longest gap less the time the GUI thread waited for a CPU within it.
    double ownStallMs() const { return ownStallMs_; }
    // The most GUI-thread CPU time between two ticks: work done on the GUI thread.
    double maxWorkMs() const { return maxWorkMs_; }
    int ticks() const { return ticks_; }

  private:
    void startSampler() {
        if (sampler_.joinable()) return;
        stopSampling_ = false;
        heartbeat_.store(clock_.elapsed());
        const QString file =
            QStringLiteral("/proc/self/task/%1/syscall").arg(long(syscall(SYS_gettid)));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - clock_.elapsed();
        sampler_ = std::thread([this, file, base] {
            while (!stopSampling_.load()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
                const qint64 now = QDateTime::currentMSecsSinceEpoch() - base;
                if (now - heartbeat_.load() < 40) continue;
                QFile f(file);
                if (!f.open(QIODevice::ReadOnly)) continue;
                const QByteArray first = f.readAll().split(' ').value(0).trimmed();
                const QString what = first == "7"     ? QStringLiteral("poll")
                                     : first == "202" ? QStringLiteral("futex")
                                     : first == "running"
                                         ? QStringLiteral("running")
                                         : QStringLiteral("syscall ") + QString::fromLatin1(first);
                std::lock_guard lock(samplesMutex_);
                ++samples_[what];
            }
        });
    }
    void stopSampler() {
        stopSampling_ = true;
        if (sampler_.joinable()) sampler_.join();
    }

    std::thread sampler_;
    std::atomic<bool> stopSampling_{false};
    std::atomic<qint64> heartbeat_{0};
    mutable std::mutex samplesMutex_;
    std::map<QString, int> samples_;
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    qint64 maxGapMs_ = 0;
    double lastCpu_ = 0;
    double maxGapCpuMs_ = 0;
    rusage lastUsage_{};
    double lastQueued_ = 0;
    double ownStallMs_ = 0;
    double maxWorkMs_ = 0;
    QString gapWhy_;
    int ticks_ = 0;

    static rusage usage() {
        rusage u{};
        getrusage(RUSAGE_THREAD, &u);
        return u;
    }

    // Time this thread has spent runnable but waiting for a CPU (ns in the file).
    static double queuedMs() {
        QFile f(QStringLiteral("/proc/thread-self/schedstat"));
        if (!f.open(QIODevice::ReadOnly)) return 0;
        const auto fields = f.readAll().split(' ');
        return fields.size() > 1 ? fields[1].toDouble() / 1e6 : 0;
    }

    static double threadCpuMs() {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
    }
};

void setRole(ui::ColumnPanel* panel, const data::Table& table, const char* column,
             data::Role role) {
    const auto idx = table.indexOf(column);
    QVERIFY2(idx, column);
    auto* combo = panel->roleCombo(int(*idx));
    combo->setCurrentIndex(combo->findData(int(role)));
}

}  // namespace

class TstWorkflow : public QObject {
    Q_OBJECT
    std::unique_ptr<ui::MainWindow> w_;
    QTemporaryDir projectDir_;
    std::shared_ptr<const study::RunResult> firstRun_;
    QString firstSummary_;
    qint64 lastGapMs_ = 0;
    double lastWorkMs_ = 0;

    // The responsiveness figures (the requirement is no stall over 100 ms): printed, not
    // asserted, since a test must not fail on a timing (ARCHITECTURE.md; this 2-core machine
    // is shared and reached load averages of 12-20). The GUI thread's own work between two
    // ticks is what the code controls; the raw gap also holds the time the kernel gave the CPU
    // to other processes, so the load average is printed beside it.
    static void reportStall(const char* stage, qint64 gapMs, double workMs) {
        double load = 0;
        QFile f(QStringLiteral("/proc/loadavg"));
        if (f.open(QIODevice::ReadOnly)) load = f.readAll().split(' ').value(0).toDouble();
        qInfo(
            "%s: longest GUI-thread work %.1f ms, longest event-loop gap %lld ms (load "
            "average %.1f on %d cores)",
            stage, workMs, gapMs, load, QThread::idealThreadCount());
    }

    ui::RunPanel* run() const { return w_->runPanel(); }
    SynthesizersPage* synth() const { return w_->synthesizersPage(); }
    ui::KnobEditor* lwKnob(const char* name) const {
        return synth()->firstRow(SynthesizerRow::LW)->knob(QString::fromLatin1(name));
    }

    // Starts a run with the Run button and waits for its end, probing the event loop.
    qint64 runAndWait(int timeoutMs) {
        StallProbe probe;
        QSignalSpy ended(run(), &ui::RunPanel::runEnded);
        probe.start();
        QTest::mouseClick(run()->runButton(), Qt::LeftButton);
        [&] { QVERIFY(ended.wait(timeoutMs)); }();
        probe.stop();
        qInfo(
            "longest event-loop gap %lld ms, %.1f ms of it GUI-thread CPU (%s); longest stall "
            "not explained by waiting for a CPU: %.1f ms; most GUI-thread CPU between two ticks "
            "(work on the GUI thread, delivering the result included): %.1f ms",
            probe.maxGapMs(), probe.maxGapCpuMs(), qPrintable(probe.gapWhy()), probe.ownStallMs(),
            probe.maxWorkMs());
        qInfo("while overdue the GUI thread was in: %s", qPrintable(probe.stalledIn()));
        lastGapMs_ = probe.maxGapMs();
        lastWorkMs_ = probe.maxWorkMs();
        return probe.maxGapMs();
    }

  private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
        QApplication::setApplicationName(QStringLiteral("ppsynth-workflow-test"));
        QApplication::setOrganizationName(QStringLiteral("ppsynth-test"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           outputDir(QStringLiteral("settings-workflow")));
        QSettings().clear();
        w_ = std::make_unique<ui::MainWindow>();
        w_->resize(1280, 800);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }

    void loadIncomeSurveyAndSetRoles() {
        QSignalSpy read(w_->project()->readJob(), &ui::JobRunnerBase::finished);
        QVERIFY(
            w_->project()->readFile(QStringLiteral(PPSYNTH_EXAMPLES_DIR "/income_survey.csv"), {}));
        QVERIFY(read.wait(60000));
        const auto table = w_->dataPage()->model()->table();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), std::size_t(6208));
        auto* panel = w_->dataPage()->columnPanel();
        setRole(panel, *table, "income", data::Role::Target);
        for (const char* c : {"gender", "age", "region"})
            setRole(panel, *table, c, data::Role::Known);
        for (const char* c :
             {"education", "urban", "marital", "urban_type", "cbsa", "family_size", "earners"})
            setRole(panel, *table, c, data::Role::Predictor);
        const auto roles = panel->roles();
        QCOMPARE(roles.target, std::string("income"));
        QCOMPARE(roles.predictors.size(), std::size_t(10));
        QCOMPARE(roles.known.size(), std::size_t(3));
    }

    void chooseModelAndSynthesizers() {
        auto* model = w_->modelPage();
        w_->tabs()->setCurrentWidget(model);
        model->familyBox()->setCurrentIndex(model->familyBox()->findData(QStringLiteral("normal")));
        model->transformBox()->setCurrentIndex(model->transformBox()->findText("log-shift"));
        model->chainsBox()->setValue(2);
        model->warmupBox()->setValue(150);
        model->drawsBox()->setValue(150);
        model->seedBox()->setText(QStringLiteral("7"));
        model->threadsBox()->setValue(2);
        screenshot(w_.get(), QStringLiteral("model_page.png"));

        w_->tabs()->setCurrentWidget(synth());
        synth()->clearRows();
        synth()->addRow(SynthesizerRow::LW);
        synth()->addRow(SynthesizerRow::EM);
        lwKnob("c")->setValue(0.7);
        QCOMPARE(synth()->firstRow(SynthesizerRow::EM)->matchBox()->currentText(),
                 QStringLiteral("LW"));
        synth()->mBox()->setValue(3);
        synth()->lBox()->setValue(3);
        const auto config = w_->pageSettings()->currentConfig();
        QVERIFY2(bool(config), config ? "" : config.message().c_str());
        QCOMPARE(config->synthesizers.size(), std::size_t(2));
        QCOMPARE(config->mcmc.draws, 150);
        QCOMPARE(config->data.transform, std::string("log-shift"));
    }

    void quickRunShowsEpsilonAndFeedsPreview() {
        w_->tabs()->setCurrentWidget(run());
        QElapsedTimer clock;
        clock.start();
        const qint64 gap = runAndWait(600000);
        qInfo(
            "quick LW + EM run on income_survey (2 chains x 150 + 150): %.1f s, longest "
            "event-loop stall %lld ms",
            clock.elapsed() / 1000.0, gap);
        QCOMPARE(run()->job()->lastOutcome(), ui::JobOutcome::Done);
        QVERIFY2(run()->messageLabel()->isHidden(), qPrintable(run()->messageLabel()->text()));
        const auto& records = run()->runList()->records();
        QCOMPARE(records.size(), std::size_t(1));
        firstRun_ = records[0].result;
        QVERIFY(firstRun_);
        QCOMPARE(firstRun_->synthesizers.size(), std::size_t(2));
        const auto* lw = firstRun_->find("LW");
        const auto* em = firstRun_->find("EM");
        QVERIFY(lw && em);
        QVERIFY(lw->epsilon.perDataset > 0);
        // EM was solved to LW's epsilon (core's tolerance is 2% on the bound).
        QVERIFY2(std::abs(em->epsilon.perDataset - lw->epsilon.perDataset) <=
                     0.03 * lw->epsilon.perDataset,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(em->epsilon.perDataset)
                                .arg(lw->epsilon.perDataset)));
        // The list shows each synthesizer's epsilon as computed.
        const QString row = run()->runList()->table()->item(0, 2)->text();
        firstSummary_ = row;
        for (const auto* s : {lw, em})
            QVERIFY2(row.contains(QStringLiteral("%1: ε %2")
                                      .arg(QString::fromStdString(s->name),
                                           ui::charts::formatValue(s->epsilon.perDataset))),
                     qPrintable(row));
        QVERIFY(run()->runList()->detailLabel()->text().contains(QStringLiteral("ε = ")));
        // Progress showed both chains; the page was refreshed by its timer, not per report.
        QCOMPARE(run()->progress()->chainBars().size(), std::size_t(2));
        QVERIFY(run()->progress()->refreshCount() > 0);
        QVERIFY(run()->progress()->stageLabel()->text().startsWith(QStringLiteral("Finished")));
        QCOMPARE(run()->progress()->overallBar()->value(),
                 run()->progress()->overallBar()->maximum());
        // The unweighted fit now drives the preview.
        auto* preview = synth()->previewPanel();
        QVERIFY(preview->hasBounds());
        QVERIFY(preview->lastPreview());
        QCOMPARE(preview->lastPreview()->alpha.size(), firstRun_->f.size());
        qInfo("LW: preview predicted bound %.4f, refit Delta(alpha,x) %.4f, unweighted %.4f",
              preview->lastPreview()->predictedBound, lw->deltaAlphaX, lw->deltaX);
        // The finished run opens on the Results tab with epsilon of both synthesizers.
        auto* results = w_->resultsPage();
        QVERIFY(w_->tabs()->currentWidget() == results);
        QCOMPARE(results->run(), firstRun_.get());
        const QString summary = results->summaryLabel()->text();
        for (const auto* s : {lw, em})
            QVERIFY2(summary.contains(QString::fromStdString(s->name)) &&
                         summary.contains(QStringLiteral("ε = ")),
                     qPrintable(summary));
        // The bound violins: one per synthesizer over all records, marked at Delta(alpha,x).
        ui::results::ChartCard* violins = nullptr;
        for (auto* c : results->chartCards(QStringLiteral("Summary")))
            if (c->key() == QStringLiteral("violin_lipschitz")) violins = c;
        QVERIFY(violins && violins->hasChart());
        auto* vc = qobject_cast<ui::charts::ViolinChart*>(violins->chart());
        QVERIFY(vc);
        QCOMPARE(vc->violins().size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            const auto& s = firstRun_->synthesizers[i];
            QCOMPARE(vc->violins()[i].name, QString::fromStdString(s.name));
            QCOMPARE(vc->violins()[i].summary.n, std::size_t(6208));
            QCOMPARE(*vc->violins()[i].mark, s.deltaAlphaX);
        }
        // LW's bound-against-weight scatter shows every record.
        results->setCurrentSynthesizer(QStringLiteral("LW"));
        ui::results::ChartCard* scatter = nullptr;
        for (auto* c : results->chartCards(QStringLiteral("Weights")))
            if (c->key() == QStringLiteral("scatter_bound_weight_LW")) scatter = c;
        QVERIFY(scatter && scatter->hasChart());
        QCOMPARE(qobject_cast<ui::charts::ScatterChart*>(scatter->chart())->totalPoints(),
                 qsizetype(6208));
        screenshot(w_.get(), QStringLiteral("window_results.png"));
        w_->tabs()->setCurrentWidget(run());
        screenshot(w_.get(), QStringLiteral("run_page.png"));
        reportStall("first run", gap, lastWorkMs_);
    }

    void previewRedrawsOnKnobMoves() {
        w_->tabs()->setCurrentWidget(synth());
        auto* preview = synth()->previewPanel();
        auto* slider = lwKnob("c")->slider();
        std::vector<double> ms;
        QElapsedTimer t;
        for (int i = 0; i < 30; ++i) {
            t.start();
            slider->setValue(300 + 10 * i);
            preview->chartView()->viewport()->repaint();
            QCoreApplication::processEvents();
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
            const double c = lwKnob("c")->value();
            const Eigen::VectorXd alpha = privacy::lipschitzWeights(firstRun_->f, c, 0.0);
            QCOMPARE(preview->lastPreview()->predictedBound,
                     alpha.cwiseProduct(firstRun_->f).maxCoeff());
        }
        std::sort(ms.begin(), ms.end());
        qInfo("preview latency on income_survey (6,208 records): median %.2f ms, max %.2f ms",
              ms[ms.size() / 2], ms.back());
        QVERIFY(preview->boundLabel()->text().startsWith(QStringLiteral("LW: predicted bound")));
        lwKnob("c")->setValue(0.7);
        screenshot(w_.get(), QStringLiteral("synthesizers_page.png"));
    }

    void cancelMidwayKeepsWindowAndResults() {
        w_->modelPage()->warmupBox()->setValue(3000);
        w_->modelPage()->drawsBox()->setValue(3000);
        w_->tabs()->setCurrentWidget(run());
        StallProbe probe;
        probe.start();
        QSignalSpy ended(run(), &ui::RunPanel::runEnded);
        QTest::mouseClick(run()->runButton(), Qt::LeftButton);
        QVERIFY(run()->isRunning());
        QVERIFY(!run()->runButton()->isEnabled());
        // Midway: the chains are sampling the unweighted fit.
        QTRY_VERIFY_WITH_TIMEOUT(run()->progress()->chainBars().size() == 2 &&
                                     run()->progress()->chainBars()[0]->value() > 0,
                                 120000);
        QTest::qWait(300);
        // The grab renders the whole window on the GUI thread: not part of the run's cost.
        probe.stop();
        screenshot(w_.get(), QStringLiteral("run_progress.png"));
        probe.start(false);
        QVERIFY(run()->progress()->remainingLabel()->text().contains(QStringLiteral("remaining")));
        QTest::mouseClick(run()->cancelButton(), Qt::LeftButton);
        QVERIFY(ended.wait(60000));
        probe.stop();
        qInfo(
            "cancel: worker stopped %.3f s after Cancel; longest event-loop stall %lld ms "
            "(%.1f ms GUI-thread CPU); most GUI-thread CPU between two ticks %.1f ms",
            run()->lastCancelSeconds(), probe.maxGapMs(), probe.maxGapCpuMs(), probe.maxWorkMs());
        QCOMPARE(run()->job()->lastOutcome(), ui::JobOutcome::Canceled);
        QVERIFY(run()->lastCancelSeconds() >= 0);  // the figure is printed above, not asserted
        QVERIFY(run()->runButton()->isEnabled());
        QVERIFY(!run()->cancelButton()->isEnabled());
        // Previous results intact.
        QCOMPARE(run()->runList()->records().size(), std::size_t(1));
        QCOMPARE(run()->runList()->records()[0].result, firstRun_);
        QCOMPARE(run()->runList()->table()->item(0, 2)->text(), firstSummary_);
        reportStall("cancelled run", probe.maxGapMs(), probe.maxWorkMs());
        // The window still works: tabs switch, the preview follows a knob.
        w_->tabs()->setCurrentWidget(synth());
        const double before = synth()->previewPanel()->lastPreview()->predictedBound;
        lwKnob("c")->setValue(0.3);
        QVERIFY(synth()->previewPanel()->lastPreview()->predictedBound < before);
        lwKnob("c")->setValue(0.7);
    }

    void secondRunAndCompare() {
        w_->modelPage()->warmupBox()->setValue(150);
        w_->modelPage()->drawsBox()->setValue(150);
        lwKnob("c")->setValue(0.5);
        w_->tabs()->setCurrentWidget(run());
        const qint64 gap = runAndWait(600000);
        qInfo("second run: longest event-loop gap %lld ms", gap);
        QCOMPARE(run()->job()->lastOutcome(), ui::JobOutcome::Done);
        auto* list = run()->runList();
        QCOMPARE(list->records().size(), std::size_t(2));
        // Smaller c: LW keeps less of the risky records, so its epsilon drops.
        QVERIFY(list->records()[1].result->find("LW")->epsilon.perDataset <
                firstRun_->find("LW")->epsilon.perDataset);
        list->select({1, 2});
        QVERIFY(list->compareButton()->isEnabled());
        QVERIFY(!list->showButton()->isEnabled());
        QTest::mouseClick(list->compareButton(), Qt::LeftButton);
        const QString detail = list->detailLabel()->text();
        QVERIFY(detail.contains(list->records()[0].label));
        QVERIFY(detail.contains(list->records()[1].label));
        // Side by side on the Compare tab.
        auto* compare = w_->compareView();
        QVERIFY(w_->tabs()->currentWidget() == compare);
        QCOMPARE(compare->runCount(), 2);
        QCOMPARE(compare->leftChooser()->currentIndex(),
                 compare->indexOf(list->records()[0].result.get()));
        QCOMPARE(compare->rightChooser()->currentIndex(),
                 compare->indexOf(list->records()[1].result.get()));
        QVERIFY(!compare->cards(0).isEmpty());
        QCOMPARE(compare->cards(0).size(), compare->cards(1).size());
        screenshot(w_.get(), QStringLiteral("window_compare.png"));
        reportStall("second run", gap, lastWorkMs_);
    }

    void saveAndReopenProject() {
        const QString file = projectDir_.filePath(QStringLiteral("income.ppsynth"));
        QSignalSpy saved(w_->project()->saveJob(), &ui::JobRunnerBase::finished);
        QVERIFY(w_->project()->saveProject(file));
        QVERIFY(saved.wait(120000));
        QTRY_VERIFY(QFile::exists(file));
        const auto& records = run()->runList()->records();
        for (const auto& r : records) {
            QVERIFY(!r.folder.isEmpty());
            QVERIFY2(QFile::exists(r.folder + QStringLiteral("/run.json")), qPrintable(r.folder));
        }
        QCOMPARE(w_->project()->recentFiles().value(0), file);

        ui::MainWindow reopened;
        QSignalSpy read(reopened.project()->readJob(), &ui::JobRunnerBase::finished);
        QSignalSpy loaded(reopened.runs()->loadRunsJob(), &ui::JobRunnerBase::finished);
        reopened.project()->openProject(file);
        QVERIFY(read.wait(60000));
        const auto roles = reopened.dataPage()->columnPanel()->roles();
        const auto expected = w_->dataPage()->columnPanel()->roles();
        QCOMPARE(roles.target, expected.target);
        QCOMPARE(roles.predictors, expected.predictors);
        QCOMPARE(roles.known, expected.known);
        const auto a = reopened.pageSettings()->currentConfig();
        const auto b = w_->pageSettings()->currentConfig();
        QVERIFY2(bool(a), a ? "" : a.message().c_str());
        QCOMPARE(study::toJson(*a), study::toJson(*b));
        const auto& back = reopened.runPanel()->runList()->records();
        QCOMPARE(back.size(), records.size());
        for (std::size_t i = 0; i < back.size(); ++i) {
            QCOMPARE(back[i].folder, records[i].folder);
            QCOMPARE(back[i].epsilonSummary(), records[i].epsilonSummary());
        }
        QCOMPARE(reopened.project()->projectPath(), file);
        // The runs come back from their folders with the results they had.
        QVERIFY(loaded.size() > 0 || loaded.wait(120000));
        QCOMPARE(reopened.runs()->loadRunsJob()->lastOutcome(), ui::JobOutcome::Done);
        for (std::size_t i = 0; i < back.size(); ++i) {
            QVERIFY2(back[i].result, qPrintable(back[i].label));
            QCOMPARE(back[i].result->synthesizers.size(), records[i].result->synthesizers.size());
            for (std::size_t k = 0; k < back[i].result->synthesizers.size(); ++k)
                QCOMPARE(back[i].result->synthesizers[k].epsilon.perDataset,
                         records[i].result->synthesizers[k].epsilon.perDataset);
        }
    }

    void cleanupTestCase() { w_.reset(); }
};

QTEST_MAIN(TstWorkflow)
#include "tst_workflow.moc"
