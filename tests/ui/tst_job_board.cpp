// The job board: a runner's result and end reach their handlers only for the newest job of
// its kind (a superseded job's result is dropped even when it was ready before the cancel
// reached it), a queued job starts once the superseded one stopped, and cancelAll stops
// every job and drops the queue.
#include <QList>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "ui/shell/job_board.hpp"

using namespace ppsynth;
using ppsynth::ui::JobBoard;
using ppsynth::ui::JobOutcome;
using ppsynth::ui::JobRunnerBase;

namespace {
// Work that runs until told to stop.
int spin(const ProgressCallback& cb) {
    for (int i = 0;; ++i) {
        if (report(cb, {"spinning", 0, double(i % 100), 100.0}) == Continue::Stop) return -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

ui::JobRunner<int>::Work returns(int value) {
    return [value](const ProgressCallback&) { return value; };
}
}  // namespace

class TstJobBoard : public QObject {
    Q_OBJECT
  private slots:
    // Two jobs of one kind: one after the other, both results arrive; when the second starts
    // while the first's result waits for delivery, only the second's is handed on.
    void handsOnTheNewestResultOnly_data() {
        QTest::addColumn<bool>("overlap");
        QTest::addColumn<QList<int>>("expected");
        QTest::newRow("one after the other") << false << QList<int>{1, 2};
        QTest::newRow("second started before the first delivered") << true << QList<int>{2};
    }
    void handsOnTheNewestResultOnly() {
        QFETCH(bool, overlap);
        QFETCH(QList<int>, expected);
        JobBoard board;
        QThreadPool pool;
        auto* job = board.add<int>();
        job->setThreadPool(&pool);
        QList<int> results;
        QList<JobOutcome> ends;
        board.onResult(job, [&](int v) { results << v; });
        board.onFinished(job, [&](JobOutcome o) { ends << o; });
        QSignalSpy finished(job, &JobRunnerBase::finished);
        board.startLatest(job, returns(1), QStringLiteral("first"));
        if (overlap) {
            // The first's work has returned; its result is not delivered yet (that needs the
            // event loop), so the second supersedes a job whose result is ready.
            QVERIFY(pool.waitForDone(30000));
            QVERIFY(job->isRunning());
        } else {
            QVERIFY(finished.wait(30000));
        }
        board.startLatest(job, returns(2), QStringLiteral("second"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30000);
        QCOMPARE(results, expected);
        QCOMPARE(ends, QList<JobOutcome>(expected.size(), JobOutcome::Done));
        QVERIFY(!board.isBusy());
    }

    // A superseded job that sees the cancel ends without a word; the queued one runs, is
    // shown as busy once it starts, and reports its end.
    void supersededJobEndsSilently() {
        JobBoard board;
        auto* job = board.add<int>();
        QList<int> results;
        QList<JobOutcome> ends;
        board.onResult(job, [&](int v) { results << v; });
        board.onFinished(job, [&](JobOutcome o) { ends << o; });
        QSignalSpy finished(job, &JobRunnerBase::finished);
        board.startLatest(job, spin, QStringLiteral("spinning"));
        QCOMPARE(board.busyText(), QStringLiteral("spinning"));
        board.startLatest(job, returns(7), QStringLiteral("seven"));
        QVERIFY(!board.isCurrent(job));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30000);
        QCOMPARE(finished.at(0).at(0).value<JobOutcome>(), JobOutcome::Canceled);
        QCOMPARE(results, QList<int>{7});
        QCOMPARE(ends, QList<JobOutcome>{JobOutcome::Done});
        QVERIFY(board.isCurrent(job));
        QVERIFY(!board.isBusy());
    }

    // cancelAll (the window closes) stops every kind of job, and a job queued behind a
    // superseded one never starts.
    void cancelAllStopsEveryJobAndTheQueue() {
        JobBoard board;
        auto* a = board.add<int>();
        auto* b = board.add<int>({.blocksFiles = false});
        QList<int> results;
        QList<JobOutcome> ends;
        board.onResult(b, [&](int v) { results << v; });
        board.onFinished(a, [&](JobOutcome o) { ends << o; });
        board.onFinished(b, [&](JobOutcome o) { ends << o; });
        QVERIFY(board.start(a, spin, QStringLiteral("a")));
        QVERIFY(!board.start(a, returns(3), QStringLiteral("a again")));  // a runs: refused
        board.startLatest(b, spin, QStringLiteral("b"));
        board.startLatest(b, returns(5), QStringLiteral("b, newer"));
        QCOMPARE(board.busyText(), QStringLiteral("b"));
        QVERIFY(board.blocksFiles());  // a does, b does not
        board.cancelAll();
        QTRY_VERIFY_WITH_TIMEOUT(!a->isRunning() && !b->isRunning(), 30000);
        QTest::qWait(20);  // nothing starts afterwards
        QVERIFY(!b->isRunning());
        QVERIFY(results.isEmpty());
        QCOMPARE(ends, QList<JobOutcome>{JobOutcome::Canceled});  // a's; b's was superseded
        QVERIFY(!board.isBusy());
        QVERIFY(!board.blocksFiles());
    }

    // A quiet job (a cluster study's periodic check) is not shown in the status bar and does
    // not hide the busy job the person started; its result still arrives.
    void quietJobStaysOutOfTheStatusBar() {
        JobBoard board;
        auto* loud = board.add<int>();
        auto* quiet = board.add<int>({.blocksFiles = false, .quiet = true});
        QList<int> results;
        board.onResult(quiet, [&](int v) { results << v; });
        QSignalSpy busy(&board, &JobBoard::busyChanged);
        QVERIFY(board.start(quiet, returns(7), QStringLiteral("checking")));
        QVERIFY(!board.isBusy());
        QVERIFY(board.start(loud, spin, QStringLiteral("reading")));
        QTRY_COMPARE_WITH_TIMEOUT(results, QList<int>{7}, 30000);
        QCOMPARE(board.busyText(), QStringLiteral("reading"));
        board.cancelAll();
        QTRY_VERIFY_WITH_TIMEOUT(!loud->isRunning(), 30000);
        QVERIFY(!board.isBusy());
    }
};

QTEST_MAIN(TstJobBoard)
#include "tst_job_board.moc"
