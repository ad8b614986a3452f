// The results views on a large run, offscreen: 100,000 records and four synthesizers (a
// RunResult filled with simulated record-level values, no fitting). Prints milliseconds for
// building every chart of the run, for the results page, and for each zoom and pan step of
// the bound-against-weight scatter as a user sees it (refresh of the shown points and a
// repaint of the whole view). No assertions.
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTabWidget>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cstdio>

#include "ppsynth/common/rng.hpp"
#include "ui/charts/chart_style.hpp"
#include "ui/charts/chart_view.hpp"
#include "ui/charts/scatter_chart.hpp"
#include "ui/results/chart_card.hpp"
#include "ui/results/results_page.hpp"
#include "ui/results/run_charts.hpp"

using namespace ppsynth;

namespace {

study::RunResult bigRun(Eigen::Index n) {
    Rng rng = makeRng(5, 0, Purpose::Test);
    boost::random::lognormal_distribution<double> income(10.5, 0.8);
    boost::random::uniform_real_distribution<double> u(0.0, 1.0);
    boost::random::normal_distribution<double> z(0.0, 1.0);
    study::RunResult r;
    r.config.data.target = "income";
    r.config.mcmc.chains = 4;
    r.config.mcmc.draws = 1000;
    r.config.synthesis.m = 5;
    r.inputs.yOriginal.resize(n);
    r.inputs.keptRows.resize(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        r.inputs.yOriginal[i] = income(rng);
        r.inputs.keptRows[static_cast<std::size_t>(i)] = static_cast<std::size_t>(i);
    }
    r.parameterNames = {"beta[(Intercept)]", "beta[age]", "sigma"};
    const char* names[] = {"Unweighted", "LW", "CW", "EM"};
    const study::Scheme schemes[] = {study::Scheme::Unweighted, study::Scheme::Lipschitz,
                                     study::Scheme::Marginal, study::Scheme::Scalar};
    r.f.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) r.f[i] = 2 + std::abs(z(rng)) + 0.5 * u(rng);
    for (int s = 0; s < 4; ++s) {
        study::SynthesizerResult x;
        x.name = names[s];
        x.scheme = schemes[s];
        x.records.alpha.resize(n);
        x.records.recordDelta.resize(n);
        x.records.ir.resize(static_cast<std::size_t>(n));
        for (Eigen::Index i = 0; i < n; ++i) {
            x.records.alpha[i] = s == 0   ? 1.0
                                 : s == 3 ? 0.4
                                          : std::clamp(1.1 - 0.3 * r.f[i] + 0.1 * z(rng), 0.0, 1.0);
            x.records.recordDelta[i] = x.records.alpha[i] * r.f[i] * (1 + 0.15 * std::abs(z(rng)));
            x.records.ir[static_cast<std::size_t>(i)] = std::clamp(0.1 + 0.08 * z(rng), 0.0, 1.0);
        }
        x.deltaAlphaX = x.records.recordDelta.maxCoeff();
        x.epsilon.perDataset = 2 * x.deltaAlphaX;
        x.epsilon.m = 5;
        x.epsilon.total = 5 * x.epsilon.perDataset;
        x.weights.mean = x.records.alpha.mean();
        x.irSummary.mean = 0.1;
        for (int l = 0; l < 5; ++l) {
            std::vector<double> d(static_cast<std::size_t>(n));
            for (Eigen::Index i = 0; i < n; ++i)
                d[static_cast<std::size_t>(i)] = r.inputs.yOriginal[i] * std::exp(0.3 * z(rng));
            x.synthetic.push_back(std::move(d));
        }
        x.draws.resize(4000, 3);
        for (Eigen::Index k = 0; k < x.draws.size(); ++k) x.draws.data()[k] = z(rng);
        r.synthesizers.push_back(std::move(x));
    }
    return r;
}

double ms(const QElapsedTimer& t) {
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setFont(ui::charts::chartFont(9));
    const Eigen::Index n = 100000;
    auto run = std::make_shared<const study::RunResult>(bigRun(n));

    QElapsedTimer t;
    t.start();
    auto all = ui::results::buildRunCharts(*run);
    std::printf("buildRunCharts, %lld records: %zu charts in %8.1f ms (%lld skipped)\n",
                static_cast<long long>(n), all.charts.size(), ms(t),
                static_cast<long long>(all.skipped.size()));

    {
        ui::results::ResultsPage page;
        page.resize(1400, 950);
        page.show();
        QCoreApplication::processEvents();
        t.restart();
        page.showRun(run, QStringLiteral("bench"));
        QCoreApplication::processEvents();
        std::printf("ResultsPage::showRun, %lld records: %8.1f ms\n", static_cast<long long>(n),
                    ms(t));
        // Tabs are built when first shown: the cost of each first visit.
        for (int i = 1; i < page.tabs()->count(); ++i) {
            t.restart();
            page.tabs()->setCurrentIndex(i);
            QCoreApplication::processEvents();
            std::printf("  first visit of tab %-16s %8.1f ms\n",
                        qPrintable(page.tabs()->tabText(i) + QLatin1Char(':')), ms(t));
        }
    }

    t.restart();
    ui::results::ChartCard card(ui::results::boundVsWeightScatter(*run, "LW"));
    const double built = ms(t);
    card.resize(1000, 760);
    card.show();
    QCoreApplication::processEvents();
    auto* chart = qobject_cast<ui::charts::ScatterChart*>(card.chart());
    auto* view = card.view();
    QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
    auto step = [&] {
        QElapsedTimer s;
        s.start();
        chart->refreshNow();
        QPainter painter(&image);
        view->render(&painter);
        return ms(s);
    };
    const double first = step();
    std::printf(
        "bound/weight scatter %lld records: built %6.1f ms, first paint %6.1f ms, "
        "%lld shown\n",
        static_cast<long long>(n), built, first, static_cast<long long>(chart->shownPoints()));
    const QPoint centre = view->viewport()->rect().center();
    double zoomSum = 0, zoomMax = 0, panSum = 0, panMax = 0;
    const int steps = 12;
    for (int i = 0; i < steps; ++i) {
        view->zoomAt(centre, i < steps / 2 ? 0.7 : 1 / 0.7);
        const double z = step();
        zoomSum += z;
        zoomMax = std::max(zoomMax, z);
    }
    for (int i = 0; i < steps; ++i) {
        view->panBy(QPoint(i % 2 ? -40 : 40, 15));
        const double p = step();
        panSum += p;
        panMax = std::max(panMax, p);
    }
    std::printf("  zoom step %6.1f ms (max %6.1f); pan step %6.1f ms (max %6.1f)\n",
                zoomSum / steps, zoomMax, panSum / steps, panMax);
    return 0;
}
