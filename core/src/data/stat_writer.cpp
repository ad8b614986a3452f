// Writing .sav and .dta through ReadStat's writer, into a temporary file that is renamed
// over the target only when everything succeeded (common/atomic_file.hpp).
//
// Round trip: reading the file back gives an equal Table, with one exception that is by
// design. Categorical levels are stored as numeric codes with value labels. When a
// column's level values are already whole numbers, in text form as formatNumber prints
// them and ascending in level order (columns read from SPSS/Stata/SAS), they are the codes
// and the round trip is exact. Otherwise (levels such as "North" from a CSV file) the codes
// are 1..K in level order: the column reads back with level values "1".."K" and the same
// labels, codes, order and missing cells. Types survive through ppsynth's type note (see
// stat_common.hpp). Text loses trailing spaces (both formats pad strings) and an empty
// string reads back as missing. Date, date-time and time formats are kept (stat_dates.hpp's
// writtenTime): as they were in a file of the same program, otherwise the matching format
// with the numbers converted to what it counts.
#include <readstat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "data/formats.hpp"
#include "data/stat_common.hpp"
#include "data/stat_dates.hpp"
#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data::detail {

namespace {

constexpr std::size_t kSavLabelBytes = 120;
constexpr std::size_t kDtaLabelBytes = 32000;
constexpr std::size_t kSavStringBytes = 32767;
constexpr std::size_t kDtaStringBytes = 2045;  // longer text needs Stata's strL
constexpr double kDtaMaxCode = 2147483620.0;   // larger long values are Stata missing codes
constexpr double kDtaMinCode = -2147483647.0;

// How one column goes into the file.
struct ColumnPlan {
    readstat_type_t type = READSTAT_TYPE_DOUBLE;
    std::size_t width = 0;            // strings: bytes
    std::vector<std::int32_t> codes;  // categorical: the file code of each level
    std::optional<WrittenTime> time;  // numbers with a date/time format
    readstat_variable_t* variable = nullptr;
};

// "an SPSS", "a Stata": for messages.
std::string withArticle(FileFormat format) {
    return (format == FileFormat::Sav ? "an " : "a ") + std::string(statFormatName(format));
}

std::string columnRef(const Column& c) {
    return "column '" + c.name() + "'";
}

bool isAsciiLetter(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}
bool isAsciiDigit(char ch) {
    return ch >= '0' && ch <= '9';
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return s;
}

// Stata: letters, digits and underscores, at most 32 characters, not starting with a digit,
// and not one of Stata's reserved words.
std::string stataNameProblem(const std::string& name) {
    if (name.empty()) return "a Stata variable name cannot be empty";
    if (name.size() > 32) return "Stata variable names have at most 32 characters";
    for (char ch : name)
        if (!isAsciiLetter(ch) && !isAsciiDigit(ch) && ch != '_')
            return "Stata variable names may contain only letters, digits and underscores";
    if (isAsciiDigit(name.front())) return "Stata variable names cannot start with a digit";
    static const std::set<std::string> reserved = {
        "_all", "_b", "byte", "_coef", "_cons", "double", "float", "if",   "in",    "int",
        "long", "_n", "_N",   "_pi",   "_pred", "_rc",    "_skip", "strL", "using", "with"};
    const bool strN = name.size() > 3 && name.rfind("str", 0) == 0 &&
                      std::all_of(name.begin() + 3, name.end(), isAsciiDigit);
    if (reserved.count(name) || strN) return "'" + name + "' is a reserved word in Stata";
    return {};
}

// SPSS: at most 64 bytes; starts with a letter or @; then letters, digits and . _ $ # @;
// not ending with a period; not a reserved word. Non-ASCII letters are allowed (UTF-8).
std::string spssNameProblem(const std::string& name) {
    if (name.empty()) return "an SPSS variable name cannot be empty";
    if (name.size() > 64) return "SPSS variable names have at most 64 bytes";
    const auto ok = [](char ch) {
        return static_cast<unsigned char>(ch) >= 0x80 || isAsciiLetter(ch) || isAsciiDigit(ch) ||
               ch == '.' || ch == '_' || ch == '$' || ch == '#' || ch == '@';
    };
    if (!std::all_of(name.begin(), name.end(), ok))
        return "SPSS variable names may contain only letters, digits and . _ $ # @";
    const char first = name.front();
    if (!(static_cast<unsigned char>(first) >= 0x80 || isAsciiLetter(first) || first == '@'))
        return "SPSS variable names must start with a letter";
    if (name.back() == '.') return "SPSS variable names cannot end with a period";
    static const std::set<std::string> reserved = {"all", "and", "by",  "eq", "ge", "gt",  "le",
                                                   "lt",  "ne",  "not", "or", "to", "with"};
    if (reserved.count(lower(name))) return "'" + name + "' is a reserved word in SPSS";
    return {};
}

// A name for `name` that the format's rule accepts, before making names unique.
std::string acceptedName(const std::string& name, bool sav) {
    const std::size_t limit = sav ? 64 : 32;
    std::string out;
    for (char ch : name) {
        const bool high = static_cast<unsigned char>(ch) >= 0x80;
        // One '_' for a character Stata refuses, not one per byte of it.
        if (!sav && (static_cast<unsigned char>(ch) & 0xC0) == 0x80) continue;
        const bool ok = isAsciiLetter(ch) || isAsciiDigit(ch) || ch == '_' ||
                        (sav && (high || ch == '.' || ch == '$' || ch == '#' || ch == '@'));
        out += ok ? ch : '_';
    }
    if (out.empty()) out = "v";
    const char first = out.front();
    if (sav && !(static_cast<unsigned char>(first) >= 0x80 || isAsciiLetter(first) || first == '@'))
        out = "v" + out;
    if (!sav && isAsciiDigit(first)) out = "_" + out;
    // Cut at the limit, never inside a UTF-8 sequence.
    if (out.size() > limit) {
        std::size_t cut = limit;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
        out.resize(cut);
    }
    if (sav && out.back() == '.') out.back() = '_';
    const auto problem = [&](const std::string& n) {
        return sav ? spssNameProblem(n) : stataNameProblem(n);
    };
    if (!problem(out).empty() && out.size() < limit) out += "_";  // a reserved word
    return out;
}

// The level values as codes when they already are: whole numbers in canonical text,
// ascending (so reading back, which orders levels by code, keeps the order), in range.
std::vector<std::int32_t> ownCodes(const Column& c) {
    std::vector<std::int32_t> codes;
    double previous = -std::numeric_limits<double>::infinity();
    for (const auto& level : c.levels()) {
        auto v = parseNumber(level.value);
        if (!v || *v != std::floor(*v) || formatNumber(*v) != level.value || *v <= previous ||
            *v < kDtaMinCode || *v > kDtaMaxCode)
            return {};
        codes.push_back(static_cast<std::int32_t>(*v));
        previous = *v;
    }
    return codes;
}

Expected<std::vector<ColumnPlan>> planColumns(const Table& table, FileFormat format) {
    const bool sav = format == FileFormat::Sav;
    const std::string formatName = withArticle(format);
    std::vector<ColumnPlan> plans;
    std::set<std::string> seen;
    for (const auto& c : table.columns()) {
        const std::string problem = sav ? spssNameProblem(c.name()) : stataNameProblem(c.name());
        if (!problem.empty())
            return Error{columnRef(c) + " cannot be written to " + formatName +
                         " file: " + problem + "; rename the column"};
        // SPSS names ignore case; Stata's do not.
        if (!seen.insert(sav ? lower(c.name()) : c.name()).second)
            return Error{columnRef(c) + " cannot be written to " + formatName +
                         " file: another column has the same name apart from upper/lower "
                         "case; rename one of them"};
        ColumnPlan plan;
        switch (c.type()) {
            case ColumnType::Numeric:
            case ColumnType::Count:
                for (std::size_t i = 0; i < c.size(); ++i)
                    if (!c.isMissing(i) && !std::isfinite(c.value(i)))
                        return Error{columnRef(c) + " row " + std::to_string(i + 1) + ": " +
                                     formatNumber(c.value(i)) + " cannot be stored in " +
                                     formatName + " file; make it missing or finite"};
                if (c.timeFormat()) plan.time = writtenTime(*c.timeFormat(), format);
                break;
            case ColumnType::Categorical: {
                plan.type = sav ? READSTAT_TYPE_DOUBLE : READSTAT_TYPE_INT32;
                plan.codes = ownCodes(c);
                if (plan.codes.size() != c.levels().size()) {
                    plan.codes.resize(c.levels().size());
                    for (std::size_t k = 0; k < plan.codes.size(); ++k)
                        plan.codes[k] = static_cast<std::int32_t>(k + 1);
                }
                const std::size_t limit = sav ? kSavLabelBytes : kDtaLabelBytes;
                for (const auto& level : c.levels())
                    if (level.label.size() > limit)
                        return Error{columnRef(c) + ": the label '" + level.label.substr(0, 40) +
                                     "...' is longer than the " + std::to_string(limit) +
                                     " bytes " + formatName + " value label may have"};
                break;
            }
            case ColumnType::Text: {
                plan.type = READSTAT_TYPE_STRING;
                plan.width = 1;
                for (const auto& t : c.texts()) plan.width = std::max(plan.width, t.size());
                if (sav && plan.width > kSavStringBytes)
                    return Error{columnRef(c) + ": text longer than " +
                                 std::to_string(kSavStringBytes) +
                                 " bytes cannot be stored in an SPSS file"};
                if (!sav && plan.width > kDtaStringBytes) plan.type = READSTAT_TYPE_STRING_REF;
                break;
            }
        }
        plans.push_back(std::move(plan));
    }
    return plans;
}

// ReadStat's context for the data writer and the error handler.
struct Sink {
    std::FILE* file = nullptr;
    std::string detail;  // what ReadStat's error handler said last
};

ssize_t writeBytes(const void* data, std::size_t length, void* user) {
    auto* sink = static_cast<Sink*>(user);
    const std::size_t written = std::fwrite(data, 1, length, sink->file);
    return written == length ? static_cast<ssize_t>(written) : -1;
}

void onWriteError(const char* message, void* user) {
    if (message) static_cast<Sink*>(user)->detail = message;
}

std::string errorText(readstat_error_t e, const Sink& sink) {
    std::string m = readstat_error_message(e);
    if (!sink.detail.empty() && sink.detail != m) m += " (" + sink.detail + ")";
    if (e == READSTAT_ERROR_WRITE) m += "; the disk may be full or the folder not writable";
    return m;
}

// Writes every row; a failure names the column and row it happened in.
Status writeRows(readstat_writer_t* w, const Table& table, const std::vector<ColumnPlan>& plans,
                 const std::vector<readstat_string_ref_t*>& refs, FileFormat format,
                 const std::string& path, const Sink& sink) {
    const bool sav = format == FileFormat::Sav;
    const auto fail = [&](readstat_error_t e, const Column& c, std::size_t row) {
        return Error{"could not write '" + path + "': " + columnRef(c) + " row " +
                     std::to_string(row + 1) + ": " + errorText(e, sink)};
    };
    std::size_t refIndex = 0;
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
        if (auto e = readstat_begin_row(w); e != READSTAT_OK)
            return Error::io("could not write '" + path + "': " + errorText(e, sink));
        for (std::size_t j = 0; j < plans.size(); ++j) {
            const Column& c = table.column(j);
            const ColumnPlan& plan = plans[j];
            readstat_error_t e = READSTAT_OK;
            if (plan.type == READSTAT_TYPE_STRING_REF) {
                e = readstat_insert_string_ref(w, plan.variable, refs[refIndex++]);
            } else if (c.isMissing(row)) {
                e = readstat_insert_missing_value(w, plan.variable);
            } else if (c.type() == ColumnType::Text) {
                e = readstat_insert_string_value(w, plan.variable, c.texts()[row].c_str());
            } else if (c.type() == ColumnType::Categorical) {
                const std::int32_t code = plan.codes[static_cast<std::size_t>(c.code(row))];
                e = sav ? readstat_insert_double_value(w, plan.variable, code)
                        : readstat_insert_int32_value(w, plan.variable, code);
            } else {
                const double v = plan.time ? plan.time->convert(c.value(row)) : c.value(row);
                e = readstat_insert_double_value(w, plan.variable, v);
            }
            if (e != READSTAT_OK) return fail(e, c, row);
        }
        if (auto e = readstat_end_row(w); e != READSTAT_OK)
            return Error{"could not write '" + path + "' row " + std::to_string(row + 1) + ": " +
                         errorText(e, sink)};
    }
    return {};
}

