#include "ui/report/report_document.hpp"

namespace ppsynth::ui::report {

ReportBlock ReportBlock::paragraph(QString text) {
    ReportBlock b;
    b.kind = Kind::Paragraph;
    b.text = std::move(text);
    return b;
}

ReportBlock ReportBlock::tableBlock(ReportTable table) {
    ReportBlock b;
    b.kind = Kind::Table;
    b.table = std::move(table);
    return b;
}

ReportBlock ReportBlock::figureBlock(ReportFigure figure) {
    ReportBlock b;
    b.kind = Kind::Figure;
    b.figure = std::move(figure);
    return b;
}

const ReportSection* ReportDocument::find(const QString& id) const {
    for (const auto& s : sections)
        if (s.id == id) return &s;
    return nullptr;
}

}  // namespace ppsynth::ui::report
