// Reading and writing tables: CSV (own parser) and SPSS/Stata/SAS (through ReadStat).
// Readers never modify the source; writers write atomically.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/data/table.hpp"

namespace ppsynth::data {

enum class FileFormat { Csv, Sav, Dta, Sas7bdat, Xpt };

std::string_view toString(FileFormat f);
// From the file name's extension (case-insensitive): .csv/.txt/.tsv, .sav/.zsav, .dta,
// .sas7bdat, .xpt. nullopt for anything else.
std::optional<FileFormat> formatFromPath(const std::string& path);

struct CsvOptions {
    char delimiter = 0;  // 0: detect among , ; tab |
    char quote = '"';
    // Decimal separator of numbers, '.' or ','; 0: ',' when the delimiter is not ',' and
    // the numbers in the first rows are written with commas (1,5) and none with points.
    char decimal = 0;
    // Separator of digit groups in numbers ("1,234.5", "1.234,5", "1 234,5", "1'234.5"):
    // ',', '.', ' ' (also the no-break spaces U+00A0 and U+202F) or '\''; 0 for none. Never
    // guessed: without it, a column that would be numbers with one gets a note saying which
    // to set. It must differ from the decimal separator; with ',' or '.' an automatic decimal
    // separator is the other one. Numbers without separators are read too.
    char thousands = 0;
    bool header = true;
    // "auto": UTF-8 (with or without BOM), falling back to Windows-1252 (Latin-1 with
    // Excel's euro sign, curly quotes and dashes) when the bytes are not valid UTF-8; or
    // "utf-8" / "latin-1" (read as Windows-1252) to force one. UTF-16 and UTF-32 files
    // (with a byte order mark, or without one, known by their zero bytes) are refused with
    // advice to save them as UTF-8.
    std::string encoding = "auto";
    // Cells equal to one of these (after trimming spaces) are missing.
    std::vector<std::string> missingTokens = {"", "NA", "."};
    // Bytes read per step; the reader holds about this much of the file at a time (more
    // only while one record is longer). Small values are for tests.
    std::size_t chunkBytes = std::size_t{1} << 20;
};

// Whether CsvOptions::encoding may be `name` (auto, utf-8, latin-1 or an alias of one).
bool isCsvEncoding(const std::string& name);

// SPSS, Stata and SAS files (read through ReadStat).
struct StatOptions {
    // The character encoding of the file's text, as iconv names it ("WINDOWS-1252",
    // "CP850", "ISO-8859-15"). Empty: what the file declares, or ReadStat's default for files
    // that declare none. Older files may declare none, or the wrong one.
    std::string encoding;
};

struct ReadOptions {
    CsvOptions csv;
    StatOptions stat;
    // A text column with more distinct values than this is read as text, not categorical;
    // an override to categorical beyond it is an error.
    std::size_t maxLevels = 100;
    // Per-column type overrides applied after detection (column name, type).
    std::vector<std::pair<std::string, ColumnType>> typeOverrides;
    // Refuse a file whose table would not fit: 0 means the machine's available memory.
    std::size_t memoryBudgetBytes = 0;
    ProgressCallback progress;  // stage "reading", done/total in bytes
};

// What a reader noticed that a person should know (encoding fallback, detected delimiter).
struct ReadReport {
    std::vector<std::string> notes;
};

Expected<Table> readTable(const std::string& path, const ReadOptions& options = {},
                          ReadReport* report = nullptr);

struct WriteOptions {
    char delimiter = ',';
};

// The format follows the extension unless given. CSV writes labels for categorical
// columns; .sav and .dta keep level values and labels so the file reads back equal, and
// the date, date-time and time formats of columns read from SPSS, Stata or SAS: as they
// were for the same program, else the matching format with the numbers converted (an SPSS
// DATE11 column, seconds since 1582, becomes a Stata %td column of days since 1960).
// Formats with no counterpart (Stata %tC, %ty, %tb; SPSS DTIME) leave plain numbers there.
Status writeTable(const Table& table, const std::string& path,
                  std::optional<FileFormat> format = std::nullopt,
                  const WriteOptions& options = {});

// Names .sav (FileFormat::Sav) or .dta (Dta) files accept, one per column name: a valid name
// stays, any other becomes one as pandas' to_stata does it (R's "Sepal.Length" is
// "Sepal_Length" in Stata): characters the format does not allow become '_', a name that may
// not start so gets a prefix ('_' for Stata, 'v' for SPSS), a reserved word a '_' more, then
// cut to the length limit and made unique (SPSS ignoring case) with "_2", "_3", ... Other
// formats keep every name.
std::vector<std::string> statVariableNames(const std::vector<std::string>& names,
                                           FileFormat format);

}  // namespace ppsynth::data
