// The risk-utility sweep on the poisson example with the conjugate model (exact draws, so
// every fit takes milliseconds): configuration errors, epsilon accounting per row, the
// shared unweighted fit giving the same numbers as separate runs, thread-count invariance,
// resume after interruption and refusal of another configuration's, data file's or engine's
// folder.
#include <QTest>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/sweep.hpp"
#include "test_files.hpp"

using namespace ppsynth;

namespace {

std::string outDir(const std::string& name) {
    return test::scratchDir("tst_sweep_" + name);
}

const char* kConfig = R"({
  "data": {"path": "poisson.csv", "target": "y"},
  "model": {"family": "poisson-means"},
  "mcmc": {"chains": 2, "warmup": 0, "draws": 400, "seed": 3},
  "synthesis": {"m": 4}, "risk": {"L": 4}, "utility": {"bootstrap": 60},
  "sweep": {"points": [{"c": 0.7, "g": 0.0}, {"c": 0.5, "g": -0.3},
                       {"c": 1.0, "g": 0.0, "M": 3.5}, {"c": 0.7, "g": 0.0, "k": 0.95},
                       {"c": 0.6, "g": 0.0, "r": 0.05}]}})";

study::SweepConfig config(int threads = 2) {
    auto c = study::parseSweepConfig(kConfig, PPSYNTH_EXAMPLES_DIR);
    c->threads = threads;
    return *c;
}

// The bundled poisson.csv, read as the CLI reads a sweep's data (with its SHA-256).
const study::RunData& input() {
    static const study::RunData d = *study::readRunData(config().run);
    return d;
}
const data::Table& table() {
    return input().table;
}

const study::SweepRow* find(const study::SweepSummary& s, int point, const std::string& mech) {
    for (const auto& r : s.rows)
        if (r.point == point && r.mechanism == mech) return &r;
    return nullptr;
}

}  // namespace

