// The chart view used everywhere: rubber-band zoom (left drag), wheel zoom around the
// cursor, pan with the middle button (or Shift + left drag), reset (Home key, double click,
// context menu), a hover tooltip, and "Export PNG... / Export SVG..." in the context menu.
#pragma once

#include <QChartView>
#include <QSize>

namespace ppsynth::ui::charts {

class ChartView : public QChartView {
    Q_OBJECT
  public:
    explicit ChartView(QChart* chart, QWidget* parent = nullptr);

    // What the hover tooltip would say with the mouse at `viewPos` (viewport pixels).
    QString hoverText(const QPoint& viewPos) const;

    // Zoom by `factor` (< 1 zooms in) keeping the data point under `viewPos` in place.
    void zoomAt(const QPoint& viewPos, qreal factor);
    // Pan by a pixel offset (content follows the mouse).
    void panBy(const QPoint& pixels);
    void resetZoom();

    // Export at the view's current size, or `size` when given. Empty string on success.
    QString exportTo(const QString& path, QSize size = QSize()) const;

  signals:
    void exportFailed(const QString& message);
    // The hover text under the mouse changed (empty when nothing is under it).
    void hoverChanged(const QString& text);

  protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

  private:
    void exportWithDialog(const QString& filter, const QString& suffix);

    bool panning_ = false;
    QPoint lastPan_;
    // A left press becomes a rubber band only after the mouse moves a few pixels; otherwise
    // it is a click and goes to the scene (so series receive clicked()).
    bool leftDown_ = false;
    bool rubberBanding_ = false;
    QPoint pressPos_;
    QPointF pressGlobal_;
    Qt::KeyboardModifiers pressModifiers_;
    QString lastHover_;
};

}  // namespace ppsynth::ui::charts
