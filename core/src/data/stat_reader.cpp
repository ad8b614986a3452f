// Reading SPSS, Stata and SAS files through ReadStat's callback parser. Values are
// collected per variable while the file streams by; value labels (which Stata stores after
// the data) are joined at the end, when each variable becomes a typed column.
#include <readstat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "data/formats.hpp"
#include "data/memory_budget.hpp"
#include "data/stat_common.hpp"
#include "data/stat_dates.hpp"
#include "data/text_encoding.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data::detail {

namespace {

// One SPSS user-missing rule; lo == hi for a single value.
struct MissingRule {
    double lo = 0, hi = 0;
    std::string text;  // string variables: a single missing value
    bool isString = false;
};

struct LabelEntry {
    bool isString = false;
    double key = 0;
    std::string textKey;
    std::string label;
};

struct Variable {
    std::string name;
    bool isString = false;
    std::string labelSet;  // empty: no value labels
    std::string format;    // display format ("F8.2", "DATE9", "%td"); may be empty
    readstat_measure_t measure = READSTAT_MEASURE_UNKNOWN;  // SPSS only
    std::vector<MissingRule> missingRules;
    std::vector<double> numbers;
    std::vector<std::string> texts;
    std::vector<std::uint8_t> missing;
};

struct ReadContext {
    std::string path;
    FileFormat format = FileFormat::Sav;
    const ReadOptions* options = nullptr;
    double fileBytes = 0;
    std::size_t expectedRows = 0;  // from the header; 0 when unknown
    std::vector<Variable> variables;
    std::map<std::string, std::vector<LabelEntry>> labelSets;
    std::map<int, std::string> notes;
    std::string detail;   // the last message ReadStat's error handler gave
    std::string failure;  // why a handler of ours aborted
    std::string badText;  // where text that is not UTF-8 was met (see acceptText)
    bool cancelled = false;
};

std::string inQuotes(const std::string& path) {
    return "'" + path + "'";
}

// ReadStat checks text only while converting it to UTF-8; Stata 118+ text is UTF-8 by
// definition, so unless an encoding is chosen it passes unchecked and stray code-page bytes
// would reach the table and every file and JSON written from it. `where` runs only on failure.
template <class Where>
bool acceptText(ReadContext& ctx, std::string_view text, const Where& where) {
    if (isValidUtf8(text)) return true;
    ctx.badText = where();
    return false;
}

int onMetadata(readstat_metadata_t* metadata, void* user) {
    auto& ctx = *static_cast<ReadContext*>(user);
    const auto rows = static_cast<double>(readstat_get_row_count(metadata));
    const auto vars = static_cast<double>(readstat_get_var_count(metadata));
    if (rows <= 0 || vars <= 0) return READSTAT_HANDLER_OK;  // XPORT: row count unknown
    ctx.expectedRows = static_cast<std::size_t>(rows);
    // A cell costs a double and a mask byte at least; strings cost more, so this is a floor.
    const double need = rows * vars * (sizeof(double) + 1);
    const std::size_t budget = ctx.options->memoryBudgetBytes ? ctx.options->memoryBudgetBytes
                                                              : availableMemoryBytes().value_or(0);
    if (budget != 0 && need > static_cast<double>(budget)) {
        ctx.failure = inQuotes(ctx.path) + " needs at least " +
                      humanBytes(static_cast<std::size_t>(need)) + " of memory to read (" +
                      formatNumber(rows) + " rows, " + formatNumber(vars) +
                      " columns), more than the " + humanBytes(budget) + " available";
        return READSTAT_HANDLER_ABORT;
    }
    return READSTAT_HANDLER_OK;
}

int onNote(int index, const char* note, void* user) {
    static_cast<ReadContext*>(user)->notes[index] = note ? note : "";
    return READSTAT_HANDLER_OK;
}

int onVariable(int index, readstat_variable_t* variable, const char* labelSet, void* user) {
    auto& ctx = *static_cast<ReadContext*>(user);
    if (index < 0) return READSTAT_HANDLER_ABORT;
    if (ctx.variables.size() <= static_cast<std::size_t>(index))
        ctx.variables.resize(static_cast<std::size_t>(index) + 1);
    Variable& v = ctx.variables[static_cast<std::size_t>(index)];
    v.name = readstat_variable_get_name(variable);
    // By position: the name itself is what cannot be shown.
    if (!acceptText(ctx, v.name, [&] { return "the name of column " + std::to_string(index + 1); }))
        return READSTAT_HANDLER_ABORT;
    v.isString = readstat_variable_get_type_class(variable) == READSTAT_TYPE_CLASS_STRING;
    v.labelSet = labelSet ? labelSet : "";
    const char* format = readstat_variable_get_format(variable);
    v.format = format ? format : "";
    v.measure = readstat_variable_get_measure(variable);
    if (ctx.expectedRows) {
        v.missing.reserve(ctx.expectedRows);
        if (v.isString)
            v.texts.reserve(ctx.expectedRows);
        else
            v.numbers.reserve(ctx.expectedRows);
    }
    const int ranges = readstat_variable_get_missing_ranges_count(variable);
    for (int i = 0; i < ranges; ++i) {
        readstat_value_t lo = readstat_variable_get_missing_range_lo(variable, i);
        readstat_value_t hi = readstat_variable_get_missing_range_hi(variable, i);
        MissingRule rule;
        if (readstat_value_type_class(lo) == READSTAT_TYPE_CLASS_STRING) {
            rule.isString = true;
            const char* s = readstat_string_value(lo);
            rule.text = s ? s : "";
            if (!acceptText(ctx, rule.text,
                            [&] { return "a missing value of column '" + v.name + "'"; }))
                return READSTAT_HANDLER_ABORT;
        } else {
            rule.lo = readstat_double_value(lo);
            rule.hi = readstat_double_value(hi);
        }
        v.missingRules.push_back(std::move(rule));
    }
    return READSTAT_HANDLER_OK;
}

int onValue(int row, readstat_variable_t* variable, readstat_value_t value, void* user) {
    auto& ctx = *static_cast<ReadContext*>(user);
    const int index = readstat_variable_get_index(variable);
    if (index < 0 || static_cast<std::size_t>(index) >= ctx.variables.size() || row < 0)
        return READSTAT_HANDLER_ABORT;
    Variable& v = ctx.variables[static_cast<std::size_t>(index)];
    const auto r = static_cast<std::size_t>(row);
    if (v.missing.size() <= r) {
        v.missing.resize(r + 1, 1);
        if (v.isString)
            v.texts.resize(r + 1);
        else
            v.numbers.resize(r + 1, std::nan(""));
    }
    bool missing = readstat_value_is_missing(value, variable) != 0;
    if (v.isString) {
        const char* s = readstat_string_value(value);
        // SPSS and Stata have no missing string; an empty one is the convention.
        if (!missing && s && *s) {
            if (!acceptText(ctx, s, [&] {
                    return "column '" + v.name + "' row " + std::to_string(row + 1);
                }))
                return READSTAT_HANDLER_ABORT;
            v.texts[r] = s;
        } else {
            missing = true;
        }
    } else if (!missing) {
        v.numbers[r] = readstat_double_value(value);
        if (std::isnan(v.numbers[r])) missing = true;
    }
    v.missing[r] = missing ? 1 : 0;
    return READSTAT_HANDLER_OK;
}

int onValueLabel(const char* labelSet, readstat_value_t value, const char* label, void* user) {
    auto& ctx = *static_cast<ReadContext*>(user);
    // Labels of Stata's .a-.z or SAS's special missing values describe missing cells.
    if (readstat_value_is_tagged_missing(value) || readstat_value_is_system_missing(value))
        return READSTAT_HANDLER_OK;
    LabelEntry e;
    e.label = label ? label : "";
    if (readstat_value_type_class(value) == READSTAT_TYPE_CLASS_STRING) {
        e.isString = true;
        const char* s = readstat_string_value(value);
        e.textKey = s ? s : "";
    } else {
        e.key = readstat_double_value(value);
        if (std::isnan(e.key)) return READSTAT_HANDLER_OK;
    }
    // The label set's name is left out: it may be what is not UTF-8.
    const auto where = [] { return std::string("a value label"); };
    if (!acceptText(ctx, e.label, where) || !acceptText(ctx, e.textKey, where))
        return READSTAT_HANDLER_ABORT;
    ctx.labelSets[labelSet ? labelSet : ""].push_back(std::move(e));
    return READSTAT_HANDLER_OK;
}

void onError(const char* message, void* user) {
    auto& ctx = *static_cast<ReadContext*>(user);
    std::string m = message ? message : "";
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    ctx.detail = m;
}

int onProgress(double fraction, void* user) {
    auto& ctx = *static_cast<ReadContext*>(user);
    Progress p{"reading", 0, fraction * ctx.fileBytes, ctx.fileBytes};
    if (report(ctx.options->progress, p) == Continue::Stop) {
        ctx.cancelled = true;
        return READSTAT_HANDLER_ABORT;
    }
    return READSTAT_HANDLER_OK;
}

bool isUserMissing(const Variable& v, double key) {
    return std::any_of(v.missingRules.begin(), v.missingRules.end(), [&](const MissingRule& m) {
        return !m.isString && key >= m.lo && key <= m.hi;
    });
}

bool isUserMissing(const Variable& v, const std::string& key) {
    return std::any_of(v.missingRules.begin(), v.missingRules.end(),
                       [&](const MissingRule& m) { return m.isString && m.text == key; });
}

// The variable's value labels by value, without those on its user-missing codes: they name
// missing cells, not levels.
template <typename Key>
std::map<Key, std::string> valueLabels(const ReadContext& ctx, const Variable& v) {
    constexpr bool numeric = std::is_same_v<Key, double>;
    std::map<Key, std::string> labelled;
    const auto set = v.labelSet.empty() ? ctx.labelSets.end() : ctx.labelSets.find(v.labelSet);
    if (set == ctx.labelSets.end()) return labelled;
    for (const auto& e : set->second) {
        if (e.isString == numeric) continue;
        const Key& key = [&]() -> const Key& {
            if constexpr (numeric)
                return e.key;
            else
                return e.textKey;
        }();
        if (!isUserMissing(v, key)) labelled.emplace(key, e.label);
    }
    return labelled;
}

template <typename Key>
std::set<Key> presentValues(const Variable& v, const std::vector<Key>& keys) {
    std::set<Key> present;
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (!v.missing[i]) present.insert(keys[i]);
    return present;
}

// Levels ordered by code: the codes present in the data, named by their labels (an unlabelled
// code by itself), and with `keepUnused` also the labelled codes no cell holds. ppsynth's own
// files keep them so that a table reads back equal; in other files a label set is often
// shared by many variables (250 countries, 5 in the data), and unused levels would only
// crowd the level limit and the design matrix.
template <typename Key>
Column categoricalFrom(const Variable& v, const std::map<Key, std::string>& labelled,
                       const std::vector<Key>& keys, const std::set<Key>& present,
                       bool keepUnused) {
    std::map<Key, std::int32_t> index;
    for (const Key& key : present) index.emplace(key, 0);
    if (keepUnused)
        for (const auto& entry : labelled) index.emplace(entry.first, 0);
    std::vector<Level> levels;
    std::int32_t k = 0;
    for (auto& [key, code] : index) {
        code = k++;
        std::string value;
        if constexpr (std::is_same_v<Key, double>)
            value = formatNumber(key);
        else
            value = key;
        auto it = labelled.find(key);
        levels.push_back({value, it != labelled.end() ? it->second : value});
    }
    std::vector<std::int32_t> codes(keys.size(), Column::kMissingCode);
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (!v.missing[i]) codes[i] = index.at(keys[i]);
    return Column::categorical(v.name, std::move(codes), std::move(levels));
}

bool allCounts(const Variable& v) {
    bool any = false;
    for (std::size_t i = 0; i < v.numbers.size(); ++i) {
        if (v.missing[i]) continue;
        const double x = v.numbers[i];
        if (x < 0 || x != std::floor(x) || !std::isfinite(x)) return false;
        any = true;
    }
    return any;
}

void addNote(ReadReport* report, std::string note) {
    if (report) report->notes.push_back(std::move(note));
}

bool overriddenToCategorical(const ReadOptions& options, const std::string& name) {
    std::optional<ColumnType> last;
    for (const auto& [column, type] : options.typeOverrides)
        if (column == name) last = type;
    return last == ColumnType::Categorical;
}

// Why a number variable's value labels do not make it categorical, or nullopt when they do;
// an empty reason needs no note. SPSS's measure level decides when the file sets it.
// Otherwise the labels must name at least half of the values that occur: labels on a few
// values (age 0 = "under 1") annotate a quantity rather than name its categories.
std::optional<std::string> labelsLeftAside(const Variable& v,
                                           const std::map<double, std::string>& labelled,
                                           const std::set<double>& present) {
    if (labelled.empty()) return std::string();  // none, or only on missing codes
    if (v.measure == READSTAT_MEASURE_NOMINAL || v.measure == READSTAT_MEASURE_ORDINAL)
        return std::nullopt;
    const auto named = static_cast<std::size_t>(std::count_if(
        present.begin(), present.end(), [&](double x) { return labelled.count(x) != 0; }));
    // Labels on every value present name categories even under SPSS's default "scale"
    // measure, which many files leave on variables such as sex 1/2.
    if (!present.empty() && named == present.size()) return std::nullopt;
    if (v.measure == READSTAT_MEASURE_SCALE) return std::string("its SPSS measure level is scale");
    if (2 * named >= present.size()) return std::nullopt;
    return "they name only " + std::to_string(named) + " of its " + std::to_string(present.size()) +
           " distinct values";
}

std::string levelLimitNote(const Variable& v, std::size_t distinct, std::size_t maxLevels,
                           const char* readAs) {
    return "column '" + v.name + "' has value labels but " + std::to_string(distinct) +
           " distinct values, more than the level limit of " + std::to_string(maxLevels) +
           "; read as " + readAs;
}

std::string temporalNote(const ReadContext& ctx, const Variable& v, const std::string& units) {
    return "column '" + v.name + "' has the " + std::string(statFormatName(ctx.format)) +
           " date/time format " + v.format + ": its values are " + units +
           "; ppsynth reads and models them as plain numbers";
}

// `hint` as in buildColumn.
Column buildNumberColumn(const ReadContext& ctx, const Variable& v, char hint, ReadReport* report) {
    const std::size_t maxLevels = ctx.options->maxLevels;
    const auto labelled = valueLabels<double>(ctx, v);
    const auto present = presentValues(v, v.numbers);
    if (hint == 'k') return categoricalFrom(v, labelled, v.numbers, present, true);

    const auto units = temporalUnits(ctx.format, v.format);
    if (units) addNote(report, temporalNote(ctx, v, *units));
    bool categorical = false;
    if (!units && !labelled.empty()) {
        // The person asked for categories: the labels name them.
        const bool wanted = overriddenToCategorical(*ctx.options, v.name);
        const auto aside = wanted ? std::nullopt : labelsLeftAside(v, labelled, present);
        categorical = !aside;
        if (aside && !aside->empty())
            addNote(report, "column '" + v.name + "' has value labels, but " + *aside +
                                "; read as a number (a type override to categorical makes "
                                "its levels from the labels)");
        if (categorical && present.size() > maxLevels) {
            categorical = false;
            if (!wanted) addNote(report, levelLimitNote(v, present.size(), maxLevels, "a number"));
        }
    }
    if (categorical) return categoricalFrom(v, labelled, v.numbers, present, present.empty());
    // A date is a point on a scale, not a number of events.
    const bool countable = hint == 'c' || (hint == 0 && !units);
    Column c = countable && allCounts(v) ? Column::count(v.name, v.numbers, v.missing)
                                         : Column::numeric(v.name, v.numbers, v.missing);
    // Kept so that a written .sav or .dta shows the dates as dates again.
    c.setTimeFormat(timeFormatOf(ctx.format, v.format));
    return c;
}

Column buildTextColumn(const ReadContext& ctx, const Variable& v, char hint, ReadReport* report) {
    if (hint == 't') return Column::text(v.name, v.texts, v.missing);
    const std::size_t maxLevels = ctx.options->maxLevels;
    const auto labelled = valueLabels<std::string>(ctx, v);
    const auto present = presentValues(v, v.texts);
    Column c = categoricalFrom(v, labelled, v.texts, present, hint == 'k' || present.empty());
    if (c.levels().size() <= maxLevels || hint == 'k') return c;
    if (!labelled.empty()) addNote(report, levelLimitNote(v, present.size(), maxLevels, "text"));
    return Column::text(v.name, v.texts, v.missing);
}

// Turns one variable into a column. `hint` is the type ppsynth recorded when it wrote the
// file ('n', 'c', 'k', 't'), or 0 for files from elsewhere.
Column buildColumn(const ReadContext& ctx, const Variable& v, char hint, ReadReport* report) {
    return v.isString ? buildTextColumn(ctx, v, hint, report)
                      : buildNumberColumn(ctx, v, hint, report);
}

// Older files often declare no encoding, or the wrong one; the person can name it.
std::string encodingAdvice(const ReadContext& ctx) {
    const std::string& chosen = ctx.options->stat.encoding;
    if (chosen.empty())
        return "; the file may be in an older code page: choose its encoding with the "
               "statistical files' encoding read option (data.read.stat_encoding in a run "
               "configuration), for example WINDOWS-1252, "
               "CP850 or ISO-8859-15";
    return "; the chosen encoding '" + chosen +
           "' (data.read.stat_encoding) does not fit; try another";
}

Error parseFailure(const ReadContext& ctx, readstat_error_t err) {
    const std::string what = readstat_error_message(err);
    const std::string detail = ctx.detail.empty() || ctx.detail == what ? "" : "; " + ctx.detail;
    const std::string format(statFormatName(ctx.format));
    switch (err) {
        case READSTAT_ERROR_OPEN:
            return Error::io(inQuotes(ctx.path) + " could not be opened (" + what + detail +
                             "); check that it exists and that you may read it");
        case READSTAT_ERROR_MALLOC:
            return Error{inQuotes(ctx.path) + " is too large to read into the available memory"};
        case READSTAT_ERROR_UNSUPPORTED_CHARSET:
            if (!ctx.options->stat.encoding.empty())
                return Error::encoding(
                    inQuotes(ctx.path) + ": the chosen encoding '" + ctx.options->stat.encoding +
                    "' (data.read.stat_encoding) is not one this system knows; use an iconv name "
                    "such as WINDOWS-1252, CP850 or ISO-8859-15");
            [[fallthrough]];
        case READSTAT_ERROR_CONVERT:
        case READSTAT_ERROR_CONVERT_BAD_STRING:
        case READSTAT_ERROR_CONVERT_SHORT_STRING:
        case READSTAT_ERROR_CONVERT_LONG_STRING:
            return Error::encoding(inQuotes(ctx.path) +
                                   ": its text could not be converted to UTF-8 (" + what + detail +
                                   ")" + encodingAdvice(ctx));
        case READSTAT_ERROR_ROW_COUNT_MISMATCH:
            return Error{inQuotes(ctx.path) +
                         " is cut short: it holds fewer rows than its header " + "announces (" +
                         what + "). Export or copy the " + format + " file again"};
        case READSTAT_ERROR_READ:
        case READSTAT_ERROR_SEEK:
            // ReadStat's detail here is an errno left over from elsewhere; leave it out.
            return Error{inQuotes(ctx.path) + " is not a valid " + format +
                         " file, or it is truncated (" + what + ")"};
        default:
            return Error{inQuotes(ctx.path) + " is not a valid " + format + " file (" + what +
                         detail + ")"};
    }
}

readstat_error_t parse(readstat_parser_t* parser, FileFormat format, const std::string& path,
                       void* ctx) {
    switch (format) {
        case FileFormat::Sav:
            // An SPSS portable file (.por) is a text encoding of the same data as a .sav.
            return lowerExtension(path) == ".por" ? readstat_parse_por(parser, path.c_str(), ctx)
                                                  : readstat_parse_sav(parser, path.c_str(), ctx);
        case FileFormat::Dta:
            return readstat_parse_dta(parser, path.c_str(), ctx);
        case FileFormat::Sas7bdat:
            return readstat_parse_sas7bdat(parser, path.c_str(), ctx);
        case FileFormat::Xpt:
            return readstat_parse_xport(parser, path.c_str(), ctx);
        case FileFormat::Csv:
            break;
    }
    return READSTAT_ERROR_PARSE;
}

// A file cut short, which ReadStat may read without complaint: a Stata 117+ file (it begins
// "<stata_dta>") must end with its closing tag, after the value labels; and every format
// must hold the rows its header announces. Empty when neither is amiss.
std::string cutShort(const ReadContext& ctx, std::size_t rowsRead, std::size_t fullRows) {
    const std::string format(statFormatName(ctx.format));
    if (ctx.format == FileFormat::Dta) {
        static constexpr std::string_view kOpen = "<stata_dta>", kClose = "</stata_dta>";
        std::ifstream in(ctx.path, std::ios::binary);
        std::string head(kOpen.size(), '\0'), tail(kClose.size(), '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        if (in && head == kOpen) {
            in.seekg(-static_cast<std::streamoff>(kClose.size()), std::ios::end);
            in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
            if (!in || tail != kClose)
                return inQuotes(ctx.path) +
                       " is cut short: a Stata file ends with the tag </stata_dta>, and this one "
                       "does not, so its end (the value labels, perhaps rows) is missing. Export "
                       "or copy the file again";
        }
    }
    if (fullRows < rowsRead)
        return inQuotes(ctx.path) + " is cut short: its row " + std::to_string(rowsRead) +
               " ends before its last column. Export or copy the " + format + " file again";
    if (ctx.expectedRows > 0 && rowsRead < ctx.expectedRows)
        return inQuotes(ctx.path) + " is cut short: its header announces " +
               std::to_string(ctx.expectedRows) + " rows but the file holds " +
               std::to_string(rowsRead) + ". Export or copy the " + format + " file again";
    return {};
}

}  // namespace

