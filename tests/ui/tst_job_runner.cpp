// The job runner: results by value on the GUI thread, progress, cancel, and an owner that
// waits for its worker in its destructor.
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ui/job_runner.hpp"

using namespace ppsynth;
using ppsynth::ui::JobOutcome;
using ppsynth::ui::JobRunner;

namespace {
// Work that runs until told to stop, reporting as it goes; records that it stopped.
struct Spinner {
    std::shared_ptr<std::atomic<bool>> sawStop = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<std::atomic<bool>> exited = std::make_shared<std::atomic<bool>>(false);
    int operator()(const ProgressCallback& cb) const {
        for (int i = 0;; ++i) {
            if (report(cb, {"spinning", 0, double(i % 100), 100.0}) == Continue::Stop) {
                sawStop->store(true);
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        // Linger so a destructor that does not wait would return before this is set.
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        exited->store(true);
        return -1;
    }
};
}  // namespace

class TstJobRunner : public QObject {
    Q_OBJECT
  private slots:
    void deliversResultByValueOnGuiThread() {
        JobRunner<std::vector<std::string>> job;
        QThread* workerThread = nullptr;
        QThread* deliveryThread = nullptr;
        std::vector<std::string> got;
        job.onResult([&](std::vector<std::string> v) {
            deliveryThread = QThread::currentThread();
            got = std::move(v);
        });
        QSignalSpy finished(&job, &ui::JobRunnerBase::finished);
        QVERIFY(job.start([&workerThread](const ProgressCallback&) {
            workerThread = QThread::currentThread();
            return std::vector<std::string>{"a", "b", "c"};
        }));
        QVERIFY(job.isRunning());
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).value<JobOutcome>(), JobOutcome::Done);
        QCOMPARE(got, (std::vector<std::string>{"a", "b", "c"}));
        QVERIFY(workerThread != nullptr);
        QVERIFY(workerThread != QThread::currentThread());
        QCOMPARE(deliveryThread, QThread::currentThread());
        QVERIFY(!job.isRunning());
    }

