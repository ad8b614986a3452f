// The seeds derived from a user's seed (common/rng.hpp) keep their values: a run, sweep or
// simulation made with a seed gives the same bytes with every later build. The expected
// values were computed outside ppsynth from the formulas as they stood before the derivations
// moved into common/rng (FNV-1a of a name mixed by SplitMix64; nested stream seeds).
#include <QTest>
#include <cstdint>

#include "ppsynth/common/rng.hpp"

using namespace ppsynth;

class TestSeeds : public QObject {
    Q_OBJECT

  private slots:
    void derived_data() {
        QTest::addColumn<std::uint64_t>("actual");
        QTest::addColumn<std::uint64_t>("expected");
        QTest::newRow("draw choice of LW, seed 7")
            << drawChoiceSeed(7, "LW") << std::uint64_t{16900107563798052379ULL};
        QTest::newRow("draw choice of Unweighted, seed 7")
            << drawChoiceSeed(7, "Unweighted") << std::uint64_t{358948846185801291ULL};
        QTest::newRow("synthesis of LW, seed 5")
            << synthesisSeed(5, "LW") << std::uint64_t{655928562200588893ULL};
        QTest::newRow("utility of the confidential data, seed 7")
            << utilitySeed(7, "confidential data") << std::uint64_t{9440141523215898080ULL};
        QTest::newRow("replicate 5 of n = 200, simulation stream")
            << replicateSeed(2021, 200, 5, Purpose::Simulation)
            << std::uint64_t{10841888587996383487ULL};
        QTest::newRow("replicate 0 of n = 50, sampler stream")
            << replicateSeed(2021, 50, 0, Purpose::Sampler)
            << std::uint64_t{15279586361116011705ULL};
        QTest::newRow("first refit")
            << refitSeed(12345, 1) << std::uint64_t{18133564086679993456ULL};
        QTest::newRow("second refit")
            << refitSeed(12345, 2) << std::uint64_t{5886303152054975053ULL};
    }
    void derived() {
        QFETCH(std::uint64_t, actual);
        QFETCH(std::uint64_t, expected);
        QCOMPARE(actual, expected);
    }
};

QTEST_APPLESS_MAIN(TestSeeds)
#include "tst_seeds.moc"
