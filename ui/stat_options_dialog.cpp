#include "ui/stat_options_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace ppsynth::ui {

namespace {
// What run configurations accept as an encoding name (study::parseRunConfig): letters,
// digits and - _ . : only. Whether iconv knows it is found out when the file is read.
bool looksLikeEncodingName(const QString& s) {
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9._:-]+$"));
    return name.match(s).hasMatch();
}
}  // namespace

QStringList StatOptionsDialog::commonEncodings() {
    return {QStringLiteral("WINDOWS-1252"), QStringLiteral("CP850"), QStringLiteral("ISO-8859-15")};
}

StatOptionsDialog::StatOptionsDialog(const QString& path, const data::StatOptions& initial,
                                     QWidget* parent)
    : QDialog(parent), encoding_(new QComboBox(this)), error_(new QLabel(this)) {
    setWindowTitle(tr("Read %1").arg(QFileInfo(path).fileName()));
    // Lines broken by hand: a word-wrapped label's height is not what a dialog is sized by.
    auto* about = new QLabel(
        tr("SPSS, Stata and SAS files say which encoding their text is in (variable and\n"
           "value labels, text values). Older files often say none or the wrong one: if\n"
           "labels come out with characters such as \"Ã©\" or \"�\", read the file again\n"
           "with the code page it was written in. The choice is saved with the project\n"
           "and used by its runs."),
        this);
    about->setTextFormat(Qt::PlainText);

    // Editable: any other iconv name may be typed (CP1250, KOI8-R, ...).
    encoding_->setEditable(true);
    encoding_->setInsertPolicy(QComboBox::NoInsert);
    encoding_->addItem(tr("As the file declares (recommended)"), QString());
    const QStringList names = commonEncodings();
    encoding_->addItem(tr("Windows-1252 (western Windows)"), names[0]);
    encoding_->addItem(tr("CP850 (western DOS)"), names[1]);
    encoding_->addItem(tr("ISO-8859-15 (western Unix, Latin-9)"), names[2]);
    encoding_->setToolTip(
        tr("The character encoding of the file's text, as iconv names it. Choose one of "
           "these or type another name, such as CP1250 or KOI8-R."));
    encoding_->setMinimumContentsLength(32);

    error_->setTextFormat(Qt::PlainText);
    error_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    // Its line is kept while hidden, so the dialog needs no new height when it shows.
    QSizePolicy keep = error_->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    error_->setSizePolicy(keep);
    error_->setText(tr("Not an encoding name: use letters, digits and - _ . : only."));
    error_->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("Text encoding:"), encoding_);
    form->addRow(QString(), error_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    read_ = buttons->button(QDialogButtonBox::Ok);
    read_->setText(tr("Read"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(buttons);

    setOptions(initial);
    connect(encoding_, &QComboBox::currentTextChanged, this, &StatOptionsDialog::updateValidity);
    updateValidity();
}

std::optional<QString> StatOptionsDialog::chosenEncoding() const {
    const QString text = encoding_->currentText().trimmed();
    const int item = encoding_->findText(text);
    if (item >= 0) return encoding_->itemData(item).toString();
    if (text.isEmpty()) return QString();
    if (!looksLikeEncodingName(text)) return std::nullopt;
    return text;
}

void StatOptionsDialog::updateValidity() {
    const bool ok = chosenEncoding().has_value();
    read_->setEnabled(ok);
    error_->setVisible(!ok);
}

data::StatOptions StatOptionsDialog::options() const {
    data::StatOptions o;
    o.encoding = chosenEncoding().value_or(QString()).toStdString();
    return o;
}

void StatOptionsDialog::setOptions(const data::StatOptions& options) {
    const QString name = QString::fromStdString(options.encoding);
    const int item = encoding_->findData(name, Qt::UserRole, Qt::MatchFixedString);
    if (item >= 0)
        encoding_->setCurrentIndex(item);
    else
        encoding_->setEditText(name);
}

}  // namespace ppsynth::ui

#include "moc_stat_options_dialog.cpp"
