// Projects (.ppsynth) in core: Project -> JSON -> Project keeps everything; the files the
// GUI wrote before projects moved into core (format version 1: the bundled example and
// tests/data/projects) load as that code loaded them; version 2 writes the reading options
// in a run configuration's data.read spellings; bad files are refused naming the key; and
// saving runs with the project is one transaction, rolled back when a step fails.
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ppsynth/study/project.hpp"
#include "ppsynth/study/project_save.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using namespace ppsynth;
using nlohmann::json;

namespace {

const std::string kProjects = PPSYNTH_TEST_DATA_DIR "/projects";

// A loaded project as tests/data/projects/*.loaded.json records it: paths under `dir` start
// with "<dir>".
json dumpLoaded(const study::Project& p, const std::string& dir) {
    auto rel = [&](std::string s) {
        if (s.starts_with(dir)) s.replace(0, dir.size(), "<dir>");
        return s;
    };
    study::RunConfig c = p.config;
    c.data.path = rel(c.data.path);
    json j;
    j["config"] = json::parse(study::toJson(c));
    // Keys added to the run configuration after these files were recorded, at their defaults
    // (run until converged, tempering): not part of what version 1 said.
    auto& mcmc = j["config"]["mcmc"];
    const study::RunConfig::Mcmc defaults;
    if (mcmc.value("budget_seconds", -1.0) == defaults.budgetSeconds) mcmc.erase("budget_seconds");
    if (c.mcmc.replicas == defaults.replicas) mcmc.erase("tempering");
    j["data_path"] = rel(p.config.data.path);
    j["has_synthesizers"] = p.hasSynthesizers;
    j["note"] = p.note;
    j["runs"] = json::array();
    for (const auto& r : p.runs)
        j["runs"].push_back(
            {{"folder", rel(r.folder)}, {"label", r.label}, {"summary", r.summary}});
    return j;
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// A project file's text with `edit` applied to its JSON.
std::string editedExample(const std::function<void(json&)>& edit) {
    json j = json::parse(test::slurp(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth"));
    edit(j);
    return j.dump(2);
}

// Writes "run.json" and a data file into `folder`, as a run folder writer would.
Status writeFakeRun(const std::string& folder) {
    fs::create_directories(fs::path(folder) / "synthetic");
    writeText(fs::path(folder) / "run.json", "{}");
    writeText(fs::path(folder) / "synthetic" / "s.csv", "y\n1\n");
    return {};
}

}  // namespace

class TstProject : public QObject {
    Q_OBJECT

  private slots:
    void oldProjectsLoadAsBefore_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("loaded");
        QTest::addColumn<QString>("dir");
        const auto p = QString::fromStdString(kProjects);
        QTest::newRow("every setting (GUI, version 1)")
            << p + "/gui_v1_full.ppsynth" << p + "/gui_v1_full.loaded.json" << p;
        QTest::newRow("no roles or synthesizers yet (GUI, version 1)")
            << p + "/gui_v1_early.ppsynth" << p + "/gui_v1_early.loaded.json" << p;
        QTest::newRow("bundled example")
            << QStringLiteral(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth")
            << p + "/income_survey.loaded.json" << QStringLiteral(PPSYNTH_EXAMPLES_DIR);
    }
    // What the GUI's loader read from these files (recorded before the change) is what core's
    // reads: every setting, the reading options as data.read, the runs and the note.
    void oldProjectsLoadAsBefore() {
        QFETCH(QString, file);
        QFETCH(QString, loaded);
        QFETCH(QString, dir);
        const auto p = study::loadProject(file.toStdString());
        QVERIFY2(bool(p), p ? "" : p.message().c_str());
        const json expected = json::parse(test::slurp(loaded.toStdString()));
        const json actual = dumpLoaded(*p, fs::absolute(dir.toStdString()).string());
        QVERIFY2(actual == expected, (actual.dump(1) + "\nexpected\n" + expected.dump(1)).c_str());
    }

    void roundTrip_data() {
        QTest::addColumn<QString>("file");
        const auto p = QString::fromStdString(kProjects);
        QTest::newRow("every setting") << p + "/gui_v1_full.ppsynth";
        QTest::newRow("no roles or synthesizers yet") << p + "/gui_v1_early.ppsynth";
        QTest::newRow("bundled example")
            << QStringLiteral(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth");
    }
    // Project -> JSON -> Project gives the same project, and the same JSON again; saved in
    // another folder, paths outside it are absolute and still the same files.
    void roundTrip() {
        QFETCH(QString, file);
        const auto p = study::loadProject(file.toStdString());
        QVERIFY2(bool(p), p ? "" : p.message().c_str());
        for (const std::string& at :
             {file.toStdString(),
              test::freshDir("tst_project", "elsewhere").string() + "/p.ppsynth"}) {
            const std::string text = study::projectToJson(*p, at);
            const auto back = study::parseProject(text, at);
            QVERIFY2(bool(back), back ? "" : back.message().c_str());
            QCOMPARE(dumpLoaded(*back, "").dump(1), dumpLoaded(*p, "").dump(1));
            QCOMPARE(study::projectToJson(*back, at), text);
        }
    }

    // Several sensitive variables (data.targets with per-variable "models" and risk.radii):
    // a project holds them and reads them back as they were, and runs them.
    void severalTargetsRoundTrip() {
        auto c = study::loadRunConfig(PPSYNTH_TEST_DATA_DIR "/configs/two_targets.json");
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        c->risk.radii["doctor_visits"] = 0.5;
        study::Project p;
        p.config = *c;
        const std::string at = test::freshDir("tst_project", "targets").string() + "/p.ppsynth";
        const std::string text = study::projectToJson(p, at);
        const auto back = study::parseProject(text, at);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        QCOMPARE(study::toJson(back->config), study::toJson(*c));
        QCOMPARE(back->config.data.targets, (std::vector<std::string>{"income", "doctor_visits"}));
        const auto run = study::projectRunConfig(*back);
        QVERIFY2(bool(run), run ? "" : run.message().c_str());
        QCOMPARE(run->data.target, std::string("income"));
        QCOMPARE(run->models.at("doctor_visits").family.value(), std::string("poisson"));
    }

    // Version 2 writes the reading options once, in data.read's spellings (the run
    // configuration's), with transform and missing in data, and paths inside the project's
    // folder relative to it.
    void writesCoreSpellings() {
        const auto p = study::loadProject(kProjects + "/gui_v1_full.ppsynth");
        QVERIFY2(bool(p), p ? "" : p.message().c_str());
        const json j = json::parse(study::projectToJson(*p, kProjects + "/again.ppsynth"));
        QCOMPARE(j.at("version").get<int>(), 2);
        QVERIFY(!j.contains("transform") && !j.contains("missing"));
        const json& d = j.at("data");
        QVERIFY(!d.contains("csv") && !d.contains("stat"));
        QCOMPARE(d.at("path").get<std::string>(), std::string("survey data.csv"));
        QCOMPARE(d.at("transform").get<std::string>(), std::string("asinh"));
        QCOMPARE(d.at("missing").get<std::string>(), std::string("listwise"));
        const json expectedRead = {{"delimiter", ";"},
                                   {"quote", "'"},
                                   {"decimal", ","},
                                   {"thousands", "."},
                                   {"header", true},
                                   {"encoding", "windows-1252"},
                                   {"missing_tokens", {"NA", "-99", ""}},
                                   {"stat_encoding", "CP850"}};
        QCOMPARE(d.at("read").dump(), expectedRead.dump());
        // Core's own parser of data.read takes it as it is.
        QVERIFY(bool(study::parseDataRead(d.at("read").dump())));
        QCOMPARE(j.at("runs")[0].at("folder").get<std::string>(),
                 std::string("gui_v1_full_runs/run_1"));
        QCOMPARE(j.at("runs")[1].at("folder").get<std::string>(),
                 std::string("/elsewhere/runs/run_7"));
        QVERIFY(!j.at("run_config").contains("data"));
    }

    void refused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        auto row = [](const char* name, const std::function<void(json&)>& edit, const char* msg) {
            QTest::newRow(name) << QString::fromStdString(editedExample(edit)) << msg;
        };
        QTest::newRow("a key twice") << R"({"format": "ppsynth-project", "version": 1,
            "data": {"path": "a.csv", "target": "y", "target": "x"}})"
                                     << "key 'target' appears twice";
        row(
            "not a project", [](json& j) { j.erase("format"); },
            "not a ppsynth project (no \"format\": \"ppsynth-project\")");
        row(
            "a later version", [](json& j) { j["version"] = 3; },
            "version 3 is not one this ppsynth reads (1 to 2)");
        row(
            "no data file", [](json& j) { j["data"].erase("path"); }, "\"data.path\" is missing");
        row(
            "a path as a synthesizer's name",
            [](json& j) { j["run_config"]["synthesizers"][1]["name"] = "../../bundle/leak"; },
            "the name '../../bundle/leak' starts with '.'");
        row(
            "an unknown key", [](json& j) { j["colour"] = "red"; },
            "project: unknown key 'colour'");
        row(
            "a bad data.read (version 2)",
            [](json& j) {
                j["version"] = 2;
                j["data"]["transform"] = j["transform"];
                j["data"]["missing"] = j["missing"];
                j.erase("transform");
                j.erase("missing");
                j["data"]["read"] = {{"delimiter", ";;"}};
            },
            "data.read: 'delimiter' must be \"auto\" or one character");
        row(
            "a bad v1 CSV option",
            [](json& j) {
                j["data"]["csv"] = {{"decimal", ";"}};
            },
            "data.read: 'decimal' must be \"auto\", \".\" or \",\"");
        row(
            "roles not names",
            [](json& j) {
                j["data"]["known"] = {1, 2};
            },
            "data: 'known' must be a list of column names");
        row(
            "a run without a folder",
            [](json& j) {
                j["runs"] = {{{"label", "Run 1"}}};
            },
            "runs[0]: needs 'folder'");
    }
    void refused() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto p = study::parseProject(text.toStdString(), "/tmp/p.ppsynth");
        QVERIFY(!p);
        QVERIFY2(QString::fromStdString(p.message()).contains(message), p.message().c_str());
    }

