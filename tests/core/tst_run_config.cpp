#include <QTest>

#include "ppsynth/common/safe_name.hpp"
#include "ppsynth/study/run_config.hpp"

using namespace ppsynth::study;

namespace {
const std::string kMinimal = R"({"data": {"path": "d.csv", "target": "y"}, "synthesizers": [)";

// Every field away from its default, so a field that the writer and the reader both leave
// out (and a text round trip cannot notice) comes back as the default and fails.
RunConfig everyFieldSet() {
    RunConfig c;
    auto& d = c.data;
    d.path = "d.csv";
    d.target = "y";
    d.predictors = {"age", "region"};
    d.known = {"region"};
    d.transform = "log";
    d.missing = "listwise";
    d.referenceLevels = {{"age", "65+"}};
    d.types = {{"age", "categorical"}};
    d.maxLevels = 7;
    d.read.csv.delimiter = '\t';
    d.read.csv.quote = '\'';
    d.read.csv.decimal = ',';
    d.read.csv.thousands = '.';
    d.read.csv.header = false;
    d.read.csv.encoding = "latin-1";
    d.read.csv.missingTokens = {"-9", ""};
    d.read.stat.encoding = "CP850";
    c.model = {"negbin", 3, {{"beta_scale", 2.5}}, "sampled"};
    auto& m = c.mcmc;
    m.chains = 3;
    m.warmup = 11;
    m.draws = 13;
    m.threads = 5;
    m.maxTreeDepth = 7;
    m.adaptDelta = 0.9;
    m.seed = 42;
    m.refitWarmup = 17;
    m.sampler = "nuts";
    m.thin = 2;
    c.synthesis.m = 6;
    c.risk = {0.3, false, 9, 0.4, 0.3, {}};
    c.lipschitz.quantile = 0.95;
    auto& u = c.utility;
    u.enabled = false;
    u.quantiles = {0.25};
    u.bootstrap = 50;
    u.regress = {{"age"}};
    u.pmse = false;
    u.level = 0.9;
    u.gridPoints = 51;
    SynthesizerConfig lw;
    lw.name = "LW";
    lw.scheme = Scheme::Lipschitz;
    lw.c = 0.5;
    lw.g = -0.1;
    lw.M = 3.0;
    SynthesizerConfig em;
    em.name = "EM";
    em.scheme = Scheme::Scalar;
    em.match = "LW";
    em.tolerance = 0.05;
    SynthesizerConfig fin;
    fin.name = "F";
    fin.scheme = Scheme::Reweight;
    fin.base = "LW";
    fin.k = 0.9;
    SynthesizerConfig pw;
    pw.name = "P";
    pw.scheme = Scheme::Pairwise;
    pw.source = "synthetic";
    SynthesizerConfig sg;
    sg.name = "S";
    sg.scheme = Scheme::Sigmoid;
    sg.sigmoidA = 5;
    SynthesizerConfig target;
    target.name = "E";
    target.scheme = Scheme::Scalar;
    target.epsilon = 4.0;
    c.synthesizers = {lw, em, fin, pw, sg, target};
    return c;
}

}  // namespace

