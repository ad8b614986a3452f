// The Results page's Utility tab for a run with several sensitive variables (METHOD.md section
// 9), on a run written to its folder and reopened as the window reopens runs: a Variable
// chooser lists each variable and "Joint"; a variable shows its own utility as a one-variable
// run shows it (numbers from run.json's utility.variables); Joint shows the cross-regressions
// and the Frobenius norm of run.json's utility.joint; "Export all charts" writes every
// variable's utility violins with the variable in the file name, and the joint charts; the
// Compare view draws the utility of the mean per variable. Screenshots of a variable and of
// Joint are written for a person to look at.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <nlohmann/json.hpp>

#include "ppsynth/data/io.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/run_output.hpp"
#include "test_output.hpp"
#include "two_targets_config.hpp"
#include "ui/charts/violin_chart.hpp"
#include "ui/results/chart_card.hpp"
#include "ui/results/chart_files.hpp"
#include "ui/results/compare_view.hpp"
#include "ui/results/results_page.hpp"
#include "ui/results/run_variables.hpp"
#include "ui/results/table_card.hpp"

using namespace ppsynth;
using namespace ppsynth::ui::results;
using nlohmann::json;

namespace {

const QString kUtility = QStringLiteral("Utility");

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

void showTab(ResultsPage& page, const QString& title) {
    for (int i = 0; i < page.tabs()->count(); ++i)
        if (page.tabs()->tabText(i) == title) page.tabs()->setCurrentIndex(i);
}

QComboBox* chooser(const ResultsPage& page) {
    return page.findChild<QComboBox*>(QStringLiteral("utilityVariableChooser"));
}

// Chooses `text` in the Utility tab's chooser and waits for the tab to be rebuilt.
bool choose(ResultsPage& page, const QString& text) {
    auto* c = chooser(page);
    if (!c || c->findText(text) < 0) return false;
    if (c->currentText() == text) return true;
    c->setCurrentIndex(c->findText(text));
    // The tab is rebuilt on the next event-loop pass, with a new chooser.
    return QTest::qWaitFor([&] {
        auto* now = chooser(page);
        return now && now != c && now->currentText() == text;
    });
}

const TableCard* tableTitled(const QList<TableCard*>& cards, const QString& start) {
    for (const auto* t : cards)
        if (t->data().title.startsWith(start)) return t;
    return nullptr;
}

void save(QWidget* w, const QString& name) {
    QVERIFY(w->grab().save(ppsynth::testing::outputDir(QStringLiteral("screenshots")) +
                           QLatin1Char('/') + name));
}

}  // namespace

