#include "ui/report/report_pdf.hpp"

#include <QAbstractTextDocumentLayout>
#include <QImage>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>
#include <cmath>

namespace ppsynth::ui::report {

namespace {

QString escPdf(const QString& s) {
    return s.toHtmlEscaped();
}

// The Creator writePdf sets, up to the version.
const QString kCreator = QStringLiteral("ppsynth ");

// QTextDocument's HTML subset: tables with cell borders, images from resources.
QString tableHtmlPdf(const ReportTable& t) {
    QString h =
        QStringLiteral(
            "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"%1\" "
            "style=\"border-collapse: collapse; border-color: #c8c8c8; font-size: 7.5pt;\">")
            .arg(t.header.size() > 3 ? QStringLiteral("100%") : QStringLiteral("60%"));
    if (!t.caption.isEmpty())
        h = QStringLiteral("<p style=\"font-weight: bold; margin-top: 10px;\">%1</p>")
                .arg(escPdf(t.caption)) +
            h;
    h += QStringLiteral("<tr>");
    for (const auto& c : t.header)
        h += QStringLiteral("<th bgcolor=\"#f0f0f0\" align=\"left\">%1</th>").arg(escPdf(c));
    h += QStringLiteral("</tr>");
    for (const auto& row : t.rows) {
        h += QStringLiteral("<tr>");
        for (int j = 0; j < row.size(); ++j) {
            const bool right = static_cast<std::size_t>(j) < t.alignRight.size() &&
                               t.alignRight[static_cast<std::size_t>(j)];
            h += QStringLiteral("<td align=\"%1\">%2</td>")
                     .arg(right ? QStringLiteral("right") : QStringLiteral("left"), escPdf(row[j]));
        }
        h += QStringLiteral("</tr>");
    }
    h += QStringLiteral("</table>");
    if (!t.note.isEmpty())
        h += QStringLiteral("<p style=\"font-size: 7.5pt; color: #444;\">%1</p>")
                 .arg(escPdf(t.note));
    return h;
}

QString documentHtml(const ReportDocument& doc, double bodyWidth) {
    QString h =
        QStringLiteral("<html><body style=\"font-family: 'DejaVu Sans'; font-size: 9pt;\">");
    h += QStringLiteral("<h1 style=\"font-size: 16pt;\">%1</h1><p style=\"color: #555;\">%2</p>")
             .arg(escPdf(doc.title), escPdf(doc.subtitle));
    h += QStringLiteral(
             "<table border=\"1\" cellpadding=\"6\" cellspacing=\"0\" width=\"100%\" "
             "style=\"border-color: #b00020;\"><tr><td bgcolor=\"#fff4f4\"><b>%1.</b> %2</td>"
             "</tr></table>")
             .arg(QString::fromLatin1(kConfidential), escPdf(doc.confidentialNotice));
    for (const auto& s : doc.sections) {
        h += QStringLiteral("<h2 style=\"font-size: 13pt; color: #b00020;\">%1</h2>")
                 .arg(escPdf(s.heading));
        for (const auto& b : s.blocks) {
            switch (b.kind) {
                case ReportBlock::Kind::Paragraph:
                    h += QStringLiteral("<p>%1</p>").arg(escPdf(b.text));
                    break;
                case ReportBlock::Kind::Table:
                    h += tableHtmlPdf(b.table);
                    break;
                case ReportBlock::Kind::Figure: {
                    const auto& f = b.figure;
                    const double w = 0.92 * bodyWidth;
                    const double scale = f.size.width() > 0 ? w / f.size.width() : 1.0;
                    h += QStringLiteral(
                             "<p style=\"margin-top: 12px;\"><img src=\"fig:%1\" width=\"%2\" "
                             "height=\"%3\"><br><b>%4.</b> %5</p>")
                             .arg(escPdf(f.key))
                             .arg(std::floor(w))
                             .arg(std::floor(f.size.height() * scale))
                             .arg(escPdf(f.title), escPdf(f.caption));
                    break;
                }
            }
        }
    }
    h += QStringLiteral("</body></html>");
    return h;
}

}  // namespace

Expected<int> writePdf(const ReportDocument& doc, const QString& path,
                       const ProgressCallback& progress) {
    QPdfWriter writer(path);
    writer.setTitle(QString::fromLatin1(kConfidential) + QStringLiteral(" - ") + doc.title);
    writer.setCreator(kCreator + QStringLiteral(PPSYNTH_VERSION));
    // 96 dpi: the text document lays out in the same units as on screen.
    writer.setResolution(96);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(15, 12, 15, 12), QPageLayout::Millimeter));
    QPainter painter;
    if (!painter.begin(&writer))
        return Error::io("could not write the PDF '" + path.toStdString() + "'");
    const QRectF page = writer.pageLayout().paintRectPixels(writer.resolution());
    const QRectF area(0, 0, page.width(), page.height());
    constexpr double kBand = 28;  // header and footer bands
    const QRectF body(0, kBand, area.width(), area.height() - 2 * kBand);

    QTextDocument text;
    text.setDocumentMargin(0);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9);
    text.setDefaultFont(font);
    for (const auto& s : doc.sections)
        for (const auto& b : s.blocks)
            if (b.kind == ReportBlock::Kind::Figure) {
                QImage image;
                image.loadFromData(b.figure.png, "PNG");
                text.addResource(QTextDocument::ImageResource,
                                 QUrl(QStringLiteral("fig:") + b.figure.key), image);
            }
    text.setHtml(documentHtml(doc, body.width()));
    text.setPageSize(body.size());
    const int pages = text.pageCount();

    QFont band(QStringLiteral("DejaVu Sans"));
    band.setPointSizeF(8);
    band.setBold(true);
    for (int p = 0; p < pages; ++p) {
        if (ppsynth::report(progress, {"writing pages", 0, double(p), double(pages)}) ==
            Continue::Stop) {
            painter.end();
            return Error::cancelled();
        }
        if (p > 0 && !writer.newPage()) return Error::io("could not add a page to the PDF");
        painter.save();
        painter.setFont(band);
        painter.setPen(QColor(0xb0, 0x00, 0x20));
        const QString word = QString::fromLatin1(kConfidential);
        painter.drawText(QRectF(0, 0, area.width(), kBand - 8), Qt::AlignLeft | Qt::AlignVCenter,
                         word);
        painter.drawText(QRectF(0, 0, area.width(), kBand - 8), Qt::AlignRight | Qt::AlignVCenter,
                         doc.title);
        painter.drawLine(QPointF(0, kBand - 6), QPointF(area.width(), kBand - 6));
        const double footTop = area.height() - kBand + 6;
        painter.drawLine(QPointF(0, footTop), QPointF(area.width(), footTop));
        painter.drawText(QRectF(0, footTop + 2, area.width(), kBand - 8),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         word + QStringLiteral(" - disclosure review only, do not release"));
        painter.drawText(QRectF(0, footTop + 2, area.width(), kBand - 8),
                         Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("page %1 of %2").arg(p + 1).arg(pages));
        painter.restore();

        painter.save();
        painter.translate(body.left(), body.top() - p * body.height());
        const QRectF clip(0, p * body.height(), body.width(), body.height());
        painter.setClipRect(clip);
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.clip = clip;
        text.documentLayout()->draw(&painter, ctx);
        painter.restore();
    }
    if (!painter.end()) return Error::io("could not finish the PDF '" + path.toStdString() + "'");
    return pages;
}

bool isPdfReport(const QByteArray& start, const QByteArray& end) {
    if (!start.startsWith("%PDF-")) return false;
    // A PDF text string is UTF-16BE after a byte order mark (how Qt writes it) or single bytes.
    QByteArray utf16("\xfe\xff");
    for (const QChar c : kCreator)
        utf16.append(static_cast<char>(c.unicode() >> 8)).append(static_cast<char>(c.unicode()));
    for (const QByteArray& creator :
         {QByteArray("/Creator (") + utf16, QByteArray("/Creator (") + kCreator.toLatin1()})
        if (start.contains(creator) || end.contains(creator)) return true;
    return false;
}

}  // namespace ppsynth::ui::report
