// Release bundles: layout, checksums, re-import per format, the leak scan, atomic and
// cancelled exports, overwrite rules, manifest values and the README's arithmetic.
#include <QRegularExpression>
#include <QTest>
#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "../common/near.hpp"
#include "ppsynth/common/sha256.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/number_format.hpp"
#include "ppsynth/release/bundle.hpp"
#include "ppsynth/release/from_run.hpp"
#include "ppsynth/study/run_output.hpp"
#include "release/commit.hpp"  // white-box: a rename that fails
#include "test_files.hpp"

using namespace ppsynth;
using namespace ppsynth::data;
using namespace ppsynth::release;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(ppsynth::data::FileFormat)

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kRows = 12;

fs::path outputDir(const std::string& sub) {
    const char* env = std::getenv("PPSYNTH_TEST_OUTPUT");
    fs::path dir =
        fs::path(env && *env ? env : fs::temp_directory_path().string()) / "release" / sub;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// The confidential y: values whose text and bytes cannot appear by chance.
double originalY(std::size_t i) {
    return 73519.8462 + 1013.0377 * static_cast<double>(i);
}
double alphaValue(std::size_t i) {
    return 0.6180339 - 0.0271828 * static_cast<double>(i);
}
// Synthetic y of dataset l.
double syntheticY(std::size_t l, std::size_t i) {
    return 41000.25 + 250.5 * static_cast<double>(i) + 1000.0 * static_cast<double>(l);
}

// One dataset as a run would hand it over: predictors, the synthetic target and, beside
// them, confidential columns that must never reach the bundle.
Table runTable(std::size_t l) {
    std::vector<double> age, visits, y, yOrig, alpha, ir, f;
    std::vector<std::uint8_t> ageMissing(kRows, 0);
    std::vector<std::int32_t> region;
    for (std::size_t i = 0; i < kRows; ++i) {
        age.push_back(20.5 + static_cast<double>(i));
        visits.push_back(static_cast<double>(i % 4));
        y.push_back(syntheticY(l, i));
        yOrig.push_back(originalY(i));
        alpha.push_back(alphaValue(i));
        ir.push_back(0.9137 - 0.031 * static_cast<double>(i));
        f.push_back(17.4242 + static_cast<double>(i));
        region.push_back(i == 3 ? Column::kMissingCode : static_cast<std::int32_t>(i % 3));
    }
    ageMissing[5] = 1;
    age[5] = kNaN;
    Table t;
    auto add = [&](Column c) {
        const Status s = t.addColumn(std::move(c));
        if (!s) qFatal("%s", s.message().c_str());
    };
    add(Column::numeric("age", age, ageMissing));
    add(Column::categorical("region", region,
                            {{"North", "North"}, {"Süd", "Süd"}, {"East, far", "East, far"}}));
    add(Column::count("visits", visits));
    add(Column::numeric("alpha", alpha));
    add(Column::numeric("income", y));
    add(Column::numeric("income_original", yOrig));
    add(Column::numeric("ir_record", ir));
    add(Column::numeric("f_lipschitz", f));
    return t;
}

const std::vector<std::string> kReleased = {"income", "age", "region", "visits"};

ReleaseRequest makeRequest(std::size_t m, std::vector<FileFormat> formats) {
    ReleaseRequest r;
    for (std::size_t l = 0; l < m; ++l) r.datasets.push_back(runTable(l));
    r.target = "income";
    r.releasedColumns = kReleased;
    r.formats = std::move(formats);
    Manifest& mf = r.manifest;
    mf.createdUtc = "2026-11-22T05:35:57Z";
    mf.model.family = "normal-mixture";
    mf.model.priors = {{"tau_df", 3.0}, {"gamma_shape", 1.0}};
    mf.model.K = 20;
    mf.transform.name = "log-shift";
    mf.transform.shift = 1.5;
    mf.mechanism.synthesizer = "LW 0.6";
    mf.mechanism.scheme = "lipschitz";
    mf.mechanism.knobs = {{"c", 0.6}, {"g", -0.1}};
    mf.sampling.chains = 4;
    mf.sampling.drawsPerChain = 500;
    mf.seeds.mcmc = 18446744073709551557ull;  // above 2^53: must survive JSON exactly
    mf.seeds.synthesis = 7;
    mf.privacy.epsilonPerDataset = 3.25;
    mf.privacy.deltaEstimate = "0.95-quantile over draws";
    mf.notes = {"n after listwise deletion"};
    return r;
}

// Anything beside the target that the writer may have left: temporaries and old bundles.
std::vector<std::string> leftovers(const fs::path& target) {
    std::vector<std::string> found;
    const std::string stem = target.filename().string() + ".";
    for (const auto& e : fs::directory_iterator(target.parent_path()))
        if (e.path().filename().string().rfind(stem, 0) == 0) found.push_back(e.path().string());
    return found;
}

// An old bundle at dir/bundle and the new one written beside it, as commitBundle finds them;
// their manifests read "old" and "new". Returns (target, temporary).
std::pair<fs::path, fs::path> oldAndNewBundle(const fs::path& dir) {
    const fs::path target = dir / "bundle", temp = dir / "bundle.tmp-test";
    fs::create_directories(target);
    fs::create_directories(temp);
    std::ofstream(target / "manifest.json") << "old";
    std::ofstream(temp / "manifest.json") << "new";
    return {target, temp};
}

// The label a person reads in a categorical cell ("" when missing).
std::vector<std::string> labels(const Column& c) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < c.size(); ++i)
        out.push_back(c.isMissing(i) ? "" : c.levels()[static_cast<std::size_t>(c.code(i))].label);
    return out;
}

std::string littleEndianBytes(double v) {
    std::string s(sizeof v, '\0');
    std::memcpy(s.data(), &v, sizeof v);
    return s;
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// Dataset l's number as R's sprintf("%0<width>d") and Stata's display %0<width>.0f print it.
std::string zeroPadded(std::size_t l, int width) {
    std::string s = std::to_string(l);
    if (static_cast<int>(s.size()) < width)
        s.insert(0, static_cast<std::size_t>(width - static_cast<int>(s.size())), '0');
    return s;
}

// The data files with extension `ext` in a bundle: "data/synthetic_001.csv", ...
std::set<std::string> dataFilesWith(const fs::path& bundle, const std::string& ext) {
    std::set<std::string> out;
    for (const auto& f : test::filesUnder(bundle))
        if (f.rfind("data/", 0) == 0 && f.size() > ext.size() &&
            f.compare(f.size() - ext.size() - 1, std::string::npos, "." + ext) == 0)
            out.insert(f);
    return out;
}

// A finished run as manifestFromRun sees it: configuration and summaries, no records.
study::RunResult runWithSynthesizers() {
    using study::Scheme;
    study::RunResult run;
    auto& c = run.config;
    c.data.target = "income";
    c.data.predictors = {"sex", "region", "age"};
    c.data.known = {"sex", "region"};
    c.model.family = "normal";
    c.risk.radius = 0.15;
    c.risk.percentage = false;
    c.risk.L = 12;
    auto add = [&](const std::string& name, Scheme scheme) -> study::SynthesizerConfig& {
        study::SynthesizerConfig sc;
        sc.name = name;
        sc.scheme = scheme;
        study::SynthesizerResult r;
        r.name = name;
        r.scheme = scheme;
        r.epsilon.perDataset = 2.5;
        r.deltaMethod = "max over draws";
        c.synthesizers.push_back(std::move(sc));
        run.synthesizers.push_back(std::move(r));
        return c.synthesizers.back();
    };
    auto& lw = add("LW-M", Scheme::Lipschitz);
    lw.c = 0.6;
    lw.g = -0.1;
    lw.M = 3.5;
    auto& cw = add("CW", Scheme::Marginal);
    cw.c = 0.7;
    cw.g = 0.05;
    cw.source = "data";
    auto& pairwise = add("Pairwise", Scheme::Pairwise);
    pairwise.c = 0.9;
    pairwise.source = "synthetic";
    auto& sigmoid = add("Sigmoid", Scheme::Sigmoid);
    sigmoid.source = "synthetic";
    sigmoid.sigmoidA = 8;
    add("EM", Scheme::Scalar).match = "LW-M";
    run.synthesizers.back().details =
        study::ScalarDetails{.a = 0.42, .noiseLimited = false, .converged = false, .tries = {}};
    auto& lwFinal = add("LW-M final", Scheme::Reweight);
    lwFinal.base = "LW-M";
    lwFinal.tolerance = 0.03;
    run.synthesizers.back().details = study::ReweightDetails{.k = 0.93, .tries = {}};
    add("CW final", Scheme::Reweight).base = "CW";
    run.synthesizers.back().details = study::ReweightDetails{.k = 0.88, .tries = {}};
    add("EM final", Scheme::Reweight).base = "EM";
    run.synthesizers.back().details = study::ReweightDetails{.k = 0.97, .tries = {}};
    auto& budget = add("EM budget", Scheme::Scalar);
    budget.epsilon = 3.0;
    budget.tolerance = 0.05;
    run.synthesizers.back().details =
        study::ScalarDetails{.a = 0.31, .noiseLimited = false, .converged = false, .tries = {}};
    return run;
}

bool haveSha256sum() {
    return std::system("command -v sha256sum > /dev/null 2>&1") == 0;
}

}  // namespace

