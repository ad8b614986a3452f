// Every error carries a kind (invalid input, cancelled, already exists, I/O, internal)
// besides its message, and the kind survives the ways errors travel: Status to Expected and
// back, and a message with more words in front. The producers set it: a file or folder in
// the way is AlreadyExists, a file that cannot be opened is Io, a stopped run is Cancelled,
// so callers decide on the kind and never on the message text.
#include <QTest>
#include <atomic>
#include <filesystem>
#include <fstream>

#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/sha256.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"
#include "test_files.hpp"

using namespace ppsynth;

Q_DECLARE_METATYPE(ppsynth::ErrorKind)

// Compares two kinds and names both on failure.
#define QCOMPARE_KIND(actual, expected) \
    QVERIFY2(                           \
        (actual) == (expected),         \
        (std::string("kind ") + toString(actual) + ", expected " + toString(expected)).c_str())

class TstErrors : public QObject {
    Q_OBJECT
  private slots:
    void factoriesSetTheKind_data() {
        QTest::addColumn<ErrorKind>("kind");
        QTest::addColumn<ErrorKind>("expected");
        QTest::newRow("plain Error{...}") << Error{"bad"}.kind << ErrorKind::InvalidInput;
        QTest::newRow("invalidInput") << Error::invalidInput("bad").kind << ErrorKind::InvalidInput;
        QTest::newRow("cancelled") << Error::cancelled().kind << ErrorKind::Cancelled;
        QTest::newRow("alreadyExists")
            << Error::alreadyExists("'x' already exists").kind << ErrorKind::AlreadyExists;
        QTest::newRow("io") << Error::io("could not write 'x'").kind << ErrorKind::Io;
        QTest::newRow("internal") << Error::internal("unreachable").kind << ErrorKind::Internal;
    }
    void factoriesSetTheKind() {
        QFETCH(ErrorKind, kind);
        QFETCH(ErrorKind, expected);
        QCOMPARE_KIND(kind, expected);
    }

    void kindSurvivesConversions_data() {
        QTest::addColumn<ErrorKind>("kind");
        for (auto k : {ErrorKind::InvalidInput, ErrorKind::Cancelled, ErrorKind::AlreadyExists,
                       ErrorKind::Io, ErrorKind::Internal})
            QTest::newRow(toString(k)) << k;
    }
    void kindSurvivesConversions() {
        QFETCH(ErrorKind, kind);
        const Error e{"the message", kind};
        const Status status = e;
        QVERIFY(!status);
        QCOMPARE_KIND(status.kind(), kind);
        QCOMPARE(status.message(), std::string("the message"));
        // Status -> Expected -> Status
        const Expected<int> expected = status.error();
        QVERIFY(!expected);
        QCOMPARE_KIND(expected.kind(), kind);
        QCOMPARE_KIND(expected.error().kind, kind);
        const Status back = expected.status();
        QCOMPARE_KIND(back.kind(), kind);
        QCOMPARE(back.message(), std::string("the message"));
        // Expected<T> -> Expected<U>, with context in front.
        const Expected<std::string> other = expected.error().prefixed("synthesizer 'LW': ");
        QCOMPARE_KIND(other.kind(), kind);
        QCOMPARE(other.message(), std::string("synthesizer 'LW': the message"));
        QVERIFY(Status::ok().isOk());
    }

    // A file or folder in the way is AlreadyExists, with the message as before; overwriting
    // allowed, it is no error.
    void somethingInTheWayIsAlreadyExists() {
        const auto dir = test::freshDir("tst_errors", "exists");
        const std::string file = (dir / "report.html").string();
        std::ofstream(file) << "x";
        const Status s = checkFileDestination(file, false);
        QVERIFY(!s);
        QCOMPARE_KIND(s.kind(), ErrorKind::AlreadyExists);
        QCOMPARE(s.message(),
                 "'" + file + "' already exists; choose another file or allow overwriting");
        QVERIFY(checkFileDestination(file, true));

        const std::string runDir = (dir / "run").string();
        std::filesystem::create_directories(runDir);
        std::ofstream(runDir + "/notes.txt") << "x";
        const Status r = study::checkRunDestination(runDir, false);
        QVERIFY(!r);
        QCOMPARE_KIND(r.kind(), ErrorKind::AlreadyExists);
        QVERIFY2(r.message().find("already exists") != std::string::npos, r.message().c_str());
    }

    // What cannot be opened is Io, through every layer that adds words in front.
    void unreadableFilesAreIo() {
        const std::string missing =
            (test::freshDir("tst_errors", "io") / "no-such-file.json").string();
        auto config = study::loadRunConfig(missing);
        QVERIFY(!config);
        QCOMPARE_KIND(config.kind(), ErrorKind::Io);
        auto hash = sha256FileHex(missing);
        QVERIFY(!hash);
        QCOMPARE_KIND(hash.kind(), ErrorKind::Io);
        // A configuration that is there but wrong is bad input, not I/O.
        const std::string bad = (test::freshDir("tst_errors", "io2") / "bad.json").string();
        std::ofstream(bad) << "{";
        auto parsed = study::loadRunConfig(bad);
        QVERIFY(!parsed);
        QCOMPARE_KIND(parsed.kind(), ErrorKind::InvalidInput);
    }

    // A run stopped on request is Cancelled, however deep the stop was noticed (here in the
    // sampler's chains, under the unweighted fit).
    void aStoppedRunIsCancelled() {
        auto c = study::parseRunConfig(R"({
          "data": {"path": "poisson.csv", "target": "y"},
          "model": {"family": "poisson"},
          "mcmc": {"chains": 2, "warmup": 50, "draws": 50, "seed": 3, "threads": 1},
          "synthesis": {"m": 2}, "risk": {"L": 2}, "utility": {"enabled": false},
          "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        QVERIFY2(c, c ? "" : c.message().c_str());
        const auto table = data::makeExample(data::ExampleId::Poisson);
        std::atomic<bool> cancel{true};
        study::RunOptions o;
        o.cancel = &cancel;
        auto r = study::runStudy(*c, table, o);
        QVERIFY(!r);
        QCOMPARE_KIND(r.kind(), ErrorKind::Cancelled);
    }
};

QTEST_APPLESS_MAIN(TstErrors)
#include "tst_errors.moc"
