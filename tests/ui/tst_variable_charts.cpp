// The charts of the confidential y (synthetic against confidential, weight against y, density,
// tail density) of every sensitive variable of a run with several (METHOD.md section 9), on a
// real run of the household_spending example (income, exp_food, exp_housing): the Results
// page's "Export all charts" writes them for each variable, keyed and titled by it; each chart
// draws its own variable's values (read from the run's table); a variable that cannot be read
// is a "skipped" note naming it; a one-variable run's files are those it always had. The
// exported files are kept in the test output folder for a person to look at.
#include <QApplication>
#include <QDir>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <set>

#include "ppsynth/data/io.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/utility/kde.hpp"
#include "test_output.hpp"
#include "two_targets_config.hpp"
#include "ui/charts/density_chart.hpp"
#include "ui/charts/scatter_chart.hpp"
#include "ui/results/chart_files.hpp"
#include "ui/results/results_page.hpp"
#include "ui/results/run_charts.hpp"
#include "ui/results/variable_view.hpp"

using namespace ppsynth;
using namespace ppsynth::ui::results;

namespace {

const QStringList kVariables{QStringLiteral("income"), QStringLiteral("exp_food"),
                             QStringLiteral("exp_housing")};
const QStringList kSynthesizers{QStringLiteral("Unweighted"), QStringLiteral("LW")};
// The four charts of the confidential y, by the start of their keys.
const QStringList kKinds{QStringLiteral("scatter_synthetic_confidential_"),
                         QStringLiteral("scatter_weight_y_"), QStringLiteral("density_"),
                         QStringLiteral("density_tail_")};

// The household_spending example (three sensitive variables), short chains, two synthesizers.
study::RunConfig exampleConfig() {
    auto c = testing::shortRunOf(PPSYNTH_EXAMPLES_DIR "/household_spending.json");
    c.synthesizers.resize(2);  // Unweighted, LW
    return c;
}

const BuiltChart* chartKeyed(const RunCharts& charts, const QString& key) {
    for (const auto& c : charts.charts)
        if (c.key == key) return &c;
    return nullptr;
}

QStringList pngFiles(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
}

}  // namespace

class TstVariableCharts : public QObject {
    Q_OBJECT
    std::shared_ptr<const study::RunResult> run_;  // three sensitive variables
    std::shared_ptr<const study::RunResult> one_;  // income alone
    std::shared_ptr<const data::Table> table_;
    RunCharts built_;  // run_'s charts, with its table

    RunChartOptions withTable() const {
        RunChartOptions o;
        o.table = table_;
        return o;
    }

