#include "ui/report/report_charts.hpp"

#include <QBuffer>

#include "ui/charts/chart_export.hpp"

namespace ppsynth::ui::report {

namespace {

const Error kCancelled = Error::cancelled();

}  // namespace

Status drawChart(const results::ChartRecipe& recipe, DrawnCharts& out) {
    auto built = recipe.build();
    if (!built) {
        out.skipped << QStringLiteral("%1: %2").arg(recipe.what,
                                                    QString::fromStdString(built.message()));
        return {};
    }
    QImage image = charts::renderChartImage(built->chart.get(), kChartSize);
    if (image.isNull()) return Error{"the chart '" + built->key.toStdString() + "' was not drawn"};
    out.charts.push_back({built->key, built->title, built->caption, std::move(image)});
    return {};
}

Expected<DrawnCharts> drawCharts(const study::RunResult& run, const ProgressCallback& progress,
                                 std::shared_ptr<const data::Table> table) {
    results::RunChartOptions options;
    options.table = std::move(table);
    const auto recipes = results::runChartRecipes(run, options);
    DrawnCharts out;
    for (std::size_t i = 0; i < recipes.size(); ++i) {
        if (ppsynth::report(progress, {"drawing charts", 0, double(i), double(recipes.size())}) ==
            Continue::Stop)
            return kCancelled;
        if (auto s = drawChart(recipes[i], out); !s) return s.error();
    }
    return out;
}

Expected<ReportSection> chartsSection(const DrawnCharts& drawn, const ProgressCallback& progress) {
    ReportSection s{QStringLiteral("charts"), QStringLiteral("Charts"), {}};
    s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
        "Every chart of the run, as on the results page. Charts drawn from record-level "
        "quantities (weights, bounds, risks, the confidential y) are confidential like the rest "
        "of this report.")));
    const auto total = double(drawn.charts.size());
    for (std::size_t i = 0; i < drawn.charts.size(); ++i) {
        if (ppsynth::report(progress, {"encoding charts", 0, double(i), total}) == Continue::Stop)
            return kCancelled;
        const DrawnChart& c = drawn.charts[i];
        ReportFigure fig;
        fig.key = c.key;
        fig.title = c.title;
        fig.caption = c.caption;
        fig.size = c.image.size();
        QBuffer buffer(&fig.png);
        buffer.open(QIODevice::WriteOnly);
        if (!c.image.save(&buffer, "PNG"))
            return Error{"the chart '" + c.key.toStdString() + "': PNG encoding failed"};
        s.blocks.push_back(ReportBlock::figureBlock(std::move(fig)));
    }
    if (!drawn.skipped.isEmpty())
        s.blocks.push_back(ReportBlock::paragraph(QStringLiteral("Not drawn for this run: ") +
                                                  drawn.skipped.join(QStringLiteral("; ")) +
                                                  QLatin1Char('.')));
    return s;
}

}  // namespace ppsynth::ui::report
