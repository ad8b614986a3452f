#include "ui/report/report_html.hpp"

namespace ppsynth::ui::report {

namespace {

QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

// The generator tag up to the version, and the head every report began with before it.
constexpr char kGenerator[] = "<meta name=\"generator\" content=\"ppsynth ";
constexpr char kHeadBeforeGenerator[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>CONFIDENTIAL - Disclosure review: ";

const char* kStyle = R"(
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 14px; color: #1b1b1b;
       margin: 0; padding: 0 32px 48px; max-width: 1200px; }
.banner { background: #b00020; color: white; font-weight: bold; text-align: center;
          padding: 6px 12px; letter-spacing: 0.08em; }
.banner.top { position: sticky; top: 0; z-index: 10; margin: 0 -32px 16px; }
.banner.bottom { margin: 32px -32px 0; }
h1 { font-size: 26px; margin: 8px 0 4px; }
h2 { font-size: 20px; border-bottom: 2px solid #b00020; padding-bottom: 4px; margin-top: 36px; }
.sub { color: #555; margin: 0 0 8px; }
.notice { border: 1px solid #b00020; background: #fff4f4; padding: 8px 12px; }
nav ol { columns: 2; }
table { border-collapse: collapse; margin: 12px 0 4px; font-size: 13px; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
th, td { border: 1px solid #c8c8c8; padding: 3px 8px; vertical-align: top; }
th { background: #f0f0f0; text-align: left; }
td.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
p.note { color: #444; font-size: 12px; margin: 2px 0 16px; }
figure { margin: 20px 0; page-break-inside: avoid; }
figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: 13px; margin-top: 4px; }
@media print {
  .banner.top { position: fixed; top: 0; left: 0; right: 0; margin: 0; }
  body { padding-top: 40px; }
  h2 { page-break-after: avoid; }
}
)";

QString tableHtml(const ReportTable& t) {
    QString h = QStringLiteral("<table>\n");
    if (!t.caption.isEmpty()) h += QStringLiteral("<caption>%1</caption>\n").arg(esc(t.caption));
    h += QStringLiteral("<thead><tr>");
    for (const auto& c : t.header) h += QStringLiteral("<th>%1</th>").arg(esc(c));
    h += QStringLiteral("</tr></thead>\n<tbody>\n");
    for (const auto& row : t.rows) {
        h += QStringLiteral("<tr>");
        for (int j = 0; j < row.size(); ++j) {
            const bool right = static_cast<std::size_t>(j) < t.alignRight.size() &&
                               t.alignRight[static_cast<std::size_t>(j)];
            h += (right ? QStringLiteral("<td class=\"r\">") : QStringLiteral("<td>")) +
                 esc(row[j]) + QStringLiteral("</td>");
        }
        h += QStringLiteral("</tr>\n");
    }
    h += QStringLiteral("</tbody></table>\n");
    if (!t.note.isEmpty()) h += QStringLiteral("<p class=\"note\">%1</p>\n").arg(esc(t.note));
    return h;
}

QString figureHtml(const ReportFigure& f) {
    return QStringLiteral(
               "<figure id=\"fig-%1\"><img alt=\"%2\" width=\"%3\" height=\"%4\" "
               "src=\"data:image/png;base64,%5\">\n<figcaption><b>%2.</b> "
               "%6</figcaption></figure>\n")
        .arg(esc(f.key), esc(f.title))
        .arg(f.size.width())
        .arg(f.size.height())
        .arg(QString::fromLatin1(f.png.toBase64()), esc(f.caption));
}

}  // namespace

QString toHtml(const ReportDocument& doc) {
    const QString banner = QString::fromLatin1(kConfidential);
    QString h = QStringLiteral(
                    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "%1\n<title>%2 - %3</title>\n<style>%4</style>\n</head>\n<body>\n")
                    .arg(QString::fromLatin1(kGenerator) + QStringLiteral(PPSYNTH_VERSION "\">"),
                         banner, esc(doc.title), QString::fromLatin1(kStyle));
    h += QStringLiteral("<div class=\"banner top\">%1 - %2</div>\n")
             .arg(banner, esc(doc.confidentialNotice));
    h += QStringLiteral(
             "<header><h1>%1</h1><p class=\"sub\">%2</p>"
             "<p class=\"notice\"><b>%3.</b> %4</p></header>\n")
             .arg(esc(doc.title), esc(doc.subtitle), banner, esc(doc.confidentialNotice));
    h += QStringLiteral("<nav><ol>");
    for (const auto& s : doc.sections)
        h += QStringLiteral("<li><a href=\"#%1\">%2</a></li>").arg(esc(s.id), esc(s.heading));
    h += QStringLiteral("</ol></nav>\n");
    for (const auto& s : doc.sections) {
        h += QStringLiteral("<section id=\"%1\">\n<h2>%2</h2>\n").arg(esc(s.id), esc(s.heading));
        for (const auto& b : s.blocks) {
            switch (b.kind) {
                case ReportBlock::Kind::Paragraph:
                    h += QStringLiteral("<p>%1</p>\n").arg(esc(b.text));
                    break;
                case ReportBlock::Kind::Table:
                    h += tableHtml(b.table);
                    break;
                case ReportBlock::Kind::Figure:
                    h += figureHtml(b.figure);
                    break;
            }
        }
        h += QStringLiteral("</section>\n");
    }
    h += QStringLiteral("<div class=\"banner bottom\">%1 - %2</div>\n</body>\n</html>\n")
             .arg(banner, esc(doc.confidentialNotice));
    return h;
}

bool isHtmlReport(const QByteArray& start) {
    const qsizetype end = start.indexOf("</head>");
    const QByteArray head = end < 0 ? start : start.left(end);
    return head.contains(kGenerator) || head.startsWith(kHeadBeforeGenerator);
}

}  // namespace ppsynth::ui::report
