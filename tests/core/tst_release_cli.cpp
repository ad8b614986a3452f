// `ppsynth-cli release` end to end, through the real executable: a run made by
// `ppsynth-cli run`, then bundles checked for layout and checksums, re-imported through the
// readers, scanned byte by byte for every confidential value, interrupted, refused when
// they would overwrite, and their manifests read field by field. Also every command that
// writes confidential output refusing a destination inside a bundle.
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTest>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "cli_process.hpp"
#include "ppsynth/common/sha256.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/number_format.hpp"
#include "ppsynth/release/bundle.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/runner.hpp"
#include "run_fixture.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path outputDir(const std::string& sub) {
    const QByteArray env = qgetenv("PPSYNTH_TEST_OUTPUT");
    const fs::path dir =
        fs::path(env.isEmpty() ? fs::temp_directory_path().string() : env.toStdString()) /
        "release_cli" / sub;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

using Result = test::CliOutput<std::string>;

Result rawCli(const QStringList& args) {
    return test::runCli<std::string>(args, 300000);
}

// The income fixture's chains are short (S = 300): its epsilon verdict may well be "not
// converged" (the chains' f_i agree only within ~5%), which `release` refuses. Tests of
// other things release it all the same; unconvergedEpsilonIsRefusedUnlessAccepted checks
// the refusal itself (rawCli).
Result cli(QStringList args) {
    if (!args.isEmpty() && args.front() == QStringLiteral("release"))
        args << QStringLiteral("--accept-unconverged");
    return rawCli(args);
}

// Everything beside the bundle's name: temporaries or old bundles left behind.
std::vector<std::string> besides(const fs::path& target) {
    std::vector<std::string> found;
    const std::string stem = target.filename().string();
    for (const auto& e : fs::directory_iterator(target.parent_path()))
        if (e.path().filename().string().rfind(stem, 0) == 0) found.push_back(e.path().string());
    return found;
}

std::vector<std::string> labels(const data::Column& c) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < c.size(); ++i)
        out.push_back(c.isMissing(i) ? "" : c.levels()[static_cast<std::size_t>(c.code(i))].label);
    return out;
}

std::string bytesOf(double v) {
    std::string s(sizeof v, '\0');
    std::memcpy(s.data(), &v, sizeof v);
    return s;
}

