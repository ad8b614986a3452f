#include "ppsynth/data/io.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "data/formats.hpp"

namespace ppsynth::data {

std::string_view toString(FileFormat f) {
    switch (f) {
        case FileFormat::Csv:
            return "csv";
        case FileFormat::Sav:
            return "sav";
        case FileFormat::Dta:
            return "dta";
        case FileFormat::Sas7bdat:
            return "sas7bdat";
        case FileFormat::Xpt:
            return "xpt";
    }
    return "csv";
}

std::string detail::lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

std::optional<FileFormat> formatFromPath(const std::string& path) {
    const std::string ext = detail::lowerExtension(path);
    if (ext == ".csv" || ext == ".txt" || ext == ".tsv") return FileFormat::Csv;
    // SPSS portable files (.por, older releases) read like .sav: same dates, labels, missing.
    if (ext == ".sav" || ext == ".zsav" || ext == ".por") return FileFormat::Sav;
    if (ext == ".dta") return FileFormat::Dta;
    if (ext == ".sas7bdat") return FileFormat::Sas7bdat;
    if (ext == ".xpt") return FileFormat::Xpt;
    return std::nullopt;
}

Expected<Table> readTable(const std::string& path, const ReadOptions& options, ReadReport* report) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return Error{"'" + path + "' does not exist or is not a file"};
    auto format = formatFromPath(path);
    const std::string ext = detail::lowerExtension(path);
    if (!format && (ext == ".xlsx" || ext == ".xls" || ext == ".xlsm" || ext == ".ods"))
        return Error{"'" + path +
                     "' is a spreadsheet, which ppsynth does not read: save the sheet from Excel "
                     "or LibreOffice as \"CSV UTF-8 (Comma delimited)\" and open the .csv file"};
    if (!format)
        return Error{"'" + path +
                     "': unknown file type; ppsynth reads .csv, .tsv, .txt, .sav, .zsav, .por, "
                     ".dta, .sas7bdat and .xpt"};
    auto table = *format == FileFormat::Csv ? detail::readCsv(path, options, report)
                                            : detail::readStatFile(path, *format, options, report);
    if (!table) return table;
    if (auto s = detail::applyTypeOverrides(*table, options); !s)
        return s.error().prefixed("'" + path + "': ");
    return table;
}

Status writeTable(const Table& table, const std::string& path, std::optional<FileFormat> format,
                  const WriteOptions& options) {
    if (!format) format = formatFromPath(path);
    if (!format) return Error{"'" + path + "': unknown file type; use .csv, .sav or .dta"};
    switch (*format) {
        case FileFormat::Csv:
            return detail::writeCsv(table, path, options);
        case FileFormat::Sav:
        case FileFormat::Dta:
            return detail::writeStatFile(table, path, *format);
        case FileFormat::Sas7bdat:
        case FileFormat::Xpt:
            return Error{"'" + path +
                         "': ppsynth does not write SAS files; write .sav, .dta or .csv"};
    }
    return Error{"unknown format"};
}

namespace detail {

Status applyTypeOverrides(Table& table, const ReadOptions& options) {
    for (const auto& [name, type] : options.typeOverrides) {
        auto idx = table.indexOf(name);
        if (!idx)
            return Error{"type override names column '" + name + "', which the file does not have"};
        auto converted = table.column(*idx).convertedTo(type, options.maxLevels);
        if (!converted) return converted.status();
        if (auto s = table.replaceColumn(*idx, std::move(*converted)); !s) return s;
    }
    return {};
}

}  // namespace detail
}  // namespace ppsynth::data
