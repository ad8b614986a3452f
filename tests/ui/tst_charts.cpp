// Chart adapters offscreen: series and point counts of violins, thinning of 100,000 scatter
// points through one replace(), full detail when zoomed in, PNG/SVG export, hover texts,
// clicks on the risk-utility curve, the context menu's export (never into a release bundle).
// Screenshots go to $PPSYNTH_TEST_OUTPUT/screenshots.
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QContextMenuEvent>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QValueAxis>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <utility>

#include "../common/near.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/kde.hpp"
#include "test_output.hpp"
#include "ui/bundle_guard.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/charts/chart_style.hpp"
#include "ui/charts/chart_view.hpp"
#include "ui/charts/curve_chart.hpp"
#include "ui/charts/density_chart.hpp"
#include "ui/charts/scatter_chart.hpp"
#include "ui/charts/violin_chart.hpp"
#include "ui/setup/weight_preview_panel.hpp"

using namespace ppsynth;
using namespace ppsynth::ui::charts;

namespace {

std::vector<double> normals(std::size_t n, std::uint64_t stream, double mu, double sigma) {
    Rng rng = makeRng(20240601, stream, Purpose::Test);
    boost::random::normal_distribution<double> d(mu, sigma);
    std::vector<double> v(n);
    for (double& x : v) x = d(rng);
    return v;
}

QString outputDir() {
    return testing::outputDir(QStringLiteral("screenshots"));
}

// View-port pixel of a data point of `series` in a shown view.
QPoint viewPoint(const ChartView& view, QChart* chart, const QPointF& value,
                 QAbstractSeries* series) {
    return view.mapFromScene(chart->mapToScene(chart->mapToPosition(value, series)));
}

// 100,000 records: bound against weight, the shape of the paper's Figure 3.
QList<QPointF> boundVsWeight(qsizetype n) {
    Rng rng = makeRng(7, 0, Purpose::Test);
    boost::random::uniform_real_distribution<double> u(0.0, 1.0);
    boost::random::normal_distribution<double> z(0.0, 0.15);
    QList<QPointF> pts;
    pts.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        const double w = u(rng);
        pts.append(QPointF(w, 0.4 + 2.2 * w * w + z(rng)));
    }
    return pts;
}

// The tick labels Qt Charts drew for `axis` of a shown chart (left or bottom), in the order
// of their values: the visible text items beside the plot area other than the titles.
QStringList drawnLabels(QChart* chart, QValueAxis* axis) {
    const bool vertical = axis->orientation() == Qt::Vertical;
    const QRectF plot = chart->plotArea();
    std::vector<std::pair<double, QString>> found;
    for (QGraphicsItem* item : chart->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible()) continue;
        const QString t = text->toPlainText();
        if (t.isEmpty() || t == axis->titleText() || t == chart->title()) continue;
        const QRectF r = chart->mapFromScene(text->sceneBoundingRect()).boundingRect();
        if (vertical && r.right() <= plot.left() + 1 && r.center().y() > plot.top() - r.height() &&
            r.center().y() < plot.bottom() + r.height())
            found.emplace_back(-r.center().y(), t);
        if (!vertical && r.top() >= plot.bottom() - 1 && r.center().x() > plot.left() - r.width() &&
            r.center().x() < plot.right() + r.width())
            found.emplace_back(r.center().x(), t);
    }
    std::sort(found.begin(), found.end());
    QStringList out;
    for (const auto& f : found) out << f.second;
    return out;
}

// The vertical axis title Qt Charts drew for `chart` (a text item turned upright), its lines
// joined by spaces; null when there is none.
const QGraphicsTextItem* drawnVerticalTitle(const QChart* chart) {
    for (QGraphicsItem* item : chart->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (text && text->isVisible() && text->rotation() == 270 && chart->isAncestorOf(text))
            return text;
    }
    return nullptr;
}

