// The results views on a small real run: the poisson example under a Poisson regression
// (NUTS, short chains) with Unweighted, LW, CW, EM matched to LW and LW re-weighted. Checks
// every chart builder's series and point counts against the run's own numbers, the chart
// files, the tables and the results page; saves a screenshot of every tab to
// $PPSYNTH_TEST_OUTPUT/screenshots/results_*.png for a person to look at.
#include <QApplication>
#include <QAreaSeries>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMetaType>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <limits>
#include <memory>
#include <set>

#include "../common/near.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/sweep.hpp"
#include "test_output.hpp"
#include "ui/bundle_guard.hpp"
#include "ui/charts/chart_style.hpp"
#include "ui/charts/chart_view.hpp"
#include "ui/charts/curve_chart.hpp"
#include "ui/charts/density_chart.hpp"
#include "ui/charts/line_chart.hpp"
#include "ui/charts/scatter_chart.hpp"
#include "ui/charts/violin_chart.hpp"
#include "ui/results/chart_card.hpp"
#include "ui/results/chart_files.hpp"
#include "ui/results/compare_view.hpp"
#include "ui/results/results_page.hpp"
#include "ui/results/results_tables.hpp"
#include "ui/results/run_charts.hpp"
#include "ui/results/studies_page.hpp"
#include "ui/results/study_charts.hpp"
#include "ui/results/table_card.hpp"
#include "ui/run/run_record.hpp"

using namespace ppsynth;
using namespace ppsynth::ui;
using namespace ppsynth::ui::results;

using ppsynth::testing::outputDir;

namespace {

constexpr int kChains = 2;
constexpr int kDraws = 150;

// The vertical axis title Qt Charts drew for `chart` (the text item turned upright), its lines
// joined by spaces, or what is wrong with it: not drawn, or not inside the chart.
QString drawnVerticalTitle(const QChart* chart) {
    for (QGraphicsItem* item : chart->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible() || text->rotation() != 270 || !chart->isAncestorOf(text))
            continue;
        if (!chart->sceneBoundingRect().contains(text->sceneBoundingRect()))
            return QStringLiteral("a title outside the chart");
        QString t = text->toPlainText();
        for (const QChar c :
             {QChar(QChar::LineSeparator), QChar(QChar::ParagraphSeparator), QChar(u'\n')})
            t.replace(c, QLatin1Char(' '));
        return t;
    }
    return QStringLiteral("no title drawn");
}

study::RunConfig quickConfig(double lwC = 0.7) {
    auto c = study::parseRunConfig(QStringLiteral(R"({
      "data": {"path": "poisson.csv", "target": "y"},
      "model": {"family": "poisson"},
      "mcmc": {"chains": 2, "warmup": 150, "draws": 150, "seed": 11, "threads": 2},
      "synthesis": {"m": 3}, "risk": {"L": 3}, "utility": {"bootstrap": 200},
      "synthesizers": [
        {"name": "Unweighted", "scheme": "unweighted"},
        {"name": "LW", "scheme": "lipschitz", "c": %1, "g": 0.0},
        {"name": "CW", "scheme": "marginal", "source": "data"},
        {"name": "EM", "scheme": "scalar", "match": "LW"},
        {"name": "LW_final", "scheme": "reweight", "base": "LW"}
      ]})")
                                       .arg(lwC)
                                       .toStdString());
    if (!c) qFatal("config: %s", c.message().c_str());
    return *c;
}

// Exact draws (Poisson means, no warm-up, utility off) for `synthesizers` (a JSON array):
// a run of a second or less.
study::RunConfig conjugateConfig(const char* synthesizers) {
    auto c = study::parseRunConfig(QStringLiteral(R"({
      "data": {"path": "poisson.csv", "target": "y"},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 3, "warmup": 0, "draws": 200, "seed": 2},
      "synthesis": {"m": 2}, "risk": {"L": 2}, "utility": {"enabled": false},
      "synthesizers": %1})")
                                       .arg(QLatin1String(synthesizers))
                                       .toStdString());
    if (!c) qFatal("config: %s", c.message().c_str());
    return *c;
}

template <typename T>
T* as(const BuiltChart& c) {
    return qobject_cast<T*>(c.chart.get());
}

}  // namespace

class TstResults : public QObject {
    Q_OBJECT
    std::shared_ptr<const study::RunResult> run_;
    const study::RunResult& run() const { return *run_; }
    std::size_t n() const { return static_cast<std::size_t>(run_->inputs.yOriginal.size()); }

  private slots:
    void initTestCase() {
        QApplication::setFont(ui::charts::chartFont(9));
        QElapsedTimer t;
        t.start();
        auto r = study::runStudy(quickConfig(), data::makeExample(data::ExampleId::Poisson));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        run_ = std::make_shared<const study::RunResult>(std::move(*r));
        qInfo("quick run: %.2f s, %zu records, %zu synthesizers", t.elapsed() / 1000.0, n(),
              run_->synthesizers.size());
        QCOMPARE(run_->synthesizers.size(), std::size_t{5});
    }

    void violinsHoldOneViolinPerSynthesizerWithTheirMarks() {
        auto lip = lipschitzViolins(run());
        QVERIFY2(lip.hasValue(), lip.hasValue() ? "" : lip.message().c_str());
        QCOMPARE(lip->key, QStringLiteral("violin_lipschitz"));
        QVERIFY(lip->recordLevel);
        QVERIFY(!lip->caption.isEmpty());
        auto* chart = as<ui::charts::ViolinChart>(*lip);
        QVERIFY(chart);
        QCOMPARE(chart->violins().size(), run().synthesizers.size());
        // One area per synthesizer, each over all n records, marked at Delta_{alpha,x}.
        int areas = 0;
        for (auto* s : chart->series()) areas += qobject_cast<QAreaSeries*>(s) ? 1 : 0;
        QCOMPARE(areas, 5);
        for (std::size_t i = 0; i < run().synthesizers.size(); ++i) {
            const auto& v = chart->violins()[i];
            const auto& s = run().synthesizers[i];
            QCOMPARE(v.name, QString::fromStdString(s.name));
            QCOMPARE(v.summary.n, n());
            QVERIFY(v.mark.has_value());
            QCOMPARE(*v.mark, s.deltaAlphaX);
            QCOMPARE(v.summary.max, s.records.recordDelta.maxCoeff());
        }
        auto risk = riskViolins(run());
        QVERIFY2(risk.hasValue(), risk.hasValue() ? "" : risk.message().c_str());
        auto* rc = as<ui::charts::ViolinChart>(*risk);
        for (std::size_t i = 0; i < run().synthesizers.size(); ++i) {
            const auto& s = run().synthesizers[i];
            QVERIFY_NEAR(*rc->violins()[i].mark, s.irSummary.mean, 1e-12);
            QCOMPARE(rc->violins()[i].summary.median, s.irSummary.median);
        }
        auto w = weightViolins(run());
        QVERIFY2(w.hasValue(), w.hasValue() ? "" : w.message().c_str());
        auto* wc = as<ui::charts::ViolinChart>(*w);
        QCOMPARE(*wc->violins()[0].mark, 1.0);  // unweighted: every alpha is 1
        QVERIFY(*wc->violins()[1].mark < 1.0);
    }

