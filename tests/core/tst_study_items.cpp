// Studies run item by item, one process per item as a cluster job array runs them: --plan
// lists every item and computes nothing, each item computed on its own (in any order, two
// at the same moment) gives the same item file as a single local run, and the folder then
// assembles the same curve and summaries byte for byte. A half-written or damaged item is
// never read back; an unplanned folder and items out of range are refused.
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/sweep.hpp"
#include "study_items_fixture.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

const char* kSweep = R"({
  "data": {"path": "poisson.csv", "target": "y"},
  "model": {"family": "poisson-means"},
  "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 5},
  "synthesis": {"m": 3}, "risk": {"L": 4}, "utility": {"bootstrap": 40},
  "sweep": {"points": [{"c": 0.7, "g": 0.0}, {"c": 0.5, "g": -0.3},
                       {"c": 1.0, "g": 0.0, "M": 3.5}]}})";

study::SweepConfig sweepConfig() {
    return *study::parseSweepConfig(kSweep, PPSYNTH_EXAMPLES_DIR);
}
const study::RunData& sweepData() {
    static const study::RunData d = *study::readRunData(sweepConfig().run);
    return d;
}

study::SimulateConfig simConfig() {
    return *study::parseSimulateConfig(R"({
      "model": "poisson", "sizes": [30, 80], "replicates": 6, "block_size": 2,
      "mcmc": {"draws": 120}, "seed": 13, "epsilon_grid": [4, 8, 12, 16]})");
}

nlohmann::json readJson(const fs::path& p) {
    return nlohmann::json::parse(test::slurp(p));
}

}  // namespace

