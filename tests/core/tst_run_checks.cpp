// Degenerate settings get a refusal or a warning, never a silent result
// (study/run_checks.hpp), and a run says what it fits before fitting it (the design in
// RunStart, RunResult and run.json).
#include <QTest>
#include <limits>
#include <nlohmann/json.hpp>

#include "ppsynth/data/examples.hpp"
#include "ppsynth/study/run_checks.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"

using namespace ppsynth;

namespace {

// The poisson example (1000 counts, no predictors) with the conjugate model: well under a
// second per run.
std::string configWith(const std::string& synthesizers, const std::string& risk = "{}") {
    return R"({
      "data": {"path": "poisson.csv", "target": "y"},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 3},
      "synthesis": {"m": 2}, "risk": )" +
           risk + R"(,
      "synthesizers": [{"name": "Unweighted", "scheme": "unweighted"}, )" +
           synthesizers + "]}";
}

const data::Table& poissonTable() {
    static const auto table = data::makeExample(data::ExampleId::Poisson);
    return table;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

// Runs Unweighted (normal model, the given transform, 2 x (100 + 100), m = 2) on y as
// 'income' and checks that the run gave exactly one warning, about Unweighted, holding `text`.
void oneUnweightedWarning(const std::vector<double>& y, const std::string& transform,
                          const std::string& text) {
    data::Table t;
    QVERIFY(t.addColumn(data::Column::numeric("income", y)).isOk());
    auto c = study::parseRunConfig(R"({
      "data": {"path": "income.csv", "target": "income", "transform": ")" +
                                   transform + R"("},
      "model": {"family": "normal"},
      "mcmc": {"chains": 2, "warmup": 100, "draws": 100, "seed": 3},
      "synthesis": {"m": 2},
      "synthesizers": [{"name": "Unweighted", "scheme": "unweighted"}]})");
    QVERIFY2(c, c ? "" : c.message().c_str());
    auto r = study::runStudy(*c, t);
    QVERIFY2(r, r ? "" : r.message().c_str());
    QCOMPARE(r->warnings.size(), std::size_t{1});
    QVERIFY2(r->warnings[0].starts_with("synthesizer 'Unweighted' (unweighted): ") &&
                 r->warnings[0].find(text) != std::string::npos,
             r->warnings[0].c_str());
}

}  // namespace

class TstRunChecks : public QObject {
    Q_OBJECT
  private slots:
    // c + g <= 0 makes every clamp(c u + g) zero: refused by the parser and by a run of a
    // configuration built in code (the GUI's), naming the synthesizer.
    void everyWeightZeroIsRefused_data() {
        QTest::addColumn<QString>("synthesizer");
        QTest::addColumn<QString>("error");  // empty: accepted
        QTest::newRow("LW c = 0, g = 0")
            << R"({"name": "W", "scheme": "lipschitz", "c": 0, "g": 0})"
            << "synthesizer 'W' (lipschitz): c = 0, g = 0 gives every record weight 0";
        QTest::newRow("LW g = -1")
            << R"({"name": "W", "scheme": "lipschitz", "c": 1, "g": -1})"
            << "synthesizer 'W' (lipschitz): c = 1, g = -1 gives every record weight 0";
        QTest::newRow("CW c = 0.5, g = -0.7")
            << R"({"name": "W", "scheme": "marginal", "c": 0.5, "g": -0.7})"
            << "synthesizer 'W' (marginal): c = 0.5, g = -0.7 gives every record weight 0";
        QTest::newRow("pairwise c = 0")
            << R"({"name": "W", "scheme": "pairwise", "c": 0, "g": 0})"
            << "synthesizer 'W' (pairwise): c = 0, g = 0 gives every record weight 0";
        QTest::newRow("LW c = 2, g = -1")
            << R"({"name": "W", "scheme": "lipschitz", "c": 2, "g": -1})"
            << "";
        QTest::newRow("sigmoid ignores c")
            << R"({"name": "W", "scheme": "sigmoid", "c": 0, "g": 0})"
            << "";
    }
    void everyWeightZeroIsRefused() {
        QFETCH(QString, synthesizer);
        QFETCH(QString, error);
        auto c = study::parseRunConfig(configWith(synthesizer.toStdString()));
        if (error.isEmpty()) {
            QVERIFY2(c, c ? "" : c.message().c_str());
            return;
        }
        QVERIFY(!c);
        QVERIFY2(QString::fromStdString(c.message()).contains(error), c.message().c_str());
        QVERIFY2(c.message().ends_with("make c + g positive, such as c = 1, g = 0"),
                 c.message().c_str());
        // The same configuration made in code, as the GUI does, is refused by the run.
        auto ok = study::parseRunConfig(configWith(R"({"name": "W", "scheme": "lipschitz"})"));
        QVERIFY(ok);
        auto built = *ok;
        auto j = nlohmann::json::parse(synthesizer.toStdString());
        built.synthesizers[1].scheme = j["scheme"] == "lipschitz"  ? study::Scheme::Lipschitz
                                       : j["scheme"] == "marginal" ? study::Scheme::Marginal
                                                                   : study::Scheme::Pairwise;
        built.synthesizers[1].c = j["c"].get<double>();
        built.synthesizers[1].g = j["g"].get<double>();
        auto run = study::runStudy(built, poissonTable());
        QVERIFY(!run);
        QVERIFY2(QString::fromStdString(run.message()).startsWith(error), run.message().c_str());
    }