class TstRelease : public QObject {
    Q_OBJECT
  private slots:
    void layout() {
        const fs::path bundle = outputDir("layout") / "bundle";
        const ReleaseRequest r =
            makeRequest(3, {FileFormat::Csv, FileFormat::Sav, FileFormat::Dta});
        const Status s = writeReleaseBundle(r, bundle.string());
        QVERIFY2(s.isOk(), s.message().c_str());
        const std::vector<std::string> expected = {"README.txt",
                                                   "SHA256SUMS",
                                                   "data/synthetic_01.csv",
                                                   "data/synthetic_01.dta",
                                                   "data/synthetic_01.sav",
                                                   "data/synthetic_02.csv",
                                                   "data/synthetic_02.dta",
                                                   "data/synthetic_02.sav",
                                                   "data/synthetic_03.csv",
                                                   "data/synthetic_03.dta",
                                                   "data/synthetic_03.sav",
                                                   "manifest.json"};
        QCOMPARE(test::filesUnder(bundle), expected);
        QVERIFY(leftovers(bundle).empty());
    }

    void fileNames() {
        QCOMPARE(datasetFileName(0, 5, FileFormat::Csv), std::string("synthetic_01.csv"));
        QCOMPARE(datasetFileName(9, 20, FileFormat::Sav), std::string("synthetic_10.sav"));
        QCOMPARE(datasetFileName(6, 120, FileFormat::Dta), std::string("synthetic_007.dta"));
    }

    void checksums() {
        const fs::path bundle = outputDir("checksums") / "bundle";
        const Status s =
            writeReleaseBundle(makeRequest(2, {FileFormat::Csv, FileFormat::Dta}), bundle.string());
        QVERIFY2(s.isOk(), s.message().c_str());
        std::istringstream sums(test::slurp(bundle / "SHA256SUMS"));
        std::set<std::string> listed;
        std::string line;
        while (std::getline(sums, line)) {
            QCOMPARE(line.size() > 66, true);
            QCOMPARE(line.substr(64, 2), std::string("  "));
            const std::string name = line.substr(66);
            auto hex = sha256FileHex((bundle / name).string());
            QVERIFY2(hex.hasValue(), name.c_str());
            QVERIFY2(*hex == line.substr(0, 64), name.c_str());
            listed.insert(name);
        }
        std::set<std::string> all;
        for (const auto& f : test::filesUnder(bundle))
            if (f != "SHA256SUMS") all.insert(f);
        QVERIFY(listed == all);

        if (!haveSha256sum()) QSKIP("sha256sum is not installed; recomputed checksums agree");
        const std::string check =
            "cd '" + bundle.string() + "' && sha256sum -c --quiet SHA256SUMS > /dev/null 2>&1";
        QCOMPARE(std::system(check.c_str()), 0);
        // A changed byte must be caught: the check above can fail.
        std::ofstream(bundle / "README.txt", std::ios::app) << " ";
        QVERIFY(std::system(check.c_str()) != 0);
    }

    void reimport_data() {
        QTest::addColumn<FileFormat>("format");
        QTest::newRow("csv") << FileFormat::Csv;
        QTest::newRow("sav") << FileFormat::Sav;
        QTest::newRow("dta") << FileFormat::Dta;
    }
    // Every dataset reads back with the released columns only, in the allow-list's order,
    // with equal values, missing cells and category labels. (.sav/.dta renumber text level
    // values to 1..K, and CSV stores labels, so labels are what is compared.)
    void reimport() {
        QFETCH(FileFormat, format);
        const fs::path bundle =
            outputDir(std::string("reimport_") + std::string(toString(format))) / "bundle";
        const ReleaseRequest r = makeRequest(3, {format});
        const Status s = writeReleaseBundle(r, bundle.string());
        QVERIFY2(s.isOk(), s.message().c_str());
        for (std::size_t l = 0; l < 3; ++l) {
            const fs::path file = bundle / "data" / datasetFileName(l, 3, format);
            auto back = readTable(file.string());
            QVERIFY2(back.hasValue(), back.hasValue() ? "" : back.message().c_str());
            QCOMPARE(back->columnCount(), kReleased.size());
            QCOMPARE(back->rowCount(), kRows);
            for (std::size_t j = 0; j < kReleased.size(); ++j) {
                const Column& got = back->column(j);
                const Column& want = *r.datasets[l].find(kReleased[j]);
                QCOMPARE(got.name(), want.name());
                if (want.type() == ColumnType::Categorical) {
                    QVERIFY2(got.type() == ColumnType::Categorical, got.name().c_str());
                    QCOMPARE(labels(got), labels(want));
                    if (format != FileFormat::Csv) {
                        QCOMPARE(got.levels().size(), want.levels().size());
                        for (std::size_t k = 0; k < want.levels().size(); ++k)
                            QCOMPARE(got.levels()[k].label, want.levels()[k].label);
                    }
                    continue;
                }
                QVERIFY2(got.type() == ColumnType::Numeric || got.type() == ColumnType::Count,
                         got.name().c_str());
                for (std::size_t i = 0; i < kRows; ++i) {
                    QCOMPARE(got.isMissing(i), want.isMissing(i));
                    if (!want.isMissing(i)) QCOMPARE(got.value(i), want.value(i));
                }
            }
        }
    }