// A sweep of the run's data on the conjugate model: one point, quick.
std::string quickSweepConfig(const fs::path& data) {
    const json config = {
        {"data",
         {{"path", data.string()}, {"target", "visits"}, {"predictors", {"region", "age"}}}},
        {"model", {{"family", "poisson-means"}}},
        {"mcmc", {{"chains", 1}, {"draws", 100}}},
        {"synthesis", {{"m", 2}}},
        {"utility", {{"enabled", false}}},
        {"sweep", {{"points", json::array({{{"c", 0.7}, {"g", 0.0}}})}}}};
    return config.dump();
}

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}
QString q(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

class TstReleaseCli : public QObject {
    Q_OBJECT
    fs::path base_, run_, data_;
    static constexpr int kM = 4;

  private slots:
    void initTestCase() {
        base_ = outputDir("income");
        const std::string config = fixture::writeIncomeInputs(base_, kM);
        QVERIFY(!config.empty());
        run_ = base_ / "run";
        data_ = base_ / "income.sav";
        const Result r = cli({"run", q(config), "--out", q(run_)});
        QVERIFY2(r.code == 0, r.err.c_str());
    }

    void bundleContentsAndChecksums() {
        const fs::path bundle = outputDir("contents") / "bundle";
        const Result r = cli({"release", q(run_), "--synthesizer", "LW", "--out", q(bundle),
                              "--format", "csv,sav,dta"});
        QVERIFY2(r.code == 0, r.err.c_str());
        std::vector<std::string> expected = {"README.txt", "SHA256SUMS", "manifest.json"};
        for (int l = 1; l <= kM; ++l)
            for (const char* ext : {"csv", "dta", "sav"})
                expected.push_back("data/synthetic_0" + std::to_string(l) + "." + ext);
        std::sort(expected.begin(), expected.end());
        QCOMPARE(test::filesUnder(bundle), expected);
        QCOMPARE(besides(bundle), std::vector<std::string>{bundle.string()});

        std::istringstream sums(test::slurp(bundle / "SHA256SUMS"));
        std::set<std::string> listed;
        std::string line;
        while (std::getline(sums, line)) {
            QVERIFY(line.size() > 66);
            const std::string name = line.substr(66);
            auto hex = sha256FileHex((bundle / name).string());
            QVERIFY2(hex.hasValue() && *hex == line.substr(0, 64), name.c_str());
            listed.insert(name);
        }
        std::set<std::string> all(expected.begin(), expected.end());
        all.erase("SHA256SUMS");
        QVERIFY(listed == all);
    }

    // What the readers get back from every format equals what the run produced: the
    // synthetic y of the run folder exactly, the predictors' values and labels of the data.
    void reimportEqualsWhatWasWritten() {
        const fs::path bundle = outputDir("reimport") / "bundle";
        const Result r = cli({"release", q(run_), "--synthesizer", "CW", "--out", q(bundle),
                              "--format", "sav,dta,csv"});
        QVERIFY2(r.code == 0, r.err.c_str());
        auto loaded = study::loadRunFolder(run_.string());
        QVERIFY2(loaded.hasValue(), loaded.hasValue() ? "" : loaded.message().c_str());
        const auto& cw = *loaded->run.find("CW");
        const data::Table& source = loaded->table;
        const std::vector<std::string> released = {"region", "sex", "age", "visits", "income"};
        for (int l = 0; l < kM; ++l)
            for (const char* ext : {"csv", "sav", "dta"}) {
                const fs::path file =
                    bundle / "data" / ("synthetic_0" + std::to_string(l + 1) + "." + ext);
                auto back = data::readTable(file.string());
                QVERIFY2(back.hasValue(), back.hasValue() ? "" : back.message().c_str());
                QCOMPARE(back->columnCount(), released.size());
                for (std::size_t j = 0; j < released.size(); ++j)
                    QCOMPARE(back->column(j).name(), released[j]);
                QCOMPARE(back->find("income")->values(), cw.synthetic[static_cast<std::size_t>(l)]);
                QCOMPARE(back->find("age")->values(), source.find("age")->values());
                QCOMPARE(back->find("visits")->values(), source.find("visits")->values());
                for (const char* cat : {"region", "sex"}) {
                    const data::Column& got = *back->find(cat);
                    const data::Column& want = *source.find(cat);
                    QVERIFY2(got.type() == data::ColumnType::Categorical, cat);
                    QCOMPARE(labels(got), labels(want));
                    // .sav and .dta keep the data's value codes and labels as they were.
                    if (std::string(ext) != "csv") QVERIFY2(got.levels() == want.levels(), cat);
                }
            }
    }

    // Every written byte is scanned for every confidential value of the run: original y,
    // weights, per-record bounds and risks (as text and as the 8 bytes of a double), the
    // log-shift s, and the column that was not modelled.
    void leakScan() {
        const fs::path bundle = outputDir("leak") / "bundle";
        const Result r = cli({"release", q(run_), "--synthesizer", "LW", "--out", q(bundle),
                              "--format", "csv,sav,dta"});
        QVERIFY2(r.code == 0, r.err.c_str());
        auto loaded = study::loadRunFolder(run_.string());
        QVERIFY(loaded.hasValue());
        const auto& run = loaded->run;
        std::vector<double> secrets;
        for (Eigen::Index i = 0; i < run.inputs.yOriginal.size(); ++i)
            secrets.push_back(run.inputs.yOriginal[i]);
        for (const auto& s : run.synthesizers) {
            secrets.insert(secrets.end(), s.records.alpha.data(),
                           s.records.alpha.data() + s.records.alpha.size());
            secrets.insert(secrets.end(), s.records.recordDelta.data(),
                           s.records.recordDelta.data() + s.records.recordDelta.size());
            secrets.insert(secrets.end(), s.records.ir.begin(), s.records.ir.end());
        }
        secrets.insert(secrets.end(), run.f.data(), run.f.data() + run.f.size());
        secrets.push_back(run.inputs.transform.shift);
        for (const double h : loaded->table.find("household")->values()) secrets.push_back(h);
        // Texts short enough to occur by chance ("1", "0.5") say nothing; the fixture's
        // values have many digits.
        std::vector<std::string> needles = {"household"};
        std::size_t scanned = 0;
        for (double v : secrets) {
            const std::string text = data::formatNumber(v);
            if (text.size() < 7) continue;
            needles.push_back(text);
            needles.push_back(bytesOf(v));
            ++scanned;
        }
        QVERIFY2(scanned > 1000, std::to_string(scanned).c_str());
        for (const auto& name : test::filesUnder(bundle)) {
            const std::string bytes = test::slurp(bundle / name);
            for (const auto& n : needles)
                QVERIFY2(bytes.find(n) == std::string::npos,
                         (name + " holds a confidential value").c_str());
        }
        // The scan can fail: the run folder's records file holds these values.
        const std::string records = test::slurp(run_ / "confidential" / "LW_records.csv");
        QVERIFY(records.find(data::formatNumber(run.inputs.yOriginal[0])) != std::string::npos);
    }

    void interruptedExportLeavesNothing() {
        const fs::path dir = outputDir("interrupt");
        const std::string config = fixture::writeLargeInputs(dir, 60000, 40);
        QVERIFY(!config.empty());
        const Result made = cli({"run", q(config), "--out", q(dir / "run")});
        QVERIFY2(made.code == 0, made.err.c_str());
        const fs::path bundle = dir / "out" / "bundle";
        QProcess p;
        p.start(QStringLiteral(PPSYNTH_CLI),
                {"release", q(dir / "run"), "--synthesizer", "Unweighted", "--out", q(bundle),
                 "--format", "csv,sav,dta"});
        QVERIFY(p.waitForStarted());
        // Interrupt once the bundle's temporary folder holds its first file.
        bool sent = false;
        for (int i = 0; i < 200000 && p.state() == QProcess::Running && !sent; ++i) {
            if (fs::exists(bundle.parent_path()))
                for (const auto& e : fs::directory_iterator(bundle.parent_path()))
                    if (fs::exists(e.path() / "data") && !fs::is_empty(e.path() / "data")) {
                        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
                        sent = true;
                        break;
                    }
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        QVERIFY2(sent, "the release ended before it could be interrupted");
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 130);
        QVERIFY(p.readAllStandardError().contains("cancelled: nothing was written"));
        // Nothing: no bundle, no temporary, not even the parent folder the export made.
        QVERIFY(!fs::exists(bundle.parent_path()));
    }

    void failedExportLeavesNothing() {
        const fs::path dir = outputDir("failed");
        std::ofstream(dir / "a-file") << "not a folder";
        const Result r =
            cli({"release", q(run_), "--synthesizer", "LW", "--out", q(dir / "a-file" / "bundle")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("error: ") != std::string::npos, r.err.c_str());
        QCOMPARE(test::filesUnder(dir), std::vector<std::string>{"a-file"});
    }

    void overwriteOnlyWhenAsked() {
        const fs::path bundle = outputDir("overwrite") / "bundle";
        QCOMPARE(cli({"release", q(run_), "--synthesizer", "LW", "--out", q(bundle)}).code, 0);
        const std::string before = test::slurp(bundle / "SHA256SUMS");
        const Result again = cli({"release", q(run_), "--synthesizer", "CW", "--out", q(bundle)});
        QCOMPARE(again.code, 1);
        QVERIFY2(again.err.find("--overwrite") != std::string::npos, again.err.c_str());
        QCOMPARE(test::slurp(bundle / "SHA256SUMS"), before);
        const Result forced =
            cli({"release", q(run_), "--synthesizer", "CW", "--out", q(bundle), "--overwrite"});
        QVERIFY2(forced.code == 0, forced.err.c_str());
        const json m = json::parse(test::slurp(bundle / "manifest.json"));
        QCOMPARE(m["mechanism"]["synthesizer"].get<std::string>(), std::string("CW"));
        QCOMPARE(besides(bundle), std::vector<std::string>{bundle.string()});
    }

    // A bundle is handed out as a whole: no command writes confidential output into one (or
    // over one), nor a bundle into another. Refused before any work as a usage error (exit
    // 2) naming the bundle, and nothing is written. Reading from a bundle is fine.
    void confidentialOutputsAreRefusedInsideABundle_data() {
        QTest::addColumn<QStringList>("args");  // {bundle}, {run}, {config}, {data}, {sweep}
        QTest::addColumn<QString>("said");      // in the message
        const QString confidential = QStringLiteral("confidential output (");
        QTest::newRow("run") << QStringList{"run", "{config}", "--out", "{bundle}/run"}
                             << confidential + "a run folder";
        QTest::newRow("run, folders not yet made")
            << QStringList{"run", "{config}", "--out", "{bundle}/data/new/run"}
            << confidential + "a run folder";
        QTest::newRow("run over the bundle")
            << QStringList{"run", "{config}", "--out", "{bundle}", "--overwrite"}
            << confidential + "a run folder";
        QTest::newRow("demo") << QStringList{"demo", "--out", "{bundle}/demo"}
                              << confidential + "a run folder";
        QTest::newRow("risk") << QStringList{"risk",
                                             "--original",
                                             "{data}",
                                             "--synthetic",
                                             "{bundle}/data/synthetic_01.csv",
                                             "--target",
                                             "income",
                                             "--out",
                                             "{bundle}/risks.csv"}
                              << confidential + "per-record identification risks";
        QTest::newRow("sweep") << QStringList{"sweep", "{sweep}", "--out", "{bundle}/sweep"}
                               << confidential + "a sweep folder";
        QTest::newRow("release inside")
            << QStringList{"release", "{run}", "--synthesizer", "CW", "--out", "{bundle}/inner"}
            << QStringLiteral("is inside the release bundle");
    }
    void confidentialOutputsAreRefusedInsideABundle() {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        const fs::path dir = outputDir("guard");
        const fs::path bundle = dir / "bundle";
        const Result made = cli({"release", q(run_), "--synthesizer", "LW", "--out", q(bundle)});
        QVERIFY2(made.code == 0, made.err.c_str());
        // A sweep of the same data on the conjugate model: quick, had it been run.
        const fs::path sweep = dir / "sweep.json";
        std::ofstream(sweep) << quickSweepConfig(data_);
        const std::vector<std::string> files = test::filesUnder(bundle);
        for (QString& a : args)
            a.replace("{bundle}", q(bundle))
                .replace("{run}", q(run_))
                .replace("{config}", q(base_ / "config.json"))
                .replace("{data}", q(data_))
                .replace("{sweep}", q(sweep));
        const Result r = cli(args);
        QCOMPARE(r.code, 2);
        for (const std::string& part :
             {std::string("error: --out: "), said.toStdString(),
              "release bundle '" + bundle.string() + "'", std::string("Choose a folder outside")})
            QVERIFY2(r.err.find(part) != std::string::npos, r.err.c_str());
        QCOMPARE(test::filesUnder(bundle), files);
        std::vector<std::string> beside;
        for (const auto& e : fs::directory_iterator(dir)) beside.push_back(e.path().string());
        std::sort(beside.begin(), beside.end());
        QCOMPARE(beside, (std::vector<std::string>{bundle.string(), sweep.string()}));
    }

    // The synthetic files of a bundle may be read; only what is written is checked.
    void riskReadsABundleAndWritesOutsideIt() {
        const fs::path dir = outputDir("guard_outside");
        const fs::path bundle = dir / "bundle";
        QCOMPARE(cli({"release", q(run_), "--synthesizer", "LW", "--out", q(bundle)}).code, 0);
        const Result r = cli({"risk", "--original", q(data_), "--synthetic",
                              q(bundle / "data" / "synthetic_01.csv"), "--target", "income",
                              "--known", "region,sex", "--out", q(dir / "risks.csv")});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(test::slurp(dir / "risks.csv").rfind("row,ir\n", 0) == 0);
    }

    // When the bundle that --overwrite replaced cannot be deleted, the command still succeeds
    // but says where that old bundle was left and that it must be removed by hand.
    void overwriteSaysWhereTheOldBundleWasLeft() {
        const fs::path dir = outputDir("leftover");
        const fs::path bundle = dir / "bundle";
        QCOMPARE(cli({"release", q(run_), "--synthesizer", "LW", "--out", q(bundle)}).code, 0);
        // Undone wherever the file ended up, also when a check below fails.
        const auto cleanup = qScopeGuard([dir] {
            for (const auto& e : fs::directory_iterator(dir))
                test::makeDeletable(e.path() / "data" / "synthetic_01.csv");
        });
        if (!test::makeUndeletable(bundle / "data" / "synthetic_01.csv"))
            QSKIP("a file cannot be made undeletable here");
        const Result r =
            cli({"release", q(run_), "--synthesizer", "CW", "--out", q(bundle), "--overwrite"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const json m = json::parse(test::slurp(bundle / "manifest.json"));
        QCOMPARE(m["mechanism"]["synthesizer"].get<std::string>(), std::string("CW"));
        const std::vector<std::string> beside = besides(bundle);
        QCOMPARE(beside.size(), std::size_t{2});
        const std::string old = beside[0] == bundle.string() ? beside[1] : beside[0];
        QVERIFY2(old.find("bundle.old-") != std::string::npos, old.c_str());
        for (const std::string& part : {std::string("warning: "), "left in '" + old + "'",
                                        std::string("remove that folder by hand")})
            QVERIFY2(r.err.find(part) != std::string::npos, r.err.c_str());
        QVERIFY(fs::exists(fs::path(old) / "data" / "synthetic_01.csv"));
    }

    // A run folder whose run.json was edited so that a synthesizer's name is a path is
    // refused by release, even with the files that path leads to in place: nothing is
    // written.
    void editedNamesAreRefused() {
        const fs::path dir = outputDir("edited_names");
        const fs::path run = dir / "run";
        fs::copy(run_, run, fs::copy_options::recursive);
        fs::copy(run / "confidential" / "LW_records.csv", run / "LW_records.csv");
        fs::copy(run / "synthetic" / "LW", run / "LW", fs::copy_options::recursive);
        auto j = json::parse(test::slurp(run / "run.json"));
        for (auto& s : j["configuration"]["synthesizers"]) {
            if (s["name"] == "LW") s["name"] = "../LW";
            if (s.contains("match") && s["match"] == "LW") s["match"] = "../LW";
            if (s.contains("base") && s["base"] == "LW") s["base"] = "../LW";
        }
        j["synthesizers"]["../LW"] = j["synthesizers"]["LW"];
        j["synthesizers"].erase("LW");
        std::ofstream(run / "run.json") << j.dump(2);
        const fs::path bundle = dir / "bundle";
        const Result r = cli({"release", q(run), "--synthesizer", "../LW", "--out", q(bundle)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("the name '../LW' starts with '.'") != std::string::npos,
                 r.err.c_str());
        QVERIFY(!fs::exists(bundle));
    }

    // A run with two sensitive variables (tests/data/configs/two_targets.json, tiny chains,
    // one synthesizer) is released: both columns synthetic, one epsilon covering both.
    void twoSensitiveVariablesAreReleased() {
        const fs::path dir = outputDir("two_targets");
        json config = json::parse(
            test::slurp(fs::path(PPSYNTH_TEST_DATA_DIR) / "configs" / "two_targets.json"));
        config["data"]["path"] = std::string(PPSYNTH_EXAMPLES_DIR) + "/income_survey.csv";
        config["mcmc"]["warmup"] = 40;
        config["mcmc"]["draws"] = 40;
        config["synthesis"]["m"] = 2;
        config["synthesizers"] =
            json::array({{{"name", "LW"}, {"scheme", "lipschitz"}, {"c", 0.7}, {"g", 0.0}}});
        config["utility"] = {{"enabled", false}};
        const fs::path configFile = dir / "two_targets.json";
        std::ofstream(configFile) << config.dump(2);
        const fs::path run = dir / "run";
        const Result r = cli({"run", q(configFile), "--out", q(run)});
        QVERIFY2(r.code == 0, r.err.c_str());
        const fs::path bundle = dir / "bundle";
        const Result rel = cli(
            {"release", q(run), "--synthesizer", "LW", "--out", q(bundle), "--accept-unconverged"});
        QVERIFY2(rel.code == 0, rel.err.c_str());
        const json manifest = json::parse(test::slurp(bundle / "manifest.json"));
        QVERIFY(manifest["data"]["targets"] == json({"income", "doctor_visits"}));
        QVERIFY(manifest["synthesized"][1]["model"]["family"] == "poisson");
        QVERIFY(manifest["privacy"]["epsilon_covers"]["variables"] ==
                json({"income", "doctor_visits"}));
        QVERIFY(manifest["privacy"]["epsilon_per_dataset"].get<double>() > 0);
        const std::string readme = test::slurp(bundle / "README.txt");
        QVERIFY(readme.find("This one epsilon covers the release of all 2 synthetic") !=
                std::string::npos);
    }

    void manifestFields() {
        const fs::path bundle = outputDir("manifest") / "bundle";
        const Result r =
            cli({"release", q(run_), "--synthesizer", "LW", "--out", q(bundle), "--format", "dta"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const json m = json::parse(test::slurp(bundle / "manifest.json"));
        const json run = json::parse(test::slurp(run_ / "run.json"));
        const json& lw = run["synthesizers"]["LW"];
        QCOMPARE(m["software"]["version"].get<std::string>(), std::string(PPSYNTH_VERSION));
        QVERIFY(QRegularExpression("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")
                    .match(q(m["created_utc"].get<std::string>()))
                    .hasMatch());
        QCOMPARE(m["model"]["family"].get<std::string>(), std::string("normal"));
        QCOMPARE(m["model"]["priors"].size(), std::size_t{4});
        QCOMPARE(m["model"]["priors"]["sigma_scale"].get<double>(), 1.0);
        QCOMPARE(m["transform"]["name"].get<std::string>(), std::string("log-shift"));
        QVERIFY(m["transform"]["shift"].is_null());
        QCOMPARE(m["mechanism"]["scheme"].get<std::string>(), std::string("lipschitz"));
        QCOMPARE(m["mechanism"]["knobs"]["c"].get<double>(), 0.7);
        QCOMPARE(m["mechanism"]["knobs"]["g"].get<double>(), 0.0);
        QCOMPARE(m["sampling"]["S"].get<int>(), 300);
        QCOMPARE(m["seeds"]["mcmc"].get<std::uint64_t>(), std::uint64_t{5});
        QCOMPARE(m["seeds"]["synthesis"].get<std::uint64_t>(), study::synthesisSeed(5, "LW"));
        const double eps = lw["epsilon"].get<double>();
        QCOMPARE(m["privacy"]["epsilon_per_dataset"].get<double>(), eps);
        QCOMPARE(m["privacy"]["epsilon_total"].get<double>(), kM * eps);
        QCOMPARE(m["privacy"]["datasets"].get<int>(), kM);
        QCOMPARE(m["privacy"]["delta_estimate"].get<std::string>(),
                 lw["delta_method"].get<std::string>());
        // The run's verdict on epsilon, as run.json has it; nothing accepted.
        const json& conv = m["privacy"]["epsilon_convergence"];
        QCOMPARE(conv["diagnosed"].get<bool>(), true);
        QCOMPARE(conv["converged"].get<bool>(),
                 lw["diagnostics"]["epsilon"]["converged"].get<bool>());
        QCOMPARE(conv["accepted_unconverged"].get<bool>(), !conv["converged"].get<bool>());
        // n = 240 < 1000: the safety factor 1.05 to 1.10.
        QCOMPARE(m["privacy"]["global_recommendation"]["safety_factor"][1].get<double>(), 1.10);
        QCOMPARE(m["data"]["records"].get<int>(), 240);
        QCOMPARE(m["data"]["predictors"].get<std::vector<std::string>>(),
                 (std::vector<std::string>{"region", "sex", "age", "visits"}));
        const std::string notes = m["notes"].dump();
        QVERIFY2(notes.find("not published") != std::string::npos, notes.c_str());
        // The README's R and Stata code read the .dta files this bundle holds.
        const std::string readme = test::slurp(bundle / "README.txt");
        for (const char* line :
             {"    d <- haven::read_dta(sprintf(\"data/synthetic_%02d.dta\", l))\n",
              "      local f : display %02.0f `l'\n",
              "      use \"data/synthetic_`f'.dta\", clear\n"})
            QVERIFY2(readme.find(line) != std::string::npos, line);
        QVERIFY(fs::is_regular_file(bundle / "data" / "synthetic_01.dta"));
    }

    // A synthesizer whose epsilon did not converge (or was never diagnosed, in a run made
    // before ppsynth diagnosed it) is refused, naming why; --accept-unconverged releases it
    // and the manifest records that.
    void unconvergedEpsilonIsRefusedUnlessAccepted_data() {
        QTest::addColumn<bool>("diagnosed");
        QTest::addColumn<QByteArray>("why");
        QTest::newRow("not converged") << true << QByteArray("split R-hat of D_s is 1.300");
        QTest::newRow("not diagnosed") << false << QByteArray("did not diagnose");
    }
    void unconvergedEpsilonIsRefusedUnlessAccepted() {
        QFETCH(bool, diagnosed);
        QFETCH(QByteArray, why);
        const fs::path dir = outputDir(diagnosed ? "unconverged" : "undiagnosed");
        const fs::path run = dir / "run";
        fs::copy(run_, run, fs::copy_options::recursive);
        json j = json::parse(test::slurp(run / "run.json"));
        json& eps = j["synthesizers"]["LW"]["diagnostics"]["epsilon"];
        QVERIFY(eps.is_object());
        if (diagnosed) {
            eps["converged"] = false;
            eps["reasons"] = {"split R-hat of D_s is 1.300 (bulk)"};
        } else {
            j["synthesizers"]["LW"]["diagnostics"].erase("epsilon");
        }
        std::ofstream(run / "run.json") << j.dump(2);
        const fs::path bundle = dir / "bundle";
        const Result refused =
            rawCli({"release", q(run), "--synthesizer", "LW", "--out", q(bundle)});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.find("the epsilon of 'LW' did not converge") != std::string::npos,
                 refused.err.c_str());
        QVERIFY2(refused.err.find(why.toStdString()) != std::string::npos, refused.err.c_str());
        QVERIFY2(refused.err.find("--accept-unconverged") != std::string::npos,
                 refused.err.c_str());
        QVERIFY(!fs::exists(bundle));
        const Result accepted = cli(
            {"release", q(run), "--synthesizer", "LW", "--out", q(bundle), "--accept-unconverged"});
        QVERIFY2(accepted.code == 0, accepted.err.c_str());
        QVERIFY2(
            accepted.err.find("warning: the epsilon of 'LW' did not converge") != std::string::npos,
            accepted.err.c_str());
        const json m = json::parse(test::slurp(bundle / "manifest.json"));
        const json& c = m["privacy"]["epsilon_convergence"];
        QCOMPARE(c["diagnosed"].get<bool>(), diagnosed);
        QCOMPARE(c["converged"].get<bool>(), false);
        QCOMPARE(c["accepted_unconverged"].get<bool>(), true);
        if (diagnosed)
            QCOMPARE(c["reasons"].get<std::vector<std::string>>(),
                     std::vector<std::string>{"split R-hat of D_s is 1.300 (bulk)"});
        QVERIFY(m["notes"].dump().find("did not converge") != std::string::npos);
    }

    void changedDataIsRefused() {
        const fs::path dir = outputDir("changed");
        const fs::path copy = dir / "income.sav";
        fs::copy_file(data_, copy);
        std::ofstream(copy, std::ios::app) << '\0';
        const Result r = cli({"release", q(run_), "--synthesizer", "LW", "--out", q(dir / "bundle"),
                              "--data", q(copy)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("SHA-256") != std::string::npos, r.err.c_str());
        QVERIFY(!fs::exists(dir / "bundle"));
        const Result unknown =
            cli({"release", q(run_), "--synthesizer", "LW2", "--out", q(dir / "bundle")});
        QCOMPARE(unknown.code, 1);
        QVERIFY2(unknown.err.find("it has Unweighted, LW, CW") != std::string::npos,
                 unknown.err.c_str());
        const Result badFormat = cli({"release", q(run_), "--synthesizer", "LW", "--out",
                                      q(dir / "bundle"), "--format", "csv,xlsx"});
        QCOMPARE(badFormat.code, 1);
        QVERIFY2(badFormat.err.find("'xlsx' is not a release format") != std::string::npos,
                 badFormat.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TstReleaseCli)
#include "tst_release_cli.moc"