    void knobWarnings_data() {
        QTest::addColumn<QString>("synthesizer");
        QTest::addColumn<QString>("warning");  // empty: none
        QTest::newRow("g = 1: Unweighted")
            << R"({"name": "W", "scheme": "lipschitz", "c": 1, "g": 1})"
            << "synthesizer 'W' (lipschitz): g = 1 gives every record weight 1, so its results "
               "are those of Unweighted (no privacy gained); use g < 1, such as 0";
        QTest::newRow("c = 0: one weight for all")
            << R"({"name": "W", "scheme": "marginal", "c": 0, "g": 0.5})"
            << "synthesizer 'W' (marginal): c = 0 gives every record the same weight g = 0.5, "
               "whatever its risk; the scalar scheme does that with a target epsilon, or use "
               "c > 0 to weight by risk";
        QTest::newRow("c = 50: nearly Unweighted")
            << R"({"name": "W", "scheme": "lipschitz", "c": 50, "g": 0})"
            << "synthesizer 'W' (lipschitz): c = 50, g = 0 gives weight 1 to every record whose "
               "1 - ft_i (the scaled Lipschitz bound) is above 0.02, so only the very riskiest "
               "records are down-weighted and the results are nearly those of Unweighted; use "
               "a c nearer 1";
        QTest::newRow("c = 20 at the edge")
            << R"({"name": "W", "scheme": "pairwise", "c": 20, "g": 0})"
            << "synthesizer 'W' (pairwise): c = 20, g = 0 gives weight 1 to every record whose "
               "at_i (the pairwise score) is above 0.05";
        QTest::newRow("c = 10: fine") << R"({"name": "W", "scheme": "lipschitz", "c": 10})"
                                      << "";
        QTest::newRow("defaults") << R"({"name": "W", "scheme": "lipschitz"})"
                                  << "";
        QTest::newRow("CE grid c = 0.5, g = -0.3")
            << R"({"name": "W", "scheme": "lipschitz", "c": 0.5, "g": -0.3})"
            << "";
    }
    void knobWarnings() {
        QFETCH(QString, synthesizer);
        QFETCH(QString, warning);
        auto c = study::parseRunConfig(configWith(synthesizer.toStdString()));
        QVERIFY2(c, c ? "" : c.message().c_str());
        const auto w = study::knobWarnings(*c);
        if (warning.isEmpty()) {
            QVERIFY2(w.empty(), joined(w).c_str());
            return;
        }
        QCOMPARE(w.size(), std::size_t{1});
        QVERIFY2(QString::fromStdString(w.front()).startsWith(warning), w.front().c_str());
    }

    // The radius rule reads the data: with the confidential values as the synthetic ones,
    // every record's ball holding its whole pattern means every IR will be 0.
    void radiusSoLargeEveryRiskIsZero_data() {
        QTest::addColumn<QString>("risk");
        QTest::addColumn<bool>("warned");
        QTest::newRow("default 20%") << "{}" << false;
        QTest::newRow("percentage 50") << R"({"radius": 50})" << true;
        QTest::newRow("absolute 1e6") << R"({"radius": 1e6, "radius_mode": "absolute"})" << true;
        QTest::newRow("absolute 1") << R"({"radius": 1, "radius_mode": "absolute"})" << false;
    }
    void radiusSoLargeEveryRiskIsZero() {
        QFETCH(QString, risk);
        QFETCH(bool, warned);
        auto c = study::parseRunConfig(
            configWith(R"({"name": "W", "scheme": "lipschitz"})", risk.toStdString()));
        QVERIFY2(c, c ? "" : c.message().c_str());
        std::vector<std::string> atStart;
        study::RunOptions ro;
        int calls = 0;
        ro.started = [&](const study::RunStart& s) {
            ++calls;
            atStart = s.warnings;
        };
        auto run = study::runStudy(*c, poissonTable(), ro);
        QVERIFY2(run, run ? "" : run.message().c_str());
        QCOMPARE(calls, 1);
        bool found = false;
        for (const auto& w : atStart) found = found || w.starts_with("risk.radius ");
        QCOMPARE(found, warned);
        QCOMPARE(run->warnings, atStart);
        if (warned) {
            // What the warning foretold.
            for (const auto& s : run->synthesizers) QCOMPARE(s.irSummary.max, 0.0);
        }
    }

