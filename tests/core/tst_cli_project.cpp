// `ppsynth-cli run PROJECT.ppsynth` with the real executable: the bundled example project
// (with few draws) gives the same synthetic files, byte for byte, as `ppsynth-cli run
// CONFIG.json` of the configuration made of the project's sections; without --out the run
// goes beside the project, which then lists it; a project that cannot run, or a file that is
// neither a project nor a configuration, is refused with a message that says so.
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_process.hpp"
#include "ppsynth/study/project.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace ppsynth;

namespace {

using Result = test::CliOutput<std::string>;

Result cli(const QStringList& args) {
    return test::runCli<std::string>(args, 600000);
}

QString q(const fs::path& p) {
    return QString::fromStdString(p.string());
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// The bundled example project and its data in `dir`, with few draws so that a run is quick.
json quickExample(const fs::path& dir) {
    fs::copy_file(PPSYNTH_EXAMPLES_DIR "/income_survey.csv", dir / "income_survey.csv");
    json j = json::parse(test::slurp(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth"));
    j["run_config"]["mcmc"] = {
        {"chains", 2}, {"warmup", 60}, {"draws", 60}, {"seed", 11}, {"threads", 2}};
    j["run_config"]["synthesis"]["m"] = 2;
    j["run_config"]["risk"]["L"] = 2;
    j["run_config"]["utility"] = {{"bootstrap", 20}};
    writeText(dir / "example.ppsynth", j.dump(2));
    return j;
}

}  // namespace

class TstCliProject : public QObject {
    Q_OBJECT

  private slots:
    // The project's run and the equivalent configuration's (the project's data section and
    // run_config in one file) write the same synthetic bytes.
    void projectRunsAsItsConfiguration() {
        const fs::path dir = test::freshDir("tst_cli_project", "same_bytes");
        const json project = quickExample(dir);
        json config = project.at("run_config");
        config["data"] = project.at("data");
        config["data"]["transform"] = project.at("transform");
        config["data"]["missing"] = project.at("missing");
        writeText(dir / "config.json", config.dump(2));

        const auto a = cli({"run", q(dir / "example.ppsynth"), "--out", q(dir / "from_project")});
        QVERIFY2(a.code == 0, a.err.c_str());
        const auto b = cli({"run", q(dir / "config.json"), "--out", q(dir / "from_config")});
        QVERIFY2(b.code == 0, b.err.c_str());
        const auto fromProject = test::filesWithBytes(dir / "from_project" / "synthetic");
        const auto fromConfig = test::filesWithBytes(dir / "from_config" / "synthetic");
        QCOMPARE(fromProject.size(), std::size_t(4 * 2));  // 4 synthesizers, m = 2
        QVERIFY(fromProject == fromConfig);
        QCOMPARE(a.out, b.out);  // the same epsilons, risks and utilities printed
        // --out given: the project file is not touched.
        QVERIFY(json::parse(test::slurp(dir / "example.ppsynth")) == project);
    }

    // Without --out the run goes to PROJECT_runs/run_N beside the project, as the GUI saves
    // runs, and the project file then lists it (rewritten in the current format).
    void runWithoutOutGoesBesideTheProject() {
        const fs::path dir = test::freshDir("tst_cli_project", "beside");
        quickExample(dir);
        for (int n = 1; n <= 2; ++n) {
            const auto r = cli({"run", q(dir / "example.ppsynth")});
            QVERIFY2(r.code == 0, r.err.c_str());
            const fs::path folder = dir / "example_runs" / ("run_" + std::to_string(n));
            QVERIFY2(fs::exists(folder / "run.json"), r.err.c_str());
            const auto p = study::loadProject((dir / "example.ppsynth").string());
            QVERIFY2(bool(p), p ? "" : p.message().c_str());
            QCOMPARE(p->runs.size(), std::size_t(n));
            QCOMPARE(fs::path(p->runs.back().folder), folder);
            QVERIFY(p->runs.back().label.starts_with("Run " + std::to_string(n) + " (Unweighted"));
            QVERIFY(p->runs.back().summary.starts_with("Unweighted: \u03b5 "));
        }
        const json saved = json::parse(test::slurp(dir / "example.ppsynth"));
        QCOMPARE(saved.at("version").get<int>(), 2);
        QCOMPARE(saved.at("runs")[1].at("folder").get<std::string>(),
                 std::string("example_runs/run_2"));
    }

    void refused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        json early = json::parse(test::slurp(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth"));
        early["data"]["target"] = "";
        QTest::newRow("no sensitive variable")
            << QString::fromStdString(early.dump()) << "early.ppsynth" << QStringList()
            << "project 'early.ppsynth': the project has no sensitive variable";
        QTest::newRow("a .ppsynth that is not a project")
            << "{\"data\": {}}"
            << "other.ppsynth" << QStringList() << "not a ppsynth project";
        QTest::newRow("a configuration without --out")
            << "{}"
            << "config.json" << QStringList() << "--out is required for a run configuration";
        QTest::newRow("neither (a configuration's error, as before)")
            << "name,age\n"
            << "data.csv" << QStringList{"--out", "x"}
            << "is neither a run configuration (JSON) nor a ppsynth project";
    }
    void refused() {
        QFETCH(QString, text);
        QFETCH(QString, name);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        const fs::path dir = test::freshDir("tst_cli_project", "refused");
        writeText(dir / name.toStdString(), text.toStdString());
        const auto r = cli(QStringList{"run", q(dir / name.toStdString())} + extra);
        QVERIFY(r.code != 0);
        QVERIFY2(QString::fromStdString(r.err).contains(message), r.err.c_str());
    }

    void helpSaysWhereProjectRunsGo() {
        const auto r = cli({"run", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.find("PROJECT_runs/run_N") != std::string::npos, r.out.c_str());
    }
};

QTEST_GUILESS_MAIN(TstCliProject)
#include "tst_cli_project.moc"
