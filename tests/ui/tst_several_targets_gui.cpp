// Several sensitive variables in the window (METHOD.md section 9): the Data page lets several
// columns be "Sensitive y" and orders them (the synthesis order), the Model page shows one
// model per variable and the Synthesizers page one box radius per variable; a configuration
// or project with data.targets, "models" and risk.radii opens and is written back as it was;
// a run with two sensitive variables runs from the Run page to the Results page, which names
// both and shows the one epsilon and the box risk; the release bundle and the report say
// they are not available for such a run. Screenshots of the three pages are written.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/validate.hpp"
#include "test_output.hpp"
#include "two_targets_config.hpp"
#include "ui/column_panel.hpp"
#include "ui/data_page.hpp"
#include "ui/job_runner.hpp"
#include "ui/main_window.hpp"
#include "ui/message_area.hpp"
#include "ui/project_file.hpp"
#include "ui/results/chart_card.hpp"
#include "ui/results/compare_view.hpp"
#include "ui/results/results_page.hpp"
#include "ui/results/table_card.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/exact_spin_box.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/shell/page_settings.hpp"
#include "ui/shell/project_controller.hpp"
#include "ui/shell/report_controller.hpp"
#include "ui/table_model.hpp"

using namespace ppsynth;
using ppsynth::testing::twoTargets;

namespace {

bool waitForJob(ui::JobRunnerBase* job) {
    if (!job->isRunning()) return true;
    QSignalSpy spy(job, &ui::JobRunnerBase::finished);
    return spy.wait(120000);
}

QString writeProject(const QString& dir, const study::RunConfig& config) {
    ui::Project p;
    p.dataPath = QString::fromStdString(config.data.path);
    p.config = config;
    const QString file = QDir(dir).filePath(QStringLiteral("two.ppsynth"));
    if (auto s = ui::saveProject(p, file); !s) qFatal("%s", s.message().c_str());
    return file;
}

// What a configuration says about its sensitive variables, as JSON text.
QString targetsPart(const study::RunConfig& c) {
    study::RunConfig only;
    only.data.target = c.data.target;
    only.data.targets = c.data.targets;
    only.data.transform = c.data.transform;
    only.model = c.model;
    // The Model page writes every prior of `model` (as for one sensitive variable).
    for (const auto& p : models::priorCatalogue())
        only.model.priors.emplace(p.name, p.defaultValue());
    only.models = c.models;
    only.risk = c.risk;
    return QString::fromStdString(study::toJson(only));
}

int columnOf(const ui::MainWindow& w, const char* name) {
    const auto i = w.dataPage()->model()->table()->indexOf(name);
    return i ? static_cast<int>(*i) : -1;
}

// Opens the project in the window (sized as the screenshots are; shown and exposed when
// `show`) and waits for its data: empty, or why the data are not there.
QString openProjectIn(ui::MainWindow& w, const QString& file, bool show) {
    w.resize(1400, 900);
    if (show) {
        w.show();
        if (!QTest::qWaitForWindowExposed(&w)) return QStringLiteral("the window was not exposed");
    }
    w.project()->openProject(file);
    if (!waitForJob(w.project()->readJob())) return QStringLiteral("reading the data timed out");
    if (!w.dataPage()->model()->table()) return w.dataPage()->messageArea()->text();
    return {};
}

void save(QWidget* widget, const QString& name) {
    QVERIFY(widget->grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                QLatin1Char('/') + name));
}

}  // namespace

