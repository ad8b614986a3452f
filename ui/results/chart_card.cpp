#include "ui/results/chart_card.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/bundle_guard.hpp"
#include "ui/charts/chart_style.hpp"
#include "ui/charts/chart_view.hpp"

namespace ppsynth::ui::results {

ChartCard::ChartCard(Expected<BuiltChart> built, const QString& what, QWidget* parent)
    : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 8);
    layout->setSpacing(3);
    if (!built) {
        error_ = QString::fromStdString(built.message());
        title_ = what;
        auto* label = new QLabel(QStringLiteral("<b>%1</b><br>This chart cannot be drawn: %2")
                                     .arg(what.toHtmlEscaped(), error_.toHtmlEscaped()),
                                 this);
        label->setWordWrap(true);
        label->setObjectName(QStringLiteral("chartError"));
        layout->addWidget(label);
        layout->addStretch();
        return;
    }
    key_ = built->key;
    title_ = built->title;
    caption_ = built->caption;
    chart_ = built->chart.release();
    view_ = new charts::ChartView(chart_, this);
    view_->setMinimumSize(380, 300);
    layout->addWidget(view_, 1);

    auto* caption = new QLabel(caption_, this);
    caption->setWordWrap(true);
    caption->setObjectName(QStringLiteral("chartCaption"));
    QPalette pal = caption->palette();
    pal.setColor(QPalette::WindowText, QColor(0x40, 0x40, 0x40));
    caption->setPalette(pal);
    layout->addWidget(caption);

    auto* row = new QHBoxLayout;
    hover_ = new QLabel(this);
    hover_->setObjectName(QStringLiteral("hoverValue"));
    hover_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(hover_, 1);
    status_ = new QLabel(this);
    row->addWidget(status_);
    auto* png = new QPushButton(tr("Export PNG..."), this);
    auto* svg = new QPushButton(tr("Export SVG..."), this);
    png->setObjectName(QStringLiteral("exportPng"));
    svg->setObjectName(QStringLiteral("exportSvg"));
    row->addWidget(png);
    row->addWidget(svg);
    layout->addLayout(row);
    connect(png, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral(".png")); });
    connect(svg, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral(".svg")); });
    // One line under the chart with what the tooltip says, so values can be read and copied.
    connect(view_, &charts::ChartView::hoverChanged, this, [this](const QString& text) {
        hover_->setText(QString(text).replace(QLatin1Char('\n'), QStringLiteral("; ")));
    });
}

QString ChartCard::exportTo(const QString& path, QSize size) {
    if (!view_) return error_;
    if (const QString why = confidentialDestinationProblem(path, tr("this chart"));
        !why.isEmpty()) {
        status_->setText(why);
        return why;
    }
    const QString error = view_->exportTo(path, size);
    status_->setText(error.isEmpty() ? tr("Saved %1").arg(QFileInfo(path).fileName()) : error);
    if (error.isEmpty()) emit exported(path);
    return error;
}

void ChartCard::exportWithDialog(const QString& suffix) {
    const QString filter =
        suffix == QStringLiteral(".svg") ? tr("SVG drawing (*.svg)") : tr("PNG image (*.png)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), key_ + suffix, filter);
    if (path.isEmpty()) return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive)) path += suffix;
    exportTo(path);
}

}  // namespace ppsynth::ui::results

#include "moc_chart_card.cpp"