    void utilityViolinsAndTablesMatchTheReports() {
        const auto names = utilityStatistics(run());
        QCOMPARE(names.size(), std::size_t{4});  // mean, median, quantiles 0.15 and 0.9
        for (std::size_t k = 0; k < names.size(); ++k) {
            auto c = utilityViolins(run(), k);
            QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
            QVERIFY(!c->recordLevel);
            auto* chart = as<ui::charts::ViolinChart>(*c);
            QCOMPARE(chart->violins().size(), 1 + run().synthesizers.size());
            QCOMPARE(chart->violins()[0].name, QStringLiteral("Confidential"));
            const auto& lw = run().find("LW")->utility->statistics[k];
            QCOMPARE(lw.name, names[k]);
            // Every violin is marked at the confidential value; LW's outline is its averaged
            // quantile function (one value per grid point).
            for (const auto& v : chart->violins()) QCOMPARE(*v.mark, lw.original.estimate);
            QCOMPARE(chart->violins()[2].summary.n, lw.syntheticQuantiles.size());
            QCOMPARE(chart->violins()[2].summary.max, lw.syntheticQuantiles.back());
            // The confidential bootstrap is redrawn by each report (its own seed): the first
            // report's is shown.
            QCOMPARE(chart->violins()[0].summary.min,
                     run().synthesizers[0].utility->statistics[k].originalQuantiles.front());
        }
        QVERIFY(!utilityViolins(run(), 4).hasValue());

        auto u = utilityTable(run());
        QVERIFY2(u.hasValue(), u.hasValue() ? "" : u.message().c_str());
        QCOMPARE(u->rows.size(), 5 * names.size());
        const auto& cwMean = run().find("CW")->utility->statistics[0];
        const QStringList& row = u->rows[2 * names.size()];  // CW's first statistic
        QCOMPARE(row[0], QStringLiteral("CW"));
        QCOMPARE(row[1], QString::fromStdString(cwMean.name));
        QCOMPARE(row[4], formatCell(cwMean.synthetic.estimate));
        QCOMPARE(row[5],
                 QStringLiteral("[%1, %2]")
                     .arg(formatCell(cwMean.synthetic.lower), formatCell(cwMean.synthetic.upper)));
        QCOMPARE(row[6], formatCell(cwMean.ciOverlap));
        auto d = distributionTable(run());
        QVERIFY(d.hasValue());
        QCOMPARE(d->rows.size(), run().synthesizers.size());
        QCOMPARE(d->rows[1][1], formatCell(run().find("LW")->utility->ecdf.Um));
        auto p = posteriorTable(run(), "EM");
        QVERIFY2(p.hasValue(), p.hasValue() ? "" : p.message().c_str());
        QCOMPARE(p->rows.size(), run().find("EM")->utility->parameters.size());
        auto reg = regressionTable(run(), "LW");
        if (run().find("LW")->utility->regression.empty()) {
            QVERIFY(!reg.hasValue());
        } else {
            QCOMPARE(reg->rows.size(), run().find("LW")->utility->regression.size());
        }
    }

    void boundVsWeightShowsEveryRecordAndTheDeltaLine() {
        auto c = boundVsWeightScatter(run(), "LW");
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        auto* chart = as<ui::charts::ScatterChart>(*c);
        QCOMPARE(chart->totalPoints(), static_cast<qsizetype>(n()));
        QCOMPARE(chart->shownPoints(), static_cast<qsizetype>(n()));  // below the thinning
        QCOMPARE(chart->totalOverlayPoints(), 0);
        const auto* lw = run().find("LW");
        QCOMPARE(chart->pointSeries()->at(0),
                 QPointF(lw->records.alpha[0], lw->records.recordDelta[0]));
        // The Delta line is a horizontal line at Delta_{alpha,x}.
        bool line = false;
        for (auto* s : chart->series()) {
            auto* l = qobject_cast<QLineSeries*>(s);
            if (l && l->isVisible() && l->count() == 2 && l->at(0).y() == lw->deltaAlphaX &&
                l->at(1).y() == lw->deltaAlphaX)
                line = true;
        }
        QVERIFY(line);

        // Re-weighting: before (LW's records) and after (the re-weighted fit) in one chart.
        auto f = boundVsWeightScatter(run(), "LW_final");
        QVERIFY2(f.hasValue(), f.hasValue() ? "" : f.message().c_str());
        auto* fc = as<ui::charts::ScatterChart>(*f);
        QCOMPARE(fc->totalPoints(), static_cast<qsizetype>(n()));
        QCOMPARE(fc->totalOverlayPoints(), static_cast<qsizetype>(n()));
        QCOMPARE(fc->shownPoints(), static_cast<qsizetype>(2 * n()));
        const auto* fin = run().find("LW_final");
        QCOMPARE(fc->overlaySeries()->at(5),
                 QPointF(fin->records.alpha[5], fin->records.recordDelta[5]));
        QVERIFY(fc->pointSeries()->name().contains(QStringLiteral("before")));

        auto missing = boundVsWeightScatter(run(), "nope");
        QVERIFY(!missing.hasValue());
        QVERIFY(QString::fromStdString(missing.message()).contains(QStringLiteral("'nope'")));
    }

    void otherScattersMatchTheRun() {
        auto sc = syntheticVsConfidentialScatter(run(), "EM", 1);
        QVERIFY2(sc.hasValue(), sc.hasValue() ? "" : sc.message().c_str());
        auto* s = as<ui::charts::ScatterChart>(*sc);
        QCOMPARE(s->totalPoints(), static_cast<qsizetype>(n()));
        const auto* em = run().find("EM");
        QCOMPARE(s->pointSeries()->at(3), QPointF(run().inputs.yOriginal[3], em->synthetic[1][3]));
        QVERIFY(!syntheticVsConfidentialScatter(run(), "EM", 3).hasValue());  // m = 3

        auto rc = riskComparisonScatter(run(), "CW");
        QVERIFY2(rc.hasValue(), rc.hasValue() ? "" : rc.message().c_str());
        auto* r = as<ui::charts::ScatterChart>(*rc);
        const auto* cw = run().find("CW");
        const auto* u = run().find("Unweighted");
        QCOMPARE(r->totalPoints(), static_cast<qsizetype>(n()));
        QCOMPARE(r->pointSeries()->at(7), QPointF(u->records.ir[7], cw->records.ir[7]));
        QCOMPARE(r->highlightSeries()->count(),
                 static_cast<qsizetype>(cw->records.whackAMole.size()));
        QVERIFY(!riskComparisonScatter(run(), "Unweighted").hasValue());

        auto wy = weightVsYScatter(run(), "LW");
        QVERIFY2(wy.hasValue(), wy.hasValue() ? "" : wy.message().c_str());
        QCOMPARE(as<ui::charts::ScatterChart>(*wy)->pointSeries()->at(9),
                 QPointF(run().inputs.yOriginal[9], run().find("LW")->records.alpha[9]));
    }

    void densitiesAndTraces() {
        auto d = densityChart(run(), "LW");
        QVERIFY2(d.hasValue(), d.hasValue() ? "" : d.message().c_str());
        auto* dc = as<ui::charts::DensityChart>(*d);
        QCOMPARE(dc->series().size(), 2);
        for (auto* s : dc->series()) QCOMPARE(qobject_cast<QLineSeries*>(s)->count(), 512);
        auto t = densityTailChart(run(), "LW");
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        // The tail starts at the confidential 0.9 quantile.
        auto* tl = qobject_cast<QLineSeries*>(as<ui::charts::DensityChart>(*t)->series().front());
        std::vector<double> y(run().inputs.yOriginal.data(), run().inputs.yOriginal.data() + n());
        std::sort(y.begin(), y.end());
        QVERIFY(tl->at(0).x() >= y[n() * 8 / 10]);

        const auto params = traceParameters(run(), "LW", 3);
        // Intercept-only Poisson regression: the coefficient and its prior scale.
        QCOMPARE(run().parameterNames.size(), std::size_t{2});
        QCOMPARE(params.size(), std::size_t{2});
        auto tr = traceChart(run(), "LW", params[0]);
        QVERIFY2(tr.hasValue(), tr.hasValue() ? "" : tr.message().c_str());
        QVERIFY(!tr->recordLevel);
        auto* lc = as<ui::charts::LineChart>(*tr);
        QCOMPARE(lc->series().size(), kChains);
        const auto* lw = run().find("LW");
        for (int c = 0; c < kChains; ++c) {
            auto* l = qobject_cast<QLineSeries*>(lc->series()[c]);
            QCOMPARE(l->count(), kDraws);
            QCOMPARE(l->at(4).y(), lw->draws(c * kDraws + 4, static_cast<Eigen::Index>(params[0])));
        }
        QVERIFY(!traceChart(run(), "LW", 2).hasValue());
    }