// `field` is not its default in `set` and came back equal in `back`.
#define QCOMPARE_SET_FIELD(back, set, defaults, field)                              \
    do {                                                                            \
        QVERIFY2(!((set).field == (defaults).field), "still the default: " #field); \
        QVERIFY2((back).field == (set).field, "lost in the round trip: " #field);   \
    } while (false)

class TstRunConfig : public QObject {
    Q_OBJECT
  private slots:
    void contractExampleParses() {
        const std::string dir = PPSYNTH_TEST_DATA_DIR "/configs";
        auto c = loadRunConfig(dir + "/paper000_comparison.json");
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        QCOMPARE(c->data.path, dir + "/income_survey.csv");
        QCOMPARE(c->data.predictors.size(), std::size_t{10});
        QCOMPARE(c->data.known, (std::vector<std::string>{"gender", "age", "region"}));
        QCOMPARE(c->data.transform, std::string("log-shift"));
        QCOMPARE(c->model.family, std::string("normal-mixture"));
        QCOMPARE(c->model.K, 20);
        QCOMPARE(c->model.tau, std::string("auto"));  // the default
        QCOMPARE(c->mcmc.seed, std::uint64_t{7});
        QCOMPARE(c->synthesis.m, 20);
        QCOMPARE(c->risk.L, 20);
        QVERIFY(c->risk.percentage);
        QCOMPARE(c->synthesizers.size(), std::size_t{7});
        const auto* lwm = c->find("LW-M");
        QVERIFY(lwm && lwm->M && *lwm->M == 3.5);
        const auto* em = c->find("EM");
        QVERIFY(em->scheme == Scheme::Scalar);
        QCOMPARE(em->match, std::string("LW"));
        const auto* fin = c->find("LW_final");
        QVERIFY(!fin->k.has_value());
        QCOMPARE(c->find("Pairwise")->source, std::string("synthetic"));
    }
    void canonicalJsonRoundTrips() {
        auto c = loadRunConfig(PPSYNTH_TEST_DATA_DIR "/configs/paper000_comparison.json");
        const std::string once = toJson(*c);
        auto again = parseRunConfig(once);
        QVERIFY2(again.hasValue(), again.hasValue() ? "" : again.message().c_str());
        QCOMPARE(toJson(*again), once);
    }
    void everyFieldRoundTrips() {
        const RunConfig set = everyFieldSet(), defaults;
        auto parsed = parseRunConfig(toJson(set));
        QVERIFY2(parsed.hasValue(), parsed.hasValue() ? "" : parsed.message().c_str());
        const RunConfig& back = *parsed;
        QCOMPARE_SET_FIELD(back, set, defaults, data.path);
        QCOMPARE_SET_FIELD(back, set, defaults, data.target);
        QCOMPARE_SET_FIELD(back, set, defaults, data.predictors);
        QCOMPARE_SET_FIELD(back, set, defaults, data.known);
        QCOMPARE_SET_FIELD(back, set, defaults, data.transform);
        QCOMPARE_SET_FIELD(back, set, defaults, data.missing);
        QCOMPARE_SET_FIELD(back, set, defaults, data.referenceLevels);
        QCOMPARE_SET_FIELD(back, set, defaults, data.types);
        QCOMPARE_SET_FIELD(back, set, defaults, data.maxLevels);
        QCOMPARE_SET_FIELD(back, set, defaults, data.read.csv.delimiter);
        QCOMPARE_SET_FIELD(back, set, defaults, data.read.csv.quote);
        QCOMPARE_SET_FIELD(back, set, defaults, data.read.csv.decimal);
        QCOMPARE_SET_FIELD(back, set, defaults, data.read.csv.thousands);
        QCOMPARE_SET_FIELD(back, set, defaults, data.read.csv.header);
        QCOMPARE_SET_FIELD(back, set, defaults, data.read.csv.encoding);
        QCOMPARE_SET_FIELD(back, set, defaults, data.read.csv.missingTokens);
        QCOMPARE_SET_FIELD(back, set, defaults, data.read.stat.encoding);
        QCOMPARE_SET_FIELD(back, set, defaults, model.family);
        QCOMPARE_SET_FIELD(back, set, defaults, model.K);
        QCOMPARE_SET_FIELD(back, set, defaults, model.priors);
        QCOMPARE_SET_FIELD(back, set, defaults, model.tau);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.chains);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.warmup);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.draws);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.threads);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.maxTreeDepth);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.adaptDelta);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.seed);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.refitWarmup);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.sampler);
        QCOMPARE_SET_FIELD(back, set, defaults, mcmc.thin);
        QCOMPARE_SET_FIELD(back, set, defaults, synthesis.m);
        QCOMPARE_SET_FIELD(back, set, defaults, risk.radius);
        QCOMPARE_SET_FIELD(back, set, defaults, risk.percentage);
        QCOMPARE_SET_FIELD(back, set, defaults, risk.L);
        QCOMPARE_SET_FIELD(back, set, defaults, risk.threshold);
        QCOMPARE_SET_FIELD(back, set, defaults, risk.whackAMoleRise);
        QCOMPARE_SET_FIELD(back, set, defaults, lipschitz.quantile);
        QCOMPARE_SET_FIELD(back, set, defaults, utility.enabled);
        QCOMPARE_SET_FIELD(back, set, defaults, utility.quantiles);
        QCOMPARE_SET_FIELD(back, set, defaults, utility.bootstrap);
        QCOMPARE_SET_FIELD(back, set, defaults, utility.regress);
        QCOMPARE_SET_FIELD(back, set, defaults, utility.pmse);
        QCOMPARE_SET_FIELD(back, set, defaults, utility.level);
        QCOMPARE_SET_FIELD(back, set, defaults, utility.gridPoints);
        // Each synthesizer's own knobs, against a default synthesizer of its scheme.
        QCOMPARE(back.synthesizers.size(), set.synthesizers.size());
        const SynthesizerConfig none;
        const auto& s = set.synthesizers;
        const auto& b = back.synthesizers;
        for (std::size_t i = 0; i < s.size(); ++i) {
            QCOMPARE(b[i].name, s[i].name);
            QVERIFY(b[i].scheme == s[i].scheme);
        }
        QCOMPARE_SET_FIELD(b[0], s[0], none, c);
        QCOMPARE_SET_FIELD(b[0], s[0], none, g);
        QCOMPARE_SET_FIELD(b[0], s[0], none, M);
        QCOMPARE_SET_FIELD(b[1], s[1], none, match);
        QCOMPARE_SET_FIELD(b[1], s[1], none, tolerance);
        QCOMPARE_SET_FIELD(b[2], s[2], none, base);
        QCOMPARE_SET_FIELD(b[2], s[2], none, k);
        QCOMPARE_SET_FIELD(b[3], s[3], none, source);
        QCOMPARE_SET_FIELD(b[4], s[4], none, sigmoidA);
        QCOMPARE_SET_FIELD(b[5], s[5], none, epsilon);
    }
    // Without data.read a file is read as before the section existed: everything detected.
    void dataReadDefaultsDetect() {
        auto c = parseRunConfig(kMinimal + R"({"name": "U", "scheme": "unweighted"}]})");
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        const ppsynth::data::ReadOptions reader;
        const auto& read = c->data.read;
        QCOMPARE(read.csv.delimiter, reader.csv.delimiter);
        QCOMPARE(read.csv.quote, reader.csv.quote);
        QCOMPARE(read.csv.decimal, reader.csv.decimal);
        QCOMPARE(read.csv.thousands, reader.csv.thousands);
        QCOMPARE(read.csv.header, reader.csv.header);
        QCOMPARE(read.csv.encoding, reader.csv.encoding);
        QCOMPARE(read.csv.missingTokens, reader.csv.missingTokens);
        QCOMPARE(read.stat.encoding, reader.stat.encoding);
        const std::string text = toJson(*c);
        QVERIFY2(text.find(R"("delimiter": "auto")") != std::string::npos, text.c_str());
        QVERIFY2(text.find(R"("stat_encoding": "auto")") != std::string::npos, text.c_str());
        QVERIFY2(text.find(R"("thousands": "none")") != std::string::npos, text.c_str());
    }
    void dataReadSpellings() {
        auto c = parseRunConfig(R"({"data": {"path": "d.csv", "target": "y", "read": {
            "delimiter": ";", "decimal": ",", "missing_tokens": ["-9"], "encoding": "UTF-8",
            "stat_encoding": "WINDOWS-1252", "thousands": " "}},
            "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        QCOMPARE(c->data.read.csv.delimiter, ';');
        QCOMPARE(c->data.read.csv.decimal, ',');
        QCOMPARE(c->data.read.csv.thousands, ' ');
        QCOMPARE(c->data.read.csv.missingTokens, std::vector<std::string>{"-9"});
        QCOMPARE(c->data.read.csv.encoding, std::string("UTF-8"));
        QCOMPARE(c->data.read.stat.encoding, std::string("WINDOWS-1252"));
        QCOMPARE(c->data.read.csv.quote, '"');  // unset keys keep their defaults
        QVERIFY(c->data.read.csv.header);
    }
    // Seeds are unsigned 64-bit: toJson writes any of them, so the reader must take them.
    void largeSeedRoundTrips() {
        const std::uint64_t seed = (std::uint64_t{1} << 63) + 5;
        const std::string synth = R"({"name": "U", "scheme": "unweighted"}]})";
        auto c = parseRunConfig(R"({"data": {"path": "d.csv", "target": "y"},
            "mcmc": {"seed": 9223372036854775813}, "synthesizers": [)" +
                                synth);
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        QCOMPARE(c->mcmc.seed, seed);
        auto again = parseRunConfig(toJson(*c));
        QVERIFY2(again.hasValue(), again.hasValue() ? "" : again.message().c_str());
        QCOMPARE(again->mcmc.seed, seed);
        auto negative = parseRunConfig(R"({"data": {"path": "d.csv", "target": "y"},
            "mcmc": {"seed": -1}, "synthesizers": [)" +
                                       synth);
        QVERIFY(!negative.hasValue());
        QCOMPARE(negative.message(), std::string("mcmc: 'seed' must not be negative"));
        auto huge = parseRunConfig(R"({"data": {"path": "d.csv", "target": "y"},
            "mcmc": {"chains": 3000000000}, "synthesizers": [)" +
                                   synth);
        QVERIFY(!huge.hasValue());
        QCOMPARE(huge.message(), std::string("mcmc: 'chains' must be at most 2147483647"));
    }
    void tauHandlingRoundTrips() {
        auto c = parseRunConfig(
            R"({"data": {"path": "x.csv", "target": "y"}, "model": {"tau": "sampled"},
                "synthesizers": [{"name": "U", "scheme": "unweighted"}]})");
        QVERIFY(c.hasValue());
        QCOMPARE(c->model.tau, std::string("sampled"));
        QCOMPARE(parseRunConfig(toJson(*c))->model.tau, std::string("sampled"));
    }
    void referencesRunFirst() {
        const std::string text = kMinimal +
                                 R"({"name": "EM", "scheme": "scalar", "match": "LW"},
            {"name": "F", "scheme": "reweight", "base": "LW"},
            {"name": "LW", "scheme": "lipschitz"}]})";
        auto c = parseRunConfig(text);
        QVERIFY(c.hasValue());
        QCOMPARE(executionOrder(*c), (std::vector<std::size_t>{2, 0, 1}));
    }
    void badConfigurations_data() {
        QTest::addColumn<QString>("synthesizers");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown scheme")
            << R"({"name": "A", "scheme": "magic"})"
            << "synthesizers[0] 'A': unknown scheme 'magic' (use unweighted, lipschitz, "
               "marginal, pairwise, scalar, reweight, sigmoid, scaled or topcode)";
        QTest::newRow("typo key")
            << R"({"name": "A", "scheme": "lipschitz", "cc": 1})"
            << "synthesizers[0] 'A': unknown key 'cc' (known keys: M, a, base, c, epsilon, "
               "g, k, match, name, of, q, scale, scheme, source, target_epsilon, tolerance)";
        QTest::newRow("missing match")
            << R"({"name": "EM", "scheme": "scalar", "match": "LW2"})"
            << "synthesizers[0] 'EM': 'match' names 'LW2', which is not a synthesizer of "
               "this run";
        QTest::newRow("both match and epsilon")
            << R"({"name": "LW", "scheme": "lipschitz"}, {"name": "EM", "scheme": "scalar", "match": "LW", "epsilon": 4})"
            << "synthesizers[1] 'EM': a scalar weight needs exactly one of 'match' (a "
               "synthesizer's name) or "
               "'epsilon'";
        // Names become file names of the run folder: one that is a path is refused.
        QTest::newRow("name is a path")
            << R"({"name": "../../bundle/data/leak", "scheme": "lipschitz"})"
            << "synthesizers[0]: the name '../../bundle/data/leak' starts with '.' (" +
                   QString::fromStdString(ppsynth::safeNameRule()) + ")";
        QTest::newRow("name holds a slash")
            << R"({"name": "LW/x", "scheme": "lipschitz"})"
            << "synthesizers[0]: the name 'LW/x' contains '/' (" +
                   QString::fromStdString(ppsynth::safeNameRule()) + ")";
        QTest::newRow("name holds a newline")
            << R"({"name": "LW\nx", "scheme": "lipschitz"})"
            << "synthesizers[0]: the name 'LW\\x0Ax' contains a control character (" +
                   QString::fromStdString(ppsynth::safeNameRule()) + ")";
        QTest::newRow("duplicate name")
            << R"({"name": "A", "scheme": "unweighted"}, {"name": "A", "scheme": "lipschitz"})"
            << "synthesizers[1] 'A': the name is used twice";
        QTest::newRow("k out of range")
            << R"({"name": "LW", "scheme": "lipschitz"}, {"name": "F", "scheme": "reweight", "base": "LW", "k": 1.5})"
            << "synthesizers[1] 'F': 'k' must be in (0, 1] or \"auto\"";
        QTest::newRow("reweight unweighted")
            << R"({"name": "U", "scheme": "unweighted"}, {"name": "F", "scheme": "reweight", "base": "U"})"
            << "synthesizers[1] 'F': 'base' must be a weighted synthesizer, not 'U' "
               "(unweighted)";
        QTest::newRow("M on marginal")
            << R"({"name": "CW", "scheme": "marginal", "M": 3})"
            << "synthesizers[0] 'CW': 'M' applies to the lipschitz scheme only";
        QTest::newRow("cycle")
            << R"({"name": "A", "scheme": "scalar", "match": "B"}, {"name": "B", "scheme": "reweight", "base": "A"})"
            << "synthesizers: the 'match'/'base' references form a cycle";
        QTest::newRow("bad source")
            << R"({"name": "CW", "scheme": "marginal", "source": "both"})"
            << "synthesizers[0] 'CW': 'source' must be \"data\" or \"synthetic\"";
        // The sigmoid's c_i rises along a logistic curve in IR_i only for a > 0.
        for (const char* a : {"0", "-3", "-0.0"})
            QTest::newRow(qPrintable(QStringLiteral("sigmoid a = %1").arg(QLatin1String(a))))
                << QStringLiteral(R"({"name": "Sigmoid", "scheme": "sigmoid", "a": %1})")
                       .arg(QLatin1String(a))
                << "synthesizers[0] 'Sigmoid': 'a' (the sigmoid's steepness) must be positive, "
                   "such as 10; a = 0 gives every record the same scale c_i and a negative a "
                   "gives the riskiest records the mildest one";
        QTest::newRow("c wrong type") << R"({"name": "LW", "scheme": "lipschitz", "c": "high"})"
                                      << "synthesizers[0] 'LW': 'c' must be a number";
        // JSON readers keep one of two equal keys silently; a configuration refuses them.
        QTest::newRow("key twice in a synthesizer")
            << R"({"name": "U", "scheme": "unweighted"}, {"name": "LW", "scheme": "lipschitz"},
                  {"name": "LW2", "scheme": "lipschitz", "c": 0.5, "g": 0, "c": 0.7})"
            << "synthesizers[2]: key 'c' appears twice; delete one of the two (otherwise only "
               "one of them would be read)";
        QTest::newRow("name twice")
            << R"({"name": "A", "scheme": "unweighted", "name": "B"})"
            << "synthesizers[0]: key 'name' appears twice; delete one of the two (otherwise "
               "only one of them would be read)";
    }
    void badConfigurations() {
        QFETCH(QString, synthesizers);
        QFETCH(QString, message);
        auto c = parseRunConfig(kMinimal + synthesizers.toStdString() + "]}");
        QVERIFY(!c.hasValue());
        QCOMPARE(QString::fromStdString(c.message()), message);
    }
    void badSections_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "{"
                                  << "the configuration is not valid JSON";
        QTest::newRow("no data") << R"({"synthesizers": []})"
                                 << "configuration: needs a 'data' section";
        QTest::newRow("no target")
            << R"({"data": {"path": "x.csv"}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "data: needs 'target', the sensitive variable";
        QTest::newRow("bad transform")
            << R"({"data": {"path": "x.csv", "target": "y", "transform": "sqrt"}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "data: 'transform' must be none, log, log-shift or asinh";
        auto badRead = [](const char* read) {
            return QStringLiteral(
                       R"({"data": {"path": "x.csv", "target": "y", "read": %1}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})")
                .arg(QString::fromUtf8(read));
        };
        QTest::newRow("two-character delimiter")
            << badRead(R"({"delimiter": "ab"})")
            << "data.read: 'delimiter' must be \"auto\" or one character (such as \",\", \";\", "
               "\"\\t\" or \"|\")";
        QTest::newRow("line end delimiter")
            << badRead(R"({"delimiter": "\n"})")
            << "data.read: 'delimiter' must be \"auto\" or one character (such as \",\", \";\", "
               "\"\\t\" or \"|\")";
        QTest::newRow("delimiter is the quote") << badRead(R"({"delimiter": "'", "quote": "'"})")
                                                << "data.read: 'delimiter' and 'quote' must differ";
        QTest::newRow("empty quote") << badRead(R"({"quote": ""})")
                                     << "data.read: 'quote' must be one character (such as "
                                        "\"\\\"\" or \"'\")";
        QTest::newRow("bad decimal") << badRead(R"({"decimal": "comma"})")
                                     << "data.read: 'decimal' must be \"auto\", \".\" or \",\"";
        QTest::newRow("decimal is the delimiter")
            << badRead(R"({"delimiter": ",", "decimal": ","})")
            << "data.read: 'decimal' and 'delimiter' are both ','";
        QTest::newRow("bad thousands")
            << badRead(R"({"thousands": "_"})")
            << "data.read: 'thousands' must be \"none\" or the separator of digit groups: "
               "\",\", \".\", \" \" (space) or \"'\"";
        QTest::newRow("thousands is the decimal")
            << badRead(R"({"decimal": ".", "thousands": "."})")
            << "data.read: 'thousands' and 'decimal' are both '.'; they must differ";
        QTest::newRow("thousands is the quote")
            << badRead(R"({"quote": "'", "delimiter": ";", "thousands": "'"})")
            << "data.read: 'thousands' and 'quote' are both \"'\"";
        QTest::newRow("unknown encoding")
            << badRead(R"({"encoding": "utf-16"})")
            << "data.read: 'encoding' must be auto, utf-8 or windows-1252 (also spelt latin-1)";
        QTest::newRow("header not a flag")
            << badRead(R"({"header": "yes"})") << "data.read: 'header' must be true or false";
        QTest::newRow("token not text")
            << badRead(R"({"missing_tokens": [-9]})")
            << "data.read: 'missing_tokens' must be a list of texts (cells equal to one are "
               "missing)";
        QTest::newRow("bad stat encoding")
            << badRead(R"({"stat_encoding": "windows 1252"})")
            << "data.read: 'stat_encoding' must be \"auto\" (what the file declares) or an "
               "encoding name such as WINDOWS-1252 or CP850";
        QTest::newRow("typo in data.read")
            << badRead(R"({"delimeter": ";"})")
            << "data.read: unknown key 'delimeter' (known keys: decimal, delimiter, encoding, "
               "header, missing_tokens, quote, stat_encoding, thousands)";
        QTest::newRow("read not an object") << badRead(R"(";")") << "data.read: must be an object";
        QTest::newRow("bad family")
            << R"({"data": {"path": "x.csv", "target": "y"}, "model": {"family": "gamma"}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "model: 'family' must be normal, normal-mixture, poisson, negbin or poisson-means";
        QTest::newRow("bad tau handling")
            << R"({"data": {"path": "x.csv", "target": "y"}, "model": {"tau": "fixed"}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "model: 'tau' must be \"auto\" (integrated for one component, sampled for the "
               "mixture), \"integrated\" (tau_j integrated out of the sampler) or "
               "\"sampled\"";
        QTest::newRow("fractional chains")
            << R"({"data": {"path": "x.csv", "target": "y"}, "mcmc": {"chains": 2.5}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "mcmc: 'chains' must be a whole number";
        QTest::newRow("bad radius mode")
            << R"({"data": {"path": "x.csv", "target": "y"}, "risk": {"radius_mode": "relative"}, "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "risk: 'radius_mode' must be \"percentage\" or \"absolute\"";
        QTest::newRow("empty synthesizers")
            << R"({"data": {"path": "x.csv", "target": "y"}, "synthesizers": []})"
            << "'synthesizers' must be a non-empty list";

        // A key given twice, wherever it is, is named with where it is.
        const QString twice = "; delete one of the two (otherwise only one of them would be read)";
        const QString minimal =
            R"("data": {"path": "x.csv", "target": "y"}, "synthesizers": [{"name": "U", "scheme": "unweighted"}])";
        QTest::newRow("top-level key twice")
            << R"({"mcmc": {"seed": 1}, )" + minimal + R"(, "mcmc": {"seed": 2}})"
            << "configuration: key 'mcmc' appears twice" + twice;
        QTest::newRow("key twice in a section")
            << "{" + minimal + R"(, "mcmc": {"seed": 1, "draws": 10, "seed": 2}})"
            << "mcmc: key 'seed' appears twice" + twice;
        QTest::newRow("key twice in data.read")
            << badRead(R"({"delimiter": ";", "delimiter": ","})")
            << "data.read: key 'delimiter' appears twice" + twice;
        QTest::newRow("column twice in data.types")
            << R"({"data": {"path": "x.csv", "target": "y", "types": {"age": "numeric", "age": "categorical"}},
                  "synthesizers": [{"name": "U", "scheme": "unweighted"}]})"
            << "data.types: key 'age' appears twice" + twice;
        QTest::newRow("comment twice") << R"({"comment": "a", "comment": "b", )" + minimal + "}"
                                       << "configuration: key 'comment' appears twice" + twice;
        QTest::newRow("key twice after comments")
            << "// a note\n{" + minimal + R"(, /* another */ "risk": {"L": 2, "L": 3}})"
            << "risk: key 'L' appears twice" + twice;

        // The MCMC bounds name the key out of range and what it must be.
        auto mcmc = [&minimal](const char* keys) {
            return "{" + minimal + R"(, "mcmc": )" + QString::fromUtf8(keys) + "}";
        };
        QTest::newRow("chains 0") << mcmc(R"({"chains": 0})")
                                  << "mcmc: 'chains' is 0 but must be at least 1";
        QTest::newRow("draws 0") << mcmc(R"({"draws": 0})")
                                 << "mcmc: 'draws' is 0 but must be at least 1";
        QTest::newRow("warmup -1")
            << mcmc(R"({"warmup": -1})") << "mcmc: 'warmup' is -1 but must be 0 or more";
        QTest::newRow("threads 0")
            << mcmc(R"({"threads": 0})") << "mcmc: 'threads' is 0 but must be at least 1";
        QTest::newRow("refit_warmup -5") << mcmc(R"({"refit_warmup": -5})")
                                         << "mcmc: 'refit_warmup' is -5 but must be 0 or more";
        QTest::newRow("thin 0") << mcmc(R"({"thin": 0})")
                                << "mcmc: 'thin' is 0 but must be at least 1";
        QTest::newRow("max_treedepth 0") << mcmc(R"({"max_treedepth": 0})")
                                         << "mcmc: 'max_treedepth' is 0 but must be between 1 "
                                            "and 30";
        QTest::newRow("max_treedepth 31") << mcmc(R"({"max_treedepth": 31})")
                                          << "mcmc: 'max_treedepth' is 31 but must be between 1 "
                                             "and 30";
        QTest::newRow("first of two out of range")
            << mcmc(R"({"thin": 0, "chains": 0})") << "mcmc: 'chains' is 0 but must be at least 1";
    }
    void badSections() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        auto c = parseRunConfig(json.toStdString());
        QVERIFY(!c.hasValue());
        QCOMPARE(QString::fromStdString(c.message()), message);
    }
    void dataReadRefusesAKeyTwice() {
        auto r = parseDataRead(R"({"header": false, "header": true})");
        QVERIFY(!r.hasValue());
        QCOMPARE(QString::fromStdString(r.message()),
                 QStringLiteral("data.read: key 'header' appears twice; delete one of the two "
                                "(otherwise only one of them would be read)"));
    }
    // Equal keys in different objects, and equal values, are not duplicates.
    void equalKeysInDifferentObjectsAreFine() {
        auto c = parseRunConfig(
            R"({"data": {"path": "x.csv", "target": "y", "types": {"y": "numeric"}},
                "mcmc": {"seed": 1}, "risk": {"L": 2},
                "synthesizers": [{"name": "U", "scheme": "unweighted"},
                                 {"name": "LW", "scheme": "lipschitz", "c": 0.5},
                                 {"name": "LW2", "scheme": "lipschitz", "c": 0.5}]})");
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
    }
    void commentsAreAllowed() {
        auto c = parseRunConfig(
            kMinimal +
            R"({"name": "U", "scheme": "unweighted", "comment": "baseline", "_x": 1}]})");
        QVERIFY(c.hasValue());
    }
};

QTEST_APPLESS_MAIN(TstRunConfig)
#include "tst_run_config.moc"
