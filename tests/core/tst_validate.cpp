// study::validate is the one place a configuration's meaning is checked: each rule refuses
// its value with a message naming the key (or the synthesizer) and what is allowed, with the
// kind InvalidInput, and the same refusal comes from the parser (the configuration as JSON)
// and from the runner (the configuration built in code, as the GUI builds it), before any
// work.
#include <QTest>
#include <functional>
#include <map>

#include "ppsynth/common/safe_name.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/validate.hpp"

using namespace ppsynth;
using study::RunConfig;
using study::Scheme;

namespace {

study::SynthesizerConfig synthesizer(const std::string& name, Scheme scheme) {
    study::SynthesizerConfig s;
    s.name = name;
    s.scheme = scheme;
    return s;
}

// A configuration made in code with every scheme, valid: the rows below break one rule each.
// synthesizers: [0] U, [1] LW, [2] CW, [3] S, [4] EM (matches LW), [5] F (re-weights LW),
// [6] LWs (LW scaled to a target epsilon), [7] TC (the top-coding comparator).
RunConfig validConfig() {
    RunConfig c;
    c.data.path = "poisson.csv";
    c.data.target = "y";
    c.model.family = "poisson-means";
    c.mcmc.chains = 1;
    c.mcmc.warmup = 0;
    c.mcmc.draws = 50;
    c.mcmc.threads = 1;
    c.synthesis.m = 2;
    c.risk.L = 2;
    c.utility.enabled = false;
    auto lw = synthesizer("LW", Scheme::Lipschitz);
    lw.c = 0.7;
    auto em = synthesizer("EM", Scheme::Scalar);
    em.match = "LW";
    auto f = synthesizer("F", Scheme::Reweight);
    f.base = "LW";
    c.synthesizers = {synthesizer("U", Scheme::Unweighted), lw, synthesizer("CW", Scheme::Marginal),
                      synthesizer("S", Scheme::Sigmoid),    em, f};
    auto scaled = synthesizer("LWs", Scheme::Scaled);
    scaled.of = Scheme::Lipschitz;
    scaled.c = 0.7;
    scaled.targetEpsilon = 5.0;
    c.synthesizers.push_back(scaled);
    c.synthesizers.push_back(synthesizer("TC", Scheme::TopCode));
    return c;
}

using Change = std::function<void(RunConfig&)>;

const std::map<QString, Change>& changes() {
    static const std::map<QString, Change> all = {
        {"no path", [](RunConfig& c) { c.data.path.clear(); }},
        {"no target", [](RunConfig& c) { c.data.target.clear(); }},
        {"transform", [](RunConfig& c) { c.data.transform = "sqrt"; }},
        {"target and targets",
         [](RunConfig& c) {
             c.data.target = "x";
             c.data.targets = {"y", "z"};
         }},
        {"target twice",
         [](RunConfig& c) {
             c.data.targets = {"y", "z", "y"};
         }},
        {"target empty",
         [](RunConfig& c) {
             c.data.targets = {"y", ""};
         }},
        {"target a predictor",
         [](RunConfig& c) {
             c.data.predictors = {"z"};
             c.data.targets = {"y", "z"};
         }},
        {"models for one target", [](RunConfig& c) { c.models["y"].K = 3; }},
        {"models unknown",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.models["w"].K = 3;
         }},
        {"models family",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.models["z"].family = "gamma";
         }},
        {"models K",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.models["z"].K = 0;
         }},
        {"models tau",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.models["z"].tau = "fixed";
         }},
        {"models transform",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.models["z"].transform = "sqrt";
         }},
        {"models prior",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.models["z"].priors["tau_shape"] = 1;
         }},
        {"radii for one target", [](RunConfig& c) { c.risk.radii["y"] = 0.3; }},
        {"radii unknown",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.risk.radii["w"] = 0.3;
         }},
        {"radii 0",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.risk.radii["z"] = 0;
         }},
        {"models count transform",
         [](RunConfig& c) {
             c.data.targets = {"y", "z"};
             c.models["z"].transform = "log";
         }},
        {"missing", [](RunConfig& c) { c.data.missing = "drop"; }},
        {"tau", [](RunConfig& c) { c.model.tau = "fixed"; }},
        {"family", [](RunConfig& c) { c.model.family = "gamma"; }},
        {"K", [](RunConfig& c) { c.model.K = 0; }},
        {"chains", [](RunConfig& c) { c.mcmc.chains = 0; }},
        {"draws", [](RunConfig& c) { c.mcmc.draws = 0; }},
        {"warmup", [](RunConfig& c) { c.mcmc.warmup = -1; }},
        {"threads", [](RunConfig& c) { c.mcmc.threads = 0; }},
        {"refit_warmup", [](RunConfig& c) { c.mcmc.refitWarmup = -5; }},
        {"thin", [](RunConfig& c) { c.mcmc.thin = 0; }},
        {"max_treedepth", [](RunConfig& c) { c.mcmc.maxTreeDepth = 31; }},
        {"sampler", [](RunConfig& c) { c.mcmc.sampler = "hmc"; }},
        {"adapt_delta", [](RunConfig& c) { c.mcmc.adaptDelta = 1; }},
        {"m", [](RunConfig& c) { c.synthesis.m = 0; }},
        {"radius", [](RunConfig& c) { c.risk.radius = 0; }},
        {"L", [](RunConfig& c) { c.risk.L = 0; }},
        {"quantile", [](RunConfig& c) { c.lipschitz.quantile = 0; }},
        {"utility level", [](RunConfig& c) { c.utility.level = 1; }},
        {"utility bootstrap", [](RunConfig& c) { c.utility.bootstrap = 1; }},
        {"utility regress", [](RunConfig& c) { c.utility.regress = {{"age"}}; }},
        {"no synthesizers", [](RunConfig& c) { c.synthesizers.clear(); }},
        {"no name", [](RunConfig& c) { c.synthesizers[1].name.clear(); }},
        {"name a path", [](RunConfig& c) { c.synthesizers[2].name = "a/b"; }},
        {"c negative", [](RunConfig& c) { c.synthesizers[1].c = -0.1; }},
        {"sigmoid a 0", [](RunConfig& c) { c.synthesizers[3].sigmoidA = 0; }},
        {"sigmoid a negative", [](RunConfig& c) { c.synthesizers[3].sigmoidA = -3; }},
        {"M 0", [](RunConfig& c) { c.synthesizers[1].M = 0.0; }},
        {"M on marginal", [](RunConfig& c) { c.synthesizers[2].M = 3.0; }},
        {"source", [](RunConfig& c) { c.synthesizers[2].source = "both"; }},
        {"k", [](RunConfig& c) { c.synthesizers[5].k = 1.5; }},
        {"tolerance", [](RunConfig& c) { c.synthesizers[4].tolerance = 0; }},
        {"match and epsilon", [](RunConfig& c) { c.synthesizers[4].epsilon = 4.0; }},
        {"epsilon",
         [](RunConfig& c) {
             c.synthesizers[4].match.clear();
             c.synthesizers[4].epsilon = -1.0;
         }},
        {"no base", [](RunConfig& c) { c.synthesizers[5].base.clear(); }},
        {"name twice", [](RunConfig& c) { c.synthesizers[2].name = "LW"; }},
        {"match unknown", [](RunConfig& c) { c.synthesizers[4].match = "X"; }},
        {"match itself", [](RunConfig& c) { c.synthesizers[4].match = "EM"; }},
        {"match a topcode", [](RunConfig& c) { c.synthesizers[4].match = "TC"; }},
        {"base unweighted", [](RunConfig& c) { c.synthesizers[5].base = "U"; }},
        {"cycle",
         [](RunConfig& c) {
             c.synthesizers[4].match = "F";
             c.synthesizers[5].base = "EM";
         }},
        {"scaled without of", [](RunConfig& c) { c.synthesizers[6].of.reset(); }},
        {"scaled of scalar", [](RunConfig& c) { c.synthesizers[6].of = Scheme::Scalar; }},
        {"scaled target and scale", [](RunConfig& c) { c.synthesizers[6].scale = 0.5; }},
        {"scaled neither", [](RunConfig& c) { c.synthesizers[6].targetEpsilon.reset(); }},
        {"scaled target 0", [](RunConfig& c) { c.synthesizers[6].targetEpsilon = 0.0; }},
        {"scale above 1",
         [](RunConfig& c) {
             c.synthesizers[6].targetEpsilon.reset();
             c.synthesizers[6].scale = 1.5;
         }},
        {"target on lipschitz", [](RunConfig& c) { c.synthesizers[1].targetEpsilon = 5.0; }},
        {"M on scaled marginal",
         [](RunConfig& c) {
             c.synthesizers[6].of = Scheme::Marginal;
             c.synthesizers[6].M = 3.0;
         }},
        {"scaled every weight 0",
         [](RunConfig& c) {
             c.synthesizers[6].c = 0.5;
             c.synthesizers[6].g = -0.5;
         }},
        {"topcode q 1", [](RunConfig& c) { c.synthesizers[7].topcodeQ = 1.0; }},
        {"every weight 0",
         [](RunConfig& c) {
             c.synthesizers[1].c = 0.5;
             c.synthesizers[1].g = -0.5;
         }},
    };
    return all;
}

