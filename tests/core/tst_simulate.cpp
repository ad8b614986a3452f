// The local-to-global simulation on tiny sizes: configuration errors, the summaries against
// the replicates they summarize, thread-count invariance, resume after an interruption and
// refusal of a folder that holds another configuration or another engine's results.
#include <QTest>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../common/near.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/study/simulate.hpp"
#include "test_files.hpp"

using namespace ppsynth;

namespace {

std::string outDir(const std::string& name) {
    return test::scratchDir("tst_simulate_" + name);
}

study::SimulateConfig tiny(int threads = 2) {
    auto c = study::parseSimulateConfig(R"({
      "model": "poisson", "sizes": [30, 120], "replicates": 10, "block_size": 3,
      "mcmc": {"draws": 150}, "seed": 11, "epsilon_grid": [4, 6, 8, 10, 12, 14, 16, 20]})");
    c->threads = threads;
    return *c;
}

}  // namespace

// `field` is not its default in `set` and came back equal in `back`: a text round trip alone
// cannot notice a field that the writer and the reader both leave out.
#define QCOMPARE_SET_FIELD(back, set, defaults, field)                              \
    do {                                                                            \
        QVERIFY2(!((set).field == (defaults).field), "still the default: " #field); \
        QVERIFY2((back).field == (set).field, "lost in the round trip: " #field);   \
    } while (false)

class TstSimulate : public QObject {
    Q_OBJECT
  private slots:
    void everyFieldRoundTrips() {
        const study::SimulateConfig defaults;
        study::SimulateConfig set;
        set.model = "nb-mixture";
        set.mean = 50;
        set.sizes = {10, 20};
        set.replicates = 7;
        set.mechanisms = {"LW"};
        set.c = 0.5;
        set.g = -0.1;
        set.M = 3;
        set.mcmc = {2, 100, 200, 8, 0.9};
        set.seed = 9;
        set.threads = 3;
        set.blockSize = 4;
        set.quantiles = {0.5};
        set.epsilonGrid = {1, 2};
        auto parsed = study::parseSimulateConfig(study::toJson(set));
        QVERIFY2(parsed.hasValue(), parsed.hasValue() ? "" : parsed.message().c_str());
        const auto& back = *parsed;
        QCOMPARE_SET_FIELD(back, set, defaults, model);
        QCOMPARE_SET_FIELD(back, set, defaults, mean);
        QCOMPARE_SET_FIELD(back, set, defaults, sizes);
        QCOMPARE_SET_FIELD(back, set, defaults, replicates);
        QCOMPARE_SET_FIELD(back, set, defaults, mechanisms);
        QCOMPARE_SET_FIELD(back, set, defaults, c);
        QCOMPARE_SET_FIELD(back, set, defaults, g);
        QCOMPARE_SET_FIELD(back, set, defaults, M);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.chains);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.warmup);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.draws);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.maxTreeDepth);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.adaptDelta);
        QCOMPARE_SET_FIELD(back, set, defaults, seed);
        QCOMPARE_SET_FIELD(back, set, defaults, threads);
        QCOMPARE_SET_FIELD(back, set, defaults, blockSize);
        QCOMPARE_SET_FIELD(back, set, defaults, quantiles);
        QCOMPARE_SET_FIELD(back, set, defaults, epsilonGrid);
    }
    void defaultsArePaperSettings() {
        auto c = study::parseSimulateConfig("{}");
        QVERIFY(c.hasValue());
        QCOMPARE(c->sizes, (std::vector<std::size_t>{100, 400, 1600, 6400}));
        QCOMPARE(c->replicates, 400);
        QCOMPARE(c->M, 3.5);
        QCOMPARE(c->mechanisms.size(), std::size_t{3});
        QCOMPARE(c->epsilons().front(), 1.0);
        QCOMPARE(c->epsilons().back(), 40.0);
        // The canonical form parses back to the same configuration.
        auto again = study::parseSimulateConfig(study::toJson(*c));
        QVERIFY(again.hasValue());
        QCOMPARE(study::toJson(*again), study::toJson(*c));
    }
    void configErrors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << R"({"replicate": 5})"
                                     << "unknown key 'replicate'";
        QTest::newRow("unknown mcmc key") << R"({"mcmc": {"draw": 5}})"
                                          << "mcmc: unknown key 'draw'";
        QTest::newRow("model") << R"({"model": "normal"})"
                               << "'model' must be";
        QTest::newRow("mechanism") << R"({"mechanisms": ["LW", "EM"]})"
                                   << "'mechanisms'";
        QTest::newRow("twice") << R"({"mechanisms": ["LW", "LW"]})"
                               << "distinct";
        QTest::newRow("sizes type") << R"({"sizes": [100, "400"]})"
                                    << "list of whole numbers";
        QTest::newRow("size 1") << R"({"sizes": [1]})"
                                << "at least 2";
        QTest::newRow("M") << R"({"M": 0})"
                           << "'M' must be positive";
        QTest::newRow("grid order") << R"({"epsilon_grid": [3, 2]})"
                                    << "increasing";
        QTest::newRow("not json") << "{"
                                  << "not valid JSON";
        QTest::newRow("comment is free") << R"({"comment": "x", "_note": 1})"
                                         << "";
        QTest::newRow("key twice") << R"({"replicates": 5, "sizes": [10], "replicates": 50})"
                                   << "configuration: key 'replicates' appears twice";
        QTest::newRow("mcmc key twice") << R"({"mcmc": {"draws": 5, "draws": 6}})"
                                        << "mcmc: key 'draws' appears twice";
        QTest::newRow("draws 0") << R"({"mcmc": {"draws": 0}})"
                                 << "mcmc: 'draws' is 0 but must be at least 1";
        QTest::newRow("warmup -1") << R"({"mcmc": {"warmup": -1}})"
                                   << "mcmc: 'warmup' is -1 but must be 0 or more";
        QTest::newRow("max_treedepth 40") << R"({"mcmc": {"max_treedepth": 40}})"
                                          << "mcmc: 'max_treedepth' is 40 but must be between 1 "
                                             "and 30";
    }
    void configErrors() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        auto c = study::parseSimulateConfig(json.toStdString());
        if (message.isEmpty()) {
            QVERIFY(c.hasValue());
            return;
        }
        QVERIFY(!c.hasValue());
        QVERIFY2(c.message().find(message.toStdString()) != std::string::npos, c.message().c_str());
    }
    void summariesMatchReplicates() {
        const auto cfg = tiny();
        const std::string dir = outDir("summaries");
        auto s = study::runSimulation(cfg, dir);
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : s.message().c_str());
        QCOMPARE(s->replicates.size(), std::size_t{2 * 10 * 3});
        QCOMPARE(s->distributions.size(), std::size_t{2 * 3});
        QCOMPARE(s->blocksRun, std::size_t{8});  // ceil(10 / 3) blocks per size
        const auto eps = cfg.epsilons();
        for (const auto& d : s->distributions) {
            std::vector<double> v;
            for (const auto& r : s->replicates)
                if (r.n == d.n && r.mechanism == d.mechanism) v.push_back(r.delta);
            QCOMPARE(v.size(), std::size_t{10});
            QCOMPARE(d.min, *std::min_element(v.begin(), v.end()));
            QCOMPARE(d.max, *std::max_element(v.begin(), v.end()));
            // delta_hat(eps) is the share of replicates with 2 Delta > eps, counted by hand.
            for (std::size_t k = 0; k < eps.size(); ++k) {
                const auto above =
                    std::count_if(v.begin(), v.end(), [&](double x) { return 2 * x > eps[k]; });
                QCOMPARE(d.deltaHat[k], static_cast<double>(above) / 10.0);
            }
            // n < 1000: safety factor [1.05, 1.10] around the median replicate's 2 Delta.
            QCOMPARE(d.recommended.safetyLow, 1.05);
            QVERIFY_NEAR(d.recommended.epsilonHigh, 2.2 * d.median, 1e-12);
            QVERIFY(d.min <= d.median && d.median <= d.max);
        }
        // LW-M leaves out records whose weighted bound passes M; the unweighted never does.
        for (const auto& r : s->replicates) {
            if (r.mechanism == "Unweighted") QCOMPARE(r.zeroWeights, std::size_t{0});
            QVERIFY_NEAR(r.posteriorMean, 100, 15);  // mu = 100, n >= 30
        }
        for (const char* f :
             {"replicates.csv", "distribution.csv", "delta_hat.csv", "summary.json", "config.json"})
            QVERIFY2(std::filesystem::exists(dir + "/" + f), f);
    }
    void sameResultForAnyThreadCount() {
        const std::string a = outDir("threads1"), b = outDir("threads2");
        auto one = study::runSimulation(tiny(1), a);
        auto two = study::runSimulation(tiny(2), b);
        QVERIFY(one.hasValue() && two.hasValue());
        QCOMPARE(test::slurp(a + "/replicates.csv"), test::slurp(b + "/replicates.csv"));
        QCOMPARE(test::slurp(a + "/distribution.csv"), test::slurp(b + "/distribution.csv"));
        for (std::size_t i = 0; i < one->replicates.size(); ++i)
            QCOMPARE(one->replicates[i].delta, two->replicates[i].delta);
    }
    void resumesAfterInterruption() {
        const auto cfg = tiny();
        const std::string full = outDir("full"), cut = outDir("cut");
        auto reference = study::runSimulation(cfg, full);
        QVERIFY(reference.hasValue());
        // Stop after three finished blocks, as Ctrl-C would.
        std::atomic<bool> cancel{false};
        study::StudyOptions o;
        o.cancel = &cancel;
        o.progress = [&](const Progress& p) {
            if (p.done >= 3) cancel = true;
            return Continue::Yes;
        };
        auto stopped = study::runSimulation(cfg, cut, o);
        QVERIFY(!stopped.hasValue());
        QVERIFY2(stopped.message().find("resume") != std::string::npos, stopped.message().c_str());
        QVERIFY(!std::filesystem::exists(cut + "/replicates.csv"));
        auto resumed = study::runSimulation(cfg, cut);
        QVERIFY2(resumed.hasValue(), resumed.hasValue() ? "" : resumed.message().c_str());
        QVERIFY(resumed->blocksResumed >= 3);
        QCOMPARE(resumed->blocksResumed + resumed->blocksRun, std::size_t{8});
        QCOMPARE(test::slurp(cut + "/replicates.csv"), test::slurp(full + "/replicates.csv"));
        QCOMPARE(test::slurp(cut + "/distribution.csv"), test::slurp(full + "/distribution.csv"));
        // A third call finds everything saved and computes nothing.
        auto again = study::runSimulation(cfg, cut);
        QCOMPARE(again->blocksRun, std::size_t{0});
    }
    void refusesAnotherConfigurationsFolder() {
        const std::string dir = outDir("other");
        QVERIFY(study::runSimulation(tiny(), dir).hasValue());
        auto other = tiny();
        other.M = 3.0;
        auto r = study::runSimulation(other, dir);
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("different configuration") != std::string::npos &&
                     r.message().find("'M'") != std::string::npos,
                 r.message().c_str());
        // Another thread count is the same configuration.
        QVERIFY(study::runSimulation(tiny(1), dir).hasValue());
        // A folder with unrelated files is not taken over.
        const std::string foreign = outDir("foreign");
        std::filesystem::create_directories(foreign);
        std::ofstream(foreign + "/notes.txt") << "mine";
        auto f = study::runSimulation(tiny(), foreign);
        QVERIFY(!f.hasValue());
        QVERIFY2(f.message().find("not empty") != std::string::npos, f.message().c_str());
    }
    // Blocks computed by another engine revision draw differently, and a folder written
    // before revisions were recorded cannot say which engine computed it: both refused.
    void refusesAnotherEnginesFolder() {
        const std::string dir = outDir("engine");
        QVERIFY(study::runSimulation(tiny(), dir).hasValue());
        const std::string configPath = dir + "/config.json";
        const std::string saved = test::slurp(configPath);
        const std::string key = "\"engine_revision\": ";
        const auto at = saved.find(key);
        QVERIFY(at != std::string::npos);
        std::string other = saved;
        other.insert(at + key.size(), "9");  // revision 9N: not this engine's
        std::ofstream(configPath, std::ios::binary) << other;
        auto r = study::runSimulation(tiny(), dir);
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("another revision of ppsynth's engine") != std::string::npos &&
                     r.message().find("new output folder") != std::string::npos,
                 r.message().c_str());
        std::string none = saved;
        none.erase(at, saved.find('\n', at) + 1 - at);  // "engine_revision": N, and its line
        std::ofstream(configPath, std::ios::binary) << none;
        r = study::runSimulation(tiny(), dir);
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("none recorded") != std::string::npos, r.message().c_str());
    }
    void nbMixtureRunsWithNuts() {
        auto c = study::parseSimulateConfig(R"({
          "model": "nb-mixture", "sizes": [40], "replicates": 2, "mechanisms": ["Unweighted", "LW-M"], "M": 6,
          "mcmc": {"warmup": 150, "draws": 150}, "seed": 5})");
        QVERIFY(c.hasValue());
        auto s = study::runSimulation(*c, outDir("nb"));
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : s.message().c_str());
        QCOMPARE(s->replicates.size(), std::size_t{4});
        QCOMPARE(s->replicates[0].mechanism, std::string("Unweighted"));
        QCOMPARE(s->replicates[1].mechanism, std::string("LW-M"));
        for (const auto& r : s->replicates) {
            QVERIFY(r.delta > 0 && std::isfinite(r.delta));
            QVERIFY_NEAR(r.posteriorMean, 100, 40);  // mixture sd 30, n = 40
        }
    }
    // The NB mixture simulation drove NUTS far enough out that phi under- or overflowed and
    // boost's digamma threw across the sampler's threads: such points now have density
    // zero (a rejected step), and ordinary points are untouched.
    void negbinRejectsExtremeDispersion_data() {
        QTest::addColumn<double>("logInvPhi");
        QTest::addColumn<bool>("finite");
        QTest::newRow("phi underflows") << 800.0 << false;
        QTest::newRow("phi denormal") << 730.0 << false;
        QTest::newRow("phi overflows") << -760.0 << false;
        QTest::newRow("ordinary") << -2.5 << true;
        QTest::newRow("very overdispersed") << 50.0 << true;
    }
    void negbinRejectsExtremeDispersion() {
        QFETCH(double, logInvPhi);
        QFETCH(bool, finite);
        models::ModelSpec spec;
        spec.family = "negbin";
        auto m = models::makeModel(spec, Eigen::MatrixXd::Ones(3, 1), Eigen::Vector3d(0, 5, 200),
                                   {"(Intercept)"});
        QVERIFY(m.hasValue());
        Eigen::VectorXd q = Eigen::VectorXd::Zero(static_cast<Eigen::Index>((*m)->dimension()));
        q(0) = std::log(100.0);
        q(q.size() - 1) = logInvPhi;
        Eigen::VectorXd grad;
        const double lp = (*m)->logPosterior(q, Eigen::VectorXd::Ones(3), grad);
        QCOMPARE(std::isfinite(lp), finite);
        if (!finite) QVERIFY(lp < 0);
        QCOMPARE(grad.size(), q.size());
    }
};

QTEST_APPLESS_MAIN(TstSimulate)
#include "tst_simulate.moc"
