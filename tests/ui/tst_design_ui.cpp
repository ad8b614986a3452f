// What a run fits and what the data suggest, shown in the GUI: the Run page's model design
// and warnings (before the first fit and after the run), the Data page's suggested roles
// (an identifier "ignored (identifier)", the transform of a skewed target) and the Model
// page's transform default that follows them, and the weight and bound violins on a log
// scale when their values span orders of magnitude. Screenshots go to
// $PPSYNTH_TEST_OUTPUT/screenshots.
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLogValueAxis>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QValueAxis>
#include <cmath>

#include "../core/run_fixture.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/utility/kde.hpp"
#include "test_output.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/charts/chart_style.hpp"
#include "ui/charts/violin_chart.hpp"
#include "ui/column_panel.hpp"
#include "ui/data_page.hpp"
#include "ui/main_window.hpp"
#include "ui/results/run_charts.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/shell/project_controller.hpp"

using namespace ppsynth;

namespace {

QString shots() {
    return testing::outputDir(QStringLiteral("screenshots"));
}

bool waitForJob(ui::JobRunnerBase* job) {
    if (!job->isRunning()) return true;
    QSignalSpy spy(job, &ui::JobRunnerBase::finished);
    return spy.wait(120000);
}

// The run fixture's 240 records (region and sex categorical, age numeric, visits a count)
// under a short Poisson regression, and an LW synthesizer with g = 1 (a warned knob).
study::RunConfig regressionConfig() {
    study::RunConfig c;
    c.data.path = "fixture.sav";
    c.data.target = "visits";
    c.data.predictors = {"region", "sex", "age"};
    c.data.known = {"region"};
    c.model.family = "poisson";
    c.mcmc.chains = 1;
    c.mcmc.warmup = 60;
    c.mcmc.draws = 60;
    c.mcmc.refitWarmup = 20;
    c.synthesis.m = 2;
    c.risk.L = 2;
    c.synthesizers.push_back({});
    c.synthesizers.back().name = "Unweighted";
    study::SynthesizerConfig lw;
    lw.name = "LW";
    lw.scheme = study::Scheme::Lipschitz;
    lw.g = 1;
    c.synthesizers.push_back(lw);
    return c;
}

// An income file as agencies have them: a serial number, a region code and a skewed income
// with a few zeros.
QString writeIncomeCsv(const QString& dir) {
    const QString path = dir + QStringLiteral("/income.csv");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    QTextStream out(&f);
    out << "serial,region,age,income\n";
    const char* regions[] = {"North", "South", "East"};
    for (int i = 0; i < 300; ++i) {
        const double z = std::sin(i * 12.9898) * 1.6;  // a spread of scores in [-1.6, 1.6]
        // Every 25th household earns 20 times as much: the long right tail of incomes.
        const double income =
            i % 50 == 0 ? 0.0 : std::round(30000 * std::exp(1.3 * z) * (i % 25 == 1 ? 20 : 1));
        out << 70001 + i * 3 << ',' << regions[i % 3] << ',' << 20 + (i * 7) % 50 << ',' << income
            << '\n';
    }
    return path;
}

// Record bounds of a skewed income: most near 10, a few up to 10^4 (the "line with a spike").
study::RunResult spreadRun() {
    study::RunResult run;
    const Eigen::Index n = 2000;
    for (const char* name : {"Unweighted", "LW"}) {
        study::SynthesizerResult s;
        s.name = name;
        s.records.recordDelta.resize(n);
        s.records.alpha.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const double u = (static_cast<double>(i) + 0.5) / static_cast<double>(n);
            s.records.recordDelta[i] = 8 + 2 * u + (i % 250 == 0 ? std::pow(10.0, 2 + 2 * u) : 0.0);
            s.records.alpha[i] =
                std::string(name) == "LW" ? std::max(0.0, 1 - std::pow(u, 0.05)) : 1.0;
            if (std::string(name) == "LW" && i == n - 1) s.records.alpha[i] = 0.0;  // left out
        }
        s.deltaAlphaX = s.records.recordDelta.maxCoeff();
        s.weights.mean = s.records.alpha.mean();
        run.synthesizers.push_back(std::move(s));
    }
    return run;
}

}  // namespace