Status produce(const Table& table, std::vector<ColumnPlan>& plans, FileFormat format,
               const std::string& path, const std::string& tmp) {
    const bool sav = format == FileFormat::Sav;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(tmp.c_str(), "wb"),
                                                         std::fclose);
    if (!file)
        return Error::io("could not create a file beside '" + path +
                         "': check that the folder exists and is writable");
    Sink sink{file.get(), {}};
    std::unique_ptr<readstat_writer_t, void (*)(readstat_writer_t*)> writer(readstat_writer_init(),
                                                                            readstat_writer_free);
    readstat_writer_t* w = writer.get();
    readstat_set_data_writer(w, writeBytes);
    readstat_writer_set_error_handler(w, onWriteError);
    for (const auto& note : encodeTypeNotes(table)) readstat_add_note(w, note.c_str());

    std::vector<readstat_string_ref_t*> refs;  // Stata strL cells, row-major
    for (std::size_t j = 0; j < plans.size(); ++j) {
        const Column& c = table.column(j);
        ColumnPlan& plan = plans[j];
        plan.variable = readstat_add_variable(w, c.name().c_str(), plan.type, plan.width);
        if (plan.time) readstat_variable_set_format(plan.variable, plan.time->format.c_str());
        if (c.type() == ColumnType::Categorical) {
            readstat_label_set_t* set = readstat_add_label_set(w, plan.type, c.name().c_str());
            for (std::size_t k = 0; k < c.levels().size(); ++k) {
                const char* label = c.levels()[k].label.c_str();
                if (sav)
                    readstat_label_double_value(set, plan.codes[k], label);
                else
                    readstat_label_int32_value(set, plan.codes[k], label);
            }
            readstat_variable_set_label_set(plan.variable, set);
        }
        if (sav)
            readstat_variable_set_measure(
                plan.variable, c.type() == ColumnType::Numeric || c.type() == ColumnType::Count
                                   ? READSTAT_MEASURE_SCALE
                                   : READSTAT_MEASURE_NOMINAL);
    }
    for (std::size_t row = 0; row < table.rowCount(); ++row)
        for (std::size_t j = 0; j < plans.size(); ++j)
            if (plans[j].type == READSTAT_TYPE_STRING_REF)
                refs.push_back(readstat_add_string_ref(w, table.column(j).texts()[row].c_str()));

    readstat_error_t e = READSTAT_OK;
    const auto rows = static_cast<long>(table.rowCount());
    if (sav) {
        // .zsav is the zlib-compressed variant; plain .sav uses SPSS's usual byte code.
        const bool zsav = lowerExtension(path) == ".zsav";
        readstat_writer_set_compression(w,
                                        zsav ? READSTAT_COMPRESS_BINARY : READSTAT_COMPRESS_ROWS);
        e = readstat_begin_writing_sav(w, &sink, rows);
    } else {
        readstat_writer_set_file_format_version(w, 118);  // Stata 14+: UTF-8, strL
        e = readstat_begin_writing_dta(w, &sink, rows);
    }
    if (e != READSTAT_OK) return Error::io("could not write '" + path + "': " + errorText(e, sink));
    for (std::size_t j = 0; j < plans.size(); ++j)
        if (auto v = readstat_validate_variable(w, plans[j].variable); v != READSTAT_OK)
            return Error{"'" + path + "': " + columnRef(table.column(j)) +
                         " cannot be written to " + withArticle(format) +
                         " file: " + errorText(v, sink)};
    if (auto s = writeRows(w, table, plans, refs, format, path, sink); !s) return s;
    if (e = readstat_end_writing(w); e != READSTAT_OK)
        return Error::io("could not write '" + path + "': " + errorText(e, sink));
    if (std::fflush(file.get()) != 0 || ::fsync(::fileno(file.get())) != 0)
        return Error::io("could not write '" + path + "': the disk may be full");
    if (std::fclose(file.release()) != 0)
        return Error::io("could not write '" + path + "': the disk may be full");
    return {};
}

}  // namespace

