// Chart speed offscreen: setting 100,000 scatter points (thinned, one replace()), each
// zoom and pan step rendered into a QImage, the same with thinning off, and the KDE behind
// violins and densities on 1,000,000 values. Prints milliseconds; no assertions.
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QValueAxis>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cstdio>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/kde.hpp"
#include "ui/charts/chart_view.hpp"
#include "ui/charts/scatter_chart.hpp"

using namespace ppsynth;
using namespace ppsynth::ui::charts;

namespace {

QList<QPointF> cloud(qsizetype n) {
    Rng rng = makeRng(1, 0, Purpose::Test);
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

double ms(const QElapsedTimer& t) {
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

// Renders the view as a user would see it after each step: refresh of the shown points,
// then a paint of the whole viewport into an image.
double renderStep(ChartView& view, ScatterChart& chart, QImage& image) {
    QElapsedTimer t;
    t.start();
    chart.refreshNow();
    QPainter painter(&image);
    view.render(&painter);
    return ms(t);
}

void runZoomPan(const char* label, qsizetype threshold, const QList<QPointF>& pts) {
    auto* chart = new ScatterChart;
    chart->setAxisTitles(QStringLiteral("Weight"), QStringLiteral("Bound"));
    ChartView view(chart);
    view.resize(1000, 700);
    view.show();
    QCoreApplication::processEvents();
    chart->setDecimationThreshold(threshold);

    QElapsedTimer t;
    t.start();
    chart->setPoints(pts);
    const double set = ms(t);
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    const double first = renderStep(view, *chart, image);
    std::printf("%-26s set %lld points: %8.1f ms, first render %8.1f ms (%lld shown)\n", label,
                static_cast<long long>(pts.size()), set, first,
                static_cast<long long>(chart->shownPoints()));

    const QPoint centre = view.viewport()->rect().center();
    double zoomTotal = 0, panTotal = 0, zoomMax = 0, panMax = 0;
    const int steps = 10;
    for (int i = 0; i < steps; ++i) {
        view.zoomAt(centre, 0.7);
        const double z = renderStep(view, *chart, image);
        zoomTotal += z;
        zoomMax = std::max(zoomMax, z);
    }
    const qsizetype zoomedShown = chart->shownPoints();
    view.resetZoom();
    chart->refreshNow();
    for (int i = 0; i < steps; ++i) {
        view.panBy(QPoint(i % 2 ? -25 : 25, 10));
        const double p = renderStep(view, *chart, image);
        panTotal += p;
        panMax = std::max(panMax, p);
    }
    std::printf("%-26s zoom step %6.1f ms (max %6.1f, %lld shown at 0.7^10)\n", label,
                zoomTotal / steps, zoomMax, static_cast<long long>(zoomedShown));
    std::printf("%-26s pan step  %6.1f ms (max %6.1f, %lld shown)\n", label, panTotal / steps,
                panMax, static_cast<long long>(chart->shownPoints()));
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const auto pts = cloud(100000);
    runZoomPan("thinned (20,000)", 20000, pts);
    runZoomPan("no thinning", 1000000, pts);

    Rng rng = makeRng(2, 0, Purpose::Test);
    boost::random::normal_distribution<double> z;
    std::vector<double> big(1000000);
    for (double& x : big) x = z(rng);
    for (int reflect = 0; reflect < 2; ++reflect) {
        utility::KdeOptions o;
        if (reflect) {
            for (double& x : big) x = 1 / (1 + std::exp(-x));  // into (0, 1)
            o.lower = 0.0;
            o.upper = 1.0;
        }
        QElapsedTimer t;
        t.start();
        auto d = utility::kernelDensity(big, o);
        const double kde = ms(t);
        t.restart();
        auto v = utility::violinSummary(big, o);
        const double violin = ms(t);
        std::printf("KDE 1,000,000 values%s: %6.1f ms; violin summary (sort + KDE) %6.1f ms%s\n",
                    reflect ? " reflected in [0,1]" : "", kde, violin, d && v ? "" : " (error)");
    }
    return 0;
}
