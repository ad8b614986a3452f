#include "ui/csv_options_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStringDecoder>
#include <QTableView>
#include <QTemporaryFile>
#include <QVBoxLayout>
#include <memory>

#include "ui/local_path.hpp"
#include "ui/table_model.hpp"

namespace ppsynth::ui {

namespace {
constexpr qint64 kHeadBytes = 64 * 1024;
constexpr int kRawLines = 20;
}  // namespace

CsvOptionsDialog::CsvOptionsDialog(const QString& path, const data::CsvOptions& initial,
                                   QWidget* parent)
    : QDialog(parent),
      path_(path),
      delimiter_(new QComboBox(this)),
      quote_(new QComboBox(this)),
      header_(new QCheckBox(tr("First line holds the column names"), this)),
      encoding_(new QComboBox(this)),
      decimal_(new QComboBox(this)),
      thousands_(new QComboBox(this)),
      missing_(new QLineEdit(this)),
      emptyMissing_(new QCheckBox(tr("Empty cells are missing"), this)),
      raw_(new QPlainTextEdit(this)),
      parsed_(new QTableView(this)),
      previewModel_(new TableModel(this)),
      error_(new QLabel(this)) {
    setWindowTitle(tr("Read %1").arg(QFileInfo(path).fileName()));

    QFile f(path);
    if (f.open(QIODevice::ReadOnly)) {
        head_ = f.read(kHeadBytes);
        // Cut at the last line end unless the whole file fit.
        if (!f.atEnd()) {
            const auto cut = head_.lastIndexOf('\n');
            if (cut >= 0) head_.truncate(cut + 1);
        }
    }

    delimiter_->addItem(tr("Detect"), 0);
    delimiter_->addItem(tr("Comma  ,"), int(','));
    delimiter_->addItem(tr("Semicolon  ;"), int(';'));
    delimiter_->addItem(tr("Tab"), int('\t'));
    delimiter_->addItem(tr("Pipe  |"), int('|'));
    quote_->addItem(tr("Double quote  \""), int('"'));
    quote_->addItem(tr("Single quote  '"), int('\''));
    encoding_->addItem(tr("Automatic (UTF-8, else Windows-1252)"), QStringLiteral("auto"));
    encoding_->addItem(tr("UTF-8"), QStringLiteral("utf-8"));
    encoding_->addItem(tr("Windows-1252 (Latin-1)"), QStringLiteral("latin-1"));
    decimal_->addItem(tr("Detect"), 0);
    decimal_->addItem(tr("Point  1.5"), int('.'));
    decimal_->addItem(tr("Comma  1,5"), int(','));
    thousands_->addItem(tr("None"), 0);
    thousands_->addItem(tr("Comma  1,234.5"), int(','));
    thousands_->addItem(tr("Point  1.234,5"), int('.'));
    thousands_->addItem(tr("Space  1 234,5"), int(' '));
    thousands_->addItem(tr("Apostrophe  1'234.5"), int('\''));
    missing_->setToolTip(tr("Cells equal to one of these (comma-separated) are missing"));

    auto* form = new QFormLayout;
    form->addRow(tr("Delimiter:"), delimiter_);
    form->addRow(tr("Quote:"), quote_);
    form->addRow(QString(), header_);
    form->addRow(tr("Encoding:"), encoding_);
    form->addRow(tr("Decimal separator:"), decimal_);
    form->addRow(tr("Thousands separator:"), thousands_);
    form->addRow(tr("Missing values:"), missing_);
    form->addRow(QString(), emptyMissing_);

    raw_->setReadOnly(true);
    raw_->setLineWrapMode(QPlainTextEdit::NoWrap);
    raw_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    parsed_->setModel(previewModel_);
    parsed_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    parsed_->setWordWrap(false);
    error_->setWordWrap(true);
    error_->setTextFormat(Qt::PlainText);
    error_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    error_->hide();

    auto* previews = new QSplitter(Qt::Vertical, this);
    auto* rawBox = new QWidget;
    auto* rawLayout = new QVBoxLayout(rawBox);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    rawLayout->addWidget(new QLabel(tr("First lines of the file:")));
    rawLayout->addWidget(raw_);
    auto* parsedBox = new QWidget;
    auto* parsedLayout = new QVBoxLayout(parsedBox);
    parsedLayout->setContentsMargins(0, 0, 0, 0);
    parsedLayout->addWidget(
        new QLabel(tr("As ppsynth reads them (first %1 rows):").arg(kPreviewRows)));
    parsedLayout->addWidget(error_);
    parsedLayout->addWidget(parsed_);
    previews->addWidget(rawBox);
    previews->addWidget(parsedBox);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Read"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(previews, 1);
    layout->addWidget(buttons);
    resize(820, 640);

    setOptions(initial);
    const auto refresh = [this] {
        updateRawText();
        updatePreview();
    };
    connect(delimiter_, &QComboBox::currentIndexChanged, this, refresh);
    connect(quote_, &QComboBox::currentIndexChanged, this, refresh);
    connect(header_, &QCheckBox::toggled, this, refresh);
    connect(encoding_, &QComboBox::currentIndexChanged, this, refresh);
    connect(decimal_, &QComboBox::currentIndexChanged, this, refresh);
    connect(thousands_, &QComboBox::currentIndexChanged, this, refresh);
    connect(missing_, &QLineEdit::editingFinished, this, refresh);
    connect(emptyMissing_, &QCheckBox::toggled, this, refresh);
    refresh();
}

void CsvOptionsDialog::setOptions(const data::CsvOptions& o) {
    const QSignalBlocker b1(delimiter_), b2(quote_), b3(header_), b4(encoding_), b5(missing_),
        b6(emptyMissing_), b7(decimal_), b8(thousands_);
    delimiter_->setCurrentIndex(std::max(0, delimiter_->findData(int(o.delimiter))));
    quote_->setCurrentIndex(std::max(0, quote_->findData(int(o.quote))));
    header_->setChecked(o.header);
    encoding_->setCurrentIndex(
        std::max(0, encoding_->findData(QString::fromStdString(o.encoding))));
    decimal_->setCurrentIndex(std::max(0, decimal_->findData(int(o.decimal))));
    thousands_->setCurrentIndex(std::max(0, thousands_->findData(int(o.thousands))));
    QStringList tokens;
    bool empty = false;
    for (const auto& t : o.missingTokens) {
        if (t.empty())
            empty = true;
        else
            tokens << QString::fromStdString(t);
    }
    missing_->setText(tokens.join(QStringLiteral(", ")));
    emptyMissing_->setChecked(empty);
}

data::CsvOptions CsvOptionsDialog::options() const {
    data::CsvOptions o;
    o.delimiter = static_cast<char>(delimiter_->currentData().toInt());
    o.quote = static_cast<char>(quote_->currentData().toInt());
    o.header = header_->isChecked();
    o.encoding = encoding_->currentData().toString().toStdString();
    o.decimal = static_cast<char>(decimal_->currentData().toInt());
    o.thousands = static_cast<char>(thousands_->currentData().toInt());
    o.missingTokens.clear();
    if (emptyMissing_->isChecked()) o.missingTokens.emplace_back();
    for (const auto& t : missing_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto trimmed = t.trimmed();
        if (!trimmed.isEmpty()) o.missingTokens.push_back(trimmed.toStdString());
    }
    return o;
}

QString CsvOptionsDialog::rawPreview() const {
    return raw_->toPlainText();
}

QString CsvOptionsDialog::previewError() const {
    return error_->isHidden() ? QString() : error_->text();
}

void CsvOptionsDialog::updateRawText() {
    const auto enc = encoding_->currentData().toString();
    QString text;
    if (enc == QLatin1String("latin-1")) {
        text = QString::fromLatin1(head_);
    } else {
        QStringDecoder utf8(QStringDecoder::Utf8);
        text = utf8.decode(head_);
        if (utf8.hasError() && enc == QLatin1String("auto")) text = QString::fromLatin1(head_);
    }
    if (text.startsWith(QChar(0xFEFF))) text.remove(0, 1);
    auto lines = text.split(QLatin1Char('\n'));
    if (lines.size() > kRawLines) lines.resize(kRawLines);
    for (auto& l : lines)
        if (l.endsWith(QLatin1Char('\r'))) l.chop(1);
    raw_->setPlainText(lines.join(QLatin1Char('\n')));
}

void CsvOptionsDialog::updatePreview() {
    // Parse only the first lines, by the real reader: the preview cannot disagree with it.
    // (A quoted cell that spans the cut may show as an error here but read fine in full.)
    QByteArray part;
    int lines = 0;
    const int wanted = kPreviewRows + (header_->isChecked() ? 1 : 0);
    for (qsizetype i = 0; i < head_.size() && lines < wanted; ++i) {
        part.append(head_[i]);
        if (head_[i] == '\n') ++lines;
    }
    const auto suffix =
        QFileInfo(path_).suffix().isEmpty() ? QStringLiteral("csv") : QFileInfo(path_).suffix();
    QTemporaryFile tmp(QDir::tempPath() + QStringLiteral("/ppsynth-preview-XXXXXX.") + suffix);
    data::ReadOptions ro;
    ro.csv = options();
    Expected<data::Table> table = Error{tr("the preview file could not be written").toStdString()};
    if (tmp.open() && tmp.write(part) == part.size() && tmp.flush())
        table = data::readTable(localPath(tmp.fileName()), ro);
    if (table) {
        error_->hide();
        previewModel_->setTable(std::make_shared<data::Table>(std::move(*table)));
    } else {
        // Name the real file, not the temporary one.
        auto msg = QString::fromStdString(table.message())
                       .replace(tmp.fileName(), QFileInfo(path_).fileName());
        error_->setText(msg);
        error_->show();
        previewModel_->setTable(nullptr);
    }
}

}  // namespace ppsynth::ui

#include "moc_csv_options_dialog.cpp"