    void tablesHoldARowPerSynthesizer() {
        // Every table: each row exactly as long as the header.
        std::vector<TableData> all{
            epsilonTable(run()),
            riskTable(run()),
            convergenceTable(run()),
            samplerTable(run()),
            *topRiskTable(run(), "LW"),
            *utilityTable(run()),
            *distributionTable(run()),
            *posteriorTable(run(), "LW"),
            comparisonTable(run(), QStringLiteral("a"), run(), QStringLiteral("b"))};
        for (const auto& t : all) {
            QVERIFY2(!t.rows.empty(), qPrintable(t.key));
            for (const auto& row : t.rows)
                QVERIFY2(row.size() == t.headers.size(), qPrintable(t.key));
        }
        const auto eps = epsilonTable(run());
        QCOMPARE(eps.rows.size(), run().synthesizers.size());
        QVERIFY(!eps.confidential);
        for (const auto& row : eps.rows) QCOMPARE(row.size(), eps.headers.size());
        const auto* lw = run().find("LW");
        QCOMPARE(eps.rows[1][0], QStringLiteral("LW"));
        QCOMPARE(eps.rows[1][eps.headers.indexOf(QStringLiteral("ε per dataset"))],
                 formatCell(lw->epsilon.perDataset));
        QCOMPARE(eps.rows[1][eps.headers.indexOf(QStringLiteral("ε for m datasets"))],
                 formatCell(3 * lw->epsilon.perDataset));
        // An unbounded epsilon (a weighted record's non-finite log-likelihood) reads as such.
        auto unbounded = run();
        unbounded.synthesizers[1].epsilon.perDataset = std::numeric_limits<double>::infinity();
        unbounded.synthesizers[1].epsilon.total = std::numeric_limits<double>::infinity();
        QCOMPARE(
            epsilonTable(unbounded).rows[1][eps.headers.indexOf(QStringLiteral("ε per dataset"))],
            QStringLiteral("∞"));

        auto top = topRiskTable(run(), "CW");
        QVERIFY2(top.hasValue(), top.hasValue() ? "" : top.message().c_str());
        QVERIFY(top->confidential);
        QVERIFY(top->title.startsWith(QStringLiteral("CONFIDENTIAL")));
        QCOMPARE(top->rows.size(), std::size_t{10});
        const auto* cw = run().find("CW");
        const double highest = *std::max_element(cw->records.ir.begin(), cw->records.ir.end());
        QCOMPARE(top->rows[0][3], formatCell(highest));
        // Sorted by risk, highest first; rows are numbered as in the file (1-based).
        for (std::size_t k = 1; k < top->rows.size(); ++k)
            QVERIFY(top->rows[k][3].toDouble() <= top->rows[k - 1][3].toDouble());
        const std::size_t i0 = cw->records.irTop[0];
        QCOMPARE(top->rows[0][1], QString::number(run().inputs.keptRows[i0] + 1));
        auto more = topRiskTable(run(), "CW", 25);
        QCOMPARE(more->rows.size(), std::size_t{25});
        QVERIFY(!topRiskTable(run(), "nope").hasValue());

        // Convergence: one row per synthesizer and quantity, plus each synthesizer's D_s.
        std::size_t quantities = 0;
        for (const auto& s : run().synthesizers) quantities += s.diagnostics.quantities.size() + 1;
        const auto conv = convergenceTable(run());
        QCOMPARE(conv.rows.size(), quantities);
        QVERIFY(quantities >= 2 * run().synthesizers.size());
        // Parameters are judged on the reported scale, under their own names.
        QCOMPARE(conv.rows[0][1], QString::fromStdString(run().parameterNames[0]));
        QCOMPARE(parameterIndex(run(), "parameter 2"), std::optional<std::size_t>(1));
        QVERIFY(!parameterIndex(run(), "parameter 3").has_value());
        QVERIFY(!parameterIndex(run(), "total log-likelihood").has_value());
        // Trace plots lead with the parameter whose chains agree least.
        const auto* lwd = run().find("LW");
        const auto order = traceParameters(run(), "LW", 2);
        double r0 = 0, r1 = 0;
        for (const auto& qd : lwd->diagnostics.quantities) {
            if (parameterIndex(run(), qd.name) == order[0]) r0 = qd.summary.rhat;
            if (parameterIndex(run(), qd.name) == order[1]) r1 = qd.summary.rhat;
        }
        QVERIFY(r0 >= r1);
        QVERIFY(r0 > 0);
        const auto sampler = samplerTable(run());
        QCOMPARE(sampler.rows.size(), run().synthesizers.size());
        QCOMPARE(sampler.rows[0][1], QString::number(kChains * kDraws));
        QCOMPARE(riskTable(run()).rows.size(), run().synthesizers.size());
        QCOMPARE(formatCell(std::nan("")), QStringLiteral("–"));
        QCOMPARE(keyPart("beta[(Intercept)]"), QStringLiteral("beta_Intercept"));
        QCOMPARE(keyPart("a b/c"), QStringLiteral("a_b_c"));
    }