// `field` is not its default in `set` and came back equal in `back`: a text round trip alone
// cannot notice a field that the writer and the reader both leave out.
#define QCOMPARE_SET_FIELD(back, set, defaults, field)                              \
    do {                                                                            \
        QVERIFY2(!((set).field == (defaults).field), "still the default: " #field); \
        QVERIFY2((back).field == (set).field, "lost in the round trip: " #field);   \
    } while (false)

class TstSweep : public QObject {
    Q_OBJECT
  private slots:
    void defaultGridIsTheCeStudy() {
        auto c = study::parseSweepConfig(R"({"data": {"path": "x.csv", "target": "y"}})");
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        QCOMPARE(c->points.size(), std::size_t{6});
        QCOMPARE(c->points[2].c, 0.6);
        QCOMPARE(c->points[2].g, -0.1);
        QCOMPARE(c->points[5].g, -0.3);
        // Sweep-level M, k and r apply to every default point.
        auto d = study::parseSweepConfig(
            R"({"data": {"path": "x.csv", "target": "y"}, "sweep": {"M": 4, "k": "auto", "r": 0.1}})");
        QVERIFY(d.hasValue());
        QCOMPARE(*d->points[3].M, 4.0);
        QVERIFY(d->points[3].kAuto);
        QCOMPARE(*d->points[3].r, 0.1);
        // Canonical JSON parses back to itself.
        auto again = study::parseSweepConfig(study::toJson(*d));
        QVERIFY2(again.hasValue(), again.hasValue() ? "" : again.message().c_str());
        QCOMPARE(study::toJson(*again), study::toJson(*d));
    }
    void everyFieldRoundTrips() {
        const study::SweepConfig defaults;
        study::SweepConfig set;
        set.run.data.path = "d.csv";
        set.run.data.target = "y";
        set.run.data.referenceLevels = {{"age", "65+"}};
        set.run.data.maxLevels = 7;
        set.run.mcmc.seed = 42;
        set.run.mcmc.threads = 5;
        study::SweepPoint fixed;
        fixed.c = 0.4;
        fixed.g = -0.2;
        fixed.M = 3.0;
        fixed.k = 0.9;
        fixed.r = 0.05;
        study::SweepPoint searched;
        searched.kAuto = true;
        study::SweepPoint target;
        target.targetEpsilon = 4.0;
        set.points = {fixed, searched, target};
        set.tolerance = 0.05;
        set.threads = 3;
        auto parsed = study::parseSweepConfig(study::toJson(set));
        QVERIFY2(parsed.hasValue(), parsed.hasValue() ? "" : parsed.message().c_str());
        const auto& back = *parsed;
        QCOMPARE_SET_FIELD(back, set, defaults, run.data.path);
        QCOMPARE_SET_FIELD(back, set, defaults, run.data.referenceLevels);
        QCOMPARE_SET_FIELD(back, set, defaults, run.data.maxLevels);
        QCOMPARE_SET_FIELD(back, set, defaults, run.mcmc.seed);
        QCOMPARE_SET_FIELD(back, set, defaults, run.mcmc.threads);
        QCOMPARE_SET_FIELD(back, set, defaults, tolerance);
        QCOMPARE_SET_FIELD(back, set, defaults, threads);
        QCOMPARE(back.points.size(), std::size_t{3});
        const study::SweepPoint none;
        QCOMPARE_SET_FIELD(back.points[0], fixed, none, c);
        QCOMPARE_SET_FIELD(back.points[0], fixed, none, g);
        QCOMPARE_SET_FIELD(back.points[0], fixed, none, M);
        QCOMPARE_SET_FIELD(back.points[0], fixed, none, k);
        QCOMPARE_SET_FIELD(back.points[0], fixed, none, r);
        QCOMPARE_SET_FIELD(back.points[1], searched, none, kAuto);
        QCOMPARE_SET_FIELD(back.points[2], target, none, targetEpsilon);
    }
    void configErrors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const QString data = R"("data": {"path": "x.csv", "target": "y"})";
        QTest::newRow("no data") << R"({"sweep": {}})"
                                 << "needs a 'data' section";
        QTest::newRow("unknown top") << "{" + data + R"(, "swep": {}})"
                                     << "unknown key 'swep'";
        QTest::newRow("unknown sweep key") << "{" + data + R"(, "sweep": {"grid": []}})"
                                           << "sweep: unknown key 'grid'";
        QTest::newRow("unknown point key")
            << "{" + data + R"(, "sweep": {"points": [{"c": 1, "h": 0}]}})"
            << "sweep.points[0]: unknown key 'h'";
        QTest::newRow("bad k") << "{" + data + R"(, "sweep": {"points": [{"k": 1.5}]}})"
                               << "'k' must be a number in (0, 1]";
        QTest::newRow("bad M") << "{" + data + R"(, "sweep": {"M": -1}})"
                               << "'M' must be positive";
        QTest::newRow("empty grid") << "{" + data + R"(, "sweep": {"points": []}})"
                                    << "non-empty list";
        QTest::newRow("tolerance") << "{" + data + R"(, "sweep": {"tolerance": 0}})"
                                   << "'tolerance' must be in (0, 1)";
        QTest::newRow("run section") << "{" + data + R"(, "mcmc": {"chain": 2}})"
                                     << "mcmc: unknown key 'chain'";
        QTest::newRow("key twice in a point")
            << "{" + data + R"(, "sweep": {"points": [{"c": 1}, {"c": 0.7, "g": 0, "c": 0.5}]}})"
            << "sweep.points[1]: key 'c' appears twice";
        QTest::newRow("sweep twice") << "{" + data + R"(, "sweep": {}, "sweep": {"M": 2}})"
                                     << "configuration: key 'sweep' appears twice";
        QTest::newRow("targets and points")
            << "{" + data + R"(, "sweep": {"target_epsilons": [1], "points": [{"c": 1}]}})"
            << "give either 'points' or 'target_epsilons', not both";
        QTest::newRow("targets not numbers")
            << "{" + data + R"(, "sweep": {"target_epsilons": ["5"]}})"
            << "'target_epsilons' must be a non-empty list of numbers";
        QTest::newRow("target 0") << "{" + data + R"(, "sweep": {"target_epsilons": [2, 0]}})"
                                  << "'target_epsilons' must all be positive";
        QTest::newRow("target with k")
            << "{" + data + R"(, "sweep": {"target_epsilons": [2], "k": 0.9}})"
            << "'k' (re-weighting) and 'target_epsilon' do not combine";
        QTest::newRow("c without a grid") << "{" + data + R"(, "sweep": {"c": 0.6}})"
                                          << "'c' and 'g' at the sweep's level are defaults";
        QTest::newRow("mcmc key out of range") << "{" + data + R"(, "mcmc": {"thin": 0}})"
                                               << "mcmc: 'thin' is 0 but must be at least 1";
    }
    void configErrors() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        auto c = study::parseSweepConfig(json.toStdString());
        QVERIFY(!c.hasValue());
        QVERIFY2(c.message().find(message.toStdString()) != std::string::npos, c.message().c_str());
    }
    void rowsPerPointAndMechanism() {
        const std::string dir = outDir("rows");
        auto s = study::runSweep(config(), input(), dir);
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : s.message().c_str());
        // Unweighted reference + 2 rows per point + LW_final at the k point.
        QCOMPARE(s->rows.size(), std::size_t{1 + 5 * 2 + 1});
        const auto* u = find(*s, 0, "Unweighted");
        QVERIFY(u);
        QCOMPARE(u->deltaAlphaX, u->deltaX);
        for (const auto& r : s->rows) {
            // One shared unweighted fit: every row reports the same Delta_x.
            QCOMPARE(r.deltaX, u->deltaX);
            QCOMPARE(r.epsilon, 2 * r.deltaAlphaX);
            QCOMPARE(r.epsilonTotal, 4 * r.epsilon);
            QVERIFY(r.ir.mean >= 0 && r.ir.max <= 1);
            // Utility columns come from the row's report (bootstrap B = 60 here).
            QVERIFY2(r.utility.has_value(), r.utilityError.c_str());
            QCOMPARE(r.utility->bootstrap, 60);
            QVERIFY(r.q90CiOverlap <= 1 && std::isfinite(r.q90CiOverlap));
            QVERIFY(r.q90RelError >= 0 && r.meanRelError >= 0);
            QVERIFY(r.Um > 0 && r.Um <= 1);
            QVERIFY(std::isfinite(r.pmse));
            const auto* q90 = &r.utility->statistics.back();
            QVERIFY(q90->statistic == utility::Statistic::quantile(0.9));
            QCOMPARE(r.q90RelError, std::abs(q90->synthetic.estimate - q90->original.estimate) /
                                        q90->original.estimate);
        }
        // The EM at every point is matched to the LW (or LW_final) epsilon within 2%.
        for (int p = 1; p <= 5; ++p) {
            const auto* em = find(*s, p, "EM");
            const auto* lw = p == 4 ? find(*s, p, "LW_final") : find(*s, p, p == 3 ? "LW-M" : "LW");
            QVERIFY(em && lw);
            QVERIFY2(std::abs(em->epsilon - lw->epsilon) <= 0.02 * lw->epsilon,
                     (std::to_string(em->epsilon) + " vs " + std::to_string(lw->epsilon)).c_str());
            QVERIFY(em->scalarWeight > 0 && em->scalarWeight < 1);
        }
        // More shrinking and shifting gives a smaller bound (paper 000 Table 2's direction).
        QVERIFY(find(*s, 2, "LW")->deltaAlphaX < find(*s, 1, "LW")->deltaAlphaX);
        QVERIFY(find(*s, 2, "LW")->weights.mean < find(*s, 1, "LW")->weights.mean);
        // Re-weighting keeps the bound within tolerance of its base.
        QVERIFY(find(*s, 4, "LW_final")->deltaAlphaX <= 1.02 * find(*s, 4, "LW")->deltaAlphaX);
        QCOMPARE(find(*s, 4, "LW_final")->k, 0.95);
        const auto csv = test::slurp(dir + "/sweep.csv");
        QVERIFY(csv.find("point,c,g,M,k_setting,r,mechanism") == 0);
        QVERIFY(csv.find("whack_a_mole,q90_ci_overlap,q90_rel_error,mean_ci_overlap,"
                         "mean_rel_error,U_m,pmse,s_pmse,target_epsilon\n") != std::string::npos);
    }

    // The grid over target epsilon (METHOD.md 8 with 3.10): at every target, LW scaled to it
    // and the EM at it, two curves over the same epsilons; a target above LW's own epsilon is
    // kept at scale 1 and said (its epsilon stays below the target).
    void targetEpsilonGridGivesBothCurves() {
        const std::vector<double> targets{0.3, 0.6, 1.2, 50};
        auto c = study::parseSweepConfig(R"({
          "data": {"path": "poisson.csv", "target": "y"},
          "model": {"family": "poisson-means"},
          "mcmc": {"chains": 2, "warmup": 0, "draws": 400, "seed": 3},
          "synthesis": {"m": 4}, "risk": {"L": 4}, "utility": {"bootstrap": 60},
          "sweep": {"target_epsilons": [0.3, 0.6, 1.2, 50], "c": 0.7}})",
                                         PPSYNTH_EXAMPLES_DIR);
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        QCOMPARE(c->points.size(), targets.size());
        const std::string dir = outDir("targets");
        auto s = study::runSweep(*c, input(), dir);
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : s.message().c_str());
        QCOMPARE(s->rows.size(), std::size_t{1 + 2 * targets.size()});
        for (int p = 1; p <= static_cast<int>(targets.size()); ++p) {
            const double target = targets[static_cast<std::size_t>(p - 1)];
            const auto* lw = find(*s, p, "LW-scaled");
            const auto* em = find(*s, p, "EM");
            QVERIFY(lw && em);
            QCOMPARE(*lw->knobs.targetEpsilon, target);
            QCOMPARE(lw->knobs.c, 0.7);
            QVERIFY(lw->scalarWeight > 0 && lw->scalarWeight <= 1);
            QVERIFY(lw->utility.has_value() && em->utility.has_value());
            if (target < 10) {
                for (const auto* r : {lw, em})
                    QVERIFY2(std::abs(r->epsilon - target) <= 0.02 * target,
                             (r->mechanism + " " + std::to_string(r->epsilon)).c_str());
                QVERIFY(lw->scalarWeight < 1);
            } else {  // above LW's own epsilon: scale 1, epsilon below the target
                QCOMPARE(lw->scalarWeight, 1.0);
                QVERIFY(lw->epsilon < target);
            }
        }
        // Both curves rise with the target.
        QVERIFY(find(*s, 1, "LW-scaled")->epsilon < find(*s, 3, "LW-scaled")->epsilon);
        QVERIFY(find(*s, 1, "EM")->epsilon < find(*s, 3, "EM")->epsilon);
        const auto csv = test::slurp(dir + "/sweep.csv");
        QVERIFY(csv.find(",s_pmse,target_epsilon\n") != std::string::npos);
        QVERIFY(csv.find(",LW-scaled,") != std::string::npos);
        // Resumable like the (c, g) grid: a second call computes nothing.
        auto again = study::runSweep(*c, input(), dir);
        QVERIFY(again.hasValue());
        QCOMPARE(again->pointsRun, std::size_t{0});
        QCOMPARE(again->rows.size(), s->rows.size());
    }
    void utilityCanBeSwitchedOff() {
        auto c = config();
        c.run.utility.enabled = false;
        c.points.resize(1);
        const std::string dir = outDir("noutility");
        auto s = study::runSweep(c, input(), dir);
        QVERIFY(s.hasValue());
        for (const auto& r : s->rows) {
            QVERIFY(!r.utility.has_value());
            QVERIFY(std::isnan(r.q90CiOverlap) && std::isnan(r.pmse));
        }
        QVERIFY(test::slurp(dir + "/sweep.csv").find(",NA,NA,NA,NA,NA,NA,NA,\n") !=
                std::string::npos);
    }
    void sharedFitGivesTheSameNumbersAsSeparateRuns() {
        auto s = study::runSweep(config(), input(), outDir("shared"));
        QVERIFY(s.hasValue());
        auto run = study::parseRunConfig(R"({
          "data": {"path": "poisson.csv", "target": "y"}, "model": {"family": "poisson-means"},
          "mcmc": {"chains": 2, "warmup": 0, "draws": 400, "seed": 3},
          "synthesis": {"m": 4}, "risk": {"L": 4}, "utility": {"bootstrap": 60},
          "synthesizers": [{"name": "LW", "scheme": "lipschitz", "c": 0.5, "g": -0.3},
                           {"name": "EM", "scheme": "scalar", "match": "LW"}]})");
        auto r = study::runStudy(*run, table());
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        QCOMPARE(find(*s, 2, "LW")->deltaAlphaX, r->find("LW")->deltaAlphaX);
        QCOMPARE(find(*s, 2, "EM")->deltaAlphaX, r->find("EM")->deltaAlphaX);
        QCOMPARE(find(*s, 2, "EM")->ir.mean, r->find("EM")->irSummary.mean);
        QCOMPARE(find(*s, 2, "EM")->q90CiOverlap,
                 r->find("EM")->utility->statistics.back().ciOverlap);
    }
    void sameResultForAnyThreadCount() {
        const std::string a = outDir("t1"), b = outDir("t2");
        QVERIFY(study::runSweep(config(1), input(), a).hasValue());
        QVERIFY(study::runSweep(config(2), input(), b).hasValue());
        QCOMPARE(test::slurp(a + "/sweep.csv"), test::slurp(b + "/sweep.csv"));
        QVERIFY(!test::slurp(a + "/sweep.csv").empty());
    }
    void resumesAfterInterruption() {
        const std::string full = outDir("full"), cut = outDir("cut");
        QVERIFY(study::runSweep(config(), input(), full).hasValue());
        std::atomic<bool> cancel{false};
        study::StudyOptions o;
        o.cancel = &cancel;
        o.progress = [&](const Progress& p) {
            if (p.stage == "sweep" && p.done >= 2) cancel = true;
            return Continue::Yes;
        };
        auto stopped = study::runSweep(config(), input(), cut, o);
        QVERIFY(!stopped.hasValue());
        QVERIFY2(stopped.message().find("resume") != std::string::npos, stopped.message().c_str());
        QVERIFY(!std::filesystem::exists(cut + "/sweep.csv"));
        auto resumed = study::runSweep(config(), input(), cut);
        QVERIFY2(resumed.hasValue(), resumed.hasValue() ? "" : resumed.message().c_str());
        QVERIFY(resumed->pointsResumed >= 2);
        QCOMPARE(resumed->pointsResumed + resumed->pointsRun, std::size_t{6});
        QCOMPARE(test::slurp(cut + "/sweep.csv"), test::slurp(full + "/sweep.csv"));
        // Everything saved: no point and not even the unweighted model is fitted again.
        auto again = study::runSweep(config(), input(), cut);
        QCOMPARE(again->pointsRun, std::size_t{0});
        QCOMPARE(again->preparedSeconds, 0.0);
    }
    void refusesAnotherConfigurationsFolder() {
        const std::string dir = outDir("other");
        QVERIFY(study::runSweep(config(), input(), dir).hasValue());
        auto other = config();
        other.points[1].g = -0.2;
        auto r = study::runSweep(other, input(), dir);
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("different configuration") != std::string::npos &&
                     r.message().find("sweep.points") != std::string::npos,
                 r.message().c_str());
    }
    // A sweep's results depend on its data file's bytes, which data.path does not pin
    // down: a changed file is refused rather than its points mixed with the saved ones.
    void refusesAFolderOfOtherData() {
        const std::string dataDir = outDir("data"), dir = outDir("changed");
        std::filesystem::create_directories(dataDir);
        const std::string file = dataDir + "/counts.csv";
        std::ofstream(file, std::ios::binary) << "y\n78\n112\n95\n101\n87\n";
        auto c = config();
        c.run.data.path = file;
        c.run.utility.enabled = false;
        c.points.resize(1);
        auto first = study::readRunData(c.run);
        QVERIFY2(first.hasValue(), first.hasValue() ? "" : first.message().c_str());
        QVERIFY(study::runSweep(c, *first, dir).hasValue());
        std::ofstream(file, std::ios::binary) << "y\n78\n112\n96\n101\n87\n";
        auto changed = study::readRunData(c.run);
        QVERIFY(changed.hasValue());
        auto r = study::runSweep(c, *changed, dir);
        QVERIFY2(!r.hasValue(), "resumed on a changed data file");
        QVERIFY2(r.message().find("of other data") != std::string::npos &&
                     r.message().find(first->sha256) != std::string::npos &&
                     r.message().find(changed->sha256) != std::string::npos &&
                     r.message().find("new output folder") != std::string::npos,
                 r.message().c_str());
        // The original bytes back: the folder is the same sweep again.
        std::ofstream(file, std::ios::binary) << "y\n78\n112\n95\n101\n87\n";
        auto restored = study::readRunData(c.run);
        QVERIFY(restored.hasValue());
        auto again = study::runSweep(c, *restored, dir);
        QVERIFY2(again.hasValue(), again.hasValue() ? "" : again.message().c_str());
        QCOMPARE(again->pointsResumed, std::size_t{2});  // the unweighted reference and the point
        QCOMPARE(again->pointsRun, std::size_t{0});
    }
    // Items computed by another engine revision (or before revisions were recorded) draw
    // differently: refused.
    void refusesAFolderOfAnotherEngine() {
        const std::string dir = outDir("engine");
        auto c = config();
        c.run.utility.enabled = false;
        c.points.resize(1);
        QVERIFY(study::runSweep(c, input(), dir).hasValue());
        const std::string configPath = dir + "/config.json";
        std::string saved = test::slurp(configPath);
        const std::string key = "\"engine_revision\": ";
        const auto at = saved.find(key);
        QVERIFY(at != std::string::npos);
        saved.insert(at + key.size(), "9");  // revision 9N: not this engine's
        std::ofstream(configPath, std::ios::binary) << saved;
        auto r = study::runSweep(c, input(), dir);
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("another revision of ppsynth's engine") != std::string::npos &&
                     r.message().find("new output folder") != std::string::npos,
                 r.message().c_str());
    }

    // The run a GUI user gets for a chosen point: the synthesizers the sweep ran there.
    void pointRunConfigHasThePointsSynthesizers() {
        const auto c = config();
        const auto reweighted = study::sweepPointRunConfig(c, c.points[3]);  // k = 0.95
        QCOMPARE(reweighted.synthesizers.size(), std::size_t{3});
        QVERIFY(reweighted.synthesizers[0].scheme == study::Scheme::Lipschitz);
        QCOMPARE(reweighted.synthesizers[0].c, 0.7);
        QVERIFY(reweighted.synthesizers[1].scheme == study::Scheme::Reweight);
        QCOMPARE(*reweighted.synthesizers[1].k, 0.95);
        QCOMPARE(reweighted.synthesizers[2].match, std::string("LW_final"));
        const auto truncated = study::sweepPointRunConfig(c, c.points[2]);  // M = 3.5
        QCOMPARE(truncated.synthesizers[0].name, std::string("LW-M"));
        QCOMPARE(*truncated.synthesizers[0].M, 3.5);
        QCOMPARE(truncated.synthesizers[1].match, std::string("LW-M"));
        const auto radius = study::sweepPointRunConfig(c, c.points[4]);  // r = 0.05
        QCOMPARE(radius.risk.radius, 0.05);
        QCOMPARE(radius.mcmc.threads, c.run.mcmc.threads);
    }
};

QTEST_APPLESS_MAIN(TstSweep)
#include "tst_sweep.moc"