    // R's names ("visits.per.year") are no Stata names: the .dta files name the column as
    // Stata accepts it, the .csv and .sav keep it, and the manifest and README say so.
    void namesAFormatRefusesAreChanged() {
        ReleaseRequest r = makeRequest(1, {FileFormat::Csv, FileFormat::Sav, FileFormat::Dta});
        r.datasets[0].column(2).setName("visits.per.year");
        r.releasedColumns = {"income", "age", "region", "visits.per.year"};
        const fs::path bundle = outputDir("renamed") / "bundle";
        const Status s = writeReleaseBundle(r, bundle.string());
        QVERIFY2(s.isOk(), s.message().c_str());
        auto dta = readTable((bundle / "data" / datasetFileName(0, 1, FileFormat::Dta)).string());
        auto sav = readTable((bundle / "data" / datasetFileName(0, 1, FileFormat::Sav)).string());
        QVERIFY(dta.hasValue() && sav.hasValue());
        QCOMPARE(dta->column(3).name(), std::string("visits_per_year"));
        QCOMPARE(sav->column(3).name(), std::string("visits.per.year"));
        for (std::size_t i = 0; i < kRows; ++i)
            QCOMPARE(dta->column(3).value(i), r.datasets[0].column(2).value(i));
        const auto manifest = nlohmann::json::parse(test::slurp(bundle / "manifest.json"));
        QCOMPARE(manifest["data"]["renamed_columns"].dump(),
                 std::string(R"({"dta":{"visits.per.year":"visits_per_year"}})"));
        QVERIFY(test::slurp(bundle / "README.txt")
                    .find("In the Stata (.dta) files some columns have other names, as that "
                          "format requires: visits.per.year is visits_per_year.") !=
                std::string::npos);

        // A renamed target: the README's Stata code (reading the .dta) uses the Stata name, the
        // R code (reading the .csv) the name as it was.
        ReleaseRequest t = makeRequest(1, {FileFormat::Csv, FileFormat::Dta});
        t.datasets[0].column(4).setName("income.usd");
        t.target = "income.usd";
        t.releasedColumns = {"income.usd", "age", "region", "visits"};
        const fs::path second = outputDir("renamed_target") / "bundle";
        const Status st = writeReleaseBundle(t, second.string());
        QVERIFY2(st.isOk(), st.message().c_str());
        const std::string readme = test::slurp(second / "README.txt");
        QVERIFY2(readme.find("quietly mean income_usd") != std::string::npos, readme.c_str());
        QVERIFY2(readme.find("_b[income_usd]") != std::string::npos, readme.c_str());
        QVERIFY2(readme.find("mean(d[[\"income.usd\"]])") != std::string::npos, readme.c_str());

        // A name R would rename on reading, or one with a quote: the R code reads the CSV
        // keeping names and indexes by the name as an R string.
        for (const auto& [name, inR] :
             {std::pair<std::string, std::string>{"2nd wave", "d[[\"2nd wave\"]]"},
              {"wave \"2\"", "d[[\"wave \\\"2\\\"\"]]"}}) {
            ReleaseRequest w = makeRequest(1, {FileFormat::Csv});
            w.datasets[0].column(4).setName(name);
            w.target = name;
            w.releasedColumns = {name, "age", "region", "visits"};
            const fs::path out = outputDir("r_names") / "bundle";
            const Status ws = writeReleaseBundle(w, out.string());
            QVERIFY2(ws.isOk(), ws.message().c_str());
            const std::string text = test::slurp(out / "README.txt");
            QVERIFY2(text.find("q[l] <- mean(" + inR + ")") != std::string::npos, text.c_str());
            QVERIFY(text.find("check.names = FALSE") != std::string::npos);
        }
    }

    // Dates read from SPSS (seconds since 14 October 1582, DATE11) stay dates in a run's
    // synthetic tables, the synthetic target's as much as a predictor's, and in a bundle's
    // .sav (as they were) and .dta (days since 1960, %td).
    void syntheticDatesKeepTheirFormat() {
        constexpr double kDay = 86400, kSpss2020 = (21989 + 137775) * kDay;  // 15 March 2020
        const TimeFormat date{TimeFormat::Family::Spss, "DATE11"};
        study::RunResult run;
        run.config.data.target = "interview";
        run.config.data.predictors = {"born"};
        run.inputs.keptRows = {0, 2};
        Column interview = Column::numeric("interview", {kSpss2020, kSpss2020, kSpss2020});
        interview.setTimeFormat(date);
        Column born = Column::numeric("born", {kSpss2020 - 9000 * kDay, 0, kSpss2020 - 20 * kDay});
        born.setTimeFormat(date);
        Table input;
        QVERIFY(input.addColumn(interview).isOk());
        QVERIFY(input.addColumn(born).isOk());
        auto synthetic =
            study::syntheticTable(run, input, {kSpss2020 + kDay, kSpss2020 + 2 * kDay});
        QVERIFY2(synthetic.hasValue(), synthetic.hasValue() ? "" : synthetic.message().c_str());
        QVERIFY(synthetic->find("interview")->timeFormat() == date);
        QVERIFY(synthetic->find("born")->timeFormat() == date);

        ReleaseRequest r = makeRequest(1, {FileFormat::Sav, FileFormat::Dta});
        r.datasets = {*synthetic};
        r.target = "interview";
        r.releasedColumns = {"interview", "born"};
        const fs::path bundle = outputDir("dates") / "bundle";
        const Status s = writeReleaseBundle(r, bundle.string());
        QVERIFY2(s.isOk(), s.message().c_str());
        auto sav = readTable((bundle / "data" / datasetFileName(0, 1, FileFormat::Sav)).string());
        QVERIFY2(sav.hasValue(), sav.hasValue() ? "" : sav.message().c_str());
        QVERIFY(*sav == *synthetic);
        auto dta = readTable((bundle / "data" / datasetFileName(0, 1, FileFormat::Dta)).string());
        QVERIFY2(dta.hasValue(), dta.hasValue() ? "" : dta.message().c_str());
        const TimeFormat stataDate{TimeFormat::Family::Stata, "%td"};
        QVERIFY(dta->find("interview")->timeFormat() == stataDate);
        QVERIFY(dta->find("born")->timeFormat() == stataDate);
        QCOMPARE(dta->find("interview")->values(), (std::vector<double>{21990, 21991}));
        QCOMPARE(dta->find("born")->values(), (std::vector<double>{21989 - 9000, 21989 - 20}));
    }

    // The leak scan: the run's tables also hold alpha, IR, f and the original y; no written
    // byte may carry their names, or the original y / alpha values as text or as doubles.
    void noConfidentialBytes() {
        const fs::path bundle = outputDir("leak") / "bundle";
        ReleaseRequest r = makeRequest(3, {FileFormat::Csv, FileFormat::Sav, FileFormat::Dta});
        std::vector<double> y;
        for (std::size_t i = 0; i < kRows; ++i) y.push_back(originalY(i));
        r.originalTarget = &y;  // passed for the identity check; never written
        const Status s = writeReleaseBundle(r, bundle.string());
        QVERIFY2(s.isOk(), s.message().c_str());

        std::vector<std::string> needles = {"income_original", "alpha", "ir_record", "f_lipschitz"};
        for (std::size_t i = 0; i < kRows; ++i) {
            for (double v : {originalY(i), alphaValue(i)}) {
                needles.push_back(formatNumber(v));
                needles.push_back(littleEndianBytes(v));
            }
        }
        // The scan can see: the synthetic values it must find are found the same way.
        const std::string csv = test::slurp(bundle / "data" / "synthetic_02.csv");
        QVERIFY(contains(csv, formatNumber(syntheticY(1, 4))));
        QVERIFY(contains(test::slurp(bundle / "data" / "synthetic_02.dta"),
                         littleEndianBytes(syntheticY(1, 4))));

        const auto files = test::filesUnder(bundle);
        QCOMPARE(files.size(), std::size_t{12});
        for (const auto& name : files) {
            std::string bytes = test::slurp(bundle / name);
            std::string lower = bytes;
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            for (const auto& needle : needles)
                QVERIFY2(!contains(bytes, needle) && !contains(lower, needle),
                         (name + " holds a confidential value or name").c_str());
        }
    }

