// One chart as the results page shows it: the title, the interactive chart (zoom, pan,
// hover), the caption that says how to read it, the value under the mouse, and buttons to
// export PNG and SVG. A chart that could not be built shows its error in words instead.
#pragma once

#include <QSize>
#include <QString>
#include <QWidget>

#include "ppsynth/common/expected.hpp"
#include "ui/results/run_charts.hpp"

class QLabel;
class QPushButton;

namespace ppsynth::ui::charts {
class ChartView;
class PlotChart;
}  // namespace ppsynth::ui::charts

namespace ppsynth::ui::results {

class ChartCard : public QWidget {
    Q_OBJECT
  public:
    // Takes the chart (the view's scene owns it from here on). `what` names the chart in
    // the error text when `built` failed.
    explicit ChartCard(Expected<BuiltChart> built, const QString& what = QString(),
                       QWidget* parent = nullptr);

    bool hasChart() const { return view_ != nullptr; }
    QString key() const { return key_; }
    QString title() const { return title_; }
    QString caption() const { return caption_; }
    QString errorText() const { return error_; }
    charts::ChartView* view() const { return view_; }
    charts::PlotChart* chart() const { return chart_; }
    QLabel* hoverLabel() const { return hover_; }

    // Exports without a dialog; PNG or SVG by the suffix, at the view's size unless given.
    // Empty string on success, else the message (also shown in the card).
    QString exportTo(const QString& path, QSize size = QSize());

  signals:
    void exported(const QString& path);

  private:
    void exportWithDialog(const QString& suffix);

    QString key_, title_, caption_, error_;
    charts::ChartView* view_ = nullptr;
    charts::PlotChart* chart_ = nullptr;
    QLabel* hover_ = nullptr;
    QLabel* status_ = nullptr;
};

}  // namespace ppsynth::ui::results
