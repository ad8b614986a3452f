// The disclosure-review report as a document: sections of paragraphs, tables and figures,
// built once from a finished run and rendered twice (report_html.hpp, report_pdf.hpp), so
// the HTML and the PDF can never say different things. Everything in it is confidential:
// it holds record-level values (top-risk records, weights, confidential y) by design.
#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QStringList>
#include <vector>

namespace ppsynth::ui::report {

struct ReportTable {
    QString caption;
    QStringList header;
    std::vector<QStringList> rows;
    QString note;                  // below the table (how to read it, what was left out)
    std::vector<bool> alignRight;  // per column; numbers right, words left
};

struct ReportFigure {
    QString key;  // unique in the report; also the image's resource name
    QString title;
    QString caption;  // one sentence: how to read it
    QByteArray png;   // the chart rendered offscreen
    QSize size;       // of the PNG, in pixels
};

struct ReportBlock {
    enum class Kind { Paragraph, Table, Figure };
    Kind kind = Kind::Paragraph;
    QString text;  // Paragraph (plain text)
    ReportTable table;
    ReportFigure figure;

    static ReportBlock paragraph(QString text);
    static ReportBlock tableBlock(ReportTable table);
    static ReportBlock figureBlock(ReportFigure figure);
};

struct ReportSection {
    QString id;  // anchor: "configuration", "epsilon", "risk", ...
    QString heading;
    std::vector<ReportBlock> blocks;
};

struct ReportDocument {
    QString title;
    QString subtitle;  // the run folder and the time the report was made
    QString confidentialNotice;
    std::vector<ReportSection> sections;

    const ReportSection* find(const QString& id) const;
};

// The banner word and notice on every page of every rendering.
inline const char* kConfidential = "CONFIDENTIAL";

}  // namespace ppsynth::ui::report
