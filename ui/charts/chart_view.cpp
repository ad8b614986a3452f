#include "ui/charts/chart_view.hpp"

#include <QApplication>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

#include "ui/bundle_guard.hpp"
#include "ui/charts/chart_export.hpp"
#include "ui/charts/plot_chart.hpp"

namespace ppsynth::ui::charts {

ChartView::ChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setMouseTracking(true);
    setBackgroundBrush(Qt::white);
    setFocusPolicy(Qt::StrongFocus);
    // Scatter charts repaint many items: a full-viewport update is cheaper than tracking
    // thousands of small dirty rectangles.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
}

QString ChartView::hoverText(const QPoint& viewPos) const {
    const QPointF scenePos = mapToScene(viewPos);
    if (const auto* plot = qobject_cast<const PlotChart*>(chart())) {
        return plot->hoverText(scenePos);
    }
    return {};
}

void ChartView::zoomAt(const QPoint& viewPos, qreal factor) {
    QChart* c = chart();
    const QRectF area = c->plotArea();
    const QPointF p = c->mapFromScene(mapToScene(viewPos));
    if (!area.contains(p) || !(factor > 0)) return;
    // The new visible rectangle, in plot pixels, scales around p.
    const QRectF r(p - (p - area.topLeft()) * factor, area.size() * factor);
    c->zoomIn(r);
}

void ChartView::panBy(const QPoint& pixels) {
    chart()->scroll(-pixels.x(), pixels.y());
}

void ChartView::resetZoom() {
    chart()->zoomReset();
}

QString ChartView::exportTo(const QString& path, QSize size) const {
    return exportChart(chart(), path, size.isEmpty() ? viewport()->size() : size);
}

void ChartView::mousePressEvent(QMouseEvent* event) {
    const bool pan = event->button() == Qt::MiddleButton ||
                     (event->button() == Qt::LeftButton && event->modifiers() & Qt::ShiftModifier);
    if (pan) {
        panning_ = true;
        lastPan_ = event->position().toPoint();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton) {  // keep right button for the context menu
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton) {
        leftDown_ = true;
        rubberBanding_ = false;
        pressPos_ = event->position().toPoint();
        pressGlobal_ = event->globalPosition();
        pressModifiers_ = event->modifiers();
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void ChartView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (panning_) {
        panBy(pos - lastPan_);
        lastPan_ = pos;
        event->accept();
        return;
    }
    if (leftDown_ && !rubberBanding_ &&
        (pos - pressPos_).manhattanLength() >= QApplication::startDragDistance()) {
        rubberBanding_ = true;
        QMouseEvent press(QEvent::MouseButtonPress, QPointF(pressPos_), pressGlobal_,
                          Qt::LeftButton, Qt::LeftButton, pressModifiers_);
        QChartView::mousePressEvent(&press);
    }
    if (leftDown_ && !rubberBanding_) {
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
    if (event->buttons() == Qt::NoButton) {
        const QString text = hoverText(pos);
        if (text != lastHover_) {
            lastHover_ = text;
            emit hoverChanged(text);
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(event->globalPosition().toPoint(), text, this);
        }
    }
}

void ChartView::mouseReleaseEvent(QMouseEvent* event) {
    if (panning_ && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
        panning_ = false;
        unsetCursor();
        event->accept();
        return;
    }
    // QChartView zooms out on a right click; we show the context menu instead.
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton && leftDown_) {
        leftDown_ = false;
        if (rubberBanding_) {
            rubberBanding_ = false;
            QChartView::mouseReleaseEvent(event);
            return;
        }
        // A click: replay it to the scene, bypassing QChartView's rubber band.
        QMouseEvent press(QEvent::MouseButtonPress, QPointF(pressPos_), pressGlobal_,
                          Qt::LeftButton, Qt::LeftButton, pressModifiers_);
        QGraphicsView::mousePressEvent(&press);
        QGraphicsView::mouseReleaseEvent(event);
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void ChartView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        resetZoom();
        event->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

void ChartView::wheelEvent(QWheelEvent* event) {
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        event->ignore();
        return;
    }
    // One notch (120) zooms by 20%.
    zoomAt(event->position().toPoint(), std::pow(0.8, delta / 120.0));
    event->accept();
}

void ChartView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_Home:
            resetZoom();
            break;
        case Qt::Key_Plus:
            zoomAt(viewport()->rect().center(), 0.8);
            break;
        case Qt::Key_Minus:
            zoomAt(viewport()->rect().center(), 1.25);
            break;
        case Qt::Key_Left:
            panBy(QPoint(30, 0));
            break;
        case Qt::Key_Right:
            panBy(QPoint(-30, 0));
            break;
        case Qt::Key_Up:
            panBy(QPoint(0, 30));
            break;
        case Qt::Key_Down:
            panBy(QPoint(0, -30));
            break;
        default:
            QChartView::keyPressEvent(event);
            return;
    }
    event->accept();
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Reset zoom"), this, &ChartView::resetZoom);
    menu.addSeparator();
    menu.addAction(tr("Export PNG..."), this,
                   [this] { exportWithDialog(tr("PNG image (*.png)"), QStringLiteral(".png")); });
    menu.addAction(tr("Export SVG..."), this,
                   [this] { exportWithDialog(tr("SVG drawing (*.svg)"), QStringLiteral(".svg")); });
    menu.exec(event->globalPos());
}

void ChartView::exportWithDialog(const QString& filter, const QString& suffix) {
    QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), QString(), filter);
    if (path.isEmpty()) return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive)) path += suffix;
    // A chart shows confidential values record by record (an SVG keeps their exact
    // coordinates): never into a release bundle, as the chart cards' own buttons refuse.
    QString error = confidentialDestinationProblem(path, tr("this chart"));
    if (error.isEmpty()) error = exportTo(path);
    if (!error.isEmpty()) {
        emit exportFailed(error);
        QMessageBox::warning(this, tr("Export chart"), error);
    }
}

}  // namespace ppsynth::ui::charts

#include "moc_chart_view.cpp"