class TstUtilityView : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::shared_ptr<const study::RunResult> run_;
    std::shared_ptr<const data::Table> table_;
    json runJson_;
    std::vector<std::string> targets_;

    const json& utilityJson(const std::string& synthesizer) const {
        return runJson_.at("synthesizers").at(synthesizer).at("utility");
    }

  private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
        QVERIFY(tmp_.isValid());
        auto config = ppsynth::testing::twoTargets();
        config.synthesis.m = 3;  // violins across datasets, the combining rules
        config.utility.bootstrap = 100;
        auto table = data::readTable(config.data.path);
        QVERIFY2(table, table ? "" : table.message().c_str());
        auto run = study::runStudy(config, *table);
        QVERIFY2(run, run ? "" : run.message().c_str());
        const std::string dir = tmp_.filePath(QStringLiteral("run")).toStdString();
        const auto written = study::writeRunOutput(*run, *table, dir);
        QVERIFY2(written, written ? "" : written.message().c_str());
        // The window's way back to a run: its folder.
        auto loaded = study::loadRunFolder(dir);
        QVERIFY2(loaded, loaded ? "" : loaded.message().c_str());
        run_ = std::make_shared<const study::RunResult>(std::move(loaded->run));
        table_ = std::make_shared<const data::Table>(std::move(loaded->table));
        QFile file(QString::fromStdString(dir + "/run.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        runJson_ = json::parse(file.readAll().toStdString());
        targets_ = config.data.targets;
        QCOMPARE(targets_.size(), std::size_t{2});
    }

    // The chooser lists each sensitive variable in synthesis order, then Joint; the first
    // variable is shown first.
    void chooserListsEachVariableAndJoint() {
        ResultsPage page;
        page.showRun(run_, QStringLiteral("two"), table_);
        showTab(page, kUtility);
        auto* c = chooser(page);
        QVERIFY(c);
        QStringList expected;
        for (const auto& t : targets_) expected << q(t);
        expected << QStringLiteral("Joint");
        QStringList items;
        for (int i = 0; i < c->count(); ++i) items << c->itemText(i);
        QCOMPARE(items, expected);
        QCOMPARE(c->currentText(), q(targets_.front()));
    }

    // A variable's utility as a one-variable run shows it: its violins, and its statistics
    // table with run.json's numbers for that variable (utility.variables[k]).
    void variableShowsItsOwnUtility_data() {
        QTest::addColumn<int>("k");
        QTest::newRow("income (first)") << 0;
        QTest::newRow("doctor_visits (second)") << 1;
    }
    void variableShowsItsOwnUtility() {
        QFETCH(int, k);
        const std::string target = targets_[static_cast<std::size_t>(k)];
        ResultsPage page;
        page.resize(1400, 1000);
        page.showRun(run_, QStringLiteral("two"), table_);
        showTab(page, kUtility);
        QVERIFY(choose(page, q(target)));
        const auto charts = page.chartCards(kUtility);
        QVERIFY(!charts.isEmpty());
        for (auto* card : charts) {
            QVERIFY2(card->hasChart(), qPrintable(card->errorText()));
            QVERIFY2(card->title().endsWith(QStringLiteral(" of ") + q(target)),
                     qPrintable(card->title()));
        }
        const auto tables = page.tableCards(kUtility);
        const TableCard* stats = tableTitled(tables, QStringLiteral("Utility: statistics of "));
        QVERIFY(stats);
        QVERIFY2(stats->data().title.contains(q(target)), qPrintable(stats->data().title));
        // Every synthesizer's mean against run.json: confidential and synthetic estimate and
        // the CI overlap of this variable.
        int checked = 0;
        for (const auto& row : stats->data().rows) {
            if (row[1] != QStringLiteral("mean")) continue;
            const auto& report =
                utilityJson(row[0].toStdString()).at("variables").at(static_cast<std::size_t>(k));
            QCOMPARE(q(report.at("target").get<std::string>()), q(target));
            const auto& mean = report.at("statistics").at(0);
            QCOMPARE(q(mean.at("name").get<std::string>()), QStringLiteral("mean"));
            QCOMPARE(row[2], formatCell(mean.at("original").at("estimate").get<double>()));
            QCOMPARE(row[4], formatCell(mean.at("synthetic").at("estimate").get<double>()));
            QCOMPARE(row[6], formatCell(mean.at("ci_overlap").get<double>()));
            ++checked;
        }
        QCOMPARE(checked, static_cast<int>(run_->synthesizers.size()));
        // The violin of the mean is marked at the confidential mean of this variable.
        auto* violins = qobject_cast<ui::charts::ViolinChart*>(charts.front()->chart());
        QVERIFY(violins);
        const auto& first = utilityJson(run_->synthesizers.front().name)
                                .at("variables")
                                .at(static_cast<std::size_t>(k))
                                .at("statistics")
                                .at(0);
        QVERIFY(violins->violins().front().mark.has_value());
        QCOMPARE(*violins->violins().front().mark,
                 first.at("original").at("estimate").get<double>());
        // pMSE of this variable in the whole-distribution table.
        const TableCard* dist =
            tableTitled(tables, QStringLiteral("Utility of %1: whole distribution").arg(q(target)));
        QVERIFY(dist);
        const auto& pmse = utilityJson(dist->data().rows.front()[0].toStdString())
                               .at("variables")
                               .at(static_cast<std::size_t>(k))
                               .at("pmse");
        QCOMPARE(dist->data().rows.front()[3], formatCell(pmse.at("pmse").get<double>()));
        QApplication::processEvents();
        save(&page, QStringLiteral("utility_variable_%1.png").arg(q(target)));
    }

    // Joint: the summary table has every synthesizer's joint pMSE and Frobenius norm from
    // run.json, the cross-regression table one row per coefficient of each variable's
    // regression on the predictors and the other, with run.json's estimates and overlaps.
    void jointShowsCrossRegressionsAndFrobenius() {
        ResultsPage page;
        page.resize(1400, 1000);
        page.showRun(run_, QStringLiteral("two"), table_);
        showTab(page, kUtility);
        QVERIFY(choose(page, QStringLiteral("Joint")));
        const auto tables = page.tableCards(kUtility);
        const TableCard* summary = tableTitled(tables, QStringLiteral("Joint utility of "));
        QVERIFY(summary);
        const int frobenius =
            static_cast<int>(summary->data().headers.indexOf(QStringLiteral("‖R_s − R_o‖_F")));
        QVERIFY(frobenius > 0);
        QCOMPARE(summary->data().rows.size(), run_->synthesizers.size());
        for (const auto& row : summary->data().rows) {
            const auto& joint = utilityJson(row[0].toStdString()).at("joint");
            QCOMPARE(row[1], formatCell(joint.at("pmse").at("pmse").get<double>()));
            QCOMPARE(row[frobenius],
                     formatCell(joint.at("correlation").at("frobenius").get<double>()));
        }
        const std::string synthesizer = page.currentSynthesizer().toStdString();
        const auto& joint = utilityJson(synthesizer).at("joint");
        const TableCard* cross = tableTitled(
            tables, QStringLiteral("Each sensitive variable on the predictors and the others"));
        QVERIFY(cross);
        // Every coefficient of run.json's cross-regressions, once, with its numbers; the other
        // sensitive variable's coefficient first in each regression.
        std::size_t terms = 0;
        for (const auto& reg : joint.at("regressions")) {
            const QString response = q(reg.at("target").get<std::string>());
            const QStringList* first = nullptr;
            for (const auto& row : cross->data().rows)
                if (row[0] == response && !first) first = &row;
            QVERIFY(first);
            QVERIFY2(q(targets_[0]) == (*first)[1] || q(targets_[1]) == (*first)[1],
                     qPrintable((*first)[1]));
            for (const auto& term : reg.at("terms")) {
                const QStringList* found = nullptr;
                for (const auto& row : cross->data().rows)
                    if (row[0] == response && row[1] == q(term.at("term").get<std::string>()))
                        found = &row;
                QVERIFY2(found, term.at("term").get<std::string>().c_str());
                const auto& row = *found;
                QCOMPARE(row[2], formatCell(term.at("original").at("estimate").get<double>()));
                QCOMPARE(row[4], formatCell(term.at("synthetic").at("estimate").get<double>()));
                QCOMPARE(row[6], formatCell(term.at("ci_overlap").get<double>()));
                ++terms;
            }
        }
        QVERIFY(terms > 0);
        QCOMPARE(cross->data().rows.size(), terms);
        // Each variable is regressed on the other one too.
        QStringList termsOf;
        for (const auto& row : cross->data().rows)
            if (row[0] == q(targets_[0])) termsOf << row[1];
        QVERIFY2(termsOf.contains(q(targets_[1])), qPrintable(termsOf.join(QStringLiteral(", "))));
        // The correlation table names the Frobenius norm of this synthesizer.
        const TableCard* corr = tableTitled(tables, QStringLiteral("Correlations under "));
        QVERIFY(corr);
        QVERIFY2(corr->data().title.contains(
                     formatCell(joint.at("correlation").at("frobenius").get<double>())),
                 qPrintable(corr->data().title));
        QCOMPARE(corr->data().rows.size(), joint.at("correlation").at("pairs").size());
        // The joint charts: the norm across datasets and one correlation per pair.
        const auto charts = page.chartCards(kUtility);
        QCOMPARE(charts.size(), 2);
        for (auto* card : charts) QVERIFY2(card->hasChart(), qPrintable(card->errorText()));
        QApplication::processEvents();
        save(&page, QStringLiteral("utility_joint.png"));
        // The whole tab, below the fold too.
        auto* scroll = qobject_cast<QScrollArea*>(page.tabs()->currentWidget());
        QVERIFY(scroll && scroll->widget());
        save(scroll->widget(), QStringLiteral("utility_joint_full.png"));
        // Tables alone, at the width the page gives them, to read the numbers.
        save(const_cast<TableCard*>(cross), QStringLiteral("utility_joint_cross_regressions.png"));
    }

    // The summary gives each synthesizer's CI overlap of every variable's mean, and the Tables
    // tab every variable's utility tables and the joint one, all from run.json.
    void summaryAndTablesNameEveryVariable() {
        ResultsPage page;
        page.showRun(run_, QStringLiteral("two"), table_);
        const QString summary = page.summaryLabel()->text();
        for (const auto& s : run_->synthesizers) {
            QStringList parts;
            for (std::size_t k = 0; k < targets_.size(); ++k) {
                const auto& mean = utilityJson(s.name).at("variables").at(k).at("statistics").at(0);
                parts << QStringLiteral("%1 %2").arg(
                    q(targets_[k]), formatCell(mean.at("ci_overlap").get<double>()));
            }
            const QString expected =
                QStringLiteral("CI overlap of the mean of ") + parts.join(QStringLiteral(", "));
            QVERIFY2(summary.contains(expected),
                     qPrintable(expected + QStringLiteral(" in ") + summary));
        }
        const auto tables = page.tableCards(QStringLiteral("Tables"));
        for (const auto& t : targets_) {
            const TableCard* stats =
                tableTitled(tables, QStringLiteral("Utility: statistics of %1,").arg(q(t)));
            QVERIFY2(stats, t.c_str());
            QVERIFY2(
                tableTitled(tables, QStringLiteral("Utility of %1: whole distribution").arg(q(t))),
                t.c_str());
        }
        QVERIFY(tableTitled(tables, QStringLiteral("Joint utility of ")));
    }

    // A run.json without per-variable reports (written before they existed): the variable's
    // charts say why they are missing and what to do, instead of showing the first variable.
    void missingVariableReportsAreSaid() {
        auto old = std::make_shared<study::RunResult>(*run_);
        for (auto& s : old->synthesizers)
            if (s.utility) s.utility->variables.clear();
        ResultsPage page;
        page.showRun(old, QStringLiteral("old"), table_);
        showTab(page, kUtility);
        QVERIFY(choose(page, q(targets_[1])));
        QVERIFY(page.chartCards(kUtility).isEmpty());
        QString said;
        for (auto* card : page.tableCards(kUtility))
            for (auto* label : card->findChildren<QLabel*>()) said += label->text();
        QVERIFY2(said.contains(QStringLiteral("no measures of '%1'").arg(q(targets_[1]))),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("run it again")), qPrintable(said));
    }

    // A one-variable run's Utility tab has no chooser and its charts keep their keys.
    void oneVariableRunHasNoChooser() {
        auto one = std::make_shared<study::RunResult>(*run_);
        one->config.data.targets.clear();
        one->config.models.clear();
        one->config.risk.radii.clear();
        for (auto& s : one->synthesizers)
            if (s.utility) {
                s.utility->variables.clear();
                s.utility->joint.reset();
            }
        ResultsPage page;
        page.showRun(one, QStringLiteral("one"));
        showTab(page, kUtility);
        QVERIFY(!chooser(page));
        const auto charts = page.chartCards(kUtility);
        QVERIFY(!charts.isEmpty());
        QCOMPARE(charts.front()->key(), QStringLiteral("violin_utility_mean"));
    }

    // "Export all charts" writes each variable's utility violins with the variable in the
    // file name, and the joint charts.
    void exportNamesFilesPerVariable() {
        // Kept for a person to look at, emptied first so only this export's files count.
        const QString path = ppsynth::testing::outputDir(QStringLiteral("several_utility_charts"));
        QVERIFY(QDir(path).removeRecursively() && QDir().mkpath(path));
        RunChartOptions options;  // with the run's table, as the Results page exports
        options.table = table_;
        ChartExportJob job(run_, path, options);
        QSignalSpy finished(&job, &ChartExportJob::finished);
        job.start();
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        const QDir dir(path);
        for (const auto& t : targets_)
            for (const char* statistic : {"mean", "median"})
                for (const char* suffix : {".png", ".svg"}) {
                    const QString name =
                        QStringLiteral("violin_utility_%1_%2%3")
                            .arg(q(t), QLatin1String(statistic), QLatin1String(suffix));
                    QVERIFY2(dir.exists(name), qPrintable(name));
                }
        QVERIFY(dir.exists(QStringLiteral("violin_correlation_frobenius.png")));
        QVERIFY(dir.exists(
            QStringLiteral("violin_correlation_%1_%2.png").arg(q(targets_[0]), q(targets_[1]))));
        QVERIFY2(!dir.exists(QStringLiteral("violin_utility_mean.png")),
                 "a several-variable run has no utility file without its variable");
        QVERIFY2(job.result().skipped.isEmpty(),
                 qPrintable(job.result().skipped.join(QStringLiteral("; "))));
    }

    // A variable's name is data, never a path: the chart keys keep only letters, digits, '-'
    // and '_', and two names that map to the same key get their position.
    void variableKeysAreSafeNames_data() {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QStringList>("keys");
        QTest::newRow("plain") << QStringList{"income", "doctor_visits"}
                               << QStringList{"income", "doctor_visits"};
        QTest::newRow("path") << QStringList{"../../etc/passwd", "C:\\x"}
                              << QStringList{"_etc_passwd", "C_x"};
        QTest::newRow("same key") << QStringList{"food cost", "food/cost"}
                                  << QStringList{"food_cost_1", "food_cost_2"};
    }
    void variableKeysAreSafeNames() {
        QFETCH(QStringList, names);
        QFETCH(QStringList, keys);
        study::RunResult run;
        for (const auto& n : names) run.config.data.targets.push_back(n.toStdString());
        run.config.data.target = run.config.data.targets.front();
        for (qsizetype k = 0; k < names.size(); ++k)
            QCOMPARE(variableKey(run, names[k].toStdString()), keys[k]);
    }

    // Export with a variable whose name would climb out of the folder: every file stays in
    // it, named by the safe key.
    void exportKeepsHostileNamesInside() {
        auto renamed = std::make_shared<study::RunResult>(*run_);
        const std::string bad = "../" + targets_[0];
        auto rename = [&](std::string& name) {
            if (name == targets_[0]) name = bad;
        };
        rename(renamed->config.data.target);
        for (auto& t : renamed->config.data.targets) rename(t);
        for (auto& s : renamed->synthesizers) {
            if (!s.utility) continue;
            rename(s.utility->target);
            for (auto& v : s.utility->variables) rename(v.target);
            if (!s.utility->joint) continue;
            for (auto& p : s.utility->joint->correlation.pairs) {
                rename(p.a);
                rename(p.b);
            }
        }
        QTemporaryDir out;
        QVERIFY(out.isValid());
        const QString inner = out.filePath(QStringLiteral("charts"));
        auto files = exportRunCharts(*renamed, inner);
        QVERIFY2(files, files ? "" : files.message().c_str());
        QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("charts")});
        for (const auto& f : files->files)
            QCOMPARE(QFileInfo(f.png).absolutePath(), QFileInfo(inner).absoluteFilePath());
        QVERIFY(
            QDir(inner).exists(QStringLiteral("violin_utility__%1_mean.png").arg(q(targets_[0]))));
        QVERIFY(QDir(inner).exists(
            QStringLiteral("violin_correlation__%1_%2.png").arg(q(targets_[0]), q(targets_[1]))));
    }

    // Compare: a several-variable run shows the utility of the mean of each variable; beside
    // a run of the first alone, that variable's charts share one value range.
    void compareShowsUtilityPerVariable() {
        auto one = std::make_shared<study::RunResult>(*run_);
        one->config.data.targets.clear();
        for (auto& s : one->synthesizers)
            if (s.utility) {
                s.utility->variables.clear();
                s.utility->joint.reset();
            }
        CompareView view;
        view.resize(1400, 1000);
        view.compare(QStringLiteral("two"), run_, QStringLiteral("one"), one);
        QStringList titles;
        for (auto* card : view.cards(0)) {
            QVERIFY2(card->hasChart(), qPrintable(card->errorText()));
            titles << card->title();
        }
        for (const auto& t : targets_)
            QVERIFY2(titles.contains(QStringLiteral("Utility: the mean of ") + q(t)),
                     qPrintable(titles.join(QStringLiteral("; "))));
        const QString first = QStringLiteral("Utility: the mean of ") + q(targets_[0]);
        ChartCard* left = nullptr;
        ChartCard* right = nullptr;
        for (auto* c : view.cards(0))
            if (c->title() == first) left = c;
        for (auto* c : view.cards(1))
            if (c->title() == first) right = c;
        QVERIFY(left && right);
        auto range = [](ChartCard* c) {
            auto* v = qobject_cast<ui::charts::ViolinChart*>(c->chart());
            auto* axis = qobject_cast<QValueAxis*>(v->valueAxis());
            return std::make_pair(axis->min(), axis->max());
        };
        QCOMPARE(range(left), range(right));
        QApplication::processEvents();
        auto* scroll = view.findChild<QScrollArea*>();
        QVERIFY(scroll && scroll->widget());
        save(scroll->widget(), QStringLiteral("utility_compare_full.png"));
        // The side with more cards does not stretch the other's: the same chart on both sides
        // starts at the same height, give or take the run headers above (one of two lines).
        QVERIFY2(std::abs(left->geometry().top() - right->geometry().top()) < 40,
                 qPrintable(QStringLiteral("%1 against %2")
                                .arg(left->geometry().top())
                                .arg(right->geometry().top())));
        // The table compares the CI overlap of each variable's mean: the second variable's from
        // run.json for the run that has it, none for the run of the first alone.
        const auto& table = view.comparisonCard()->data();
        const QString header = QStringLiteral("CI overlap of the mean of %1\n").arg(q(targets_[1]));
        const auto two = table.headers.indexOf(header + QStringLiteral("two"));
        const auto alone = table.headers.indexOf(header + QStringLiteral("one"));
        QVERIFY2(two > 0 && alone > 0, qPrintable(table.headers.join(QStringLiteral(" | "))));
        for (const auto& row : table.rows) {
            const auto& mean =
                utilityJson(row[0].toStdString()).at("variables").at(1).at("statistics").at(0);
            QCOMPARE(row[two], formatCell(mean.at("ci_overlap").get<double>()));
            QCOMPARE(row[alone], QStringLiteral("–"));
        }
    }
};

QTEST_MAIN(TstUtilityView)
#include "tst_utility_view.moc"
