#include "data/stat_common.hpp"

#include <cstdint>
#include <cstdio>

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

// FNV-1a over the names, each ended by a zero byte; 8 hex digits.
std::string namesFingerprint(const std::vector<std::string>& names) {
    std::uint32_t h = 2166136261u;
    const auto mix = [&](unsigned char byte) { h = (h ^ byte) * 16777619u; };
    for (const auto& n : names) {
        for (unsigned char ch : n) mix(ch);
        mix(0);
    }
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(h));
    return buf;
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
    std::vector<std::string> names;
    std::string letters;
    for (const auto& c : table.columns()) {
        names.push_back(c.name());
        letters += typeLetter(c.type());
    }
    const std::string head = std::string(kTypeNotePrefix) + namesFingerprint(names) + ": ";
    const std::size_t perLine = kNoteLineLimit - head.size();
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < letters.size(); at += perLine)
        lines.push_back(head + letters.substr(at, perLine));
    return lines;
}

std::optional<std::string> decodeTypeNotes(const std::vector<std::string>& notes,
                                           const std::vector<std::string>& names) {
    const std::string head = std::string(kTypeNotePrefix) + namesFingerprint(names) + ": ";
    std::string letters;
    for (const auto& note : notes)
        if (note.rfind(head, 0) == 0) letters += note.substr(head.size());
    if (letters.size() != names.size()) return std::nullopt;
    if (letters.find_first_not_of("nckt") != std::string::npos) return std::nullopt;
    return letters;
}

}  // namespace ppsynth::data::detail
