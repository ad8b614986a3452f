#include "ui/report/report_charts.hpp"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>

#include "ui/results/chart_files.hpp"

namespace ppsynth::ui::report {

Expected<ReportSection> chartsSection(const study::RunResult& run) {
    ReportSection s{QStringLiteral("charts"), QStringLiteral("Charts"), {}};
    s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
        "Every chart of the run, as on the results page. Charts drawn from record-level "
        "quantities (weights, bounds, risks, the confidential y) are confidential like the rest "
        "of this report.")));
    // The files are only a way to the PNG bytes: a temporary folder removed afterwards.
    QTemporaryDir dir;
    if (!dir.isValid())
        return Error{"could not create a temporary folder for the charts: " +
                     dir.errorString().toStdString()};
    auto files = results::exportRunCharts(run, dir.path());
    if (!files) return Error{"drawing the charts: " + files.message()};
    for (const auto& f : files->files) {
        QFile png(f.png);
        if (!png.open(QIODevice::ReadOnly))
            return Error{"could not read the chart '" + f.png.toStdString() + "'"};
        ReportFigure fig;
        fig.key = f.key;
        fig.title = f.title;
        fig.caption = f.caption;
        fig.png = png.readAll();
        QImage image;
        if (!image.loadFromData(fig.png, "PNG"))
            return Error{"the chart '" + f.key.toStdString() + "' is not a readable PNG"};
        fig.size = image.size();
        s.blocks.push_back(ReportBlock::figureBlock(std::move(fig)));
    }
    if (!files->skipped.isEmpty())
        s.blocks.push_back(ReportBlock::paragraph(QStringLiteral("Not drawn for this run: ") +
                                                  files->skipped.join(QStringLiteral("; ")) +
                                                  QLatin1Char('.')));
    return s;
}

}  // namespace ppsynth::ui::report