    // Every record alone in its pattern: IR is 0 by construction.
    void everyRecordAloneIsWarned() {
        data::ModelInputs in;
        in.keptRows = {0, 1, 2};
        in.yOriginal = Eigen::Vector3d(1, 2, 3);
        in.patterns.id = {0, 1, 2};
        in.patterns.members = {{0}, {1}, {2}};
        in.patterns.singletons = 3;
        study::RunConfig c;
        const auto w = study::dataWarnings(c, in);
        QCOMPARE(w.size(), std::size_t{1});
        QVERIFY(w.front().starts_with("every record is alone in its pattern"));
        in.patterns.id = {0, 0, 0};
        in.patterns.members = {{0, 1, 2}};
        in.patterns.singletons = 0;
        QVERIFY(study::dataWarnings(c, in).empty());
    }

    // Weights computed to all 0 (here an M below every bound) are refused; all 1 for a
    // weighted scheme is warned in the result.
    void computedWeights() {
        auto zero = study::parseRunConfig(
            configWith(R"({"name": "W", "scheme": "lipschitz", "M": 1e-12})"));
        QVERIFY(zero);
        auto run = study::runStudy(*zero, poissonTable());
        QVERIFY(!run);
        QVERIFY2(run.message().starts_with("synthesizer 'W': every record's weight is 0") &&
                     run.message().ends_with("M = 1e-12 truncates every record: "
                                             "raise M"),
                 run.message().c_str());

        auto one = study::parseRunConfig(
            configWith(R"({"name": "EM", "scheme": "scalar", "epsilon": 1e9})"));
        QVERIFY(one);
        auto r = study::runStudy(*one, poissonTable());
        QVERIFY2(r, r ? "" : r.message().c_str());
        QCOMPARE(r->warnings.size(), std::size_t{1});
        QCOMPARE(r->warnings.front(),
                 std::string("synthesizer 'EM' (scalar): every record's weight is 1, so its fit, "
                             "epsilon and synthetic data are those of Unweighted (no privacy "
                             "gained)"));
    }

    // Synthetic values below zero where no confidential value is: counted over every dataset,
    // with the lowest and the remedy that fits the transform.
    void negativeSyntheticValues() {
        study::SynthesizerConfig lw;
        lw.name = "LW";
        lw.scheme = study::Scheme::Lipschitz;
        const Eigen::VectorXd positive = Eigen::Vector3d(1, 5, 9);
        const std::vector<std::vector<double>> synthetic{{2, -0.5, 3}, {-2.25, 4, 1}};
        auto w = study::negativeValuesWarning(lw, "wage", "none", positive, synthetic);
        QVERIFY(w);
        QCOMPARE(*w, std::string("synthesizer 'LW' (lipschitz): 2 of its 6 synthetic values of "
                                 "'wage' are negative (the lowest -2.25), while no confidential "
                                 "value is: the model spreads y below zero. Model log(y) (the log "
                                 "transform), or use the normal mixture, to keep synthetic values "
                                 "where the data are"));
        const Eigen::VectorXd withZero = Eigen::Vector3d(0, 5, 9);
        w = study::negativeValuesWarning(lw, "wage", "none", withZero, synthetic);
        QVERIFY(w && w->find("log(y + s) (the log-shift transform)") != std::string::npos);
        w = study::negativeValuesWarning(lw, "wage", "log-shift", withZero, synthetic);
        QVERIFY(w && w->ends_with("exp(z) - s, reaches down to -s = -1"));
        w = study::negativeValuesWarning(lw, "wage", "none", positive, {{-1, 2}});
        QVERIFY(w &&
                w->find("1 of its 2 synthetic values of 'wage' is negative") != std::string::npos);
        // A confidential value below zero, or none synthetic: nothing to say.
        const Eigen::VectorXd loss = Eigen::Vector3d(-3, 5, 9);
        QVERIFY(!study::negativeValuesWarning(lw, "wage", "none", loss, synthetic));
        QVERIFY(!study::negativeValuesWarning(lw, "wage", "none", positive, {{1, 2, 3}}));
    }