Expected<Table> readStatFile(const std::string& path, FileFormat format, const ReadOptions& options,
                             ReadReport* report) {
    ReadContext ctx;
    ctx.path = path;
    ctx.format = format;
    ctx.options = &options;
    std::error_code ec;
    ctx.fileBytes = static_cast<double>(std::filesystem::file_size(path, ec));
    if (ec) ctx.fileBytes = 0;

    std::unique_ptr<readstat_parser_t, void (*)(readstat_parser_t*)> parser(readstat_parser_init(),
                                                                            readstat_parser_free);
    if (!parser) return Error{inQuotes(path) + " is too large to read into the available memory"};
    readstat_set_metadata_handler(parser.get(), onMetadata);
    readstat_set_note_handler(parser.get(), onNote);
    readstat_set_variable_handler(parser.get(), onVariable);
    readstat_set_value_handler(parser.get(), onValue);
    readstat_set_value_label_handler(parser.get(), onValueLabel);
    readstat_set_error_handler(parser.get(), onError);
    readstat_set_progress_handler(parser.get(), onProgress);
    if (!options.stat.encoding.empty())
        readstat_set_file_character_encoding(parser.get(), options.stat.encoding.c_str());

    const readstat_error_t err = parse(parser.get(), format, path, &ctx);
    if (ctx.cancelled) return Error::cancelled("reading cancelled");
    if (!ctx.badText.empty()) {
        // Worded as ReadStat's own conversion failure, which names the encoding option.
        ctx.detail = ctx.badText + " is not valid UTF-8";
        return parseFailure(ctx, READSTAT_ERROR_CONVERT_BAD_STRING);
    }
    if (!ctx.failure.empty()) return Error{ctx.failure};
    if (err != READSTAT_OK) return parseFailure(ctx, err);

    // Every variable gets the same number of rows (a file with zero rows has none).
    std::size_t rows = 0;
    std::size_t fullRows = std::numeric_limits<std::size_t>::max();
    for (const auto& v : ctx.variables) {
        rows = std::max(rows, v.missing.size());
        fullRows = std::min(fullRows, v.missing.size());
    }
    if (auto cut = cutShort(ctx, rows, std::min(rows, fullRows)); !cut.empty()) return Error{cut};
    for (auto& v : ctx.variables) {
        v.missing.resize(rows, 1);
        if (v.isString)
            v.texts.resize(rows);
        else
            v.numbers.resize(rows, std::nan(""));
    }

    std::vector<std::string> notes;
    for (const auto& [index, note] : ctx.notes) notes.push_back(note);
    std::vector<std::string> names;
    for (const auto& v : ctx.variables) names.push_back(v.name);
    const auto hints = decodeTypeNotes(notes, names);

    Table table;
    for (std::size_t i = 0; i < ctx.variables.size(); ++i) {
        const char hint = hints ? (*hints)[i] : '\0';
        if (auto s = table.addColumn(buildColumn(ctx, ctx.variables[i], hint, report)); !s)
            return s.error().prefixed(inQuotes(path) + ": ");
    }
    return table;
}

}  // namespace ppsynth::data::detail