class TstSeveralTargetsGui : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
        QApplication::setApplicationName(QStringLiteral("ppsynth-several-targets-test"));
        QApplication::setOrganizationName(QStringLiteral("ppsynth-test"));
    }

    // A project with two sensitive variables opens with both sensitive, in its order, one
    // model and one radius each, and the pages write data.targets, "models" and risk.radii
    // back as they were (the project saved again holds them too).
    void pagesRoundTripTwoTargets() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const auto config = twoTargets();
        const QString file = writeProject(tmp.path(), config);
        ui::MainWindow w;
        const QString opened = openProjectIn(w, file, false);
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        auto* panel = w.dataPage()->columnPanel();
        QCOMPARE(panel->targets(), (std::vector<std::string>{"income", "doctor_visits"}));
        QCOMPARE(panel->targetOrderList()->count(), 2);
        QVERIFY(panel->rolesSummary().contains(
            QStringLiteral("Sensitive y: income, then doctor_visits (synthesized in this order)")));
        QCOMPARE(w.modelPage()->variableBox()->count(), 2);
        QVERIFY(w.synthesizersPage()->radiusBox("doctor_visits"));
        QCOMPARE(w.synthesizersPage()->radiusBox("doctor_visits")->exactValue(), 0.5);
        QCOMPARE(w.synthesizersPage()->radiusBox("income")->exactValue(), 0.2);

        auto current = w.pageSettings()->currentConfig();
        QVERIFY2(bool(current), current ? "" : current.message().c_str());
        QCOMPARE(targetsPart(*current).split(QLatin1Char('\n')),
                 targetsPart(config).split(QLatin1Char('\n')));
        QVERIFY(w.project()->unsavedWork().isEmpty());  // opening it changed nothing
        const QString again = tmp.filePath(QStringLiteral("again.ppsynth"));
        QVERIFY(w.project()->saveProject(again));
        QVERIFY(waitForJob(w.project()->saveJob()));
        const auto back = ui::loadProject(again);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        QCOMPARE(targetsPart(back->config).split(QLatin1Char('\n')),
                 targetsPart(config).split(QLatin1Char('\n')));

        // The Model page shows doctor_visits' own model when it is chosen.
        auto* model = w.modelPage();
        model->variableBox()->setCurrentIndex(1);
        QCOMPARE(model->familyBox()->currentData().toString(), QStringLiteral("poisson"));
        QCOMPARE(model->transformBox()->currentText(), QStringLiteral("none"));
        QCOMPARE(model->priorBox("tau_scale")->exactValue(), 2.5);
        model->variableBox()->setCurrentIndex(0);
        QCOMPARE(model->familyBox()->currentData().toString(), QStringLiteral("normal"));
        QCOMPARE(model->transformBox()->currentText(), QStringLiteral("log-shift"));
    }

    // Up and Down change the synthesis order; each variable keeps its own model and radius
    // (the one now first goes to `model`, the other to "models"); a single sensitive
    // variable writes "target" and no "models" or "radii"; a new sensitive variable comes last.
    void orderAndRolesChange() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = writeProject(tmp.path(), twoTargets());
        ui::MainWindow w;
        const QString opened = openProjectIn(w, file, false);
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        auto* panel = w.dataPage()->columnPanel();
        QSignalSpy changed(panel, &ui::ColumnPanel::rolesChanged);
        panel->targetOrderList()->setCurrentRow(1);
        QVERIFY(panel->moveUpButton()->isEnabled());
        QTest::mouseClick(panel->moveUpButton(), Qt::LeftButton);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(panel->targets(), (std::vector<std::string>{"doctor_visits", "income"}));
        QCOMPARE(w.modelPage()->variableBox()->itemData(0).toString(),
                 QStringLiteral("doctor_visits"));
        auto c = w.pageSettings()->currentConfig();
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        QCOMPARE(c->data.target, std::string("doctor_visits"));
        QCOMPARE(c->data.targets, (std::vector<std::string>{"doctor_visits", "income"}));
        QCOMPARE(study::modelFor(*c, "doctor_visits").family, std::string("poisson"));
        QCOMPARE(study::modelFor(*c, "doctor_visits").priors.at("tau_scale"), 2.5);
        QCOMPARE(study::transformFor(*c, "doctor_visits"), std::string("none"));
        QCOMPARE(study::modelFor(*c, "income").family, std::string("normal"));
        QCOMPARE(study::transformFor(*c, "income"), std::string("log-shift"));
        QCOMPARE(c->risk.radii, (std::map<std::string, double>{{"doctor_visits", 0.5}}));
        QVERIFY2(bool(study::validate(*c)), study::validate(*c).message().c_str());
        const QString json = QString::fromStdString(study::toJson(*c));
        QVERIFY(json.contains(QStringLiteral("\"targets\"")));

        // doctor_visits no longer sensitive: one variable, today's "target".
        auto* visits = panel->roleCombo(columnOf(w, "doctor_visits"));
        visits->setCurrentIndex(visits->findData(int(data::Role::Ignored)));
        QCOMPARE(panel->targets(), std::vector<std::string>{"income"});
        QVERIFY(!panel->targetOrderList()->isVisible());
        QVERIFY(!w.modelPage()->variableBar()->isVisible());
        c = w.pageSettings()->currentConfig();
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        QCOMPARE(c->data.target, std::string("income"));
        QVERIFY(c->data.targets.empty());
        QVERIFY(c->models.empty());
        QVERIFY(c->risk.radii.empty());
        QCOMPARE(c->model.family, std::string("normal"));
        QCOMPARE(c->data.transform, std::string("log-shift"));
        const QString one = QString::fromStdString(study::toJson(*c));
        QVERIFY(one.contains(QStringLiteral("\"target\": \"income\"")));
        QVERIFY(!one.contains(QStringLiteral("\"targets\"")));

        // Back again: it comes last and keeps the model it had.
        visits->setCurrentIndex(visits->findData(int(data::Role::Target)));
        QCOMPARE(panel->targets(), (std::vector<std::string>{"income", "doctor_visits"}));
        c = w.pageSettings()->currentConfig();
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        QCOMPARE(study::modelFor(*c, "doctor_visits").family, std::string("poisson"));
        QVERIFY2(bool(study::validate(*c)), study::validate(*c).message().c_str());
    }

    // A second sensitive variable of counts chosen on the Data page starts with a Poisson
    // regression without a transform (not the first's normal on log-shift, which core
    // refuses for counts), and the Model page says why.
    void countVariableStartsWithCountModel() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        auto config = twoTargets();
        config.data.target = "income";
        config.data.targets.clear();
        config.models.clear();
        config.risk.radii.clear();
        config.model.family = "normal";
        config.data.transform = "log-shift";
        const QString file = writeProject(tmp.path(), config);
        ui::MainWindow w;
        const QString opened = openProjectIn(w, file, true);
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        auto* panel = w.dataPage()->columnPanel();
        QCOMPARE(panel->targets(), std::vector<std::string>{"income"});
        auto* visits = panel->roleCombo(columnOf(w, "doctor_visits"));
        visits->setCurrentIndex(visits->findData(int(data::Role::Target)));
        QCOMPARE(panel->targets(), (std::vector<std::string>{"income", "doctor_visits"}));
        const auto c = w.pageSettings()->currentConfig();
        QVERIFY2(bool(c), c ? "" : c.message().c_str());
        QCOMPARE(study::modelFor(*c, "doctor_visits").family, std::string("poisson"));
        QCOMPARE(study::transformFor(*c, "doctor_visits"), std::string("none"));
        QCOMPARE(study::modelFor(*c, "income").family, std::string("normal"));
        QCOMPARE(study::transformFor(*c, "income"), std::string("log-shift"));
        QVERIFY2(bool(study::validate(*c)), study::validate(*c).message().c_str());
        auto* model = w.modelPage();
        model->showVariable("income");
        QVERIFY(model->defaultNote()->isHidden());
        model->showVariable("doctor_visits");
        QVERIFY(!model->defaultNote()->isHidden());
        QVERIFY2(model->defaultNote()->text().contains(QStringLiteral("holds counts")),
                 qPrintable(model->defaultNote()->text()));
        w.tabs()->setCurrentWidget(model);
        QApplication::processEvents();
        save(&w, QStringLiteral("several_targets_count_default.png"));
    }

    // The Data, Model and Synthesizers pages with two sensitive variables, as a person sees
    // them (looked at: see the commit message).
    void screenshotsOfThePages() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = writeProject(tmp.path(), twoTargets());
        ui::MainWindow w;
        const QString opened = openProjectIn(w, file, true);
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        w.tabs()->setCurrentWidget(w.dataPage());
        QApplication::processEvents();
        save(&w, QStringLiteral("several_targets_data_page.png"));
        w.tabs()->setCurrentWidget(w.modelPage());
        w.modelPage()->variableBox()->setCurrentIndex(1);
        QApplication::processEvents();
        save(&w, QStringLiteral("several_targets_model_page.png"));
        w.tabs()->setCurrentWidget(w.synthesizersPage());
        QApplication::processEvents();
        save(&w, QStringLiteral("several_targets_synthesizers_page.png"));
    }

    // A run with two sensitive variables from the Run page (worker thread) to the Results
    // page: the header names both in order, the summary gives one epsilon for both and the
    // box, the risk table says it is the box's, the synthetic-data charts are the first
    // variable's and say so; the export and the report are offered.
    void guiRunReachesResults() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = writeProject(tmp.path(), twoTargets());
        ui::MainWindow w;
        const QString opened = openProjectIn(w, file, true);
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        QVERIFY2(w.runPanel()->startRun(), qPrintable(w.runPanel()->messageLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(!w.runPanel()->isRunning(), 120000);
        QCOMPARE(w.runPanel()->job()->lastOutcome(), ui::JobOutcome::Done);
        QTRY_COMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.resultsPage()));
        auto* results = w.resultsPage();
        const QString header = results->headerLabel()->text();
        QVERIFY2(header.contains(QStringLiteral("income, then doctor_visits")), qPrintable(header));
        QVERIFY2(header.contains(QStringLiteral("doctor_visits: Poisson")), qPrintable(header));
        const QString summary = results->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("One ε covers the release of income and "
                                                 "doctor_visits together")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("doctor_visits within 0.5")), qPrintable(summary));
        bool boxTable = false;
        for (auto* t : results->tableCards(QStringLiteral("Summary")))
            boxTable |=
                t->data().title.contains(QStringLiteral("income and doctor_visits together"));
        QVERIFY(boxTable);
        save(&w, QStringLiteral("several_targets_results_summary.png"));

        const auto cards = results->chartCards(QStringLiteral("Synthetic data"));
        QVERIFY(!cards.isEmpty());
        for (auto* card : cards) {
            QVERIFY2(card->hasChart(), qPrintable(card->errorText()));
            QVERIFY2(card->title().contains(QStringLiteral("income")), qPrintable(card->title()));
        }
        for (int i = 0; i < results->tabs()->count(); ++i)
            if (results->tabs()->tabText(i) == QStringLiteral("Synthetic data"))
                results->tabs()->setCurrentIndex(i);
        QApplication::processEvents();
        save(&w, QStringLiteral("several_targets_results_synthetic.png"));
        // The variable chooser switches the charts to doctor_visits: its confidential values
        // from the run's table, its part of each synthetic dataset.
        auto* chooser = results->findChild<QComboBox*>(QStringLiteral("variableChooser"));
        QVERIFY(chooser);
        QCOMPARE(chooser->count(), 2);
        chooser->setCurrentText(QStringLiteral("doctor_visits"));
        QTRY_VERIFY(!results->chartCards(QStringLiteral("Synthetic data")).isEmpty() &&
                    results->chartCards(QStringLiteral("Synthetic data"))
                        .front()
                        ->title()
                        .contains(QStringLiteral("doctor_visits")));
        const auto visits = results->chartCards(QStringLiteral("Synthetic data"));
        QCOMPARE(visits.size(), cards.size());
        for (auto* card : visits) {
            QVERIFY2(card->hasChart(), qPrintable(card->errorText()));
            QVERIFY2(card->title().contains(QStringLiteral("doctor_visits")),
                     qPrintable(card->title()));
        }
        QApplication::processEvents();
        save(&w, QStringLiteral("several_targets_results_synthetic_visits.png"));
        for (int i = 0; i < results->tabs()->count(); ++i)
            if (results->tabs()->tabText(i) == QStringLiteral("Risk"))
                results->tabs()->setCurrentIndex(i);
        QApplication::processEvents();
        for (auto* card : results->chartCards(QStringLiteral("Risk")))
            QVERIFY2(card->hasChart(), qPrintable(card->errorText()));
        save(&w, QStringLiteral("several_targets_results_risk.png"));
        // The riskiest records show every sensitive variable's value.
        bool top = false;
        for (auto* t : results->tableCards(QStringLiteral("Risk"))) {
            const auto& data = t->data();
            if (!data.title.startsWith(QStringLiteral("CONFIDENTIAL"))) continue;
            top = true;
            save(t, QStringLiteral("several_targets_top_risk.png"));
            QVERIFY2(data.headers.contains(QStringLiteral("income")) &&
                         data.headers.contains(QStringLiteral("doctor_visits")),
                     qPrintable(data.headers.join(QStringLiteral(", "))));
            QVERIFY(!data.rows.empty());
            QCOMPARE(data.rows.front().size(), data.headers.size());
            const int visitsColumn =
                static_cast<int>(data.headers.indexOf(QStringLiteral("doctor_visits")));
            const int row = data.rows.front()[1].toInt() - 1;
            const auto column = w.dataPage()->model()->table()->indexOf("doctor_visits");
            QVERIFY(column);
            QCOMPARE(data.rows.front()[visitsColumn].toDouble(),
                     w.dataPage()->model()->table()->column(*column).value(
                         static_cast<std::size_t>(row)));
        }
        QVERIFY(top);
        // The pairwise synthesizer's at_i, counted with the box.
        results->setCurrentSynthesizer(QStringLiteral("Pairwise"));
        bool pairwise = false;
        for (auto* card : results->chartCards(QStringLiteral("Risk")))
            if (card->title() == QStringLiteral("Pairwise risk score atᵢ by record")) {
                pairwise = true;
                QVERIFY2(card->hasChart(), qPrintable(card->errorText()));
                QVERIFY2(card->caption().contains(QStringLiteral("doctor_visits within 0.5")),
                         qPrintable(card->caption()));
            }
        QStringList titles;
        for (auto* card : results->chartCards(QStringLiteral("Risk")))
            titles << card->title() + QStringLiteral(" / ") + card->errorText();
        QVERIFY2(pairwise, qPrintable(results->currentSynthesizer() + QStringLiteral(": ") +
                                      titles.join(QStringLiteral("; "))));
        QApplication::processEvents();
        save(&w, QStringLiteral("several_targets_results_pairwise.png"));

        // Compare: beside a run of income alone, the charts are drawn and the table warns
        // that the two releases differ.
        const auto two = w.runPanel()->runList()->records().front().result;
        auto one = std::make_shared<study::RunResult>(*two);
        one->config.data.targets.clear();
        one->config.models.clear();
        one->config.risk.radii.clear();
        w.compareView()->compare(QStringLiteral("two"), two, QStringLiteral("one"), one);
        for (int side = 0; side < 2; ++side)
            for (auto* card : w.compareView()->cards(side))
                QVERIFY2(card->hasChart(), qPrintable(card->errorText()));
        QVERIFY2(
            w.compareView()
                ->comparisonCard()
                ->data()
                .warnings.join(QLatin1Char(' '))
                .contains(QStringLiteral("different sensitive variables (income and "
                                         "doctor_visits; income)")),
            qPrintable(w.compareView()->comparisonCard()->data().warnings.join(QLatin1Char(' '))));

        // Saved, the run's folder exists: export and report are offered, and the report
        // describes every variable under one epsilon.
        QVERIFY(w.project()->saveProject(tmp.filePath(QStringLiteral("saved.ppsynth"))));
        QVERIFY(waitForJob(w.project()->saveJob()));
        const auto records = w.runPanel()->runList()->records();
        QCOMPARE(records.size(), std::size_t{1});
        w.runPanel()->runList()->select({records.front().id});
        QTRY_VERIFY(!w.reportAction()->toolTip().contains(QStringLiteral("Save the project")));
        for (QAction* a : {w.exportAction(), w.reportAction()})
            QVERIFY2(a->isEnabled(), qPrintable(a->toolTip()));
        const QString report = tmp.filePath(QStringLiteral("report.html"));
        QVERIFY(w.reports()->writeReport(report));
        QVERIFY(waitForJob(w.reports()->reportJob()));
        QFile written(report);
        QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(report));
        const QString html = QString::fromUtf8(written.readAll());
        QVERIFY(html.contains(QStringLiteral("doctor_visits")));
        QVERIFY(html.contains(QStringLiteral("one epsilon covers the release of all of them")));
    }
};

QTEST_MAIN(TstSeveralTargetsGui)
#include "tst_several_targets_gui.moc"