    void samplerWarningsAreShownInWords() {
        // A run whose diagnostics carry a warning: the table lists it in words.
        study::RunResult copy = run();
        copy.synthesizers[1].diagnostics.divergences = 7;
        copy.synthesizers[1].diagnostics.warnings.push_back(
            "7 of 300 draws (2.3%) ended in a divergence: the sampler cannot follow the "
            "posterior's geometry there");
        const auto t = samplerTable(copy);
        QCOMPARE(t.warnings.size(), 1);
        QVERIFY(t.warnings[0].startsWith(QStringLiteral("LW: 7 of 300 draws")));
        QCOMPARE(t.rows[1][2], QStringLiteral("7"));
        TableCard card(t);
        QVERIFY(!card.warningsLabel()->isHidden());
        // Copy: header first, then the selected rows (all when none is selected), as TSV.
        QStringList lines = card.selectedText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + static_cast<int>(t.rows.size()));
        QCOMPARE(lines[0], t.headers.join(QLatin1Char('\t')));
        card.table()->selectRow(1);
        lines = card.selectedText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[1], t.rows[1].join(QLatin1Char('\t')));
        card.copySelection();
        QCOMPARE(QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts)[1],
                 lines[1]);
        QVERIFY(card.warningsLabel()->text().contains(QStringLiteral("divergence")));
        copy.warnings.push_back(
            "synthesizer 'LW' (lipschitz): 3 of its 20 synthetic values of "
            "'income' are negative (the lowest -2), while no confidential "
            "value is");
        ResultsPage page;
        page.showRun(std::move(copy));
        QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("warning")));
        // The run's own warnings are on the Summary too, where a synthesizer is chosen.
        QVERIFY2(page.summaryLabel()->text().contains(
                     QStringLiteral("3 of its 20 synthetic values of 'income' are negative")),
                 qPrintable(page.summaryLabel()->text()));
    }

    // The header names the model as the Model page does ("Normal mixture regression
    // (K = 3)"), not by its configuration id.
    void headerNamesTheModelFamily_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("K");
        QTest::addColumn<QString>("shown");
        QTest::newRow("normal") << "normal" << 20 << "model Normal regression,";
        QTest::newRow("mixture") << "normal-mixture" << 3
                                 << "model Normal mixture regression (K = 3),";
        QTest::newRow("unknown id") << "from-elsewhere" << 1 << "model from-elsewhere,";
    }
    void headerNamesTheModelFamily() {
        QFETCH(QString, family);
        QFETCH(int, K);
        QFETCH(QString, shown);
        study::RunResult copy = run();
        copy.config.model.family = family.toStdString();
        copy.config.model.K = K;
        ResultsPage page;
        page.showRun(std::make_shared<const study::RunResult>(std::move(copy)));
        QVERIFY2(page.headerLabel()->text().contains(shown),
                 qPrintable(page.headerLabel()->text()));
    }

    // A run until converged keeps as many draws as each fit needed: the header says "until
    // converged" with the block length, the sampler table each fit's draws per chain, its
    // blocks and why it stopped (not the configuration's block length).
    void untilConvergedShowsTheDrawsKept() {
        study::RunResult copy = run();
        const auto perChain = samplerTable(copy).headers.indexOf(QStringLiteral("Draws per chain"));
        QCOMPARE(samplerTable(copy).rows[0][perChain], QString::number(copy.config.mcmc.draws));
        QCOMPARE(samplerTable(copy).rows[0].back(), QStringLiteral("fixed"));
        copy.config.mcmc.drawsAuto = true;
        copy.config.mcmc.budgetSeconds = 300;
        const int block = copy.config.mcmc.draws;
        copy.synthesizers[0].diagnostics.untilConverged = {3, true, false, {}, 3 * block};
        copy.synthesizers[1].diagnostics.untilConverged = {
            2, false, true, {"f_i agreement: rank correlation 0.870"}, 2 * block - 7};
        const auto t = samplerTable(copy);
        QCOMPARE(t.headers.back(), QStringLiteral("Length"));
        QCOMPARE(t.rows[0][perChain], QString::number(3 * block));
        QCOMPARE(t.rows[0].back(), QStringLiteral("until converged: 3 blocks, converged"));
        QCOMPARE(t.rows[1][perChain], QString::number(2 * block - 7));
        QCOMPARE(t.rows[1].back(), QStringLiteral("until converged: 2 blocks, budget reached"));
        ResultsPage page;
        page.resize(1400, 950);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.showRun(std::move(copy), QStringLiteral("until converged"));
        const QString header = page.headerLabel()->text();
        QVERIFY2(header.contains(QStringLiteral("draws until converged (blocks of %1 per chain, "
                                                "at most 300 s per fit)")
                                     .arg(block)),
                 qPrintable(header));
        QVERIFY2(!header.contains(QStringLiteral("× %1 draws").arg(block)), qPrintable(header));
        for (int i = 0; i < page.tabs()->count(); ++i)
            if (page.tabs()->tabText(i) == QStringLiteral("Diagnostics"))
                page.tabs()->setCurrentIndex(i);
        QCoreApplication::processEvents();
        QVERIFY(page.grab().save(outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/results_until_converged.png")));
    }

    // Rows left out for missing values are said on the Summary tab and in the run list's
    // summary, not only in run.json.
    void listwiseDeletionIsShown() {
        study::RunResult copy = run();
        copy.inputs.report.rowsInTable = n() + 3;
        copy.inputs.report.rowsDropped = 3;
        const QString expected =
            QStringLiteral(
                "%1 of %2 rows modelled, 3 dropped by listwise deletion (missing values)")
                .arg(n())
                .arg(n() + 3);
        QVERIFY2(detailedSummary(copy).contains(expected), qPrintable(detailedSummary(copy)));
        ResultsPage page;
        page.resize(1400, 950);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.showRun(std::move(copy));
        QVERIFY2(page.summaryLabel()->text().contains(expected),
                 qPrintable(page.summaryLabel()->text()));
        QTRY_VERIFY(page.summaryLabel()->isVisible());
        QCoreApplication::processEvents();
        QVERIFY(page.grab().save(outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/results_summary_listwise.png")));
        // Nothing dropped: the count is still given.
        QVERIFY(
            recordsSummary(run()).startsWith(QStringLiteral("%1 of %1 rows modelled").arg(n())));
        QVERIFY(!recordsSummary(run()).contains(QStringLiteral("dropped")));
    }

    // The scalar search keeps the try closest to the target, which need not be the last:
    // the epsilon table warns about the chosen try only.
    void scalarMatchWarningJudgesTheChosenTry() {
        study::RunResult copy = run();
        auto& em = copy.synthesizers[3];
        QCOMPARE(em.name, std::string("EM"));
        const double target = copy.find("LW")->epsilon.perDataset;
        auto& sd = std::get<study::ScalarDetails>(em.details);
        sd.tries = {{0.30, 0.6 * target, 1.2 * target},
                    {0.25, 0.5 * target, 1.001 * target},
                    {0.26, 0.55 * target, 1.1 * target}};
        sd.a = 0.25;
        auto scalarWarnings = [](const TableData& t) {
            return t.warnings.filter(QStringLiteral("scalar weight")).size();
        };
        QCOMPARE(scalarWarnings(epsilonTable(copy)), 0);
        sd.a = 0.26;  // the chosen try 10% off: warned, with its own figure
        const auto t = epsilonTable(copy);
        QCOMPARE(scalarWarnings(t), 1);
        QVERIFY(t.warnings.filter(QStringLiteral("scalar weight"))[0].contains(
            QStringLiteral("within 10%")));
        QVERIFY(!t.warnings.filter(QStringLiteral("scalar weight"))[0].contains(
            QStringLiteral("maximum over draws")));
        sd.noiseLimited = true;  // the search stopped at the refits' noise: said so
        QVERIFY(epsilonTable(copy).warnings.filter(QStringLiteral("scalar weight"))[0].contains(
            QStringLiteral("maximum over draws")));
        sd.noise = 0.104;  // ... with the chains' own scatter when it was measured
        const auto noisy = epsilonTable(copy);
        const QString warning = noisy.warnings.filter(QStringLiteral("scalar weight"))[0];
        QVERIFY2(warning.contains(QStringLiteral("about 10.4% between its chains")),
                 qPrintable(warning));
        QVERIFY(warning.contains(QStringLiteral("maximum over draws")));
        TableCard card(noisy);
        card.resize(1100, 420);
        QVERIFY(!card.warningsLabel()->isHidden());
        QVERIFY(card.grab().save(outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/epsilon_table_scalar_noise.png")));
    }

    // An explicit epsilon target is a budget: missing it is warned about as a match is, and
    // ending above it says so.
    void scalarBudgetWarning() {
        study::RunResult copy = run();
        auto& em = copy.synthesizers[3];
        QCOMPARE(em.name, std::string("EM"));
        auto* cfg = const_cast<study::SynthesizerConfig*>(copy.config.find("EM"));
        cfg->match.clear();
        cfg->epsilon = 4.0;
        auto& sd = std::get<study::ScalarDetails>(em.details);
        sd.tries = {{0.30, 2.2, 4.4}, {0.25, 1.99, 3.98}};
        sd.a = 0.25;
        auto warnings = [](const TableData& t) {
            return t.warnings.filter(QStringLiteral("scalar weight"));
        };
        QCOMPARE(warnings(epsilonTable(copy)).size(), 0);
        sd.a = 0.30;  // 10% above the budget
        const auto above = warnings(epsilonTable(copy));
        QCOMPARE(above.size(), 1);
        QVERIFY2(above[0].contains(QStringLiteral("the target ε = 4 only within 10%")) &&
                     above[0].contains(QStringLiteral("above that budget")),
                 qPrintable(above[0]));
        sd.tries[1].epsilon = 3.5;  // 12.5% below: warned, not as over budget
        sd.a = 0.25;
        const auto below = warnings(epsilonTable(copy));
        QCOMPARE(below.size(), 1);
        QVERIFY2(!below[0].contains(QStringLiteral("budget")), qPrintable(below[0]));
    }

    void chartCardExportsAndShowsHoverValues() {
        ChartCard card(boundVsWeightScatter(run(), "LW"));
        QVERIFY(card.hasChart());
        card.resize(700, 520);
        card.show();
        QVERIFY(QTest::qWaitForWindowExposed(&card));
        QVERIFY(!card.caption().isEmpty());
        // Hover over a record: the value line under the chart says what the tooltip says.
        auto* chart = card.chart();
        const auto* lw = run().find("LW");
        auto* series = qobject_cast<ui::charts::ScatterChart*>(chart)->pointSeries();
        const QPointF value(lw->records.alpha[0], lw->records.recordDelta[0]);
        const QPoint at =
            card.view()->mapFromScene(chart->mapToScene(chart->mapToPosition(value, series)));
        QTest::mouseMove(card.view()->viewport(), at);
        QTRY_VERIFY(card.hoverLabel()->text().startsWith(QStringLiteral("Record")));
        QVERIFY(card.hoverLabel()->text().contains(QStringLiteral("Weight αᵢ = ")));

        const QString dir = outputDir(QStringLiteral("results_card"));
        const QString png = dir + QStringLiteral("/card.png"),
                      svg = dir + QStringLiteral("/card.svg");
        QFile::remove(png);
        QFile::remove(svg);
        QVERIFY(card.exportTo(png).isEmpty());
        QVERIFY(card.exportTo(svg).isEmpty());
        QVERIFY(!QImage(png).isNull());
        QVERIFY(QSvgRenderer(svg).isValid());
        QVERIFY(!card.exportTo(QStringLiteral("/proc/no/such/dir/x.png")).isEmpty());

        ChartCard failed(riskComparisonScatter(run(), "Unweighted"), QStringLiteral("Risk"));
        QVERIFY(!failed.hasChart());
        QVERIFY(failed.errorText().contains(QStringLiteral("unweighted")));
    }

    // "epsilon converged: yes / no (why)" beside every epsilon: the summary, the epsilon
    // table (a column, and the reasons and a positive l as warnings) and the convergence
    // table's D_s row. Screenshots of both cases for a person to look at.
    // The top-coding comparator names its threshold; with several sensitive variables, each
    // variable's own.
    void topCodedThresholdsAreNamed_data() {
        QTest::addColumn<bool>("several");
        QTest::newRow("one variable") << false;
        QTest::newRow("two variables") << true;
    }
    void topCodedThresholdsAreNamed() {
        QFETCH(bool, several);
        auto copy = std::make_shared<study::RunResult>(run());
        study::TopCodeDetails d;
        d.q = 0.95;
        d.threshold = 1000;
        d.capped = 3;
        if (several) d.variables = {{"income", 1000, 3}, {"exp_food", 52.5, 2}};
        copy->synthesizers[1].details = d;
        const QString name = QString::fromStdString(copy->synthesizers[1].name);
        const QStringList said = epsilonTable(*copy).warnings.filter(QStringLiteral("top-coded"));
        QCOMPARE(said.size(), 1);
        if (several)
            QVERIFY2(
                said[0].startsWith(name + QStringLiteral(": each variable top-coded at its 0.95 "
                                                         "quantile, income at t = 1000 (3 records "
                                                         "capped), exp_food at t = 52.5 (2 records "
                                                         "capped)")),
                qPrintable(said[0]));
        else
            QVERIFY2(said[0].startsWith(
                         name + QStringLiteral(": top-coded at the 0.95 quantile (t = 1000)")),
                     qPrintable(said[0]));
    }
    void epsilonVerdictBesideEveryEpsilon_data() {
        QTest::addColumn<bool>("converged");
        QTest::newRow("converged") << true;
        QTest::newRow("not converged") << false;
    }
    void epsilonVerdictBesideEveryEpsilon() {
        QFETCH(bool, converged);
        auto copy = std::make_shared<study::RunResult>(run());
        // The K = 20 mixture's case: D_s mixed, the fit did not.
        const QString why = QStringLiteral(
            "split R-hat of the total log-likelihood is 1.682 (bulk) / 1.403 (tail), above 1.05: "
            "the chains have not settled on the same posterior, so another seed or longer chains "
            "may give another epsilon");
        for (auto& s : copy->synthesizers) {
            auto& e = s.epsilonDiagnostics;
            QVERIFY(e.diagnosed);
            e.converged = true;
            e.reasons.clear();
            if (!converged && s.name == "LW") {
                e.converged = false;
                e.reasons = {why.toStdString()};
                e.argmaxLoglik = 1.75;  // a density above 1 sets Delta
            }
        }
        const auto eps = epsilonTable(*copy);
        const int col = eps.headers.indexOf(QStringLiteral("ε converged"));
        QCOMPARE(col, eps.headers.indexOf(QStringLiteral("ε per dataset")) + 1);
        QCOMPARE(eps.rows[1][0], QStringLiteral("LW"));
        QCOMPARE(eps.rows[1][col], converged ? QStringLiteral("yes") : QStringLiteral("no ⚠"));
        QCOMPARE(eps.rows[0][col], QStringLiteral("yes"));
        const QStringList said = eps.warnings.filter(QStringLiteral("did not converge"));
        QCOMPARE(said.size(), converged ? 0 : 1);
        if (!converged) {
            QVERIFY2(said[0].contains(QStringLiteral("LW: ε did not converge: ") + why),
                     qPrintable(said[0]));
            QVERIFY(
                !eps.warnings.filter(QStringLiteral("whose log-likelihood is positive")).isEmpty());
        }
        const auto conv = convergenceTable(*copy);
        int dsRows = 0;
        for (const auto& row : conv.rows)
            if (row[1].startsWith(QStringLiteral("D_s"))) {
                ++dsRows;
                if (row[0] == QStringLiteral("LW"))
                    QCOMPARE(row.back(), converged ? QStringLiteral("ε converged")
                                                   : QStringLiteral("ε not converged"));
            }
        QCOMPARE(dsRows, static_cast<int>(copy->synthesizers.size()));

        ResultsPage page;
        page.resize(1400, 950);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.showRun(copy, QStringLiteral("epsilon verdict"));
        const QString summary = page.summaryLabel()->text();
        if (converged) {
            QVERIFY2(summary.contains(QStringLiteral("per dataset (converged)")),
                     qPrintable(summary));
            QVERIFY(!summary.contains(QStringLiteral("not converged")));
        } else {
            QVERIFY2(summary.contains(QStringLiteral("(⚠ not converged: ") + why.toHtmlEscaped()),
                     qPrintable(summary));
        }
        QCoreApplication::processEvents();
        auto* scroll = qobject_cast<QScrollArea*>(page.tabs()->currentWidget());
        QVERIFY(scroll);
        QVERIFY(scroll->widget()->grab().save(
            outputDir(QStringLiteral("screenshots")) +
            (converged ? QStringLiteral("/results_epsilon_converged.png")
                       : QStringLiteral("/results_epsilon_not_converged.png"))));
    }

    void resultsPageShowsEveryTabAndScreenshots() {
        ResultsPage page;
        page.resize(1400, 950);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QElapsedTimer t;
        t.start();
        page.showRun(run_, QStringLiteral("Quick poisson run"));
        qInfo("results page built in %lld ms", static_cast<long long>(t.elapsed()));
        QCOMPARE(page.currentSynthesizer(), QStringLiteral("LW"));  // first weighted one

        // The summary shows epsilon of every synthesizer, per dataset and for all m.
        const QString summary = page.summaryLabel()->text();
        for (const auto& s : run().synthesizers) {
            QVERIFY2(
                summary.contains(
                    QStringLiteral("ε = %1 per dataset").arg(formatCell(s.epsilon.perDataset))),
                qPrintable(summary));
            QVERIFY(summary.contains(formatCell(s.epsilon.total)));
        }
        QStringList tabs;
        for (int i = 0; i < page.tabs()->count(); ++i) tabs << page.tabs()->tabText(i);
        QCOMPARE(tabs, (QStringList{"Summary", "Risk", "Weights", "Utility", "Synthetic data",
                                    "Diagnostics", "Tables"}));
        QCOMPARE(page.chartCards(QStringLiteral("Summary")).size(), 2);
        QCOMPARE(page.tableCards(QStringLiteral("Summary")).size(), 2);
        QCOMPARE(page.chartCards(QStringLiteral("Risk")).size(), 3);
        QCOMPARE(page.chartCards(QStringLiteral("Weights")).size(), 3);
        QCOMPARE(page.chartCards(QStringLiteral("Synthetic data")).size(), 3);
        QCOMPARE(page.chartCards(QStringLiteral("Diagnostics")).size(), 2);  // 2 parameters
        QCOMPARE(page.tableCards(QStringLiteral("Tables")).size(), 7);
        // Utility: a violin chart per statistic; utility, distribution, regression and
        // posterior tables for the chosen (weighted) synthesizer.
        QCOMPARE(page.chartCards(QStringLiteral("Utility")).size(), 4);
        QCOMPARE(page.tableCards(QStringLiteral("Utility")).size(), 4);
        QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("CI overlap of the mean")));
        for (const QString& tab : tabs)
            for (ChartCard* c : page.chartCards(tab))
                QVERIFY2(c->hasChart(), qPrintable(tab + QStringLiteral(": ") + c->errorText()));
        // The top-10 table on the Risk tab is confidential and has 10 rows.
        auto* top = page.tableCards(QStringLiteral("Risk")).front();
        QVERIFY(top->data().confidential);
        QCOMPARE(top->table()->rowCount(), 10);

        // Another synthesizer: the per-synthesizer charts follow it.
        page.setCurrentSynthesizer(QStringLiteral("LW_final"));
        auto* bw = page.chartCards(QStringLiteral("Weights"))[1];
        QCOMPARE(bw->key(), QStringLiteral("scatter_bound_weight_LW_final"));
        QCOMPARE(qobject_cast<ui::charts::ScatterChart*>(bw->chart())->totalOverlayPoints(),
                 static_cast<qsizetype>(n()));
        page.setCurrentSynthesizer(QStringLiteral("Unweighted"));
        QCOMPARE(page.chartCards(QStringLiteral("Risk")).size(), 2);  // no comparison with itself
        page.setCurrentSynthesizer(QStringLiteral("CW"));
        // The scatter follows the chosen synthetic dataset.
        page.tabs()->setCurrentIndex(4);
        auto* spin = page.findChild<QSpinBox*>(QStringLiteral("datasetChooser"));
        QVERIFY(spin);
        QCOMPARE(spin->maximum(), 3);
        spin->setValue(3);
        QTRY_COMPARE(page.chartCards(QStringLiteral("Synthetic data")).size(), 3);
        QTRY_VERIFY(page.chartCards(QStringLiteral("Synthetic data"))[2]->title().contains(
            QStringLiteral("(dataset 3)")));
        const auto* cw = run().find("CW");
        auto* sc = qobject_cast<ui::charts::ScatterChart*>(
            page.chartCards(QStringLiteral("Synthetic data"))[2]->chart());
        QCOMPARE(sc->pointSeries()->at(0).y(), cw->synthetic[2][0]);
        page.tabs()->setCurrentIndex(0);

        const QString dir = outputDir(QStringLiteral("screenshots"));
        for (int i = 0; i < page.tabs()->count(); ++i) {
            page.tabs()->setCurrentIndex(i);
            QCoreApplication::processEvents();
            auto* scroll = qobject_cast<QScrollArea*>(page.tabs()->currentWidget());
            QVERIFY(scroll);
            QString name = page.tabs()->tabText(i).toLower();
            name.replace(QLatin1Char(' '), QLatin1Char('_'));
            const QString file = dir + QStringLiteral("/results_%1.png").arg(name);
            QVERIFY(page.grab().save(file));
            // The whole tab, also what is scrolled out of view.
            QVERIFY(scroll->widget()->grab().save(
                dir + QStringLiteral("/results_%1_full.png").arg(name)));
        }
    }

    void compareViewShowsTwoRunsSideBySide() {
        auto other = study::runStudy(quickConfig(0.5), data::makeExample(data::ExampleId::Poisson));
        QVERIFY2(other.hasValue(), other.hasValue() ? "" : other.message().c_str());
        auto b = std::make_shared<const study::RunResult>(std::move(*other));
        CompareView view;
        view.resize(1400, 1000);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.addRun(QStringLiteral("c = 0.7"), run_);
        view.addRun(QStringLiteral("c = 0.5"), b);
        QCOMPARE(view.runCount(), 2);
        QCOMPARE(view.rightChooser()->currentIndex(), 1);
        const auto& t = view.comparisonCard()->data();
        QCOMPARE(t.rows.size(), run().synthesizers.size());
        for (const auto& row : t.rows) QCOMPARE(row.size(), t.headers.size());
        QCOMPARE(t.headers[17], QStringLiteral("CI overlap of the mean\nc = 0.7"));
        QCOMPARE(t.rows[1][17], formatCell(run().find("LW")->utility->statistics[0].ciOverlap));
        // The verdict on epsilon beside epsilon, for both runs.
        QCOMPARE(t.headers[3], QStringLiteral("ε converged\nc = 0.7"));
        QCOMPARE(t.rows[1][3], epsilonConvergedCell(run().find("LW")->epsilonDiagnostics));
        QCOMPARE(t.rows[1][4], epsilonConvergedCell(b->find("LW")->epsilonDiagnostics));
        QVERIFY2(t.warnings.isEmpty(), qPrintable(t.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(t.rows[1][0], QStringLiteral("LW"));
        QCOMPARE(t.rows[1][1], formatCell(run().find("LW")->epsilon.perDataset));
        QCOMPARE(t.rows[1][2], formatCell(b->find("LW")->epsilon.perDataset));
        // A smaller c lowers LW's weights and its bound.
        QVERIFY(b->find("LW")->epsilon.perDataset < run().find("LW")->epsilon.perDataset);
        for (int side = 0; side < 2; ++side) {
            QCOMPARE(view.cards(side).size(), 4);
            for (auto* c : view.cards(side)) QVERIFY(c->hasChart());
        }
        // The same value range on both sides (a violin of values spanning orders of magnitude
        // has a log axis).
        auto range = [](QAbstractAxis* a) -> std::pair<double, double> {
            if (auto* v = qobject_cast<QValueAxis*>(a)) return {v->min(), v->max()};
            if (auto* g = qobject_cast<QLogValueAxis*>(a)) return {g->min(), g->max()};
            return {std::nan(""), std::nan("")};
        };
        for (int k = 0; k < 4; ++k) {
            auto* l = view.cards(0)[k]->chart()->axes(Qt::Vertical)[0];
            auto* r = view.cards(1)[k]->chart()->axes(Qt::Vertical)[0];
            QCOMPARE(l->metaObject()->className(), r->metaObject()->className());
            const auto [lmin, lmax] = range(l);
            const auto [rmin, rmax] = range(r);
            QVERIFY(std::isfinite(lmin) && std::isfinite(lmax));
            QCOMPARE(lmin, rmin);
            QCOMPARE(lmax, rmax);
        }
        QCoreApplication::processEvents();
        QVERIFY(view.grab().save(outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/results_compare.png")));
        // Every value axis title is drawn whole inside its card's chart, also the bound
        // violins' long "Record bound Δ(α,xᵢ) (log scale)" (Qt Charts alone cut it short).
        for (int side = 0; side < 2; ++side)
            for (auto* c : view.cards(side)) {
                auto* axis = c->chart()->axes(Qt::Vertical).front();
                QCOMPARE(drawnVerticalTitle(c->chart()), ui::charts::PlotChart::axisTitle(axis));
            }
        // A run list asking to compare two runs: known runs are found, new ones added.
        CompareView fresh;
        fresh.compare(QStringLiteral("c = 0.5"), b, QStringLiteral("c = 0.7"), run_);
        QCOMPARE(fresh.runCount(), 2);
        QCOMPARE(fresh.leftChooser()->currentText(), QStringLiteral("c = 0.5"));
        QCOMPARE(fresh.comparisonCard()->data().rows[1][1],
                 formatCell(b->find("LW")->epsilon.perDataset));
        fresh.compare(QStringLiteral("c = 0.7"), run_, QStringLiteral("c = 0.5"), b);
        QCOMPARE(fresh.runCount(), 2);
        QCOMPARE(fresh.leftChooser()->currentIndex(), 1);
        QCOMPARE(fresh.indexOf(b.get()), 0);
        view.setPair(1, 1);  // a run against itself is allowed
        QCOMPARE(view.comparisonCard()->data().rows[1][1],
                 view.comparisonCard()->data().rows[1][2]);
    }

    // With m = 3 against m = 20, the lower epsilon per dataset can be the weaker release:
    // the table shows m and the total with how Delta was estimated, and says so.
    void comparisonShowsTheTotalAndWarnsWhenMDiffers() {
        study::RunResult twenty = run();
        twenty.config.synthesis.m = 20;
        twenty.config.risk.L = 5;
        for (auto& s : twenty.synthesizers) {
            s.epsilon.m = 20;
            s.epsilon.total = 20 * s.epsilon.perDataset;
        }
        const auto t =
            comparisonTable(run(), QStringLiteral("m = 3"), twenty, QStringLiteral("m = 20"));
        for (const auto& row : t.rows) QCOMPARE(row.size(), t.headers.size());
        const auto column = [&t](const QString& header) {
            const auto i = t.headers.indexOf(header);
            if (i < 0) qWarning("no column '%s'", qPrintable(header));
            return i;
        };
        const auto lw = run().find("LW");
        const auto total3 = column(QStringLiteral("ε for all m datasets\nm = 3"));
        const auto total20 = column(QStringLiteral("ε for all m datasets\nm = 20"));
        const auto m20 = column(QStringLiteral("m\nm = 20"));
        const auto delta = column(QStringLiteral("Δ estimated as\nm = 3"));
        QVERIFY(total3 > 0 && total20 > 0 && m20 > 0 && delta > 0);
        QCOMPARE(t.rows[1][0], QStringLiteral("LW"));
        QCOMPARE(t.rows[1][total3], formatCell(lw->epsilon.total));
        QCOMPARE(t.rows[1][total20], formatCell(20 * lw->epsilon.perDataset));
        QCOMPARE(t.rows[1][m20], QStringLiteral("20"));
        QCOMPARE(t.rows[1][delta], QStringLiteral("max over draws"));
        const QString warnings = t.warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("m = 3 and 20")) &&
                     warnings.contains(QStringLiteral("ε for all m datasets")),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("L = 3")) &&
                     warnings.contains(QStringLiteral("L = 5")),
                 qPrintable(warnings));

        CompareView view;
        view.resize(1400, 1000);
        view.compare(QStringLiteral("m = 3"), run_, QStringLiteral("m = 20"),
                     std::make_shared<const study::RunResult>(twenty));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();
        QVERIFY(view.grab().save(outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/results_compare_m.png")));
    }

    // Charts show confidential values record by record: never into a release bundle.
    void chartsAreNotExportedIntoAReleaseBundle() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        {
            QFile manifest(tmp.filePath(QStringLiteral("manifest.json")));
            QVERIFY(manifest.open(QIODevice::WriteOnly));
            manifest.write(R"({"format": "ppsynth-release"})");
        }
        const QString inside = tmp.filePath(QStringLiteral("charts"));
        ResultsPage page;
        page.showRun(run_, QStringLiteral("bundle"));
        page.exportAllCharts(inside);
        QVERIFY(!page.exportJob() || !page.exportJob()->isRunning());
        QVERIFY2(page.exportStatus()->text().contains(QStringLiteral("release bundle")),
                 qPrintable(page.exportStatus()->text()));
        QVERIFY(!QFileInfo::exists(inside));
        ChartCard card(boundVsWeightScatter(run(), "LW"));
        const QString svg = tmp.filePath(QStringLiteral("data/scatter.svg"));
        QVERIFY(card.exportTo(svg).contains(QStringLiteral("release bundle")));
        QVERIFY(!QFileInfo::exists(svg));
        page.resize(1200, 300);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.grab().save(outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/results_export_refused.png")));
        // A manifest.json some other program wrote does not make a bundle.
        QTemporaryDir other;
        QFile foreign(other.filePath(QStringLiteral("manifest.json")));
        QVERIFY(foreign.open(QIODevice::WriteOnly));
        foreign.write(R"({"name": "a web app"})");
        foreign.close();
        QVERIFY(ui::releaseBundleAround(other.filePath(QStringLiteral("x.svg"))).isEmpty());
        QCOMPARE(ui::releaseBundleAround(svg), QFileInfo(tmp.path()).absoluteFilePath());
    }

    void exportAllChartsFromThePageOnePerEventLoopPass() {
        ResultsPage page;
        page.showRun(run_, QStringLiteral("export"));
        const QString dir = outputDir(QStringLiteral("results_export_all"));
        QDir(dir).removeRecursively();
        page.exportAllCharts(dir);
        QVERIFY(page.exportJob());
        QSignalSpy progress(page.exportJob(), &ChartExportJob::progress);
        QSignalSpy finished(page.exportJob(), &ChartExportJob::finished);
        QVERIFY(page.exportJob()->isRunning());  // nothing is built before the event loop runs
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.front()[0].toBool(), true);
        QCOMPARE(progress.size(), 46);  // one pass per chart
        QCOMPARE(page.exportJob()->result().files.size(), std::size_t{46});
        QCOMPARE(QDir(dir).entryList({QStringLiteral("*.png")}).size(), 46);
        QCOMPARE(QDir(dir).entryList({QStringLiteral("*.svg")}).size(), 46);
        QVERIFY(page.exportStatus()->text().contains(QStringLiteral("46 charts written")));

        // Cancelled after the first chart: stops, says so, keeps the finished files.
        const QString dir2 = outputDir(QStringLiteral("results_export_cancel"));
        QDir(dir2).removeRecursively();
        ChartExportJob job(run_, dir2);
        connect(&job, &ChartExportJob::progress, &job, [&job] { job.cancel(); });
        QSignalSpy done(&job, &ChartExportJob::finished);
        job.start();
        QVERIFY(done.wait(10000));
        QCOMPARE(done.front()[0].toBool(), false);
        QVERIFY(done.front()[1].toString().startsWith(QStringLiteral("cancelled after 1 of 46")));
        QCOMPARE(QDir(dir2).entryList({QStringLiteral("*.png")}).size(), 1);
    }

    void conjugateRunAndRunWithoutUnweightedBuildTheirCharts() {
        // Exact draws (Poisson means): one parameter, its trace per chain; no unweighted
        // synthesizer: the risk comparison is skipped with the reason, the rest is built.
        const auto c = conjugateConfig(R"([{"name": "LW", "scheme": "lipschitz", "c": 0.6}])");
        auto r = study::runStudy(c, data::makeExample(data::ExampleId::Poisson));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        const auto built = buildRunCharts(*r);
        QCOMPARE(built.skipped.size(), 2);
        QVERIFY(built.skipped[0].contains(QStringLiteral("utility block is off")));
        QVERIFY(built.skipped[1].contains(QStringLiteral("no unweighted synthesizer")));
        QVERIFY(!utilityTable(*r).hasValue());
        ResultsPage page;
        page.showRun(std::move(*r));
        const auto cards = page.tableCards(QStringLiteral("Utility"));
        QCOMPARE(cards.size(), 1);  // says why there is nothing to show
        QCOMPARE(page.chartCards(QStringLiteral("Utility")).size(), 0);
        r = study::runStudy(c, data::makeExample(data::ExampleId::Poisson));
        // 3 violins + bound/weight, synthetic/confidential, weight/y, density, tail, trace.
        QCOMPARE(built.charts.size(), std::size_t{9});
        const auto& trace = built.charts.back();
        QCOMPARE(trace.key, QStringLiteral("trace_LW_") + keyPart(r->parameterNames[0]));
        QCOMPARE(trace.chart->series().size(), 3);
        QCOMPARE(qobject_cast<QLineSeries*>(trace.chart->series()[2])->count(), 200);
    }

    void namesSharingAKeyPartGetFilesOfTheirOwn() {
        // "LW 1" and "LW_1" are both valid names and map to one key part: each synthesizer's
        // charts must still be files of their own (and figures of their own in the report).
        const auto c = conjugateConfig(R"([{"name": "LW 1", "scheme": "lipschitz", "c": 0.6},
                                            {"name": "LW_1", "scheme": "lipschitz", "c": 0.9}])");
        auto r = study::runStudy(c, data::makeExample(data::ExampleId::Poisson));
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        const QString dir = outputDir(QStringLiteral("results_charts_shared_key"));
        QDir(dir).removeRecursively();
        auto files = exportRunCharts(*r, dir, {}, QSize(300, 200));
        QVERIFY2(files.hasValue(), files.hasValue() ? "" : files.message().c_str());
        std::set<QString> keys;
        for (const auto& f : files->files) QVERIFY2(keys.insert(f.key).second, qPrintable(f.key));
        // Every chart is a file: none overwrote another.
        QCOMPARE(QDir(dir).entryList({QStringLiteral("*.png")}).size(),
                 qsizetype(files->files.size()));
        QVERIFY(keys.count(QStringLiteral("density_LW_1")));
        QVERIFY(keys.count(QStringLiteral("density_LW_1_2")));
        // The same keys however the charts are built (page, export, report).
        const auto built = buildRunCharts(*r);
        QCOMPARE(built.charts.size(), files->files.size());
        for (std::size_t i = 0; i < built.charts.size(); ++i)
            QCOMPARE(built.charts[i].key, files->files[i].key);
    }

    void studyChartsFromARealSimulationAndSweep() {
        // The local-to-global simulation: the bundled quick configuration (Poisson, exact
        // draws, n = 50 and 200, 12 replicates).
        auto simConfig =
            study::loadSimulateConfig(PPSYNTH_EXAMPLES_DIR "/simulate_poisson_quick.json");
        QVERIFY2(simConfig.hasValue(), simConfig.hasValue() ? "" : simConfig.message().c_str());
        const QString simDir = outputDir(QStringLiteral("results_simulation"));
        QDir(simDir).removeRecursively();
        auto sim = study::runSimulation(*simConfig, simDir.toStdString());
        QVERIFY2(sim.hasValue(), sim.hasValue() ? "" : sim.message().c_str());
        auto contraction = contractionViolins(*sim, "LW");
        QVERIFY2(contraction.hasValue(),
                 contraction.hasValue() ? "" : contraction.message().c_str());
        auto* vc = as<ui::charts::ViolinChart>(*contraction);
        QCOMPARE(vc->violins().size(), std::size_t{2});
        QCOMPARE(vc->violins()[0].name, QStringLiteral("n = 50"));
        double largest = 0;
        for (const auto& r : sim->replicates)
            if (r.n == 200 && r.mechanism == "LW") largest = std::max(largest, 2 * r.delta);
        QCOMPARE(vc->violins()[1].summary.n, std::size_t{12});
        QCOMPARE(vc->violins()[1].summary.max, largest);
        for (const auto& d : sim->distributions)
            if (d.n == 200 && d.mechanism == "LW")
                QCOMPARE(*vc->violins()[1].mark, d.recommended.epsilonHigh);
        auto dh = deltaHatChart(*sim, "LW-M");
        QVERIFY(dh.hasValue());
        QCOMPARE(dh->chart->series().size(), 2);
        QCOMPARE(qobject_cast<QLineSeries*>(dh->chart->series()[0])->count(),
                 static_cast<qsizetype>(sim->config.epsilons().size()));
        QVERIFY(!contractionViolins(*sim, "EM").hasValue());

        // The risk-utility sweep on the poisson example (exact draws, three points).
        auto sweepConfig = study::parseSweepConfig(R"({
          "data": {"path": "poisson.csv", "target": "y"},
          "model": {"family": "poisson-means"},
          "mcmc": {"chains": 2, "warmup": 0, "draws": 300, "seed": 3},
          "synthesis": {"m": 3}, "risk": {"L": 3}, "utility": {"enabled": false},
          "sweep": {"points": [{"c": 0.7, "g": 0.0}, {"c": 0.5, "g": 0.0},
                               {"c": 0.5, "g": -0.3}]}})",
                                                   PPSYNTH_EXAMPLES_DIR);
        QVERIFY2(sweepConfig.hasValue(),
                 sweepConfig.hasValue() ? "" : sweepConfig.message().c_str());
        auto input = study::readRunData(sweepConfig->run);
        QVERIFY2(input.hasValue(), input.hasValue() ? "" : input.message().c_str());
        const QString sweepDir = outputDir(QStringLiteral("results_sweep"));
        QDir(sweepDir).removeRecursively();
        auto sweep = study::runSweep(*sweepConfig, *input, sweepDir.toStdString());
        QVERIFY2(sweep.hasValue(), sweep.hasValue() ? "" : sweep.message().c_str());
        auto curve = riskUtilityCurve(*sweep, SweepMeasure::MeanWeight);
        QVERIFY2(curve.hasValue(), curve.hasValue() ? "" : curve.message().c_str());
        auto* cc = as<ui::charts::CurveChart>(*curve);
        QVERIFY(cc->curves().size() >= 2);
        QCOMPARE(cc->curves()[0].name, QStringLiteral("LW"));
        QCOMPARE(cc->curves()[1].name, QStringLiteral("EM"));
        QCOMPARE(cc->curves()[0].points.size(), std::size_t{3});
        for (std::size_t k = 0; k < 3; ++k) {
            const auto* row = sweepRowAt(*sweep, 0, static_cast<int>(k));
            QVERIFY(row && row->mechanism == "LW");
            QCOMPARE(cc->curves()[0].points[k].x, row->epsilon);
            QCOMPARE(cc->curves()[0].points[k].y, row->weights.mean);
            if (k > 0) QVERIFY(cc->curves()[0].points[k].x >= cc->curves()[0].points[k - 1].x);
        }
        QVERIFY(!sweepRowAt(*sweep, 0, 3));

        // The studies page: both studies, a click on a point names its setting.
        StudiesPage page;
        page.resize(1300, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.showSimulation(*sim);
        QCOMPARE(page.simulationCards().size(), 6);  // 3 mechanisms x (contraction, delta)
        for (auto* c : page.simulationCards()) QVERIFY2(c->hasChart(), qPrintable(c->errorText()));
        page.showSweep(*sweep);
        QVERIFY(page.curveCard() && page.curveCard()->hasChart());
        QSignalSpy chosen(&page, &StudiesPage::sweepPointChosen);
        page.choosePoint(1, 0);
        QCOMPARE(chosen.size(), 1);
        const auto row = chosen.front()[0].value<study::SweepRow>();
        QCOMPARE(row.mechanism, std::string("EM"));
        page.measureChooser()->setCurrentIndex(1);  // mean risk
        auto* riskCurve = qobject_cast<ui::charts::CurveChart*>(page.curveCard()->chart());
        QCOMPARE(riskCurve->curves()[0].points[0].y, sweepRowAt(*sweep, 0, 0)->ir.mean);
        const QString shots = outputDir(QStringLiteral("screenshots"));
        page.tabs()->setCurrentIndex(0);
        QCoreApplication::processEvents();
        QVERIFY(page.grab().save(shots + QStringLiteral("/results_studies_simulation.png")));
        page.tabs()->setCurrentIndex(1);
        page.measureChooser()->setCurrentIndex(0);
        QCoreApplication::processEvents();
        QVERIFY(page.grab().save(shots + QStringLiteral("/results_studies_sweep.png")));
    }

    void aReopenedRunFolderShowsItsCharts() {
        // A run saved without its draws and reopened (the report and a reopened project
        // start from the folder): every chart but the trace plots, which say why.
        const QString dir = outputDir(QStringLiteral("results_run_folder"));
        QDir(dir).removeRecursively();
        const auto table = data::makeExample(data::ExampleId::Poisson);
        QVERIFY(study::writeRunOutput(run(), table, dir.toStdString()).isOk());
        study::LoadOptions lo;
        lo.dataPath = PPSYNTH_EXAMPLES_DIR "/poisson.csv";
        auto loaded = study::loadRunFolder(dir.toStdString(), lo);
        QVERIFY2(loaded.hasValue(), loaded.hasValue() ? "" : loaded.message().c_str());
        const auto built = buildRunCharts(loaded->run);
        QCOMPARE(built.charts.size(), std::size_t{3 + 4 + 5 * 5 + 4});
        QCOMPARE(built.skipped.size(), 0);  // no trace recipes without draws
        for (const auto& c : built.charts) QVERIFY2(!c.key.startsWith("trace_"), qPrintable(c.key));
        auto trace = traceChart(loaded->run, "LW", 0);
        QVERIFY(!trace.hasValue());
        ResultsPage page;
        page.showRun(std::move(loaded->run));
        QCOMPARE(page.chartCards(QStringLiteral("Diagnostics")).size(), 0);
        QCOMPARE(page.tableCards(QStringLiteral("Diagnostics")).size(), 3);  // + why no traces
        QCOMPARE(page.chartCards(QStringLiteral("Weights")).size(), 3);
        for (auto* c : page.chartCards(QStringLiteral("Weights"))) QVERIFY(c->hasChart());
    }

    void everyChartOfTheRunExportsToPngAndSvg() {
        // Kept in the test output for a person to look at.
        const QString dir = outputDir(QStringLiteral("results_charts"));
        QDir(dir).removeRecursively();
        QElapsedTimer t;
        t.start();
        auto files = exportRunCharts(run(), dir, {}, QSize(600, 400));
        QVERIFY2(files.hasValue(), files.hasValue() ? "" : files.message().c_str());
        qInfo("exported %zu charts (PNG + SVG) in %.2f s", files->files.size(),
              t.elapsed() / 1000.0);
        // 3 violins; per synthesizer bound/weight, synthetic/confidential, weight/y, density,
        // tail density and two traces; risk comparison for the 4 weighted ones.
        // Utility: one violin chart per statistic (mean, median, two quantiles).
        QCOMPARE(files->files.size(), std::size_t{3 + 4 + 5 * 7 + 4});
        QVERIFY2(files->skipped.isEmpty(), qPrintable(files->skipped.join(QLatin1Char('\n'))));
        std::set<QString> keys;
        for (const auto& f : files->files) {
            QVERIFY2(keys.insert(f.key).second, qPrintable(f.key));
            QImage png(f.png);
            QVERIFY2(!png.isNull(), qPrintable(f.png));
            QCOMPARE(png.size(), QSize(600, 400));
            QSvgRenderer svg(f.svg);
            QVERIFY2(svg.isValid(), qPrintable(f.svg));
            QVERIFY(!f.caption.isEmpty());
        }
        QVERIFY(keys.count(QStringLiteral("scatter_bound_weight_LW_final")));
        QVERIFY(keys.count(QStringLiteral("trace_EM_") + keyPart(run().parameterNames[0])));
        // PNG bytes for documents that embed images.
        auto lip = lipschitzViolins(run());
        auto png = renderPng(*lip, QSize(500, 300));
        QVERIFY(png.hasValue());
        QImage fromBytes = QImage::fromData(*png, "PNG");
        QCOMPARE(fromBytes.size(), QSize(500, 300));
        QVERIFY(!renderPng(*lip, QSize()).hasValue());
        // An unwritable folder is an error naming it, not a crash.
        auto bad = exportRunCharts(run(), QStringLiteral("/proc/ppsynth-no"), {});
        QVERIFY(!bad.hasValue());
    }
};

QTEST_MAIN(TstResults)
#include "tst_results.moc"
