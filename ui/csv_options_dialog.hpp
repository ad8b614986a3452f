// Options for reading a CSV file, with a preview of the raw first lines and of the first
// rows as ppsynth would parse them (through data::readTable on those lines only).
#pragma once

#include <QByteArray>
#include <QDialog>

#include "ppsynth/data/io.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableView;

namespace ppsynth::ui {

class TableModel;

class CsvOptionsDialog : public QDialog {
    Q_OBJECT
  public:
    static constexpr int kPreviewRows = 50;

    explicit CsvOptionsDialog(const QString& path, const data::CsvOptions& initial = {},
                              QWidget* parent = nullptr);

    data::CsvOptions options() const;
    void setOptions(const data::CsvOptions& options);

    QString rawPreview() const;
    TableModel* previewModel() const { return previewModel_; }
    QString previewError() const;

  private:
    void updatePreview();
    void updateRawText();

    QString path_;
    QByteArray head_;  // the first bytes of the file, cut at a line end
    QComboBox* delimiter_;
    QComboBox* quote_;
    QCheckBox* header_;
    QComboBox* encoding_;
    QComboBox* decimal_;
    QComboBox* thousands_;
    QLineEdit* missing_;
    QCheckBox* emptyMissing_;
    QPlainTextEdit* raw_;
    QTableView* parsed_;
    TableModel* previewModel_;
    QLabel* error_;
};

}  // namespace ppsynth::ui