    // A project runs only once it has a sensitive variable and synthesizers.
    void runConfigNeedsRolesAndSynthesizers() {
        const auto early = study::loadProject(kProjects + "/gui_v1_early.ppsynth");
        QVERIFY(bool(early));
        const auto c = study::projectRunConfig(*early);
        QVERIFY(!c);
        QVERIFY2(QString::fromStdString(c.message()).contains("no sensitive variable"),
                 c.message().c_str());
        auto example = study::loadProject(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth");
        QVERIFY(bool(example));
        example->hasSynthesizers = false;
        example->config.synthesizers.clear();
        QVERIFY(QString::fromStdString(study::projectRunConfig(*example).message())
                    .contains("lists no synthesizers"));
    }

    void isProjectFile() {
        QVERIFY(study::isProjectFile(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth"));
        QVERIFY(!study::isProjectFile(PPSYNTH_EXAMPLES_DIR "/demo.json"));
        QVERIFY(!study::isProjectFile(PPSYNTH_EXAMPLES_DIR "/income_survey.csv"));
    }

    void saveRollsBack_data() {
        QTest::addColumn<QString>("failAt");
        QTest::addColumn<bool>("runsFolderThere");
        for (const bool there : {false, true}) {
            const char* tag = there ? ", runs folder there" : ", new runs folder";
            for (const char* at :
                 {"project file", "second run", "cancel", "cancel during the last run"})
                QTest::newRow((std::string(at) + tag).c_str()) << at << there;
        }
    }
    // A step that fails (the project file, a run folder) or a cancel: the folders this save
    // wrote are gone, a runs folder it made is gone, the old project file is as it was and
    // nothing else was left beside it.
    void saveRollsBack() {
        QFETCH(QString, failAt);
        QFETCH(bool, runsFolderThere);
        const fs::path dir = test::freshDir("tst_project", "rollback");
        const std::string file = (dir / "study.ppsynth").string();
        auto p = study::loadProject(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth");
        QVERIFY(bool(p));
        QVERIFY(bool(study::saveProjectFile(*p, file)));
        const std::string before = test::slurp(file);
        const fs::path runsDir = study::projectRunsFolder(file);
        QCOMPARE(runsDir, dir / "study_runs");
        if (runsFolderThere) QVERIFY(bool(writeFakeRun((runsDir / "run_1").string())));
        const auto filesBefore = test::filesUnder(dir);

        std::vector<study::RunToSave> runs(2);
        for (std::size_t i = 0; i < runs.size(); ++i) {
            runs[i].name = "run_" + std::to_string(i + 1);
            runs[i].label = "Run " + std::to_string(i + 1);
            runs[i].write = writeFakeRun;
        }
        study::ProjectSaveOptions options;
        if (failAt == "project file")
            options.beforeProjectFile = [] { return Status(Error{"the disk is full"}); };
        if (failAt == "second run")
            runs[1].write = [](const std::string& folder) {
                (void)writeFakeRun(folder + ".partial-1");
                fs::remove_all(folder + ".partial-1");  // a writer that cleans up after itself
                return Status(Error{"cannot write the second run"});
            };
        int told = 0;
        if (failAt.startsWith("cancel")) {
            // Asked before each run and once after the last: 2 stops before the second run,
            // 3 while the last run was being written.
            const int stopAt = failAt == "cancel" ? 2 : 3;
            options.progress = [&told, stopAt](const Progress&) {
                return ++told == stopAt ? Continue::Stop : Continue::Yes;
            };
        }
        const auto saved = study::saveProject(*p, file, runs, options);
        QVERIFY(!saved);
        if (failAt.startsWith("cancel")) QCOMPARE(saved.kind(), ErrorKind::Cancelled);
        QCOMPARE(test::slurp(file), before);
        QCOMPARE(test::filesUnder(dir), filesBefore);
        QCOMPARE(fs::exists(runsDir), runsFolderThere);
        // Nothing left beside the project (a temporary file, an empty folder).
        std::vector<std::string> entries;
        for (const auto& e : fs::directory_iterator(dir))
            entries.push_back(e.path().filename().string());
        std::sort(entries.begin(), entries.end());
        std::vector<std::string> expected{"study.ppsynth"};
        if (runsFolderThere) expected.push_back("study_runs");
        QCOMPARE(entries, expected);
    }

    // A save that succeeds: the run folders (fresh names beside a taken one) and then the
    // project listing them, relative to it.
    void saveWritesRunsThenProject() {
        const fs::path dir = test::freshDir("tst_project", "save");
        const std::string file = (dir / "study.ppsynth").string();
        auto p = study::loadProject(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth");
        QVERIFY(bool(p));
        QVERIFY(bool(writeFakeRun((dir / "study_runs" / "run_1").string())));
        bool projectWrittenYet = true;
        study::RunToSave run{"Run 1 (LW)", "LW: \u03b5 2.3", "run_1",
                             [&](const std::string& folder) {
                                 projectWrittenYet = fs::exists(file);
                                 return writeFakeRun(folder);
                             }};
        const auto saved = study::saveProject(*p, file, {run});
        QVERIFY2(bool(saved), saved ? "" : saved.message().c_str());
        QVERIFY(!projectWrittenYet);
        QCOMPARE(*saved, std::vector<std::string>{(dir / "study_runs" / "run_1_2").string()});
        const json j = json::parse(test::slurp(file));
        QCOMPARE(j.at("runs").size(), std::size_t(1));
        QCOMPARE(j.at("runs")[0].at("folder").get<std::string>(),
                 std::string("study_runs/run_1_2"));
        const auto back = study::loadProject(file);
        QVERIFY(bool(back));
        QCOMPARE(back->runs.at(0).label, std::string("Run 1 (LW)"));
        QVERIFY(fs::exists(fs::path(back->runs.at(0).folder) / "run.json"));
    }
};

QTEST_GUILESS_MAIN(TstProject)
#include "tst_project.moc"
