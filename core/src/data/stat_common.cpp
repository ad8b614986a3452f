#include "data/stat_common.hpp"

namespace ppsynth::data::detail {

namespace {
constexpr std::size_t kNoteLineLimit = 80;  // SPSS document lines

char typeLetter(ColumnType t) {
    switch (t) {
        case ColumnType::Numeric:
            return 'n';
        case ColumnType::Count:
            return 'c';
        case ColumnType::Categorical:
            return 'k';
        case ColumnType::Text:
            return 't';
    }
    return 'n';
}
}  // namespace

std::string_view statFormatName(FileFormat format) {
    switch (format) {
        case FileFormat::Sav:
            return "SPSS";
        case FileFormat::Dta:
            return "Stata";
        case FileFormat::Sas7bdat:
            return "SAS";
        case FileFormat::Xpt:
            return "SAS transport (XPORT)";
        case FileFormat::Csv:
            return "CSV";
    }
    return "data";
}

std::vector<std::string> encodeTypeNotes(const Table& table) {
    const std::size_t perLine = kNoteLineLimit - kTypeNotePrefix.size();
    std::vector<std::string> lines;
    std::string letters;
    for (const auto& c : table.columns()) letters += typeLetter(c.type());
    for (std::size_t at = 0; at < letters.size(); at += perLine)
        lines.push_back(std::string(kTypeNotePrefix) + letters.substr(at, perLine));
    return lines;
}

std::optional<std::string> decodeTypeNotes(const std::vector<std::string>& notes,
                                           std::size_t columnCount) {
    std::string letters;
    bool found = false;
    for (const auto& note : notes) {
        if (note.rfind(kTypeNotePrefix, 0) != 0) continue;
        found = true;
        letters += note.substr(kTypeNotePrefix.size());
    }
    if (!found || letters.size() != columnCount) return std::nullopt;
    if (letters.find_first_not_of("nckt") != std::string::npos) return std::nullopt;
    return letters;
}

}  // namespace ppsynth::data::detail