const data::Table& poissonTable() {
    static const auto table = data::makeExample(data::ExampleId::Poisson);
    return table;
}

}  // namespace

class TstValidate : public QObject {
    Q_OBJECT
  private slots:
    void validConfigurationPasses() {
        const RunConfig c = validConfig();
        const Status s = study::validate(c);
        QVERIFY2(s, s.message().c_str());
        auto parsed = study::parseRunConfig(study::toJson(c));
        QVERIFY2(parsed, parsed ? "" : parsed.message().c_str());
    }

    void eachRuleRefuses_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("message");  // the start of it
        auto row = [](const char* change, const QString& message) {
            QTest::newRow(change) << QString::fromLatin1(change) << message;
        };
        row("no path", "data: needs 'path', the data file");
        row("no target", "data: needs 'target', the sensitive variable");
        row("transform", "data: 'transform' must be none, log, log-shift or asinh");
        row("missing", "data: 'missing' must be \"error\" or \"listwise\"");
        row("target and targets",
            "data: give either 'target' (one sensitive variable) or 'targets' (several, in the "
            "order they are synthesized), not both");
        row("target twice",
            "data: 'targets' entry 3 'y' is listed twice; list each sensitive variable once");
        row("target empty", "data: 'targets' entry 2 is empty; name a column");
        row("target a predictor", "data: 'targets' entry 2 'z' is also a predictor");
        row("models for one target",
            "models: per-variable model settings go with several sensitive variables "
            "(data.targets)");
        row("models unknown", "models: 'w' is not one of data.targets (y, z)");
        row("models family",
            "models.z: 'family' must be normal, normal-mixture, poisson, negbin or "
            "poisson-means");
        row("models K", "models.z: 'K' must be at least 1");
        row("models tau", "models.z: 'tau' must be \"auto\", \"integrated\" or \"sampled\"");
        row("models transform", "models.z: 'transform' must be none, log, log-shift or asinh");
        row("models prior", "models.z: unknown hyperparameter 'tau_shape' (known: ");
        row("radii for one target",
            "risk: 'radii' (one radius per sensitive variable) goes with several sensitive "
            "variables (data.targets); for one, set 'radius'");
        row("radii unknown", "risk: 'radii' names 'w', which is not one of data.targets (y, z)");
        row("radii 0", "risk: 'radii' gives 'z' a radius that is not positive");
        row("models count transform",
            "models.z: a count model (poisson-means) models y as it is: set its 'transform' to "
            "\"none\"");
        row("tau",
            "model: 'tau' must be \"auto\" (integrated for one component, sampled for the "
            "mixture), \"integrated\" (tau_j integrated out of the sampler) or \"sampled\"");
        row("family",
            "model: 'family' must be normal, normal-mixture, poisson, negbin or "
            "poisson-means");
        row("K", "model: 'K' must be at least 1");
        row("chains", "mcmc: 'chains' is 0 but must be at least 1");
        row("draws", "mcmc: 'draws' is 0 but must be at least 1");
        row("warmup", "mcmc: 'warmup' is -1 but must be 0 or more");
        row("threads", "mcmc: 'threads' is 0 but must be at least 1");
        row("refit_warmup", "mcmc: 'refit_warmup' is -5 but must be 0 or more");
        row("thin", "mcmc: 'thin' is 0 but must be at least 1");
        row("max_treedepth", "mcmc: 'max_treedepth' is 31 but must be between 1 and 30");
        row("sampler",
            "mcmc: 'sampler' must be \"auto\" (the model's choice), \"nuts\" or "
            "\"gibbs\"");
        row("adapt_delta", "mcmc: 'adapt_delta' must be in (0, 1)");
        row("m", "synthesis: 'm' must be at least 1");
        row("radius", "risk: 'radius' must be positive");
        row("L", "risk: 'L' must be at least 1");
        row("quantile", "lipschitz: 'quantile' must be in (0, 1]");
        row("utility level", "utility: 'level' must be in (0, 1)");
        row("utility bootstrap", "utility: 'bootstrap' needs at least 2 replicates");
        row("utility regress",
            "utility: 'regress' names 'age', which is not one of data.predictors");
        row("no synthesizers", "'synthesizers' must be a non-empty list");
        row("no name", "synthesizers[1]: needs a 'name'");
        row("name a path", "synthesizers[2]: the name 'a/b' contains '/' (" +
                               QString::fromStdString(safeNameRule()) + ")");
        row("c negative", "synthesizers[1] 'LW': 'c' must not be negative");
        const QString sigmoid =
            "synthesizers[3] 'S': 'a' (the sigmoid's steepness) must be positive, such as 10";
        row("sigmoid a 0", sigmoid);
        row("sigmoid a negative", sigmoid);
        row("M 0", "synthesizers[1] 'LW': 'M' must be positive");
        row("M on marginal", "synthesizers[2] 'CW': 'M' applies to the lipschitz scheme only");
        row("source", "synthesizers[2] 'CW': 'source' must be \"data\" or \"synthetic\"");
        row("k", "synthesizers[5] 'F': 'k' must be in (0, 1] or \"auto\"");
        row("tolerance", "synthesizers[4] 'EM': 'tolerance' must be in (0, 1)");
        row("match and epsilon",
            "synthesizers[4] 'EM': a scalar weight needs exactly one of "
            "'match' (a synthesizer's name) or 'epsilon'");
        row("epsilon", "synthesizers[4] 'EM': 'epsilon' must be positive");
        row("no base",
            "synthesizers[5] 'F': re-weighting needs 'base': the weighted "
            "synthesizer to start from");
        row("name twice", "synthesizers[2] 'LW': the name is used twice");
        row("match unknown",
            "synthesizers[4] 'EM': 'match' names 'X', which is not a "
            "synthesizer of this run");
        row("match itself", "synthesizers[4] 'EM': 'match' cannot name itself");
        row("base unweighted",
            "synthesizers[5] 'F': 'base' must be a weighted synthesizer, not 'U' (unweighted)");
        row("cycle", "synthesizers: the 'match'/'base' references form a cycle");
        const QString scaled = "synthesizers[6] 'LWs': ";
        row("scaled without of",
            scaled + "a scaled scheme needs 'of': the vector scheme whose weights it scales");
        row("scaled of scalar", scaled +
                                    "'of' must be a vector scheme: lipschitz (LW; with 'M' for "
                                    "LW-M), marginal (CW), pairwise or sigmoid, not 'scalar'");
        const QString exactlyOne = scaled +
                                   "a scaled scheme needs exactly one of 'target_epsilon' (a is "
                                   "solved by refits) or 'scale' (a given, in (0, 1])";
        row("scaled target and scale", exactlyOne);
        row("scaled neither", exactlyOne);
        row("scaled target 0", scaled + "'target_epsilon' must be positive");
        row("scale above 1", scaled + "'scale' must be in (0, 1]");
        row("target on lipschitz",
            "synthesizers[1] 'LW': 'of', 'target_epsilon' and 'scale' belong to the scaled "
            "scheme");
        row("M on scaled marginal", scaled + "'M' applies to the lipschitz scheme only");
        row("scaled every weight 0",
            "synthesizer 'LWs' (scaled): c = 0.5, g = -0.5 gives every record weight 0");
        row("topcode q 1", "synthesizers[7] 'TC': 'q' (the top-coding quantile) must be in (0, 1)");
        row("match a topcode", "synthesizers[4] 'EM': 'match' names 'TC', a top-coding comparator");
        row("every weight 0",
            "synthesizer 'LW' (lipschitz): c = 0.5, g = -0.5 gives every "
            "record weight 0");
    }
    void eachRuleRefuses() {
        QFETCH(QString, change);
        QFETCH(QString, message);
        RunConfig bad = validConfig();
        changes().at(change)(bad);

        const Status s = study::validate(bad);
        QVERIFY2(!s, "accepted");
        QVERIFY2(QString::fromStdString(s.message()).startsWith(message), s.message().c_str());
        QVERIFY2(s.kind() == ErrorKind::InvalidInput, toString(s.kind()));

        // The parser reads the same configuration from JSON and refuses it alike.
        auto parsed = study::parseRunConfig(study::toJson(bad));
        QVERIFY2(!parsed, "the parser accepted it");
        QCOMPARE(QString::fromStdString(parsed.message()), QString::fromStdString(s.message()));
        QVERIFY(parsed.kind() == ErrorKind::InvalidInput);

        // The runner, given the configuration made in code (the GUI's way), refuses it
        // before any work: no progress is reported, nothing starts.
        int reports = 0;
        bool started = false;
        study::RunOptions options;
        options.progress = [&reports](const Progress&) {
            ++reports;
            return Continue::Yes;
        };
        options.started = [&started](const study::RunStart&) { started = true; };
        auto run = study::runStudy(bad, poissonTable(), options);
        QVERIFY2(!run, "the runner ran it");
        QCOMPARE(QString::fromStdString(run.message()), QString::fromStdString(s.message()));
        QVERIFY(run.kind() == ErrorKind::InvalidInput);
        QCOMPARE(reports, 0);
        QVERIFY(!started);
        // A study prepared for sweeps meets the same rules.
        auto prepared = study::prepareStudy(bad, poissonTable(), options);
        QVERIFY2(!prepared, "prepareStudy accepted it");
        QCOMPARE(QString::fromStdString(prepared.message()), QString::fromStdString(s.message()));
    }

    // "targets" lists several sensitive variables (the first is also data.target); one listed
    // is the same as "target"; "models" overrides `model` per variable and round-trips.
    void targetsInJson() {
        const std::string head = R"({"synthesizers": [{"name": "U", "scheme": "unweighted"}],
            "model": {"family": "normal", "priors": {"tau_scale": 2}},
            "mcmc": {"draws": 100}, )";
        auto one = study::parseRunConfig(head + R"("data": {"path": "a.csv", "targets": ["y"]}})");
        QVERIFY2(one, one ? "" : one.message().c_str());
        QCOMPARE(one->data.target, std::string("y"));
        QVERIFY(one->data.targets.empty());

        auto both = study::parseRunConfig(
            head + R"("data": {"path": "a.csv", "target": "y", "targets": ["y", "z"]}})");
        QVERIFY(!both);
        QCOMPARE(QString::fromStdString(both.message()),
                 "data: " + QString::fromLatin1(study::kTargetAndTargets));

        auto several =
            study::parseRunConfig(head + R"("data": {"path": "a.csv", "targets": ["y", "z", "w"]},
                "models": {"z": {"family": "normal-mixture", "K": 5, "priors": {"sigma_scale": 3},
                                 "transform": "asinh"}}})");
        QVERIFY2(several, several ? "" : several.message().c_str());
        QCOMPARE(several->data.target, std::string("y"));
        QCOMPARE(study::sensitiveVariables(*several), (std::vector<std::string>{"y", "z", "w"}));
        const auto z = study::modelFor(*several, "z");
        QCOMPARE(z.family, std::string("normal-mixture"));
        QCOMPARE(z.K, 5);
        QCOMPARE(z.priors.at("tau_scale"), 2.0);  // from model.priors
        QCOMPARE(z.priors.at("sigma_scale"), 3.0);
        QCOMPARE(study::transformFor(*several, "z"), std::string("asinh"));
        QCOMPARE(study::modelFor(*several, "w").family, std::string("normal"));
        QCOMPARE(study::transformFor(*several, "w"), std::string("none"));
        auto again = study::parseRunConfig(study::toJson(*several));
        QVERIFY2(again, again ? "" : again.message().c_str());
        QCOMPARE(study::toJson(*again), study::toJson(*several));
        QVERIFY(study::toJson(*several).find("\"target\"") == std::string::npos);
    }

    // A sweep's configuration has no synthesizers of its own; its sections meet the rules.
    void sectionsAloneNeedNoSynthesizers() {
        RunConfig c = validConfig();
        c.synthesizers.clear();
        QVERIFY(study::validateSections(c));
        c.mcmc.thin = 0;
        const Status s = study::validateSections(c);
        QVERIFY(!s);
        QCOMPARE(QString::fromStdString(s.message()),
                 QStringLiteral("mcmc: 'thin' is 0 but must be at least 1"));
    }
};

QTEST_APPLESS_MAIN(TstValidate)
#include "tst_validate.moc"