    // End to end: a normal model of a skewed positive y (no transform) draws values below
    // zero, and the run says so for each synthesizer that does.
    void negativeSyntheticValuesInTheRun() {
        std::vector<double> y;
        for (int i = 0; i < 200; ++i) y.push_back(0.2 + 0.05 * i * (i % 7));  // 0.2 .. 59.9
        oneUnweightedWarning(y, "none", "synthetic values of 'income' are negative");
    }

    // Synthetic values further beyond the confidential ones than their whole range: counted
    // over every dataset on both sides, the most extreme named; the mixture's prior draws
    // named as a cause; nothing within the range's reach or for a constant y.
    void farSyntheticValues() {
        study::SynthesizerConfig cw;
        cw.name = "CW";
        cw.scheme = study::Scheme::Marginal;
        const Eigen::VectorXd original = Eigen::Vector3d(0, 7, 14);  // range 14: far is > 28
        const std::vector<std::vector<double>> synthetic{{3, 28, 168}, {-14, 29, -15}};
        auto w = study::farValuesWarning(cw, "visits", "poisson", original, synthetic);
        QVERIFY(w);
        QCOMPARE(*w, std::string("synthesizer 'CW' (marginal): 3 of its 6 synthetic values of "
                                 "'visits' lie further beyond the confidential values than their "
                                 "whole range (0 to 14): the largest 168, the smallest -15. Data "
                                 "users take such values for errors; the model's tail reaches far "
                                 "past the data: check the model of 'visits' before releasing "
                                 "these datasets"));
        w = study::farValuesWarning(cw, "income", "normal-mixture", original, {{1.65e16}});
        QVERIFY(w &&
                w->find("1 of its 1 synthetic values of 'income' lies further") !=
                    std::string::npos &&
                w->find("the largest 1.65e+16") != std::string::npos &&
                w->find("draws its coefficients from the prior") != std::string::npos);
        // NaN is counted, and named when nothing else is far.
        w = study::farValuesWarning(cw, "visits", "poisson", original,
                                    {{std::numeric_limits<double>::quiet_NaN(), 1}});
        QVERIFY(w && w->find("1 of its 2 synthetic values") != std::string::npos &&
                w->find("): not numbers.") != std::string::npos);
        // Exactly one range beyond on either side, or a constant y: nothing to say.
        QVERIFY(!study::farValuesWarning(cw, "visits", "poisson", original, {{-14, 28, 5}}));
        QVERIFY(
            !study::farValuesWarning(cw, "visits", "poisson", Eigen::Vector3d(2, 2, 2), {{1000}}));
    }

    // End to end: 199 values near 100 and one at 1, modelled on the log scale, spread the
    // back-transformed synthetic values above 201 (max + range) about 2% of the time.
    void farSyntheticValuesInTheRun() {
        std::vector<double> y{1.0};
        for (int i = 0; i < 199; ++i) y.push_back(100.0 + 0.005 * i);
        oneUnweightedWarning(y, "log",
                             "lie further beyond the confidential values than their whole range "
                             "(1 to 100.99)");
    }

    // The design reaches the caller before the first fit and run.json keeps it.
    void designInRunJson() {
        auto c =
            study::parseRunConfig(configWith(R"({"name": "W", "scheme": "lipschitz", "g": 1})"));
        QVERIFY(c);
        bool beforeFit = false;
        bool fitted = false;
        study::RunOptions ro;
        ro.progress = [&](const Progress&) {
            fitted = true;
            return Continue::Yes;
        };
        ro.started = [&](const study::RunStart& s) {
            beforeFit = !fitted;
            QCOMPARE(s.design.target, std::string("y"));
        };
        auto run = study::runStudy(*c, poissonTable(), ro);
        QVERIFY2(run, run ? "" : run.message().c_str());
        QVERIFY(beforeFit);
        const auto j = nlohmann::json::parse(study::runSummaryJson(*run));
        QVERIFY(j.contains("design"));
        QCOMPARE(j["design"]["target"].get<std::string>(), std::string("y"));
        QCOMPARE(j["design"]["columns"].get<int>(), 1);
        QCOMPARE(j["design"]["coefficients"].get<int>(), 0);  // Poisson means: one mean, no X
        QCOMPARE(j["design"]["predictors_used"].get<bool>(), false);
        QVERIFY(j["design"]["summary"].front().get<std::string>().starts_with("model design: "));
        QCOMPARE(j["warnings"].size(), std::size_t{1});
        QVERIFY(j["warnings"][0].get<std::string>().starts_with(
            "synthesizer 'W' (lipschitz): g = 1 gives every record weight 1"));
    }
};

QTEST_APPLESS_MAIN(TstRunChecks)
#include "tst_run_checks.moc"