Status writeStatFile(const Table& table, const std::string& path, FileFormat format) {
    const std::string formatName = withArticle(format);
    if (format != FileFormat::Sav && format != FileFormat::Dta)
        return Error{"'" + path + "': ppsynth writes only .sav and .dta among statistics formats"};
    if (table.columnCount() == 0)
        return Error{"'" + path + "': a table without columns cannot be written to " + formatName +
                     " file"};
    if (table.rowCount() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        return Error{"'" + path + "': more rows than " + formatName + " file can hold"};
    auto plans = planColumns(table, format);
    if (!plans) return plans.error().prefixed("'" + path + "': ");
    return commitFileAtomically(
        path, [&](const std::string& tmp) { return produce(table, *plans, format, path, tmp); });
}

}  // namespace ppsynth::data::detail

namespace ppsynth::data {

std::vector<std::string> statVariableNames(const std::vector<std::string>& names,
                                           FileFormat format) {
    if (format != FileFormat::Sav && format != FileFormat::Dta) return names;
    const bool sav = format == FileFormat::Sav;
    const std::size_t limit = sav ? 64 : 32;
    const auto key = [&](const std::string& n) { return sav ? detail::lower(n) : n; };
    std::vector<bool> valid;
    std::set<std::string> used;  // valid names first: they keep theirs
    for (const auto& n : names) {
        valid.push_back((sav ? detail::spssNameProblem(n) : detail::stataNameProblem(n)).empty());
        if (valid.back()) used.insert(key(n));
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (valid[i]) {
            out.push_back(names[i]);
            continue;
        }
        const std::string base = detail::acceptedName(names[i], sav);
        std::string name = base;
        for (int k = 2; used.count(key(name)); ++k) {
            const std::string suffix = "_" + std::to_string(k);
            name = base.substr(0, std::min(base.size(), limit - suffix.size())) + suffix;
        }
        used.insert(key(name));
        out.push_back(name);
    }
    return out;
}

}  // namespace ppsynth::data