  private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
        auto config = exampleConfig();
        auto table = data::readTable(config.data.path);
        QVERIFY2(table, table ? "" : table.message().c_str());
        auto run = study::runStudy(config, *table);
        QVERIFY2(run, run ? "" : run.message().c_str());
        run_ = std::make_shared<const study::RunResult>(std::move(*run));
        QCOMPARE(run_->config.data.targets.size(), std::size_t{3});
        auto single = config;
        single.data.targets.clear();
        single.data.target = "income";
        single.models.clear();
        single.risk.radii.clear();
        auto oneRun = study::runStudy(single, *table);
        QVERIFY2(oneRun, oneRun ? "" : oneRun.message().c_str());
        one_ = std::make_shared<const study::RunResult>(std::move(*oneRun));
        table_ = std::make_shared<const data::Table>(std::move(*table));
        built_ = buildRunCharts(*run_, withTable());
    }

    // "Export all charts" on the Results page of a run shown with its table: the four charts
    // of the confidential y of every variable and synthesizer, as PNG and SVG, named by the
    // variable; none without a variable in its name; nothing about them skipped.
    void exportWritesEveryVariable() {
        const QString path = ppsynth::testing::outputDir(QStringLiteral("variable_charts"));
        QVERIFY(QDir(path).removeRecursively() && QDir().mkpath(path));
        ResultsPage page;
        page.showRun(run_, QStringLiteral("three"), table_);
        page.exportAllCharts(path);
        QVERIFY(page.exportJob());
        QSignalSpy finished(page.exportJob(), &ChartExportJob::finished);
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        const QDir dir(path);
        for (const QString& kind : kKinds)
            for (const QString& v : kVariables)
                for (const QString& s : kSynthesizers)
                    for (const char* suffix : {".png", ".svg"}) {
                        const QString name = kind + v + QLatin1Char('_') + s + suffix;
                        QVERIFY2(dir.exists(name), qPrintable(name));
                    }
        for (const QString& kind : kKinds)
            for (const QString& s : kSynthesizers)
                QVERIFY2(!dir.exists(kind + s + QStringLiteral(".png")),
                         qPrintable(kind + s + " in a several-variable run names no variable"));
        for (const QString& note : page.exportJob()->result().skipped)
            for (const QString& v : kVariables) QVERIFY2(!note.contains(v), qPrintable(note));
        // Every file once: no two charts share a key.
        std::set<QString> keys;
        for (const auto& f : page.exportJob()->result().files)
            QVERIFY2(keys.insert(f.key).second, qPrintable(f.key));
    }

    // Each chart draws its own variable: the scatter plots' x values are that variable's
    // confidential values (and the synthetic scatter's y its part of dataset 1), the densities
    // are those of its values; the title names it.
    void chartsDrawTheirVariable_data() {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("synthesizer");
        for (const QString& v : kVariables)
            for (const QString& s : kSynthesizers)
                QTest::addRow("%s %s", qPrintable(v), qPrintable(s)) << v << s;
    }
    void chartsDrawTheirVariable() {
        QFETCH(QString, variable);
        QFETCH(QString, synthesizer);
        const std::string target = variable.toStdString();
        const auto values = confidentialValues(*run_, *table_, target);
        QVERIFY2(values, values ? "" : values.message().c_str());
        const std::size_t n = values->size();
        const auto k = static_cast<std::size_t>(kVariables.indexOf(variable));
        const auto* s = run_->find(synthesizer.toStdString());
        QVERIFY(s);
        const QString suffix = variable + QLatin1Char('_') + synthesizer;

        const auto* sc = chartKeyed(built_, kKinds[0] + suffix);
        QVERIFY2(sc, qPrintable(kKinds[0] + suffix + " was not built"));
        QVERIFY2(sc->title.contains(variable), qPrintable(sc->title));
        const auto* scatter = qobject_cast<ui::charts::ScatterChart*>(sc->chart.get());
        QVERIFY(scatter);
        QCOMPARE(static_cast<std::size_t>(scatter->totalPoints()), n);
        const auto points = scatter->pointSeries()->points();
        QCOMPARE(static_cast<std::size_t>(points.size()), n);  // 2000 records: none thinned
        for (std::size_t i : {std::size_t{0}, n / 2, n - 1}) {
            QCOMPARE(points[static_cast<qsizetype>(i)].x(), (*values)[i]);
            QCOMPARE(points[static_cast<qsizetype>(i)].y(), s->synthetic[0][k * n + i]);
        }

        const auto* wy = chartKeyed(built_, kKinds[1] + suffix);
        QVERIFY2(wy, qPrintable(kKinds[1] + suffix + " was not built"));
        QVERIFY2(wy->title.contains(variable), qPrintable(wy->title));
        const auto* weights = qobject_cast<ui::charts::ScatterChart*>(wy->chart.get());
        QVERIFY(weights);
        const auto wpoints = weights->pointSeries()->points();
        QCOMPARE(static_cast<std::size_t>(wpoints.size()), n);
        const auto [lo, hi] = std::minmax_element(wpoints.begin(), wpoints.end(),
                                                  [](auto a, auto b) { return a.x() < b.x(); });
        QCOMPARE(lo->x(), *std::min_element(values->begin(), values->end()));
        QCOMPARE(hi->x(), *std::max_element(values->begin(), values->end()));
        QCOMPARE(wpoints[7].y(), s->records.alpha[7]);

        // The densities: the confidential curve is the kernel density of this variable's
        // values (same grid), the synthetic one pools its part of every dataset.
        std::vector<double> pooled;
        for (const auto& d : s->synthetic)
            pooled.insert(pooled.end(), d.begin() + static_cast<std::ptrdiff_t>(k * n),
                          d.begin() + static_cast<std::ptrdiff_t>((k + 1) * n));
        const auto expected = utility::compareDensities(*values, pooled, {}, 0.9);
        QVERIFY2(expected, expected ? "" : expected.message().c_str());
        for (int tail = 0; tail < 2; ++tail) {
            const QString key = kKinds[2 + tail] + suffix;
            const auto* dc = chartKeyed(built_, key);
            QVERIFY2(dc, qPrintable(key + " was not built"));
            QVERIFY2(dc->title.contains(variable), qPrintable(dc->title));
            const auto* curve = qobject_cast<QLineSeries*>(dc->chart->series().front());
            QVERIFY(curve && curve->count() > 1);
            const auto& grid = tail ? expected->confidentialTail->x : expected->confidential.x;
            QCOMPARE(curve->at(0).x(), grid.front());
            QCOMPARE(curve->at(curve->count() - 1).x(), grid.back());
        }
    }

    // A variable the table cannot give is a "skipped" note that names it and says why: a
    // table without its column, or no table at all.
    void unreadableVariableIsANote() {
        data::Table without;
        for (const auto& c : table_->columns())
            if (c.name() != "exp_food") QVERIFY(without.addColumn(c).isOk());
        RunChartOptions o;
        o.table = std::make_shared<const data::Table>(std::move(without));
        const auto noFood = buildRunCharts(*run_, o);
        for (const auto& c : noFood.charts)
            for (const QString& kind : kKinds)
                QVERIFY2(!c.key.startsWith(kind + QStringLiteral("exp_food")), qPrintable(c.key));
        QVERIFY(chartKeyed(noFood, QStringLiteral("density_exp_housing_LW")));
        const QString food = noFood.skipped.filter(QStringLiteral("exp_food")).join(u'\n');
        QVERIFY2(food.contains(QStringLiteral("Charts of exp_food: ")) &&
                     food.contains(QStringLiteral("no column 'exp_food'")),
                 qPrintable(noFood.skipped.join(u'\n')));

        const auto noTable = buildRunCharts(*run_);
        QVERIFY(chartKeyed(noTable, QStringLiteral("density_income_LW")));
        for (const QString& v : {QStringLiteral("exp_food"), QStringLiteral("exp_housing")}) {
            const QStringList notes = noTable.skipped.filter(QStringLiteral("Charts of ") + v);
            QCOMPARE(notes.size(), 1);
            QVERIFY2(notes.front().contains(QStringLiteral("data file")),
                     qPrintable(notes.front()));
        }
    }

    // A run of one variable: the same files with or without its table, named as they always
    // were (kind and synthesizer, no variable).
    void oneVariableRunKeepsItsFiles() {
        QTemporaryDir out;
        QVERIFY(out.isValid());
        const QString a = out.filePath(QStringLiteral("with"));
        const QString b = out.filePath(QStringLiteral("without"));
        auto with = exportRunCharts(*one_, a, withTable(), QSize(300, 200));
        QVERIFY2(with, with ? "" : with.message().c_str());
        auto without = exportRunCharts(*one_, b, {}, QSize(300, 200));
        QVERIFY2(without, without ? "" : without.message().c_str());
        QCOMPARE(pngFiles(a), pngFiles(b));
        QCOMPARE(with->skipped, without->skipped);
        QStringList expected{
            QStringLiteral("violin_lipschitz.png"), QStringLiteral("violin_risk.png"),
            QStringLiteral("violin_weights.png"), QStringLiteral("scatter_risk_LW.png")};
        for (const QString& kind : QStringList{QStringLiteral("scatter_bound_weight_")} + kKinds)
            for (const QString& s : kSynthesizers) expected << kind + s + QStringLiteral(".png");
        QStringList files = pngFiles(a);
        files.removeIf([](const QString& f) {
            return f.startsWith(QStringLiteral("trace_")) ||
                   f.startsWith(QStringLiteral("violin_utility_"));
        });
        expected.sort();
        QCOMPARE(files, expected);
    }
};

QTEST_MAIN(TstVariableCharts)
#include "tst_variable_charts.moc"
