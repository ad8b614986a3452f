// A non-blocking message strip (errors, notes) that sits above a page instead of a modal
// box: the person reads it, keeps working, and closes it when done.
#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace ppsynth::ui {

class MessageArea : public QFrame {
    Q_OBJECT
  public:
    enum class Kind { Info, Error };
    explicit MessageArea(QWidget* parent = nullptr);

    void showMessage(Kind kind, const QString& text);
    void showError(const QString& text) { showMessage(Kind::Error, text); }
    void showInfo(const QString& text) { showMessage(Kind::Info, text); }
    QString text() const;
    Kind kind() const { return kind_; }

  private:
    QLabel* icon_;
    QLabel* label_;
    QToolButton* close_;
    Kind kind_ = Kind::Info;
};

}  // namespace ppsynth::ui
