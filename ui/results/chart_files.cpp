#include "ui/results/chart_files.hpp"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include "ppsynth/common/atomic_file.hpp"
#include "ui/charts/chart_export.hpp"

namespace ppsynth::ui::results {

Expected<ChartFile> exportBuiltChart(const BuiltChart& chart, const QString& dir, QSize size) {
    if (!chart.chart) return Error{"chart '" + chart.key.toStdString() + "' has no chart to draw"};
    if (chart.key.isEmpty()) return Error{"a chart without a key cannot be named as a file"};
    if (!QDir().mkpath(dir))
        return Error::io("could not create the folder '" +
                         QFileInfo(dir).absoluteFilePath().toStdString() + "'");
    // The key carries a synthesizer's name: its files are proven to stay in `dir`.
    auto inside = [&](const QString& suffix) {
        return pathInside(dir.toStdString(), (chart.key + suffix).toStdString());
    };
    const auto png = inside(QStringLiteral(".png"));
    if (!png) return png.error();
    const auto svg = inside(QStringLiteral(".svg"));
    if (!svg) return svg.error();
    ChartFile file{chart.key,
                   chart.title,
                   chart.caption,
                   chart.recordLevel,
                   QString::fromStdString(*png),
                   QString::fromStdString(*svg)};
    for (const QString& path : {file.png, file.svg}) {
        const QString error = charts::exportChart(chart.chart.get(), path, size);
        if (!error.isEmpty()) return Error{error.toStdString()};
    }
    return file;
}

Expected<QByteArray> renderPng(const BuiltChart& chart, QSize size) {
    if (!chart.chart) return Error{"chart '" + chart.key.toStdString() + "' has no chart to draw"};
    if (size.isEmpty()) return Error{"the image size is empty"};
    const QImage image = charts::renderChartImage(chart.chart.get(), size);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG"))
        return Error{"chart '" + chart.key.toStdString() + "': PNG encoding failed"};
    return bytes;
}

Expected<RunChartFiles> exportRunCharts(const study::RunResult& run, const QString& dir,
                                        const RunChartOptions& options, QSize size) {
    RunCharts built = buildRunCharts(run, options);
    RunChartFiles out;
    out.skipped = built.skipped;
    for (const BuiltChart& c : built.charts) {
        auto f = exportBuiltChart(c, dir, size);
        if (!f) return f.error();
        out.files.push_back(std::move(*f));
    }
    return out;
}

ChartExportJob::ChartExportJob(std::shared_ptr<const study::RunResult> run, QString dir,
                               RunChartOptions options, QSize size, QObject* parent)
    : QObject(parent), run_(std::move(run)), dir_(std::move(dir)), options_(options), size_(size) {}

void ChartExportJob::start() {
    if (running_) return;
    result_ = {};
    next_ = 0;
    cancelled_ = false;
    if (!run_) {
        finish(false, tr("there is no run to export"));
        return;
    }
    recipes_ = runChartRecipes(*run_, options_);
    running_ = true;
    QTimer::singleShot(0, this, &ChartExportJob::step);
}

void ChartExportJob::cancel() {
    cancelled_ = true;
}

void ChartExportJob::step() {
    if (!running_) return;
    if (cancelled_) {
        finish(false, tr("cancelled after %1 of %2 charts (the files written are complete)")
                          .arg(result_.files.size())
                          .arg(recipes_.size()));
        return;
    }
    if (next_ >= recipes_.size()) {
        finish(true, tr("%1 charts written to %2 as PNG and SVG")
                         .arg(result_.files.size())
                         .arg(QDir(dir_).absolutePath()));
        return;
    }
    const ChartRecipe& recipe = recipes_[next_++];
    auto built = recipe.build();
    if (!built) {
        result_.skipped << QStringLiteral("%1: %2").arg(recipe.what,
                                                        QString::fromStdString(built.message()));
    } else {
        auto file = exportBuiltChart(*built, dir_, size_);
        if (!file) {
            finish(false, QString::fromStdString(file.message()));
            return;
        }
        result_.files.push_back(std::move(*file));
    }
    emit progress(static_cast<int>(next_), static_cast<int>(recipes_.size()), recipe.what);
    QTimer::singleShot(0, this, &ChartExportJob::step);
}

void ChartExportJob::finish(bool ok, const QString& message) {
    running_ = false;
    recipes_.clear();  // they refer to the run
    emit finished(ok, message);
}

}  // namespace ppsynth::ui::results

#include "moc_chart_files.cpp"