    void reportsProgressWithStage() {
        JobRunner<int> job;
        QSignalSpy progress(&job, &ui::JobRunnerBase::progressChanged);
        QSignalSpy finished(&job, &ui::JobRunnerBase::finished);
        job.start([](const ProgressCallback& cb) {
            for (int i = 1; i <= 20; ++i) {
                report(cb, {"reading", 0, double(i), 20.0});
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            return 7;
        });
        QVERIFY(finished.wait(5000));
        QVERIFY(progress.size() >= 2);  // Qt throttles to ~25 per second; 200 ms of work
        double previous = -1;
        for (const auto& args : progress) {
            const double f = args.at(0).toDouble();
            QVERIFY(f > previous);
            QVERIFY(f <= 1.0);
            QCOMPARE(args.at(1).toString(), QStringLiteral("reading"));
            previous = f;
        }
        QCOMPARE(progress.last().at(0).toDouble(), 1.0);  // the maximum is never throttled
    }

    void progressRestartsOnNewStage() {
        ui::ProgressAggregator agg;
        QCOMPARE(agg.add({"warmup", 0, 5, 10}).permille, 500);
        auto u = agg.add({"sampling", 0, 1, 10});
        QCOMPARE(u.permille, 100);
        QVERIFY(u.restart);
        // Two workers: the mean of their fractions.
        ui::ProgressAggregator two;
        QCOMPARE(two.add({"sampling", 0, 10, 10}).permille, 1000);
        QCOMPARE(two.add({"sampling", 1, 0, 10}).permille, 500);
        QCOMPARE(two.add({"sampling", 1, 5, 10}).permille, 750);
    }

    void cancelStopsWorkAndDeliversNoResult() {
        JobRunner<int> job;
        bool gotResult = false;
        job.onResult([&](int) { gotResult = true; });
        QSignalSpy progress(&job, &ui::JobRunnerBase::progressChanged);
        QSignalSpy finished(&job, &ui::JobRunnerBase::finished);
        Spinner spin;
        job.start(spin);
        QVERIFY(progress.wait(5000));  // it is running
        job.cancel();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).value<JobOutcome>(), JobOutcome::Canceled);
        QVERIFY(!gotResult);
        // finished means the worker has returned, not merely been asked to stop.
        QVERIFY(spin.sawStop->load());
        QVERIFY(spin.exited->load());
    }

    void destructorCancelsAndWaits() {
        Spinner spin;
        {
            auto job = std::make_unique<JobRunner<int>>();
            QSignalSpy progress(job.get(), &ui::JobRunnerBase::progressChanged);
            job->start(spin);
            QVERIFY(progress.wait(5000));
            QVERIFY(!spin.exited->load());
        }  // destroyed while running
        QVERIFY(spin.sawStop->load());
        QVERIFY(spin.exited->load());  // the destructor waited for the lingering worker
    }

    void refusesSecondStartWhileRunning() {
        JobRunner<int> job;
        Spinner spin;
        QVERIFY(job.start(spin));
        QVERIFY(!job.start([](const ProgressCallback&) { return 1; }));
        QSignalSpy finished(&job, &ui::JobRunnerBase::finished);
        job.cancel();
        QVERIFY(finished.wait(5000));
        int value = 0;
        job.onResult([&](int v) { value = v; });
        QVERIFY(job.start([](const ProgressCallback&) { return 5; }));
        QVERIFY(finished.wait(5000));
        QCOMPARE(value, 5);
    }

    // Each job is reported exactly once, also after the event loop has run a while (the
    // watcher used to report a second, Canceled "finished" for the empty future it is
    // reset to).
    void deliversOnceAndKeepsOutcome_data() {
        QTest::addColumn<bool>("cancel");
        QTest::newRow("done") << false;
        QTest::newRow("canceled") << true;
    }
    void deliversOnceAndKeepsOutcome() {
        QFETCH(bool, cancel);
        JobRunner<int> job;
        int results = 0;
        job.onResult([&](int) { ++results; });
        QSignalSpy finished(&job, &ui::JobRunnerBase::finished);
        if (cancel) {
            QVERIFY(job.start(Spinner{}));
            job.cancel();
        } else {
            QVERIFY(job.start([](const ProgressCallback&) { return 3; }));
        }
        QVERIFY(finished.wait(5000));
        QTest::qWait(200);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(results, cancel ? 0 : 1);
        QCOMPARE(job.lastOutcome(), cancel ? JobOutcome::Canceled : JobOutcome::Done);
    }

    // A cancel that arrives after the work returned (its finished signal not yet delivered)
    // is too late to stop anything: the result is there, so the job is Done and delivers it
    // (the Export dialog used to say "nothing was written" beside a complete bundle).
    void cancelAfterWorkReturnedKeepsResult() {
        JobRunner<std::unique_ptr<int>> job;
        int value = 0;
        job.onResult([&](std::unique_ptr<int> v) { value = *v; });
        QSignalSpy finished(&job, &ui::JobRunnerBase::finished);
        QVERIFY(job.start([](const ProgressCallback&) { return std::make_unique<int>(42); }));
        job.waitForFinished();  // blocks without processing events: nothing delivered yet
        QVERIFY(job.isRunning());
        job.cancel();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).value<JobOutcome>(), JobOutcome::Done);
        QCOMPARE(value, 42);
    }

    void exceptionBecomesFailure() {
        JobRunner<int> job;
        QSignalSpy finished(&job, &ui::JobRunnerBase::finished);
        job.start([](const ProgressCallback&) -> int { throw std::runtime_error("disk on fire"); });
        QVERIFY(finished.wait(5000));
        QCOMPARE(job.lastOutcome(), JobOutcome::Failed);
        QCOMPARE(job.failureText(), QStringLiteral("disk on fire"));
    }
};

QTEST_GUILESS_MAIN(TstJobRunner)
#include "tst_job_runner.moc"