QString oneLine(const QGraphicsTextItem* text) {
    QString t = text->toPlainText();
    for (const QChar c :
         {QChar(QChar::LineSeparator), QChar(QChar::ParagraphSeparator), QChar(u'\n')})
        t.replace(c, QLatin1Char(' '));
    return t;
}

std::vector<Violin> threeViolins() {
    std::vector<Violin> v;
    const char* names[] = {"Unweighted", "LW", "EM"};
    const double centres[] = {3.0, 1.6, 1.2};
    for (int i = 0; i < 3; ++i) {
        auto data = normals(4000, static_cast<std::uint64_t>(i), centres[i], 0.3 + 0.1 * i);
        auto s = utility::violinSummary(data);
        v.push_back({QString::fromLatin1(names[i]), std::move(*s), 2.0, QStringLiteral("Δ")});
    }
    return v;
}

}  // namespace

class TstCharts : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QApplication::setFont(chartFont(9)); }

    void violinSeriesAndPoints() {
        // The view's scene owns the chart.
        ViolinChart& chart = *new ViolinChart;
        chart.setValueTitle(QStringLiteral("Lipschitz bound"));
        auto violins = threeViolins();
        violins[2].mark.reset();  // one violin without a mark
        chart.setViolins(violins);

        // 3 areas + 3 quartile bars + 2 marks + 1 median scatter.
        const auto all = chart.series();
        QCOMPARE(all.size(), 9);
        int areas = 0, lines = 0, scatters = 0;
        for (QAbstractSeries* s : all) {
            if (auto* a = qobject_cast<QAreaSeries*>(s)) {
                // Outline trimmed to [min, max]: the grid points strictly inside plus both ends.
                const auto& sum = violins[static_cast<std::size_t>(areas)].summary;
                const auto inside = std::count_if(sum.grid.begin(), sum.grid.end(), [&](double g) {
                    return g > sum.min && g < sum.max;
                });
                QVERIFY(inside > 300);  // the grid spans [min - 3h, max + 3h] with 512 points
                QCOMPARE(a->upperSeries()->count(), inside + 2);
                QCOMPARE(a->lowerSeries()->count(), inside + 2);
                QCOMPARE(a->upperSeries()->at(0).y(), sum.min);
                QCOMPARE(a->upperSeries()->points().back().y(), sum.max);
                ++areas;
                // Mirrored: upper and lower are symmetric about the category centre.
                const QPointF u = a->upperSeries()->at(200), l = a->lowerSeries()->at(200);
                QCOMPARE(u.y(), l.y());
                QVERIFY_NEAR((u.x() + l.x()) / 2, std::round(u.x()), 1e-12);
                QVERIFY(u.x() - l.x() <= 0.8 + 1e-12);
            } else if (auto* sc = qobject_cast<QScatterSeries*>(s)) {
                ++scatters;
                QCOMPARE(sc->count(), 3);
                for (int i = 0; i < 3; ++i) {
                    QCOMPARE(sc->at(i),
                             QPointF(i, violins[static_cast<std::size_t>(i)].summary.median));
                }
            } else if (auto* l = qobject_cast<QLineSeries*>(s)) {
                ++lines;
                QCOMPARE(l->count(), 2);
            }
        }
        QCOMPARE(areas, 3);
        QCOMPARE(lines, 5);
        QCOMPARE(scatters, 1);
        auto* axis = qobject_cast<QCategoryAxis*>(chart.axes(Qt::Horizontal).front());
        QVERIFY(axis);
        QCOMPARE(axis->categoriesLabels(), (QStringList{"Unweighted", "LW", "EM"}));

        ChartView view(&chart);
        view.resize(800, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPoint at = viewPoint(view, &chart, QPointF(1, violins[1].summary.median), all[0]);
        const QString text = view.hoverText(at);
        QVERIFY2(text.startsWith(QStringLiteral("LW (n = 4000)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Δ = 2")), qPrintable(text));
        view.setParent(nullptr);
        QVERIFY(view.grab().save(outputDir() + QStringLiteral("/chart_violin.png")));
        chart.setViolins(threeViolins());  // replacing keeps no stale series
        QCOMPARE(chart.series().size(), 10);
    }

    // Every value axis labels its ticks so that they read as the ticks: no two alike (a 0..1
    // range once read "0 0 0 1 1 1" under a "%.0f" format), as many decimals as the step
    // needs, no exponents for counts in the thousands, and whole numbers only on count axes.
    void axisLabelsReadAsTheirTicks_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<bool>("counts");
        QTest::addColumn<QStringList>("labels");
        QTest::newRow("unit interval")
            << 0.0 << 1.0 << false << QStringList{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"};
        QTest::newRow("a few records") << 0.0 << 2.16 << true << QStringList{"0", "1", "2"};
        QTest::newRow("thousands of records")
            << 0.0 << 64800.0 << true
            << QStringList{"0", "10000", "20000", "30000", "40000", "50000", "60000"};
        QTest::newRow("narrow range at large values")
            << 100000.0 << 100010.0 << false
            << QStringList{"100000", "100002", "100004", "100006", "100008", "100010"};
        QTest::newRow("small densities")
            << 0.0 << 0.00042 << false
            << QStringList{"0.0000", "0.0001", "0.0002", "0.0003", "0.0004"};
        QTest::newRow("negative to positive")
            << -2.5 << 2.5 << false << QStringList{"-2", "-1", "0", "1", "2"};
    }
    void axisLabelsReadAsTheirTicks() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(bool, counts);
        QFETCH(QStringList, labels);
        auto* chart = new QChart;
        applyChartStyle(chart);
        auto* series = new QLineSeries;
        series->append(0, lo);
        series->append(1, hi);
        chart->addSeries(series);
        auto* x = makeValueAxis(QStringLiteral("x"));
        auto* y = counts ? makeCountAxis(QStringLiteral("y")) : makeValueAxis(QStringLiteral("y"));
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        setValueRange(x, 0, 1);
        setValueRange(y, lo, hi);
        ChartView view(chart);
        view.resize(420, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();
        QCOMPARE(drawnLabels(chart, y), labels);
        // Zooming sets the format again for the new range.
        y->setRange(lo, lo + (hi - lo) / 100);
        QCoreApplication::processEvents();
        QStringList zoomed = drawnLabels(chart, y);
        QVERIFY2(!zoomed.isEmpty() && zoomed.removeDuplicates() == 0,
                 qPrintable(zoomed.join(QLatin1Char(' '))));
    }

    // The Synthesizers page's weight preview before any run: an empty chart with no record
    // counts on its axis (it read "1 1 1 0 0 0"); with a few records, whole numbers only.
    void weightPreviewAxes() {
        ppsynth::ui::WeightPreviewPanel panel;
        panel.resize(460, 380);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCoreApplication::processEvents();
        QVERIFY(panel.grab().save(outputDir() + QStringLiteral("/weight_preview_empty.png")));
        auto* chart = panel.chartView()->chart();
        auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QCOMPARE(drawnLabels(chart, panel.countAxis()), QStringList());
        QCOMPARE(drawnLabels(chart, x), (QStringList{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
        Eigen::VectorXd f(4);
        f << 0.5, 1.0, 2.0, 4.0;
        panel.setBounds(f, QStringLiteral("a test"));
        panel.preview(QStringLiteral("LW"), 0.7, 0.0, std::nullopt);
        QCoreApplication::processEvents();
        const QStringList counts = drawnLabels(chart, panel.countAxis());
        QVERIFY2(counts.size() >= 2 && counts.front() == QLatin1String("0"),
                 qPrintable(counts.join(QLatin1Char(' '))));
        for (qsizetype i = 0; i < counts.size(); ++i) QCOMPARE(counts[i], QString::number(i));
        QVERIFY(panel.grab().save(outputDir() + QStringLiteral("/weight_preview_few_records.png")));
        panel.clearPreview(QStringLiteral("Add an LW synthesizer."));
        QCoreApplication::processEvents();
        QCOMPARE(drawnLabels(chart, panel.countAxis()), QStringList());
    }

    void violinOfRisksInUnitInterval() {
        // Identification risks live in [0, 1]: reflected KDE, mean marked.
        std::vector<Violin> violins;
        Rng rng = makeRng(5, 0, Purpose::Test);
        boost::random::uniform_real_distribution<double> u(0.0, 1.0);
        const char* names[] = {"Unweighted", "LW", "EM"};
        for (int i = 0; i < 3; ++i) {
            std::vector<double> ir(3000);
            for (double& r : ir) r = std::pow(u(rng), 1.0 + i);  // mass moves towards 0
            utility::KdeOptions o;
            o.lower = 0.0;
            o.upper = 1.0;
            auto s = utility::violinSummary(ir, o);
            QVERIFY(s);
            QVERIFY(s->grid.front() >= 0.0 && s->grid.back() <= 1.0);
            const double mean = s->mean;
            violins.push_back({QString::fromLatin1(names[i]), std::move(*s), mean, "mean"});
        }
        ViolinChart chart;
        chart.setValueTitle(QStringLiteral("Identification risk"));
        chart.setViolins(violins);
        QCOMPARE(chart.series().size(), 10);
        const QString error =
            exportChart(&chart, outputDir() + "/chart_violin_risk.png", QSize(800, 500));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void scatterThinsAndReplaces() {
        // The view's scene owns the chart.
        ScatterChart& chart = *new ScatterChart;
        chart.setAxisTitles(QStringLiteral("Weight"), QStringLiteral("Lipschitz bound"));
        QSignalSpy replaced(chart.pointSeries(), &QXYSeries::pointsReplaced);
        QSignalSpy added(chart.pointSeries(), &QXYSeries::pointAdded);
        const auto pts = boundVsWeight(100000);
        chart.setPoints(pts, QStringLiteral("Records"));
        chart.setHorizontalLine(2.0, QStringLiteral("Δ = 2"));

        QCOMPARE(chart.series().size(), 5);  // points, overlay, highlight, y = x, horizontal line
        QCOMPARE(chart.totalPoints(), 100000);
        QCOMPARE(chart.visiblePoints(), 100000);
        QCOMPARE(replaced.count(), 1);  // one bulk replace, no per-point signals
        QCOMPARE(added.count(), 0);
        // Zoomed out: at most one point per cell of the 200 x 100 grid, plus 4 extremes.
        QVERIFY2(chart.shownPoints() <= 200 * 100 + 4,
                 qPrintable(QString::number(chart.shownPoints())));
        QVERIFY(chart.shownPoints() > 1000);
        // The extremes survive thinning.
        const auto shown = chart.pointSeries()->points();
        auto maxY = std::max_element(pts.begin(), pts.end(),
                                     [](auto& a, auto& b) { return a.y() < b.y(); });
        QVERIFY(shown.contains(*maxY));

        ChartView view(&chart);
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.grab().save(outputDir() + QStringLiteral("/chart_scatter_bound_weight.png")));

        // Zoom into a small region through the axes: every point there is shown.
        auto* x = qobject_cast<QValueAxis*>(chart.axes(Qt::Horizontal).front());
        auto* y = qobject_cast<QValueAxis*>(chart.axes(Qt::Vertical).front());
        x->setRange(0.40, 0.45);
        y->setRange(0.6, 1.0);
        qsizetype inside = 0;
        for (const QPointF& p : pts) {
            inside += (p.x() >= 0.40 && p.x() <= 0.45 && p.y() >= 0.6 && p.y() <= 1.0) ? 1 : 0;
        }
        QVERIFY(inside > 100 && inside < 20000);
        QTRY_COMPARE(chart.shownPoints(), inside);
        QCOMPARE(chart.visiblePoints(), inside);

        // Zoom through the view (wheel path) and back out: thinning returns.
        view.resetZoom();
        QTRY_VERIFY(chart.shownPoints() <= 200 * 100 + 4);
        for (int i = 0; i < 12; ++i) view.zoomAt(view.viewport()->rect().center(), 0.6);
        QTRY_COMPARE(chart.shownPoints(), chart.visiblePoints());
        QVERIFY(chart.visiblePoints() < 20000);
        view.panBy(QPoint(40, 0));
        QTRY_COMPARE(chart.shownPoints(), chart.visiblePoints());
    }

    void scatterReferenceLinesAndHighlight() {
        ScatterChart chart;
        chart.setAxisTitles(QStringLiteral("Confidential y"), QStringLiteral("Synthetic y"));
        const auto conf = normals(5000, 11, 10, 2);
        const auto noise = normals(5000, 12, 0, 1);
        QList<QPointF> pts;
        for (std::size_t i = 0; i < conf.size(); ++i) pts.append({conf[i], conf[i] + noise[i]});
        chart.setPoints(pts, QStringLiteral("Records"));
        chart.setIdentityLine(true);
        chart.setHighlighted({0, 1, 2, 3, 4, 99999}, QStringLiteral("Highest risk"));
        QCOMPARE(chart.highlightSeries()->count(), 5);  // out-of-range index dropped
        QVERIFY(chart.series().at(2)->isVisible());
        const QString error =
            exportChart(&chart, outputDir() + "/chart_scatter_identity.png", QSize(800, 600));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void exportWritesPngAndSvg() {
        // The view's scene owns the chart.
        ScatterChart& chart = *new ScatterChart;
        chart.setAxisTitles(QStringLiteral("Weight"), QStringLiteral("y"));
        chart.setPoints(boundVsWeight(2000));
        const QString dir = outputDir();
        QString error = exportChart(&chart, dir + "/export_test.png", QSize(640, 480));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QImage png(dir + "/export_test.png");
        QCOMPARE(png.size(), QSize(640, 480));
        // Not blank: the plot drew something other than white.
        int dark = 0;
        for (int yy = 0; yy < png.height(); yy += 4) {
            for (int xx = 0; xx < png.width(); xx += 4) dark += qGray(png.pixel(xx, yy)) < 200;
        }
        QVERIFY(dark > 50);

        error = exportChart(&chart, dir + "/export_test.svg", QSize(640, 480));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile svg(dir + "/export_test.svg");
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray content = svg.readAll();
        QVERIFY(content.contains("<svg"));
        QVERIFY(content.size() > 10000);
        QVERIFY(!content.contains("<image"));  // points as vector shapes, not embedded PNGs
        QVERIFY(!chart.pointSeries()->lightMarker().isNull());  // restored after export
        QCOMPARE(chart.pointSeries()->markerSize(), 5.0);
        // The SVG renders: draw it back into an image to look at.
        QSvgRenderer renderer(content);
        QVERIFY(renderer.isValid());
        QImage back(640, 480, QImage::Format_ARGB32_Premultiplied);
        back.fill(Qt::white);
        QPainter painter(&back);
        renderer.render(&painter);
        painter.end();
        QVERIFY(back.save(dir + "/chart_export_svg_rendered.png"));

        // The same from a view (in a scene) at a custom size; the view is left as it was.
        ChartView view(&chart);
        view.resize(500, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRectF before = chart.geometry();
        QVERIFY(view.exportTo(dir + "/export_view.png", QSize(300, 200)).isEmpty());
        QCOMPARE(QImage(dir + "/export_view.png").size(), QSize(300, 200));
        QCOMPARE(chart.geometry(), before);

        // An unwritable path gives a message naming the file.
        error = exportChart(&chart, "/nonexistent-dir/x.png", QSize(10, 10));
        QVERIFY(error.contains("/nonexistent-dir/x.png"));
    }

    // The view's own right-click "Export PNG..." / "Export SVG...", driven as a person would
    // (menu, file dialog, message box): a file inside a release bundle is refused with the
    // chart cards' message and nothing is written; elsewhere the chart is written.
    void contextMenuExportRefusesAReleaseBundle_data() {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("inBundle");
        const QString png = QStringLiteral("Export PNG..."), svg = QStringLiteral("Export SVG...");
        QTest::newRow("PNG in a bundle") << png << QStringLiteral("data/risks.png") << true;
        QTest::newRow("SVG in a bundle") << svg << QStringLiteral("risks.svg") << true;
        QTest::newRow("SVG elsewhere") << svg << QStringLiteral("risks.svg") << false;
    }
    void contextMenuExportRefusesAReleaseBundle() {
        QFETCH(QString, action);
        QFETCH(QString, file);
        QFETCH(bool, inBundle);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("data")));
        if (inBundle) {
            QFile manifest(dir.filePath(QStringLiteral("manifest.json")));
            QVERIFY(manifest.open(QIODevice::WriteOnly));
            manifest.write(R"({"format": "ppsynth-release"})");
        }
        const QString path = dir.filePath(file);
        ScatterChart& chart = *new ScatterChart;  // the view's scene owns it
        chart.setPoints(boundVsWeight(500));
        ChartView view(&chart);
        view.resize(500, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy failed(&view, &ChartView::exportFailed);

        // One poll answers whatever is open: the menu, then the file dialog, then the box.
        bool clicked = false, chose = false;
        QString boxText;
        QElapsedTimer clock;
        clock.start();
        QTimer driver;
        driver.setInterval(20);
        connect(&driver, &QTimer::timeout, &view, [&] {
            QWidget* popup = QApplication::activePopupWidget();
            QWidget* modal = QApplication::activeModalWidget();
            if (clock.elapsed() > 20000) {  // stuck: give up rather than hang the test
                if (popup) popup->close();
                if (auto* d = qobject_cast<QDialog*>(modal)) d->reject();
                return;
            }
            if (auto* menu = qobject_cast<QMenu*>(popup); menu && !clicked) {
                for (QAction* a : menu->actions())
                    if (a->text() == action && !std::exchange(clicked, true))
                        // Outside this slot, so the poll goes on while the dialog is open.
                        QTimer::singleShot(0, menu, [menu, a] {
                            menu->setActiveAction(a);
                            QTest::keyClick(menu, Qt::Key_Return);
                        });
            } else if (auto* d = qobject_cast<QFileDialog*>(modal)) {
                chose = true;
                // Typed into the name field (selectFile leaves a focused field alone).
                if (auto* name = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                    name->setText(path);
                static_cast<QDialog*>(d)->accept();  // QFileDialog::accept is protected
            } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
                boxText = box->text();
                box->accept();
            }
        });
        driver.start();
        const QPoint at(250, 200);
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, view.viewport()->mapToGlobal(at));
        QApplication::sendEvent(view.viewport(), &event);  // returns once all is answered
        driver.stop();
        QVERIFY(!QApplication::activeModalWidget());
        QVERIFY2(chose, "the file dialog did not open");
        if (!inBundle) {
            QVERIFY2(boxText.isEmpty(), qPrintable(boxText));
            QVERIFY(QFileInfo(path).size() > 0);
            QCOMPARE(failed.count(), 0);
            return;
        }
        const QString why = ui::confidentialDestinationProblem(path, QStringLiteral("this chart"));
        QVERIFY(why.contains(QStringLiteral("release bundle")));
        QCOMPARE(boxText, why);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.front().front().toString(), why);
        QVERIFY(!QFileInfo::exists(path));
    }

    void hoverShowsNearestRecord() {
        // The view's scene owns the chart.
        ScatterChart& chart = *new ScatterChart;
        chart.setAxisTitles(QStringLiteral("Weight"), QStringLiteral("Bound"));
        chart.setPoints({{0.1, 1.0}, {0.5, 2.0}, {0.9, 3.5}});
        ChartView view(&chart);
        view.resize(600, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPoint at = viewPoint(view, &chart, {0.5, 2.0}, chart.pointSeries());
        QCOMPARE(view.hoverText(at + QPoint(3, -2)),
                 QStringLiteral("Record 2\nWeight = 0.5\nBound = 2"));
        QCOMPARE(view.hoverText(at + QPoint(60, 60)), QString());  // nothing near

        CurveChart& curve = *new CurveChart;
        curve.setAxisTitles(QStringLiteral("ε"), QStringLiteral("Utility"));
        curve.setCurves({{"LW", {{1, 0.9, "α = 0.1"}, {2, 0.95, "α = 0.2"}}}});
        ChartView cv(&curve);
        cv.resize(600, 400);
        cv.show();
        QVERIFY(QTest::qWaitForWindowExposed(&cv));
        const QPoint p = viewPoint(cv, &curve, {2, 0.95}, curve.pointSeries(0));
        QCOMPARE(cv.hoverText(p), QStringLiteral("LW, α = 0.2\nε = 2\nUtility = 0.95"));
    }

    void mouseDragZoomsAndMiddleButtonPans() {
        ScatterChart& chart = *new ScatterChart;
        chart.setPoints(boundVsWeight(5000));
        ChartView view(&chart);
        view.resize(800, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* x = qobject_cast<QValueAxis*>(chart.axes(Qt::Horizontal).front());
        const double span = x->max() - x->min();
        const QPoint c = view.viewport()->rect().center();

        // Left drag: rubber band zoom into the dragged rectangle.
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, c);
        QTest::mouseMove(view.viewport(), c + QPoint(40, 10));
        QTest::mouseMove(view.viewport(), c + QPoint(100, 80));
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, c + QPoint(100, 80));
        QTRY_VERIFY(x->max() - x->min() < 0.3 * span);

        // Middle drag pans: the range keeps its width and moves against the mouse.
        const double w = x->max() - x->min(), before = x->min();
        QTest::mousePress(view.viewport(), Qt::MiddleButton, {}, c);
        QTest::mouseMove(view.viewport(), c + QPoint(50, 0));
        QTest::mouseRelease(view.viewport(), Qt::MiddleButton, {}, c + QPoint(50, 0));
        QVERIFY(x->min() < before);
        QVERIFY_NEAR((x->max() - x->min()), w, 1e-9 * span);

        // Reset returns to the full range.
        view.resetZoom();
        QVERIFY_NEAR((x->max() - x->min()), span, 1e-9 * span);
    }

    void curveClickEmitsIndex() {
        // The view's scene owns the chart.
        CurveChart& chart = *new CurveChart;
        chart.setAxisTitles(QStringLiteral("ε (privacy budget)"),
                            QStringLiteral("Utility (CI overlap)"));
        std::vector<Curve> curves{{QStringLiteral("LW"), {}}, {QStringLiteral("EM"), {}}};
        for (int i = 0; i < 6; ++i) {
            const double e = 0.5 + i;
            curves[0].points.push_back({e, 1 - 0.5 / (1 + e), QString("α = %1").arg(i)});
            curves[1].points.push_back({e + 0.2, 1 - 0.8 / (1 + e), QString("α = %1").arg(i)});
        }
        chart.setCurves(curves);
        QCOMPARE(chart.series().size(), 4);
        ChartView view(&chart);
        view.resize(800, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy spy(&chart, &CurveChart::pointClicked);
        const QPointF target(curves[1].points[3].x, curves[1].points[3].y);
        const QPoint at = viewPoint(view, &chart, target, chart.pointSeries(1));
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
        QTRY_COMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 1);
        QCOMPARE(spy.at(0).at(1).toInt(), 3);
        QVERIFY(chart.pointSeries(1)->isPointSelected(3));
        QVERIFY(!chart.pointSeries(0)->isPointSelected(3));
        QVERIFY(view.grab().save(outputDir() + QStringLiteral("/chart_risk_utility.png")));
    }

    // A vertical axis title longer than the plot is high (the Compare view's small cards) is
    // drawn whole, on lines, inside the chart: Qt Charts alone cuts it short ("(log sc...").
    // Where it fits it stays one line. The hover texts name the axis by the whole title.
    void longVerticalTitleDrawnWhole_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("lines");
        QTest::newRow("violin, compare card") << "violin" << QSize(620, 280) << true;
        QTest::newRow("scatter, compare card") << "scatter" << QSize(620, 280) << true;
        QTest::newRow("violin, export size") << "violin" << QSize(900, 600) << false;
    }
    void longVerticalTitleDrawnWhole() {
        QFETCH(QString, kind);
        QFETCH(QSize, size);
        QFETCH(bool, lines);
        const QString title =
            QStringLiteral("Record bound Δ(α,xᵢ) (log scale; 12 values of 0 not shown)");
        PlotChart* chart = nullptr;
        if (kind == QLatin1String("violin")) {
            // Values in (0, 1): tick labels such as "0.2" (Qt Charts cuts any title of an axis
            // whose labels are all narrower than "...", a limit of its own).
            std::vector<Violin> v;
            for (int i = 0; i < 3; ++i) {
                auto s = utility::violinSummary(
                    normals(2000, static_cast<std::uint64_t>(i), 0.3 + 0.2 * i, 0.08));
                v.push_back(
                    {QStringLiteral("S%1").arg(i + 1), std::move(*s), 0.9, QStringLiteral("Δ")});
            }
            auto* violins = new ViolinChart;
            violins->setValueTitle(title);
            violins->setViolins(std::move(v));
            chart = violins;
        } else {
            auto* scatter = new ScatterChart;
            scatter->setAxisTitles(QStringLiteral("Weight"), title);
            scatter->setPoints(boundVsWeight(500));
            chart = scatter;
        }
        chart->setTitle(QStringLiteral("By-record Lipschitz bounds"));
        ChartView view(chart);  // the view's scene owns the chart
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();
        QVERIFY(view.grab().save(
            outputDir() +
            QStringLiteral("/chart_long_title_%1_%2.png").arg(kind).arg(size.height())));
        const QGraphicsTextItem* drawn = drawnVerticalTitle(chart);
        QVERIFY(drawn);
        QCOMPARE(oneLine(drawn), title);
        QVERIFY2(chart->sceneBoundingRect().contains(drawn->sceneBoundingRect()),
                 qPrintable(QStringLiteral("title at %1,%2 %3x%4")
                                .arg(drawn->sceneBoundingRect().x())
                                .arg(drawn->sceneBoundingRect().y())
                                .arg(drawn->sceneBoundingRect().width())
                                .arg(drawn->sceneBoundingRect().height())));
        QCOMPARE(chart->axes(Qt::Vertical).front()->titleText().contains(QStringLiteral("<br>")),
                 lines);
        QCOMPARE(chart->yTitle(), title);
        QCOMPARE(PlotChart::axisTitle(chart->axes(Qt::Vertical).front()), title);
        // Exported at the card's size, the picture has the whole title too.
        QVERIFY(renderChartImage(chart, size)
                    .save(outputDir() + QStringLiteral("/chart_long_title_%1_%2_export.png")
                                            .arg(kind)
                                            .arg(size.height())));
    }

    void densityPanelWithTail() {
        const auto conf = normals(3000, 21, 50, 12);
        auto synth = normals(3000, 22, 52, 15);
        const auto comparison = utility::compareDensities(conf, synth, {}, 0.9);
        QVERIFY(comparison);
        DensityPanel panel;
        panel.resize(1100, 420);
        panel.setComparison(*comparison, QStringLiteral("Income (y)"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.mainChart()->series().size(), 2);
        QCOMPARE(panel.tailChart()->series().size(), 2);
        QVERIFY(panel.tailView()->isVisible());
        auto* line = qobject_cast<QLineSeries*>(panel.mainChart()->series().front());
        QCOMPARE(line->count(), 512);
        QCOMPARE(line->name(), QStringLiteral("Confidential"));
        QVERIFY(panel.grab().save(outputDir() + QStringLiteral("/chart_density.png")));
    }
};

QTEST_MAIN(TstCharts)
#include "tst_charts.moc"
