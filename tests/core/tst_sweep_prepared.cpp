// A sweep's shared unweighted fit is its item 0: item 0 saves what the grid points share
// (items/unweighted.prepared, exact), a process computing points loads it instead of
// refitting and gives the same point files as a local run (also with NUTS warm starts); a
// point before item 0 is refused, and so is a prepared file that is truncated, altered, of
// another format or of another configuration (never read back). The file's encoding keeps
// every double exactly (NaN, infinities, -0, subnormals) and the random stream's state.
#include <QTest>
#include <bit>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "ppsynth/common/sha256.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/sweep.hpp"
#include "study/prepared_file.hpp"
#include "study_items_fixture.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

// The conjugate Poisson sweep of tst_study_items (exact draws, no warm starts), with `seed`.
std::string poissonSweep(int seed = 5) {
    return R"({"data": {"path": "poisson.csv", "target": "y"},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": )" +
           std::to_string(seed) + R"(},
      "synthesis": {"m": 3}, "risk": {"L": 4}, "utility": {"bootstrap": 40},
      "sweep": {"points": [{"c": 0.7, "g": 0.0}, {"c": 0.5, "g": -0.3},
                           {"c": 1.0, "g": 0.0, "M": 3.5}]}})";
}

// The normal model with NUTS (the points' refits start from the unweighted chains' ends),
// a point with its own IR radius and one with re-weighting.
const char* kNutsSweep = R"({"data": {"path": "income_survey.csv", "target": "income",
      "predictors": ["gender", "age"], "transform": "log-shift"},
      "model": {"family": "normal"},
      "mcmc": {"chains": 2, "warmup": 60, "draws": 60, "seed": 11},
      "synthesis": {"m": 2}, "risk": {"radius": 0.2, "radius_mode": "percentage", "L": 3},
      "sweep": {"points": [{"c": 0.7, "g": 0.0, "r": 0.1}, {"c": 0.5, "g": 0.0, "k": 0.5}],
                "tolerance": 0.1}})";

struct Sweep {
    study::SweepConfig config;
    study::RunData data;
};

Sweep sweepOf(const std::string& text) {
    auto c = study::parseSweepConfig(text, PPSYNTH_EXAMPLES_DIR);
    if (!c) qFatal("%s", c.message().c_str());
    auto d = study::readRunData(c->run);
    if (!d) qFatal("%s", d.message().c_str());
    return {std::move(*c), std::move(*d)};
}

const Sweep& poisson() {
    static const Sweep s = sweepOf(poissonSweep());
    return s;
}

std::string message(const Expected<study::SweepSummary>& r) {
    return r ? std::string() : r.message();
}

// The file with its header line `key value` replaced and its checksum made right again: an
// intact file that says something else.
std::string withHeader(const std::string& file, const std::string& key, const std::string& value) {
    const std::size_t at = file.find("\n" + key + " ") + 1;
    const std::size_t end = file.find('\n', at);
    std::string body = file.substr(0, file.size() - 72);  // "sha256 <64>\n"
    body.replace(at, end - at, key + " " + value);
    return body + "sha256 " + sha256Hex(body) + "\n";
}

bool sameBits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

}  // namespace

class TstSweepPrepared : public QObject {
    Q_OBJECT
    std::string poissonPlanned_;  // item 0 computed, no point

  private slots:
    void initTestCase() {
        poissonPlanned_ = test::scratchDir("tst_prepared_poisson");
        QVERIFY(
            study::runSweep(poisson().config, poisson().data, poissonPlanned_, test::planOnly()));
        auto zero = study::runSweep(poisson().config, poisson().data, poissonPlanned_,
                                    test::itemRange(0, 0));
        QVERIFY2(zero, message(zero).c_str());
        QVERIFY(!zero->preparedLoaded);  // item 0 fits it
        QVERIFY(fs::is_regular_file(fs::path(poissonPlanned_) / "items" / "unweighted.prepared"));
    }

    void pointBeforeItemZeroIsRefused() {
        const std::string dir = test::scratchDir("tst_prepared_no_item0");
        QVERIFY(study::runSweep(poisson().config, poisson().data, dir, test::planOnly()));
        auto r = study::runSweep(poisson().config, poisson().data, dir, test::itemRange(2, 3));
        QVERIFY(!r);
        for (const std::string& part :
             {std::string("items 2-3 need the sweep's shared unweighted fit"),
              (fs::path(dir) / "items" / "unweighted.prepared").string(),
              std::string("compute item 0 first")})
            QVERIFY2(r.message().find(part) != std::string::npos, r.message().c_str());
        QVERIFY(test::filesUnder(fs::path(dir) / "items").empty());  // nothing computed
    }