    void refusals_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("alpha listed") << 0 << "'alpha' looks like a confidential quantity";
        QTest::newRow("original y listed") << 1 << "'income_original' looks like a confidential";
        QTest::newRow("ir listed") << 2 << "'ir_record' looks like a confidential";
        QTest::newRow("target not listed") << 3 << "must be among the released columns";
        QTest::newRow("column missing") << 4 << "has no column 'height'";
        QTest::newRow("listed twice") << 5 << "listed twice";
        QTest::newRow("predictor differs") << 6 << "dataset 2: column 'age' differs";
        QTest::newRow("target equals original y") << 7 << "equals the confidential target";
        QTest::newRow("no datasets") << 8 << "no synthetic datasets";
        QTest::newRow("sas format") << 9 << "csv, sav or dta";
        QTest::newRow("categorical target") << 10 << "must be numeric or a count";
        QTest::newRow("predictor equals original y")
            << 11 << "column 'copy' equals the confidential";
        QTest::newRow("epsilon not finite") << 12 << "epsilon per dataset is not set";
        QTest::newRow("epsilon zero") << 13
                                      << "epsilon per dataset is 0; it must be a finite "
                                         "number > 0";
        QTest::newRow("epsilon negative") << 14 << "epsilon per dataset is -1.5";
        QTest::newRow("epsilon forgotten") << 15 << "epsilon per dataset is not set";
        QTest::newRow("delta estimate empty") << 16 << "how Delta (and so epsilon) was estimated";
    }
    // Refused requests name the problem and write nothing.
    void refusals() {
        QFETCH(int, kind);
        QFETCH(QString, messagePart);
        ReleaseRequest r = makeRequest(2, {FileFormat::Csv});
        std::vector<double> y;
        for (std::size_t i = 0; i < kRows; ++i) y.push_back(originalY(i));
        switch (kind) {
            case 0:
                r.releasedColumns.push_back("alpha");
                break;
            case 1:
                r.releasedColumns.push_back("income_original");
                break;
            case 2:
                r.releasedColumns.push_back("ir_record");
                break;
            case 3:
                r.releasedColumns.erase(r.releasedColumns.begin());
                break;
            case 4:
                r.releasedColumns.push_back("height");
                break;
            case 5:
                r.releasedColumns.push_back("age");
                break;
            case 6: {
                Table t = r.datasets[1];
                std::vector<double> age(kRows, 30.0);
                QVERIFY(t.replaceColumn(*t.indexOf("age"), Column::numeric("age", age)).isOk());
                r.datasets[1] = t;
                break;
            }
            case 7:  // a run that forgot to replace the target
                for (auto& t : r.datasets)
                    QVERIFY(
                        t.replaceColumn(*t.indexOf("income"), Column::numeric("income", y)).isOk());
                r.originalTarget = &y;
                break;
            case 8:
                r.datasets.clear();
                break;
            case 9:
                r.formats = {FileFormat::Csv, FileFormat::Sas7bdat};
                break;
            case 10:
                r.target = "region";
                break;
            case 11:
                for (auto& t : r.datasets) QVERIFY(t.addColumn(Column::numeric("copy", y)).isOk());
                r.releasedColumns.push_back("copy");
                r.originalTarget = &y;
                break;
            case 12:
                r.manifest.privacy.epsilonPerDataset = kNaN;
                break;
            case 13:
                r.manifest.privacy.epsilonPerDataset = 0;
                break;
            case 14:
                r.manifest.privacy.epsilonPerDataset = -1.5;
                break;
            case 15:  // a caller that never set the privacy block
                r.manifest.privacy = Manifest::Privacy{};
                break;
            case 16:
                r.manifest.privacy.deltaEstimate.clear();
                break;
        }
        const Status check = validateReleaseRequest(r);
        QVERIFY(!check.isOk());
        QVERIFY2(contains(check.message(), messagePart.toStdString()), check.message().c_str());
        const fs::path bundle = outputDir("refusals") / "bundle";
        const Status s = writeReleaseBundle(r, bundle.string());
        QCOMPARE(s.message(), check.message());
        QVERIFY(!fs::exists(bundle));
        QVERIFY(leftovers(bundle).empty());
    }

    // The original y given but different from every released column: accepted.
    void originalTargetDifferentIsAccepted() {
        ReleaseRequest r = makeRequest(2, {FileFormat::Csv});
        std::vector<double> y;
        for (std::size_t i = 0; i < kRows; ++i) y.push_back(originalY(i));
        r.originalTarget = &y;
        const Status s = validateReleaseRequest(r);
        QVERIFY2(s.isOk(), s.message().c_str());
    }

    void confidentialNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("reason");
        for (const char* n : {"alpha", "f", "lipschitz", "ir", "pairwise_weight", "weight", "risk"})
            QTest::newRow(n) << n << (std::strcmp(n, "pairwise_weight") == 0 ? "pairwise" : n);
        QTest::newRow("Alpha-LW") << "Alpha-LW"
                                  << "alpha";
        QTest::newRow("IR") << "IR"
                            << "ir";
        QTest::newRow("f_i") << "f_i"
                             << "f_i";
        QTest::newRow("identification risk") << "identification risk"
                                             << "risk";
        QTest::newRow("lipschitz_bound") << "lipschitz_bound"
                                         << "lipschitz";
        QTest::newRow("income_original") << "income_original"
                                         << "original";
        QTest::newRow("weights") << "weights"
                                 << "weights";
        // METHOD.md's record-level symbols and the code's names for them (records file
        // columns: alpha, f, lipschitz, ir, pairwise_weight, above).
        const std::pair<const char*, const char*> recordLevel[] = {
            {"delta_i", "delta_i"},
            {"Delta_i", "delta_i"},
            {"Delta_{i}", "delta_i"},
            {"delta_x_i", "delta_x_i"},
            {"Delta_{alpha,x_i}", "alpha"},
            {"at_i", "at_i"},
            {"AT_i", "at_i"},
            {"T_i", "t_i"},
            {"ft_i", "ft_i"},
            {"c_i", "c_i"},
            {"l_{s,i}", "l_s_i"},
            {"log_lik", "log_lik"},
            {"logLik", "log_lik"},
            {"loglik", "loglik"},
            {"log-likelihood", "log_likelihood"},
            {"f_{i}", "f_i"},
            {"recordDelta", "record_delta"},
            {"recorddelta", "recorddelta"},
            {"record_delta", "record_delta"},
            {"RecordBound", "record_bound"},
            {"pairwiseWeight", "pairwise"},
            {"IR_ij", "ir"},
            {"yOriginal", "original"},
            {"whackAMole", "whack_amole"},
            {"whack_a_mole", "whack_a_mole"},
            {"alphaW", "alpha"}};
        for (const auto& [n, why] : recordLevel) QTest::newRow(n) << n << why;
        QTest::newRow("age") << "age"
                             << "";
        QTest::newRow("income") << "income"
                                << "";
        QTest::newRow("firm (has 'ir' inside)") << "firm"
                                                << "";
        QTest::newRow("fee") << "fee"
                             << "";
        QTest::newRow("weightlifting") << "weightlifting"
                                       << "";
        QTest::newRow("region") << "region"
                                << "";
        for (const char* n : {"at", "fi", "ti", "HairColor", "likelihood_to_vote", "deltaRegion",
                              "price_delta", "T", "c", "l"})
            QTest::newRow(n) << n << "";
    }
    void confidentialNames() {
        QFETCH(QString, name);
        QFETCH(QString, reason);
        QCOMPARE(QString::fromStdString(confidentialNameReason(name.toStdString())), reason);
    }

    void cancelled_data() {
        QTest::addColumn<int>("stopAt");
        // Calls: one per data file (3 datasets x 2 formats), manifest, README, sums, final.
        for (int k : {0, 1, 3, 5, 6, 7, 8, 9}) QTest::newRow(std::to_string(k).c_str()) << k;
    }
    // Stopped at any point: nothing is left, and an existing bundle (even with overwrite)
    // is untouched.
    void cancelled() {
        QFETCH(int, stopAt);
        const fs::path dir = outputDir("cancelled");
        const ReleaseRequest r = makeRequest(3, {FileFormat::Csv, FileFormat::Sav});
        int calls = 0;
        std::vector<double> done;
        ReleaseOptions stopping;
        stopping.progress = [&](const Progress& p) -> Continue {
            if (p.stage == "release" && p.total == 9.0) done.push_back(p.done);
            return calls++ == stopAt ? Continue::Stop : Continue::Yes;
        };

        const fs::path fresh = dir / "fresh";
        const Status s = writeReleaseBundle(r, fresh.string(), stopping);
        QVERIFY(!s.isOk());
        QVERIFY2(contains(s.message(), "cancelled"), s.message().c_str());
        QCOMPARE(calls, stopAt + 1);
        QVERIFY(!fs::exists(fresh));
        QVERIFY(leftovers(fresh).empty());
        QCOMPARE(done.size(), static_cast<std::size_t>(calls));  // stage and total as documented
        for (std::size_t i = 0; i < done.size(); ++i) QCOMPARE(done[i], static_cast<double>(i));

        const fs::path existing = dir / "existing";
        QVERIFY(writeReleaseBundle(makeRequest(2, {FileFormat::Dta}), existing.string()).isOk());
        const auto before = test::filesUnder(existing);
        const std::string sumsBefore = test::slurp(existing / "SHA256SUMS");
        calls = 0;
        done.clear();
        stopping.overwrite = true;
        QVERIFY(!writeReleaseBundle(r, existing.string(), stopping).isOk());
        QCOMPARE(test::filesUnder(existing), before);
        QCOMPARE(test::slurp(existing / "SHA256SUMS"), sumsBefore);
        QVERIFY(leftovers(existing).empty());
    }

    // A writer error midway (a name Stata refuses, after the CSV files were written): the
    // message names the bundle, not the temporary folder; nothing is left, parent folders
    // made for the bundle are removed, and an existing bundle survives.
    void failedExport() {
        const fs::path dir = outputDir("failed");
        // An infinite value: CSV writes it, Stata has no such number.
        ReleaseRequest r = makeRequest(2, {FileFormat::Csv, FileFormat::Dta});
        for (auto& t : r.datasets) {
            std::vector<double> v;
            for (std::size_t i = 0; i < kRows; ++i) v.push_back(i == 0 ? kInf : 1.0 + i);
            QVERIFY(t.replaceColumn(*t.indexOf("age"), Column::numeric("age", v)).isOk());
        }
        int calls = 0;
        ReleaseOptions o;
        o.progress = [&](const Progress&) {
            ++calls;
            return Continue::Yes;
        };
        const fs::path bundle = dir / "new" / "deeper" / "bundle";
        const Status s = writeReleaseBundle(r, bundle.string(), o);
        QVERIFY(!s.isOk());
        QCOMPARE(calls, 2);  // csv written, dta refused
        QVERIFY2(contains(s.message(), "synthetic dataset 1: '" + bundle.string() +
                                           "/data/synthetic_01.dta': column 'age' row 1"),
                 s.message().c_str());
        QVERIFY2(!contains(s.message(), ".tmp-"), s.message().c_str());
        QVERIFY(!fs::exists(dir / "new"));

        const fs::path existing = dir / "existing";
        QVERIFY(writeReleaseBundle(makeRequest(2, {FileFormat::Csv}), existing.string()).isOk());
        const auto before = test::filesUnder(existing);
        const std::string sums = test::slurp(existing / "SHA256SUMS");
        o.overwrite = true;
        QVERIFY(!writeReleaseBundle(r, existing.string(), o).isOk());
        QCOMPARE(test::filesUnder(existing), before);
        QCOMPARE(test::slurp(existing / "SHA256SUMS"), sums);
        QVERIFY(leftovers(existing).empty());
    }

    void overwrite() {
        const fs::path dir = outputDir("overwrite");
        const fs::path bundle = dir / "bundle";
        QVERIFY(
            writeReleaseBundle(makeRequest(2, {FileFormat::Csv, FileFormat::Sav}), bundle.string())
                .isOk());
        const std::string first = test::slurp(bundle / "SHA256SUMS");

        // Without overwrite: refused, the old bundle stays.
        const ReleaseRequest second = makeRequest(3, {FileFormat::Csv});
        Status s = writeReleaseBundle(second, bundle.string());
        QVERIFY(!s.isOk());
        QVERIFY2(contains(s.message(), "already exists"), s.message().c_str());
        QCOMPARE(test::slurp(bundle / "SHA256SUMS"), first);

        // With overwrite: replaced as a whole (no .sav from the first bundle survives).
        ReleaseOptions o;
        o.overwrite = true;
        s = writeReleaseBundle(second, (bundle.string() + "/"), o);  // trailing slash too
        QVERIFY2(s.isOk(), s.message().c_str());
        QCOMPARE(test::filesUnder(bundle),
                 (std::vector<std::string>{"README.txt", "SHA256SUMS", "data/synthetic_01.csv",
                                           "data/synthetic_02.csv", "data/synthetic_03.csv",
                                           "manifest.json"}));
        QVERIFY(leftovers(bundle).empty());

        // A folder that is not a bundle, or a file, is never replaced; an empty folder is.
        const fs::path docs = dir / "documents";
        fs::create_directories(docs);
        std::ofstream(docs / "thesis.txt") << "years of work";
        s = writeReleaseBundle(second, docs.string(), o);
        QVERIFY(!s.isOk());
        QVERIFY2(contains(s.message(), "not a ppsynth release bundle"), s.message().c_str());
        QCOMPARE(test::slurp(docs / "thesis.txt"), std::string("years of work"));
        const fs::path file = dir / "file.txt";
        std::ofstream(file) << "x";
        QVERIFY(!writeReleaseBundle(second, file.string(), o).isOk());
        QCOMPARE(test::slurp(file), std::string("x"));
        const fs::path empty = dir / "empty";
        fs::create_directories(empty);
        QVERIFY(writeReleaseBundle(second, empty.string(), o).isOk());
        QVERIFY(fs::exists(empty / "manifest.json"));

        // A missing parent folder is created.
        QVERIFY(writeReleaseBundle(second, (dir / "a" / "b" / "bundle").string()).isOk());
    }

    // A file named manifest.json does not make a folder a bundle: with overwrite, a folder
    // whose manifest lacks the bundle's format mark is refused and left as it was.
    void overwriteRefusesForeignManifest_data() {
        QTest::addColumn<QString>("manifest");
        QTest::addColumn<QString>("found");
        QTest::newRow("other JSON") << R"({"name":"x"})"
                                    << "it has no \"format\" key";
        QTest::newRow("other format") << R"({"format":"zotero"})"
                                      << "its \"format\" is \"zotero\"";
        QTest::newRow("not JSON") << "name = x"
                                  << "it is not valid JSON";
        QTest::newRow("array") << R"(["ppsynth-release"])"
                               << "it is not a JSON object";
        QTest::newRow("empty") << ""
                               << "it is not valid JSON";
    }
    void overwriteRefusesForeignManifest() {
        QFETCH(QString, manifest);
        QFETCH(QString, found);
        const fs::path docs = outputDir("foreign_manifest") / "documents";
        fs::create_directories(docs);
        std::ofstream(docs / "manifest.json") << manifest.toStdString();
        std::ofstream(docs / "thesis.txt") << "years of work";
        ReleaseOptions o;
        o.overwrite = true;
        const Status s = writeReleaseBundle(makeRequest(2, {FileFormat::Csv}), docs.string(), o);
        QVERIFY(!s.isOk());
        for (const std::string& part : std::vector<std::string>{
                 "not a ppsynth release bundle", found.toStdString(), "choose another folder"})
            QVERIFY2(contains(s.message(), part), s.message().c_str());
        QCOMPARE(test::filesUnder(docs), (std::vector<std::string>{"manifest.json", "thesis.txt"}));
        QCOMPARE(test::slurp(docs / "thesis.txt"), std::string("years of work"));
        QCOMPARE(test::slurp(docs / "manifest.json"), manifest.toStdString());
        QVERIFY(leftovers(docs).empty());
    }

    // A real bundle with someone's own file added is not replaced: that would delete it.
    void overwriteKeepsFilesTheBundleDidNotWrite() {
        const fs::path bundle = outputDir("bundle_with_script") / "bundle";
        QVERIFY(writeReleaseBundle(makeRequest(2, {FileFormat::Csv}), bundle.string()).isOk());
        std::ofstream(bundle / "data" / "analysis.R") << "years of work";
        ReleaseOptions o;
        o.overwrite = true;
        const Status s = writeReleaseBundle(makeRequest(3, {FileFormat::Csv}), bundle.string(), o);
        QVERIFY(!s.isOk());
        QVERIFY2(
            contains(s.message(), "'data/analysis.R'") && contains(s.message(), "move them out"),
            s.message().c_str());
        QCOMPARE(test::slurp(bundle / "data" / "analysis.R"), std::string("years of work"));
        QVERIFY(leftovers(bundle).empty());
        fs::remove(bundle / "data" / "analysis.R");  // the bundle alone is replaced
        QVERIFY(writeReleaseBundle(makeRequest(3, {FileFormat::Csv}), bundle.string(), o).isOk());
        QVERIFY(fs::exists(bundle / "data" / "synthetic_3.csv") ||
                fs::exists(bundle / "data" / "synthetic_03.csv"));
    }

    // Replacing a bundle: when the new one cannot move in, the old one is moved back; if
    // that fails too, the message must not call it unchanged but say where it was left.
    void commitSaysWhereTheOldBundleIs() {
        const fs::path dir = outputDir("commit");
        const auto [target, temp] = oldAndNewBundle(dir);
        int calls = 0, failFrom = 0;
        fs::path aside;
        const detail::RenameFolder failing = [&](const fs::path& from, const fs::path& to,
                                                 std::error_code& ec) {
            if (++calls == 1) aside = to;
            if (calls >= failFrom)
                ec = std::make_error_code(std::errc::permission_denied);
            else
                fs::rename(from, to, ec);
        };

        failFrom = 2;  // new in and old back both fail
        Status s = detail::commitBundle(temp, target, true, failing).status();
        QVERIFY(!s.isOk());
        QCOMPARE(calls, 3);
        QVERIFY2(!contains(s.message(), "unchanged"), s.message().c_str());
        QVERIFY2(contains(s.message(), "it is now '" + aside.string() + "'"), s.message().c_str());
        QVERIFY2(contains(aside.filename().string(), "bundle.old-"), aside.string().c_str());
        QCOMPARE(test::slurp(aside / "manifest.json"), std::string("old"));
        QVERIFY(!fs::exists(target));

        fs::rename(aside, target);
        calls = 0;
        failFrom = 2;
        const detail::RenameFolder newInFails = [&](const fs::path& from, const fs::path& to,
                                                    std::error_code& ec) {
            if (++calls == failFrom)
                ec = std::make_error_code(std::errc::permission_denied);
            else
                fs::rename(from, to, ec);
        };
        s = detail::commitBundle(temp, target, true, newInFails).status();
        QVERIFY(!s.isOk());
        QCOMPARE(calls, 3);
        QVERIFY2(contains(s.message(), "the existing bundle is unchanged"), s.message().c_str());
        QCOMPARE(test::slurp(target / "manifest.json"), std::string("old"));
        QCOMPARE(leftovers(target), std::vector<std::string>{temp.string()});
    }

    // The old bundle moved aside but not deleted is a whole bundle under a name nobody
    // chose: the writer says where it is and that it must be removed by hand.
    void commitSaysWhereAnUndeletableOldBundleIs() {
        const fs::path dir = outputDir("commit_leftover");
        const auto [target, temp] = oldAndNewBundle(dir);
        fs::path removed;
        const detail::RemoveFolder failing = [&](const fs::path& old, std::error_code& ec) {
            removed = old;
            ec = std::make_error_code(std::errc::permission_denied);
        };
        auto committed = detail::commitBundle(temp, target, true, {}, failing);
        QVERIFY2(committed.hasValue(), committed.hasValue() ? "" : committed.message().c_str());
        QCOMPARE(test::slurp(target / "manifest.json"), std::string("new"));
        QVERIFY2(contains(removed.filename().string(), "bundle.old-"), removed.c_str());
        QCOMPARE(test::slurp(removed / "manifest.json"), std::string("old"));
        QCOMPARE(leftovers(target), std::vector<std::string>{removed.string()});
        for (const std::string& part :
             {"it was left in '" + removed.string() + "'",
              std::string("remove that folder by hand"), std::string("Permission denied")})
            QVERIFY2(contains(*committed, part), committed->c_str());

        // Deleted as it should be: nothing to say, nothing left.
        fs::remove_all(removed);
        fs::create_directories(temp);
        std::ofstream(temp / "manifest.json") << "newer";
        committed = detail::commitBundle(temp, target, true);
        QVERIFY(committed.hasValue());
        QVERIFY2(committed->empty(), committed->c_str());
        QVERIFY(leftovers(target).empty());
        QCOMPARE(test::slurp(target / "manifest.json"), std::string("newer"));
    }

    // A bundle inside another would be handed out with it (and break its checksums' promise
    // that they list every file): refused before anything is made, the outer one untouched.
    // Replacing the outer bundle itself is still allowed.
    void bundleInsideABundleIsRefused() {
        const fs::path outer = outputDir("nested") / "outer";
        QVERIFY(writeReleaseBundle(makeRequest(2, {FileFormat::Csv}), outer.string()).isOk());
        const std::vector<std::string> files = test::filesUnder(outer);
        for (const fs::path& inner : {outer / "inner", outer / "data" / "new" / "bundle"}) {
            const Status s = writeReleaseBundle(makeRequest(2, {FileFormat::Csv}), inner.string());
            QVERIFY(!s.isOk());
            QVERIFY2(contains(s.message(), "inside the release bundle '" + outer.string() + "'"),
                     s.message().c_str());
            QCOMPARE(test::filesUnder(outer), files);
            QVERIFY(!fs::exists(outer / "inner"));
            QVERIFY(!fs::exists(outer / "data" / "new"));
        }
        ReleaseOptions o;
        o.overwrite = true;
        const Status replaced =
            writeReleaseBundle(makeRequest(3, {FileFormat::Csv}), outer.string(), o);
        QVERIFY2(replaced.isOk(), replaced.message().c_str());
        QVERIFY(fs::exists(outer / "data" / "synthetic_03.csv"));
    }

    // The manifest identifies each mechanism: risk-based weights with their radius, radius
    // mode, known variables, IR source (and L for the synthetic source); a scalar (EM) weight
    // with what it was searched for (the synthesizer it matched or a target epsilon) and the
    // tolerance; a re-weighted one with its base's name, scheme and knobs.
    void manifestKnobsIdentifyTheMechanism_data() {
        QTest::addColumn<QString>("synthesizer");
        QTest::addColumn<QString>("knobs");  // the manifest's "knobs" object, compact JSON
        QTest::newRow("LW-M") << "LW-M"
                              << R"({"M":3.5,"c":0.6,"g":-0.1})";
        QTest::newRow("CW from data")
            << "CW"
            << R"({"c":0.7,"g":0.05,"ir_source":"data","known":["sex","region"],"r":0.15,)"
               R"("radius_mode":"absolute"})";
        QTest::newRow("pairwise from synthetic")
            << "Pairwise"
            << R"({"L":12.0,"c":0.9,"g":0.0,"ir_source":"synthetic","known":["sex","region"],)"
               R"("r":0.15,"radius_mode":"absolute"})";
        QTest::newRow("sigmoid")
            << "Sigmoid"
            << R"({"L":12.0,"a":8.0,"ir_source":"synthetic","known":["sex","region"],"r":0.15,)"
               R"("radius_mode":"absolute"})";
        QTest::newRow("reweighted LW-M")
            << "LW-M final"
            << R"({"base":"LW-M","base_M":3.5,"base_c":0.6,"base_g":-0.1,)"
               R"("base_scheme":"lipschitz","k":0.93,"tolerance":0.03})";
        QTest::newRow("reweighted CW")
            << "CW final"
            << R"({"base":"CW","base_c":0.7,"base_g":0.05,"base_ir_source":"data",)"
               R"("base_known":["sex","region"],"base_r":0.15,"base_radius_mode":"absolute",)"
               R"("base_scheme":"marginal","k":0.88,"tolerance":0.02})";
        QTest::newRow("EM matched to LW-M") << "EM"
                                            << R"({"a":0.42,"match":"LW-M","tolerance":0.02})";
        QTest::newRow("EM to a target epsilon")
            << "EM budget"
            << R"({"a":0.31,"target_epsilon":3.0,"tolerance":0.05})";
        QTest::newRow("reweighted EM")
            << "EM final"
            << R"({"base":"EM","base_a":0.42,"base_match":"LW-M","base_scheme":"scalar",)"
               R"("base_tolerance":0.02,"k":0.97,"tolerance":0.02})";
    }
    void manifestKnobsIdentifyTheMechanism() {
        QFETCH(QString, synthesizer);
        QFETCH(QString, knobs);
        const study::RunResult run = runWithSynthesizers();
        auto mf = manifestFromRun(run, synthesizer.toStdString());
        QVERIFY2(mf.hasValue(), mf.hasValue() ? "" : mf.message().c_str());
        ManifestFacts facts;
        facts.records = 100;
        facts.datasets = 3;
        const auto j = nlohmann::json::parse(manifestJson(*mf, facts));
        QCOMPARE(QString::fromStdString(j["mechanism"]["knobs"].dump()), knobs);
        // Written into a bundle, the README lists the same knobs in words.
        ReleaseRequest r = makeRequest(2, {FileFormat::Csv});
        r.manifest = *mf;
        const fs::path bundle = outputDir("knobs") / "bundle";
        const Status s = writeReleaseBundle(r, bundle.string());
        QVERIFY2(s.isOk(), s.message().c_str());
        const std::string readme = test::slurp(bundle / "README.txt");
        if (j["mechanism"]["knobs"].contains("known"))
            QVERIFY2(contains(readme, "known = (sex, region)"), readme.c_str());
    }

    // A run until converged: the manifest gives the draws each chain kept (the fit's own, not
    // the configuration's block length), the blocks and why it stopped; a fixed length says
    // null there.
    void manifestSaysTheDrawsKept() {
        study::RunResult run = runWithSynthesizers();
        run.config.mcmc.chains = 4;
        run.config.mcmc.draws = 1000;
        ManifestFacts facts;
        facts.records = 100;
        facts.datasets = 3;
        auto sampling = [&] {
            auto mf = manifestFromRun(run, "LW-M");
            if (!mf) qFatal("%s", mf.message().c_str());
            return nlohmann::json::parse(manifestJson(*mf, facts))["sampling"];
        };
        auto j = sampling();
        QCOMPARE(j["draws_per_chain"].get<int>(), 1000);
        QVERIFY(j["until_converged"].is_null());

        run.config.mcmc.drawsAuto = true;
        run.config.mcmc.budgetSeconds = 300;
        auto& d = run.synthesizers[0].diagnostics;
        d.draws = 4 * 2500;
        d.untilConverged = {3, false, true, {"D_s: R-hat 1.020"}, 2500};
        j = sampling();
        QCOMPARE(j["draws_per_chain"].get<int>(), 2500);
        QCOMPARE(j["S"].get<int>(), 10000);
        QCOMPARE(j["until_converged"]["blocks"].get<int>(), 3);
        QCOMPARE(j["until_converged"]["block_draws"].get<int>(), 1000);
        QCOMPARE(j["until_converged"]["budget_seconds"].get<double>(), 300.0);
        QCOMPARE(j["until_converged"]["stop_reason"].get<std::string>(),
                 std::string("budget reached"));
        // A run folder that predates draws_per_chain: the retained draws over the chains.
        d.untilConverged = {2, true, false, {}, 0};
        d.draws = 4 * 2000;
        j = sampling();
        QCOMPARE(j["draws_per_chain"].get<int>(), 2000);
        QCOMPARE(j["until_converged"]["stop_reason"].get<std::string>(), std::string("converged"));
    }

    // A re-weighted synthesizer whose base the run does not hold cannot be described.
    void manifestOfReweightWithoutItsBaseIsRefused() {
        study::RunResult run = runWithSynthesizers();
        run.synthesizers.erase(run.synthesizers.begin() + 1);  // CW's result
        auto mf = manifestFromRun(run, "CW final");
        QVERIFY(!mf.hasValue());
        QVERIFY2(contains(mf.message(), "'CW final' re-weights 'CW'"), mf.message().c_str());
    }

    void manifest() {
        const fs::path bundle = outputDir("manifest") / "bundle";
        const ReleaseRequest r = makeRequest(3, {FileFormat::Csv, FileFormat::Dta});
        QVERIFY(writeReleaseBundle(r, bundle.string()).isOk());
        const auto j = nlohmann::json::parse(test::slurp(bundle / "manifest.json"));
        QCOMPARE(j["format"].get<std::string>(), std::string("ppsynth-release"));
        QCOMPARE(j["software"]["version"].get<std::string>(), std::string(PPSYNTH_VERSION));
        QCOMPARE(j["created_utc"].get<std::string>(), std::string("2026-11-22T05:35:57Z"));
        QCOMPARE(j["data"]["records"].get<int>(), 12);
        QCOMPARE(j["data"]["datasets"].get<int>(), 3);
        QCOMPARE(j["data"]["target"].get<std::string>(), std::string("income"));
        QCOMPARE(j["data"]["predictors"].get<std::vector<std::string>>(),
                 (std::vector<std::string>{"age", "region", "visits"}));
        QCOMPARE(j["data"]["formats"].get<std::vector<std::string>>(),
                 (std::vector<std::string>{"csv", "dta"}));
        QCOMPARE(j["data"]["files"].size(), std::size_t{6});
        QCOMPARE(j["data"]["files"][1].get<std::string>(), std::string("data/synthetic_01.dta"));
        QCOMPARE(j["model"]["family"].get<std::string>(), std::string("normal-mixture"));
        QCOMPARE(j["model"]["K"].get<int>(), 20);
        QCOMPARE(j["model"]["priors"]["tau_df"].get<double>(), 3.0);
        QCOMPARE(j["transform"]["name"].get<std::string>(), std::string("log-shift"));
        QCOMPARE(j["transform"]["shift"].get<double>(), 1.5);
        QCOMPARE(j["mechanism"]["synthesizer"].get<std::string>(), std::string("LW 0.6"));
        QCOMPARE(j["mechanism"]["scheme"].get<std::string>(), std::string("lipschitz"));
        QCOMPARE(j["mechanism"]["knobs"]["c"].get<double>(), 0.6);
        QCOMPARE(j["mechanism"]["knobs"]["g"].get<double>(), -0.1);
        QCOMPARE(j["sampling"]["chains"].get<int>(), 4);
        QCOMPARE(j["sampling"]["draws_per_chain"].get<int>(), 500);
        QCOMPARE(j["sampling"]["S"].get<int>(), 2000);
        QCOMPARE(j["seeds"]["mcmc"].get<std::uint64_t>(), 18446744073709551557ull);
        QCOMPARE(j["seeds"]["synthesis"].get<std::uint64_t>(), std::uint64_t{7});
        const auto& p = j["privacy"];
        QCOMPARE(p["epsilon_per_dataset"].get<double>(), 3.25);
        QCOMPARE(p["epsilon_total"].get<double>(), 9.75);  // 3 x 3.25
        QCOMPARE(p["delta_estimate"].get<std::string>(), std::string("0.95-quantile over draws"));
        // n = 12 < 1000: s in [1.05, 1.10]; epsilon = 2 s Delta = s x 3.25.
        const auto& g = p["global_recommendation"];
        QCOMPARE(g["safety_factor"][0].get<double>(), 1.05);
        QCOMPARE(g["safety_factor"][1].get<double>(), 1.10);
        QVERIFY_NEAR(g["epsilon_per_dataset"][0].get<double>(), 3.4125, 1e-12);
        QVERIFY_NEAR(g["epsilon_per_dataset"][1].get<double>(), 3.575, 1e-12);
        QVERIFY_NEAR(g["epsilon_total"][1].get<double>(), 10.725, 1e-12);
        QCOMPARE(j["notes"][0].get<std::string>(), std::string("n after listwise deletion"));
        // Nothing record-level: every value is a scalar, a short list or a small map.
        QVERIFY(!contains(test::slurp(bundle / "manifest.json"), "income_original"));
    }

    void readmeCodeReadsTheWrittenFiles_data() {
        QTest::addColumn<int>("m");
        QTest::addColumn<QString>("rFormat");
        QTest::addColumn<QString>("stataFormat");
        QTest::newRow("m = 3") << 3 << "%02d"
                               << "%02.0f";
        QTest::newRow("m = 10") << 10 << "%02d"
                                << "%02.0f";
        QTest::newRow("m = 100") << 100 << "%03d"
                                 << "%03.0f";
    }
    // The README's R and Stata loops, run for l = 1..m in the printf semantics both use,
    // name exactly the files written (file names pad to the width of m).
    void readmeCodeReadsTheWrittenFiles() {
        QFETCH(int, m);
        QFETCH(QString, rFormat);
        QFETCH(QString, stataFormat);
        const fs::path bundle = outputDir("readme_width") / "bundle";
        const auto count = static_cast<std::size_t>(m);
        QVERIFY(writeReleaseBundle(makeRequest(count, {FileFormat::Csv, FileFormat::Dta}),
                                   bundle.string())
                    .isOk());
        const QString text = QString::fromStdString(test::slurp(bundle / "README.txt"));
        QVERIFY2(text.contains("sprintf(\"data/synthetic_" + rFormat + ".csv\", l)"),
                 qPrintable(text));
        QVERIFY2(text.contains("local f : display " + stataFormat + " `l'"), qPrintable(text));

        const auto r =
            QRegularExpression("sprintf\\(\"data/synthetic_%0(\\d+)d\\.(\\w+)\", l\\)").match(text);
        const auto stataWidth = QRegularExpression("display %0(\\d+)\\.0f `l'").match(text);
        const auto stataFile = QRegularExpression("\"data/synthetic_`f'\\.(\\w+)\"").match(text);
        QVERIFY(r.hasMatch() && stataWidth.hasMatch() && stataFile.hasMatch());
        const auto named = [&](int width, const QString& ext) {
            std::set<std::string> out;
            for (std::size_t l = 1; l <= count; ++l)
                out.insert("data/synthetic_" + zeroPadded(l, width) + "." + ext.toStdString());
            return out;
        };
        QCOMPARE(r.captured(2), QString("csv"));
        QCOMPARE(stataFile.captured(1), QString("dta"));
        QVERIFY(named(r.captured(1).toInt(), r.captured(2)) == dataFilesWith(bundle, "csv"));
        QVERIFY(named(stataWidth.captured(1).toInt(), stataFile.captured(1)) ==
                dataFilesWith(bundle, "dta"));
        QCOMPARE(dataFilesWith(bundle, "csv").size(), count);
    }

    void manifestDateDefaultsToNow() {
        const fs::path bundle = outputDir("manifest_now") / "bundle";
        ReleaseRequest r = makeRequest(2, {FileFormat::Csv});
        r.manifest.createdUtc.clear();
        r.manifest.model.K.reset();
        QVERIFY(writeReleaseBundle(r, bundle.string()).isOk());
        const auto j = nlohmann::json::parse(test::slurp(bundle / "manifest.json"));
        const std::string date = j["created_utc"].get<std::string>();
        const QRegularExpression iso("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$");
        QVERIFY2(iso.match(QString::fromStdString(date)).hasMatch(), date.c_str());
        QVERIFY(j["model"]["K"].is_null());
        QVERIFY(contains(test::slurp(bundle / "README.txt"), date));
    }

    // The README states m, both epsilons and the combining rules, its worked example adds up,
    // and its code reads the files that exist.
    void readme() {
        const fs::path bundle = outputDir("readme") / "bundle";
        const ReleaseRequest r = makeRequest(3, {FileFormat::Dta});
        QVERIFY(writeReleaseBundle(r, bundle.string()).isOk());
        const std::string text = test::slurp(bundle / "README.txt");
        for (const char* part : {"m = 3 synthetic datasets",
                                 "epsilon = 3.25",
                                 "3 x 3.25 = 9.75",
                                 "the guarantee for everything published is the sum",
                                 "0.95-quantile over draws",
                                 "[1.05, 1.1]",
                                 "between 3.413 and 3.575",
                                 "between 10.24 and 10.73",
                                 "T    = ubar + b / m",
                                 "df   = (m - 1) * (1 + ubar / (b / m))^2",
                                 "Reiter 2003",
                                 "data/synthetic_03.dta",
                                 "haven::read_dta(sprintf(\"data/synthetic_%02d.dta\", l))",
                                 "qt(0.975, df)",
                                 "use \"data/synthetic_`f'.dta\", clear",
                                 "invttail(`df', 0.025) * sqrt(`T')",
                                 "quietly mean income",
                                 "mean(d[[\"income\"]])",
                                 "Released columns: income (synthetic), "
                                 "age, region, visits",
                                 "normal-mixture (K = 20)",
                                 "c = 0.6, g = -0.1"})
            QVERIFY2(contains(text, part), part);

        // The worked example: q = 2.0, 2.4, 2.2; u = 0.10, 0.12, 0.11.
        const double q[] = {2.0, 2.4, 2.2}, u[] = {0.10, 0.12, 0.11};
        const double qbar = (q[0] + q[1] + q[2]) / 3, ubar = (u[0] + u[1] + u[2]) / 3;
        double b = 0;
        for (double v : q) b += (v - qbar) * (v - qbar) / 2;
        const double T = ubar + b / 3, df = 2 * std::pow(1 + ubar / (b / 3), 2);
        QVERIFY_NEAR(b, 0.04, 1e-12);
        QVERIFY_NEAR(T, 0.123333, 1e-6);
        QVERIFY_NEAR(df, 171.125, 1e-9);
        const double t = boost::math::quantile(boost::math::students_t(df), 0.975);
        QVERIFY_NEAR(t, 1.974, 5e-4);
        QVERIFY_NEAR(qbar - t * std::sqrt(T), 1.507, 5e-4);
        QVERIFY_NEAR(qbar + t * std::sqrt(T), 2.893, 5e-4);
        QVERIFY(contains(text, "df = 2 * (1 + 0.11 / (0.04 / 3))^2 = 171.125"));
        QVERIFY(contains(text, "[1.507, 2.893]"));

        // With CSV the examples read CSV; with one dataset the README says the rules fail.
        const fs::path one = outputDir("readme_one") / "bundle";
        QVERIFY(writeReleaseBundle(makeRequest(1, {FileFormat::Csv}), one.string()).isOk());
        const std::string t1 = test::slurp(one / "README.txt");
        // read.csv keeps the names as they are ("2nd wave" would become X2nd.wave).
        QVERIFY(contains(t1,
                         "read.csv(sprintf(\"data/synthetic_%02d.csv\", l), check.names = "
                         "FALSE)"));
        QVERIFY(contains(t1, "import delimited"));
        QVERIFY(contains(t1, "only one dataset"));
    }
};

QTEST_APPLESS_MAIN(TstRelease)
#include "tst_release.moc"
