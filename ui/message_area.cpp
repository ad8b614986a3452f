#include "ui/message_area.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace ppsynth::ui {

MessageArea::MessageArea(QWidget* parent)
    : QFrame(parent),
      icon_(new QLabel(this)),
      label_(new QLabel(this)),
      close_(new QToolButton(this)) {
    setObjectName(QStringLiteral("messageArea"));
    setFrameShape(QFrame::StyledPanel);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setTextFormat(Qt::PlainText);
    close_->setAutoRaise(true);
    close_->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close_->setToolTip(tr("Close this message"));
    connect(close_, &QToolButton::clicked, this, &QWidget::hide);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(icon_, 0, Qt::AlignTop);
    layout->addWidget(label_, 1);
    layout->addWidget(close_, 0, Qt::AlignTop);
    hide();
}

void MessageArea::showMessage(Kind kind, const QString& text) {
    kind_ = kind;
    const bool error = kind == Kind::Error;
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon_->setPixmap(
        style()
            ->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxInformation)
            .pixmap(iconSize, iconSize));
    setStyleSheet(
        error ? QStringLiteral("#messageArea { background: #fdecea; border: 1px solid #e6a8a1; }")
              : QStringLiteral("#messageArea { background: #eaf2fd; border: 1px solid #a9c4e8; }"));
    label_->setText(text);
    show();
}

QString MessageArea::text() const {
    return isHidden() ? QString() : label_->text();
}

}  // namespace ppsynth::ui

#include "moc_message_area.cpp"
