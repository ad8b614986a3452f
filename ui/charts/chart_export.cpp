#include "ui/charts/chart_export.hpp"

#include <QChart>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QXYSeries>
#include <memory>
#include <vector>

namespace ppsynth::ui::charts {

namespace {

// Lays `chart` out at `size` (in a scratch scene when it has none), paints it with `paint`
// and puts everything back as it was.
template <typename Paint>
void renderAt(QChart* chart, QSize size, Paint paint) {
    std::unique_ptr<QGraphicsScene> scratch;
    QGraphicsScene* scene = chart->scene();
    if (!scene) {
        scratch = std::make_unique<QGraphicsScene>();
        scratch->addItem(chart);
        scene = scratch.get();
    }
    const QRectF oldGeometry = chart->geometry();
    chart->resize(QSizeF(size));
    if (chart->layout()) chart->layout()->activate();
    QCoreApplication::sendPostedEvents(chart, QEvent::LayoutRequest);
    paint(*scene, chart->sceneBoundingRect());
    chart->setGeometry(oldGeometry);
    if (chart->layout()) chart->layout()->activate();
    if (scratch) scratch->removeItem(chart);
}

QString failed(const QString& path, const QString& why) {
    return QStringLiteral("could not write '%1': %2").arg(QFileInfo(path).absoluteFilePath(), why);
}

}  // namespace

QImage renderChartImage(QChart* chart, QSize size) {
    if (!chart || size.isEmpty()) return {};
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    const QRectF target(QPointF(0, 0), QSizeF(size));
    renderAt(chart, size, [&](QGraphicsScene& scene, const QRectF& source) {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        scene.render(&painter, target, source);
    });
    return image;
}

ExportFormat exportFormatFor(const QString& path) {
    return path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive) ? ExportFormat::Svg
                                                                      : ExportFormat::Png;
}

QString exportChart(QChart* chart, const QString& path, QSize size) {
    return exportChart(chart, path, exportFormatFor(path), size);
}

QString exportChart(QChart* chart, const QString& path, ExportFormat format, QSize size) {
    if (!chart) return failed(path, QStringLiteral("there is no chart"));
    if (size.isEmpty()) return failed(path, QStringLiteral("the image size is empty"));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return failed(path, file.errorString());
    const QRectF target(QPointF(0, 0), QSizeF(size));

    if (format == ExportFormat::Png) {
        const QImage image = renderChartImage(chart, size);
        if (!image.save(&file, "PNG")) return failed(path, QStringLiteral("PNG encoding failed"));
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(chart->title().isEmpty() ? QStringLiteral("ppsynth chart") : chart->title());
        svg.setDescription(QStringLiteral("Exported by ppsynth"));
        // Light markers would become one embedded PNG per point (2 MB for 2,000 points):
        // draw vector circles instead while exporting.
        // Qt 6.4 draws such circles with the marker size as radius, the light marker with it
        // as diameter: halve it meanwhile so both look alike.
        struct Saved {
            QXYSeries* series;
            QImage marker;
            qreal size;
        };
        std::vector<Saved> markers;
        for (QAbstractSeries* s : chart->series()) {
            auto* xy = qobject_cast<QXYSeries*>(s);
            if (xy && !xy->lightMarker().isNull()) {
                const QImage& m = xy->lightMarker();
                markers.push_back({xy, m, xy->markerSize()});
                xy->setBrush(m.pixelColor(m.width() / 2, m.height() / 2));
                xy->setMarkerSize(xy->markerSize() / 2);
                xy->setLightMarker(QImage());
            }
        }
        renderAt(chart, size, [&](QGraphicsScene& scene, const QRectF& source) {
            QPainter painter(&svg);
            painter.setRenderHint(QPainter::Antialiasing);
            scene.render(&painter, target, source);
        });
        for (const Saved& m : markers) {
            m.series->setMarkerSize(m.size);
            m.series->setLightMarker(m.marker);
        }
    }
    if (!file.commit()) return failed(path, file.errorString());
    return {};
}

}  // namespace ppsynth::ui::charts
