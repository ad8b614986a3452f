// Options for reading an SPSS, Stata or SAS file before it is read: the encoding of its
// text (data.read.stat_encoding). Files declare it, but older ones often declare none or the
// wrong one, so the person can name the code page up front, as the CSV options offer it.
#pragma once

#include <QDialog>
#include <QStringList>

#include "ppsynth/data/io.hpp"

class QComboBox;
class QLabel;
class QPushButton;

namespace ppsynth::ui {

class StatOptionsDialog : public QDialog {
    Q_OBJECT
  public:
    explicit StatOptionsDialog(const QString& path, const data::StatOptions& initial = {},
                               QWidget* parent = nullptr);

    // The chosen options; the encoding is empty for "as the file declares".
    data::StatOptions options() const;
    void setOptions(const data::StatOptions& options);
    // The encodings offered besides the file's own (iconv names); others may be typed.
    static QStringList commonEncodings();

    QComboBox* encodingBox() const { return encoding_; }
    QPushButton* readButton() const { return read_; }

  private:
    // The iconv name chosen or typed; nullopt when the text cannot be one.
    std::optional<QString> chosenEncoding() const;
    void updateValidity();

    QComboBox* encoding_;
    QLabel* error_;
    QPushButton* read_ = nullptr;
};

}  // namespace ppsynth::ui
