// A project run in the GUI and the same project run the way `ppsynth-cli run PROJECT.ppsynth`
// runs it (core's projectRunConfig, the data read as the configuration says): the same
// configuration, so the same synthetic bytes. The bundled example, with few draws.
#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../core/test_files.hpp"
#include "ppsynth/study/project.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/job_runner.hpp"
#include "ui/main_window.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/shell/page_settings.hpp"
#include "ui/shell/project_controller.hpp"

namespace fs = std::filesystem;
using namespace ppsynth;
using nlohmann::json;

namespace {

bool waitForJob(ui::JobRunnerBase* job) {
    if (!job->isRunning()) return true;
    QSignalSpy spy(job, &ui::JobRunnerBase::finished);
    return spy.wait(120000);
}

}  // namespace

class TstProjectGui : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QApplication::setApplicationName(QStringLiteral("ppsynth-project-gui-test"));
        QApplication::setOrganizationName(QStringLiteral("ppsynth-test"));
    }

    void guiRunIsTheCliRun() {
        const fs::path dir = test::freshDir("tst_project_gui", "example");
        fs::copy_file(PPSYNTH_EXAMPLES_DIR "/income_survey.csv", dir / "income_survey.csv");
        json j = json::parse(test::slurp(PPSYNTH_EXAMPLES_DIR "/income_survey.ppsynth"));
        j["run_config"]["mcmc"] = {
            {"chains", 2}, {"warmup", 40}, {"draws", 40}, {"seed", 11}, {"threads", 2}};
        j["run_config"]["synthesis"]["m"] = 2;
        j["run_config"]["risk"]["L"] = 2;
        j["run_config"]["utility"] = {{"bootstrap", 20}};
        const fs::path file = dir / "example.ppsynth";
        std::ofstream(file) << j.dump(2);

        // The GUI: open the project, press Run, write the finished run as Save does.
        ui::MainWindow w;
        w.project()->openProject(QString::fromStdString(file.string()));
        QVERIFY(waitForJob(w.project()->readJob()));
        QVERIFY2(w.runPanel()->startRun(), qPrintable(w.runPanel()->messageLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(!w.runPanel()->isRunning(), 120000);
        const auto& records = w.runPanel()->runList()->records();
        QCOMPARE(records.size(), std::size_t(1));
        QVERIFY(records.front().result && records.front().table);
        QVERIFY(bool(study::writeRunOutput(*records.front().result, *records.front().table,
                                           (dir / "gui").string())));

        // The CLI's way: core's project, its run configuration, the data read as it says.
        const auto project = study::loadProject(file.string());
        QVERIFY2(bool(project), project ? "" : project.message().c_str());
        const auto config = study::projectRunConfig(*project);
        QVERIFY2(bool(config), config ? "" : config.message().c_str());
        const auto input = study::readRunData(*config);
        QVERIFY2(bool(input), input ? "" : input.message().c_str());
        const auto result = study::runStudy(*config, input->table, {});
        QVERIFY2(bool(result), result ? "" : result.message().c_str());
        QVERIFY(bool(study::writeRunOutput(*result, input->table, (dir / "cli").string())));

        // The same configuration and the same bytes. The GUI names every column's type and
        // every prior's value; the project names none of them, so the reader detects the same
        // types and the model takes its default priors, the values the Model page shows.
        auto gui = w.pageSettings()->currentConfig();
        QVERIFY(bool(gui));
        QVERIFY(config->data.types.empty() && config->model.priors.empty());
        study::RunConfig cli = *config;
        cli.data.types = gui->data.types;
        cli.model.priors = gui->model.priors;
        const auto fromGui = test::filesWithBytes(dir / "gui" / "synthetic");
        QCOMPARE(fromGui.size(), std::size_t(4 * 2));
        QVERIFY(fromGui == test::filesWithBytes(dir / "cli" / "synthetic"));
        QCOMPARE(QString::fromStdString(study::toJson(*gui)).split(QLatin1Char('\n')),
                 QString::fromStdString(study::toJson(cli)).split(QLatin1Char('\n')));
    }
};

QTEST_MAIN(TstProjectGui)
#include "tst_project_gui.moc"