    // Item 0 once, then the points in other processes (calls) load its file: the same point
    // files as a local run, and the same prepared file.
    void pointsLoadItemZerosFitAndMatchALocalRun_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("points");
        QTest::newRow("conjugate poisson") << QString::fromStdString(poissonSweep()) << 3;
        QTest::newRow("normal, NUTS warm starts") << QString(kNutsSweep) << 2;
    }
    void pointsLoadItemZerosFitAndMatchALocalRun() {
        QFETCH(QString, config);
        QFETCH(int, points);
        const Sweep s = sweepOf(config.toStdString());
        const std::string tag = QTest::currentDataTag();
        const std::string local = test::scratchDir("tst_prepared_local_" + tag);
        const std::string split = test::scratchDir("tst_prepared_split_" + tag);
        QVERIFY(study::runSweep(s.config, s.data, local));
        QVERIFY(study::runSweep(s.config, s.data, split, test::planOnly()));
        auto zero = study::runSweep(s.config, s.data, split, test::itemRange(0, 0));
        QVERIFY2(zero, message(zero).c_str());
        for (int i = points; i >= 1; --i) {
            const auto k = static_cast<std::size_t>(i);
            auto r = study::runSweep(s.config, s.data, split, test::itemRange(k, k));
            QVERIFY2(r, message(r).c_str());
            QVERIFY(r->preparedLoaded);  // read, not refitted
            QCOMPARE(r->pointsRun, std::size_t{1});
        }
        QCOMPARE(test::filesUnder(fs::path(split) / "items"),
                 test::filesUnder(fs::path(local) / "items"));
        for (const auto& f : test::filesUnder(fs::path(local) / "items")) {
            const std::string a = test::slurp(fs::path(split) / "items" / f);
            const std::string b = test::slurp(fs::path(local) / "items" / f);
            if (f.ends_with(".json"))
                QCOMPARE(test::sweepItemWithoutSeconds(a), test::sweepItemWithoutSeconds(b));
            else
                QVERIFY2(a == b, f.c_str());  // the prepared file: no timings, byte for byte
        }
        auto assembled = study::runSweep(s.config, s.data, split);
        QVERIFY(assembled);
        QCOMPARE(test::slurp(fs::path(split) / "sweep.csv"),
                 test::slurp(fs::path(local) / "sweep.csv"));
    }

    void damagedOrForeignPreparedFileIsRefused_data() {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << "empty"
                               << "is not a prepared sweep state";
        QTest::newRow("not ours") << "json"
                                  << "is not a prepared sweep state";
        QTest::newRow("cut in the middle") << "half"
                                           << "checksum line is missing";
        QTest::newRow("last byte missing") << "last"
                                           << "checksum line is missing";
        QTest::newRow("a payload byte altered") << "flip"
                                                << "SHA-256 does not match";
        QTest::newRow("the checksum altered") << "sum"
                                              << "SHA-256 does not match";
        QTest::newRow("another format") << "format"
                                        << "format 2 of another ppsynth version";
        QTest::newRow("another configuration") << "other"
                                               << "another configuration";
        QTest::newRow("header edited, checksum redone") << "length"
                                                        << "payload of";
    }
    void damagedOrForeignPreparedFileIsRefused() {
        QFETCH(QString, damage);
        QFETCH(QString, expected);
        const std::string dir = test::scratchDir("tst_prepared_damaged");
        fs::copy(poissonPlanned_, dir, fs::copy_options::recursive);
        const fs::path file = fs::path(dir) / "items" / "unweighted.prepared";
        const std::string good = test::slurp(file);
        std::string bad;
        if (damage == "empty") {
        } else if (damage == "json") {
            bad = R"({"rows": []})";
        } else if (damage == "half") {
            bad = good.substr(0, good.size() / 2);
        } else if (damage == "last") {
            bad = good.substr(0, good.size() - 1);
        } else if (damage == "flip") {
            bad = good;
            bad[good.size() / 2] = static_cast<char>(bad[good.size() / 2] ^ 0x10);
        } else if (damage == "sum") {
            bad = good;
            bad[good.size() - 2] = bad[good.size() - 2] == '0' ? '1' : '0';
        } else if (damage == "format") {
            bad = withHeader(good, "format", "2");
        } else if (damage == "other") {
            // Item 0 of the same sweep with another seed.
            const Sweep other = sweepOf(poissonSweep(6));
            const std::string o = test::scratchDir("tst_prepared_other");
            QVERIFY(study::runSweep(other.config, other.data, o, test::planOnly()));
            QVERIFY(study::runSweep(other.config, other.data, o, test::itemRange(0, 0)));
            bad = test::slurp(fs::path(o) / "items" / "unweighted.prepared");
        } else if (damage == "length") {
            bad = withHeader(good, "payload-bytes", "12");
        }
        std::ofstream(file, std::ios::binary | std::ios::trunc) << bad;
        auto r = study::runSweep(poisson().config, poisson().data, dir, test::itemRange(1, 3));
        QVERIFY(!r);
        QVERIFY2(r.message().find(expected.toStdString()) != std::string::npos,
                 r.message().c_str());
        QVERIFY2(r.message().find(file.string()) != std::string::npos, r.message().c_str());
        QVERIFY2(
            r.message().find("compute the sweep's item 0 again (`--item 0`)") != std::string::npos,
            r.message().c_str());
        // Nothing computed from it, and the file is left for a person to look at.
        QCOMPARE(test::filesUnder(fs::path(dir) / "items"),
                 (std::vector<std::string>{"unweighted.json", "unweighted.prepared"}));
        QCOMPARE(test::slurp(file), bad);
        // Item 0 again writes a good file, and the points then run.
        fs::remove(file);
        QVERIFY(study::runSweep(poisson().config, poisson().data, dir, test::itemRange(0, 0)));
        QCOMPARE(test::slurp(file), good);
        auto again = study::runSweep(poisson().config, poisson().data, dir, test::itemRange(1, 3));
        QVERIFY2(again, message(again).c_str());
        QVERIFY(again->preparedLoaded);
    }

    // Every double as its bits (NaN, infinities, -0, subnormals), the engine's state exactly.
    void encodingIsExact() {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        const double tiny = std::numeric_limits<double>::denorm_min();
        study::detail::SharedUnweighted s;
        s.f = Eigen::Vector4d(0.1, -0.0, inf, tiny);
        s.deltaX = 1.0 / 3.0;
        s.nonFinite = {0, 0, 1, 0};
        s.fAgreement = privacy::FAgreement{nan, 0.25};
        mcmc::ChainStart c;
        c.q = Eigen::Vector2d(-inf, std::numeric_limits<double>::max());
        c.stepSize = 0.123456789012345678;
        c.invMetric = Eigen::Vector2d(1e-300, 2.5);
        c.replicas = {Eigen::Vector2d(1.0, 2.0), Eigen::Vector2d(3.0, nan)};
        c.ladder = {1.0, 0.5};
        Rng rng(42);
        rng.discard(1000);
        c.rng = rng;
        c.swapParity = 1;
        s.warmStarts = {c, mcmc::ChainStart{}};
        s.synthetic = {{1, 2, 3, 4}, {5.5, -6, 7e200, nan}};
        s.ir = {0, 0.5, 1, nan};
        s.parameters = {{"beta[age]", 0.1, 0.2, -1e-10, 0.3, 0.4}};
        const std::string sha = std::string(64, 'a');
        const std::string bytes = study::detail::encodeShared(s, sha);
        QVERIFY(bytes.starts_with("ppsynth prepared study\nformat 1\nconfig-sha256 " + sha));
        auto d = study::detail::decodeShared(bytes, sha, "x.prepared");
        QVERIFY2(d, d ? "" : d.message().c_str());
        QCOMPARE(d->f.size(), s.f.size());
        for (Eigen::Index i = 0; i < s.f.size(); ++i) QVERIFY(sameBits(d->f[i], s.f[i]));
        QVERIFY(sameBits(d->deltaX, s.deltaX));
        QCOMPARE(d->nonFinite, s.nonFinite);
        QVERIFY(d->fAgreement && std::isnan(d->fAgreement->rankCorrelation));
        QCOMPARE(d->fAgreement->medianRelativeDifference, 0.25);
        QCOMPARE(d->warmStarts.size(), std::size_t{2});
        const auto& e = d->warmStarts[0];
        QVERIFY(sameBits(e.q[0], c.q[0]) && sameBits(e.q[1], c.q[1]));
        QVERIFY(sameBits(e.stepSize, c.stepSize));
        QVERIFY(sameBits(e.invMetric[0], c.invMetric[0]));
        QCOMPARE(e.replicas.size(), std::size_t{2});
        QVERIFY(sameBits(e.replicas[1][1], nan));
        QCOMPARE(e.ladder, c.ladder);
        QVERIFY(e.rng.has_value());
        QVERIFY(*e.rng == *c.rng);
        Rng continued = *e.rng;
        QCOMPARE(continued(), rng());  // the stream continues where it was
        QCOMPARE(e.swapParity, 1);
        QVERIFY(!d->warmStarts[1].rng && d->warmStarts[1].q.size() == 0);
        QCOMPARE(d->synthetic.size(), std::size_t{2});
        for (std::size_t i = 0; i < 4; ++i) {
            QVERIFY(sameBits(d->synthetic[1][i], s.synthetic[1][i]));
            QVERIFY(sameBits(d->ir[i], s.ir[i]));
        }
        QCOMPARE(d->parameters.size(), std::size_t{1});
        QCOMPARE(d->parameters[0].name, std::string("beta[age]"));
        QVERIFY(sameBits(d->parameters[0].q05, -1e-10));
        // The same state encodes to the same bytes (items of two processes are identical).
        QCOMPARE(study::detail::encodeShared(*d, sha), bytes);
        // Any single byte cut off is refused.
        for (std::size_t n = 0; n < bytes.size(); n += 7)
            QVERIFY(!study::detail::decodeShared(std::string_view(bytes).substr(0, n), sha, "x"));
    }
};

QTEST_GUILESS_MAIN(TstSweepPrepared)
#include "tst_sweep_prepared.moc"