class TstStudyItems : public QObject {
    Q_OBJECT
  private slots:
    void sweepPlanListsItemsAndComputesNothing() {
        const std::string dir = test::scratchDir("tst_items_sweep_plan");
        auto s = study::runSweep(sweepConfig(), sweepData(), dir, test::planOnly());
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : s.message().c_str());
        QCOMPARE(s->items, std::size_t{4});
        QVERIFY(s->rows.empty());
        const auto p = readJson(fs::path(dir) / "plan.json");
        QCOMPARE(p["kind"].get<std::string>(), std::string("sweep"));
        QCOMPARE(p["items"].size(), std::size_t{4});
        QCOMPARE(p["items"][0]["name"].get<std::string>(), std::string("unweighted"));
        QVERIFY(p["items"][0]["after"].empty());
        QCOMPARE(p["items"][3]["file"].get<std::string>(), std::string("items/point_3.json"));
        QVERIFY(p["items"][3]["after"] == nlohmann::json::array({0}));
        QVERIFY(fs::exists(fs::path(dir) / "config.json"));
        QVERIFY(fs::is_empty(fs::path(dir) / "items"));
        QVERIFY(!fs::exists(fs::path(dir) / "sweep.csv"));
    }
    void sweepItemsOneByOneMatchALocalRun() {
        const std::string local = test::scratchDir("tst_items_sweep_local");
        const std::string split = test::scratchDir("tst_items_sweep_split");
        QVERIFY(study::runSweep(sweepConfig(), sweepData(), local).hasValue());
        QVERIFY(study::runSweep(sweepConfig(), sweepData(), split, test::planOnly()).hasValue());
        // Item 0 (the shared unweighted fit) first, then the points out of order, each as its
        // own call (loading item 0's fit), as array tasks run.
        for (std::size_t i : {0u, 3u, 1u, 2u}) {
            auto r = study::runSweep(sweepConfig(), sweepData(), split, test::itemRange(i, i));
            QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
            QCOMPARE(r->pointsRun, std::size_t{1});
            QVERIFY(r->rows.empty());
            QVERIFY(!fs::exists(fs::path(split) / "sweep.csv"));
        }
        for (const char* item : {"unweighted", "point_1", "point_2", "point_3"}) {
            const std::string file = std::string("items/") + item + ".json";
            QCOMPARE(test::sweepItemWithoutSeconds(test::slurp(fs::path(split) / file)),
                     test::sweepItemWithoutSeconds(test::slurp(fs::path(local) / file)));
        }
        auto assembled = study::runSweep(sweepConfig(), sweepData(), split);
        QVERIFY(assembled.hasValue());
        QCOMPARE(assembled->pointsRun, std::size_t{0});
        QCOMPARE(assembled->preparedSeconds, 0.0);  // nothing fitted to assemble
        QCOMPARE(test::slurp(fs::path(split) / "sweep.csv"),
                 test::slurp(fs::path(local) / "sweep.csv"));
        QCOMPARE(test::slurp(fs::path(split) / "config.json"),
                 test::slurp(fs::path(local) / "config.json"));
    }
    void simulationItemsOneByOneMatchALocalRunByteForByte() {
        const std::string local = test::scratchDir("tst_items_sim_local");
        const std::string split = test::scratchDir("tst_items_sim_split");
        QVERIFY(study::runSimulation(simConfig(), local).hasValue());
        auto planned = study::runSimulation(simConfig(), split, test::planOnly());
        QVERIFY(planned.hasValue());
        QCOMPARE(planned->items, std::size_t{6});
        QVERIFY(fs::is_empty(fs::path(split) / "items"));
        QVERIFY(study::runSimulation(simConfig(), split, test::itemRange(4, 5)).hasValue());
        QVERIFY(study::runSimulation(simConfig(), split, test::itemRange(0, 0)).hasValue());
        QVERIFY(study::runSimulation(simConfig(), split, test::itemRange(1, 3)).hasValue());
        QCOMPARE(test::filesUnder(fs::path(split) / "items"),
                 test::filesUnder(fs::path(local) / "items"));
        for (const auto& f : test::filesUnder(fs::path(local) / "items"))
            QCOMPARE(test::slurp(fs::path(split) / "items" / f),
                     test::slurp(fs::path(local) / "items" / f));
        auto assembled = study::runSimulation(simConfig(), split);
        QVERIFY(assembled.hasValue());
        QCOMPARE(assembled->blocksRun, std::size_t{0});
        for (const char* f : {"replicates.csv", "distribution.csv", "delta_hat.csv"})
            QCOMPARE(test::slurp(fs::path(split) / f), test::slurp(fs::path(local) / f));
    }
    void twoItemsWrittenAtTheSameMoment() {
        const std::string dir = test::scratchDir("tst_items_sim_concurrent");
        const std::string local = test::scratchDir("tst_items_sim_concurrent_local");
        QVERIFY(study::runSimulation(simConfig(), local).hasValue());
        QVERIFY(study::runSimulation(simConfig(), dir, test::planOnly()).hasValue());
        // Two writers of different items and two of the same item, all at once.
        std::vector<std::thread> writers;
        std::vector<int> ok(4, 0);
        const std::size_t which[4] = {2, 3, 3, 0};
        for (int k = 0; k < 4; ++k)
            writers.emplace_back([&, k] {
                ok[static_cast<std::size_t>(k)] =
                    study::runSimulation(simConfig(), dir, test::itemRange(which[k], which[k]))
                        .hasValue();
            });
        for (auto& t : writers) t.join();
        QCOMPARE(ok, std::vector<int>(4, 1));
        for (const char* f : {"n30_r0.json", "n30_r4.json", "n80_r0.json"})
            QCOMPARE(test::slurp(fs::path(dir) / "items" / f),
                     test::slurp(fs::path(local) / "items" / f));
        // No temporary file is left behind.
        for (const auto& f : test::filesUnder(dir))
            QVERIFY2(f.find(".tmp-") == std::string::npos, f.c_str());
    }
    void halfWrittenOrDamagedItemIsNeverReadBack() {
        const std::string dir = test::scratchDir("tst_items_sim_damaged");
        const std::string local = test::scratchDir("tst_items_sim_damaged_local");
        QVERIFY(study::runSimulation(simConfig(), local).hasValue());
        QVERIFY(study::runSimulation(simConfig(), dir, test::planOnly()).hasValue());
        const fs::path items0 = fs::path(dir) / "items";
        const std::string good = test::slurp(fs::path(local) / "items" / "n30_r0.json");
        // A killed writer leaves its temporary; a damaged file is cut in the middle.
        std::ofstream(items0 / "n30_r0.json.tmp-node7-123-0") << good.substr(0, good.size() / 2);
        std::ofstream(items0 / "n30_r2.json") << good.substr(0, good.size() / 2);
        auto r = study::runSimulation(simConfig(), dir, test::itemRange(0, 1));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        QCOMPARE(r->blocksRun, std::size_t{2});  // the damaged one is computed again
        QCOMPARE(test::slurp(items0 / "n30_r0.json"), good);
        QCOMPARE(test::slurp(items0 / "n30_r2.json"),
                 test::slurp(fs::path(local) / "items" / "n30_r2.json"));
    }
    void unplannedFolderAndBadRangesAreRefused_data() {
        QTest::addColumn<bool>("planFirst");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::addColumn<QString>("message");
        QTest::newRow("no plan") << false << 0 << 0 << "run the same command with --plan";
        QTest::newRow("past the end") << true << 5 << 6 << "it has 6 items (blocks), 0 to 5";
        QTest::newRow("reversed") << true << 3 << 1 << "items 3-1 are not in this simulation";
    }
    void unplannedFolderAndBadRangesAreRefused() {
        QFETCH(bool, planFirst);
        QFETCH(int, first);
        QFETCH(int, last);
        QFETCH(QString, message);
        const std::string dir = test::scratchDir("tst_items_refused");
        if (planFirst) QVERIFY(study::runSimulation(simConfig(), dir, test::planOnly()).hasValue());
        auto r = study::runSimulation(
            simConfig(), dir,
            test::itemRange(static_cast<std::size_t>(first), static_cast<std::size_t>(last)));
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find(message.toStdString()) != std::string::npos, r.message().c_str());
        if (!planFirst) QVERIFY(!fs::exists(fs::path(dir) / "config.json"));
    }
    void sweepItemOutOfRangeNamesTheItems() {
        const std::string dir = test::scratchDir("tst_items_sweep_range");
        QVERIFY(study::runSweep(sweepConfig(), sweepData(), dir, test::planOnly()).hasValue());
        auto r = study::runSweep(sweepConfig(), sweepData(), dir, test::itemRange(4, 4));
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("4 items, 0 (the unweighted fit) to 3") != std::string::npos,
                 r.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TstStudyItems)
#include "tst_study_items.moc"