class TstDesignUi : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
        QApplication::setApplicationName(QStringLiteral("ppsynth-test"));
        QApplication::setOrganizationName(QStringLiteral("ppsynth-test"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           testing::outputDir(QStringLiteral("settings")));
    }

    // The Run page says what the run fits, and warns about the knob, from the design.
    void runPageShowsDesignAndWarnings() {
        auto table = std::make_shared<const data::Table>(fixture::runTable());
        ui::RunPanel panel;
        panel.setSources([] { return Expected<study::RunConfig>(regressionConfig()); },
                         [table] { return table; });
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.warningsLabel()->isHidden());
        QSignalSpy ended(&panel, &ui::RunPanel::runEnded);
        QVERIFY2(panel.startRun(), qPrintable(panel.messageLabel()->text()));
        QVERIFY(ended.wait(120000));
        QVERIFY2(panel.runList()->records().size() == 1, qPrintable(panel.messageLabel()->text()));
        const QString design = panel.designLabel()->text();
        QVERIFY2(design.startsWith(QStringLiteral(
                     "model design: y = 'visits' as it is, 240 records, 3 predictors, X has 5 "
                     "columns (the intercept included): 5 coefficients")),
                 qPrintable(design));
        QVERIFY2(design.contains(QStringLiteral("  region: categorical, 3 levels, reference "
                                                "'North', 2 columns: region[Süd], "
                                                "region[East, far]")),
                 qPrintable(design));
        QVERIFY2(design.contains(QStringLiteral("  age: numeric, standardized with mean")),
                 qPrintable(design));
        QVERIFY(panel.warningsLabel()->isVisible());
        QVERIFY2(panel.warningsLabel()->text().startsWith(QStringLiteral(
                     "Warning: synthesizer 'LW' (lipschitz): g = 1 gives every record weight 1")),
                 qPrintable(panel.warningsLabel()->text()));
        QVERIFY(panel.grab().save(shots() + QStringLiteral("/run_page_design.png")));
    }

    // A setting study::validate refuses (set in code on the run's configuration, as a page
    // would) stops the run before a job starts, saying which key or synthesizer and why.
    void runPageRefusesBadSettings_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("message");
        QTest::newRow("every weight 0")
            << "zero weights"
            << "synthesizer 'LW' (lipschitz): c = 0, g = 0 gives every record weight 0";
        QTest::newRow("sigmoid a = 0")
            << "sigmoid"
            << "synthesizers[2] 'S': 'a' (the sigmoid's steepness) must be positive";
        QTest::newRow("no chains") << "chains"
                                   << "mcmc: 'chains' is 0 but must be at least 1";
    }
    void runPageRefusesBadSettings() {
        QFETCH(QString, change);
        QFETCH(QString, message);
        auto table = std::make_shared<const data::Table>(fixture::runTable());
        ui::RunPanel panel;
        panel.setSources(
            [change] {
                auto c = regressionConfig();
                if (change == QLatin1String("zero weights")) {
                    c.synthesizers[1].c = 0;
                    c.synthesizers[1].g = 0;
                } else if (change == QLatin1String("sigmoid")) {
                    study::SynthesizerConfig s;
                    s.name = "S";
                    s.scheme = study::Scheme::Sigmoid;
                    s.sigmoidA = 0;
                    c.synthesizers.push_back(s);
                } else {
                    c.mcmc.chains = 0;
                }
                return Expected<study::RunConfig>(c);
            },
            [table] { return table; });
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy started(&panel, &ui::RunPanel::runStarted);
        QVERIFY(!panel.startRun());
        QVERIFY(!panel.isRunning());
        QCOMPARE(started.count(), 0);
        QVERIFY(panel.runList()->records().empty());
        QVERIFY(panel.messageLabel()->isVisible());
        QVERIFY2(panel.messageLabel()->text().startsWith(message),
                 qPrintable(panel.messageLabel()->text()));
        if (change == QLatin1String("sigmoid"))
            QVERIFY(panel.grab().save(shots() + QStringLiteral("/run_page_refused.png")));
    }

    // Data page: the serial number is ignored as an identifier, income is the target with
    // log-shift (it has zeros); the Model page takes log-shift and says why; Apply sets the
    // roles.
    void dataPageSuggestsAndModelPageFollows() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString csv = writeIncomeCsv(tmp.path());
        ui::MainWindow w;
        w.resize(1300, 800);
        QVERIFY(w.project()->readFile(csv, {}));
        QVERIFY(waitForJob(w.project()->readJob()));
        auto* page = w.dataPage();
        const QString text = page->suggestionsLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("Sensitive y: income.")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Ignored: serial (identifier: all distinct "
                                              "whole numbers 70001..70898, and named like one")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Transform of y: log-shift. 'income' is strongly "
                                              "right-skewed")),
                 qPrintable(text));
        QCOMPARE(w.modelPage()->transformBox()->currentText(), QStringLiteral("log-shift"));
        QVERIFY(!w.modelPage()->transformNote()->isHidden());
        QVERIFY2(w.modelPage()->transformNote()->text().startsWith(
                     QStringLiteral("log-shift is the suggested transform: 'income' is")),
                 qPrintable(w.modelPage()->transformNote()->text()));
        QVERIFY(w.project()->unsavedWork().isEmpty());  // a suggestion is not an edit

        QVERIFY(!page->applySuggestionsButton()->isHidden());
        QTest::mouseClick(page->applySuggestionsButton(), Qt::LeftButton);
        const auto roles = page->columnPanel()->roles();
        QCOMPARE(roles.target, std::string("income"));
        QCOMPARE(roles.predictors, (std::vector<std::string>{"region", "age"}));
        QCOMPARE(page->columnPanel()->role(0), data::Role::Ignored);  // serial

        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.grab().save(shots() + QStringLiteral("/data_page_suggestions.png")));
        w.tabs()->setCurrentWidget(w.modelPage());
        QCoreApplication::processEvents();
        QVERIFY(w.grab().save(shots() + QStringLiteral("/model_page_transform.png")));
        // Another choice keeps the suggestion in view.
        w.modelPage()->transformBox()->setCurrentText(QStringLiteral("none"));
        QVERIFY(w.modelPage()->transformNote()->text().startsWith(
            QStringLiteral("Suggested transform: log-shift (you chose another)")));
    }

    // Bounds spanning three orders of magnitude go on a log axis (every record seen), and
    // weights with zeros likewise, the zeros counted in the axis title; risks stay linear.
    void spreadViolinsUseALogScale() {
        const auto run = spreadRun();
        auto bounds = ui::results::lipschitzViolins(run);
        QVERIFY2(bounds, bounds ? "" : bounds.message().c_str());
        auto* chart = qobject_cast<ui::charts::ViolinChart*>(bounds->chart.get());
        QVERIFY(chart);
        QVERIFY(chart->logScale());
        QVERIFY(qobject_cast<QLogValueAxis*>(chart->valueAxis()));
        QVERIFY(chart->axes(Qt::Vertical).contains(chart->valueAxis()));
        QVERIFY(bounds->caption.endsWith(QStringLiteral("span orders of magnitude.")));
        QString error =
            ui::charts::exportChart(chart, shots() + "/violin_bounds_log.png", QSize(800, 500));
        QVERIFY2(error.isEmpty(), qPrintable(error));

        auto weights = ui::results::weightViolins(run);
        QVERIFY(weights);
        auto* wchart = qobject_cast<ui::charts::ViolinChart*>(weights->chart.get());
        QVERIFY(wchart->logScale());
        QVERIFY2(
            wchart->valueAxis()->titleText().contains(QStringLiteral("1 value of 0 not shown")),
            qPrintable(wchart->valueAxis()->titleText()));
        error =
            ui::charts::exportChart(wchart, shots() + "/violin_weights_log.png", QSize(800, 500));
        QVERIFY2(error.isEmpty(), qPrintable(error));

        // The same bounds on the linear axis, for comparison: the "line with a spike".
        std::vector<ui::charts::Violin> linear;
        for (const auto& s : run.synthesizers) {
            std::vector<double> v(s.records.recordDelta.data(),
                                  s.records.recordDelta.data() + s.records.recordDelta.size());
            linear.push_back({QString::fromStdString(s.name), *utility::violinSummary(v),
                              s.deltaAlphaX, QStringLiteral("Δ")});
        }
        ui::charts::ViolinChart before;
        before.setValueTitle(QStringLiteral("Record bound Δ(α,xᵢ)"));
        before.setViolins(linear);
        QVERIFY(!before.logScale());
        QVERIFY(qobject_cast<QValueAxis*>(before.valueAxis()));
        error = ui::charts::exportChart(&before, shots() + "/violin_bounds_linear.png",
                                        QSize(800, 500));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // Switching back and forth keeps one value axis attached.
        before.setViolins(chart->violins());
        QVERIFY(before.logScale());
        QCOMPARE(before.axes(Qt::Vertical).size(), 1);
        before.setViolins(linear);
        QCOMPARE(before.axes(Qt::Vertical).size(), 1);
        QVERIFY(!before.logScale());
    }

    // Values within two orders of magnitude stay on the linear axis.
    void narrowViolinsStayLinear() {
        auto run = spreadRun();
        for (auto& s : run.synthesizers)
            for (Eigen::Index i = 0; i < s.records.recordDelta.size(); ++i)
                s.records.recordDelta[i] = 8 + 2 * static_cast<double>(i % 10);
        auto bounds = ui::results::lipschitzViolins(run);
        QVERIFY(bounds);
        auto* chart = qobject_cast<ui::charts::ViolinChart*>(bounds->chart.get());
        QVERIFY(!chart->logScale());
    }
};

QTEST_MAIN(TstDesignUi)
#include "tst_design_ui.moc"
