// SPSS/Stata/SAS reading and .sav/.dta writing through ReadStat. Files "from elsewhere"
// (user-missing values, Stata/SAS special missing, XPORT, sas7bdat) are produced here with
// ReadStat's own writers, so every fixture's content is visible in this file.
#include <readstat.h>

#include <QRegularExpression>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "ppsynth/data/io.hpp"
#include "ppsynth/data/table.hpp"

using namespace ppsynth;
using namespace ppsynth::data;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(ppsynth::data::FileFormat)

// QTest's toString would meet ppsynth::data::toString(ColumnType) through ADL.
#define QCOMPARE_TYPE(actual, expected) \
    QCOMPARE(std::string(toString(actual)), std::string(toString(expected)))

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

fs::path outputDir() {
    const char* env = std::getenv("PPSYNTH_TEST_OUTPUT");
    fs::path dir = fs::path(env && *env ? env : fs::temp_directory_path().string()) / "stat_files";
    fs::create_directories(dir);
    return dir;
}

std::string outPath(const std::string& name) {
    const fs::path p = outputDir() / name;
    std::error_code ec;
    fs::remove(p, ec);
    return p.string();
}

std::string ext(FileFormat f) {
    return f == FileFormat::Sav ? ".sav" : ".dta";
}

Table makeTable(std::vector<Column> columns) {
    Table t;
    for (auto& c : columns) {
        const Status s = t.addColumn(std::move(c));
        if (!s) qFatal("%s", s.message().c_str());
    }
    return t;
}

// Every column type, missing cells, value labels with non-ASCII text, an unused level, a
// whole-valued numeric column (must stay numeric) and a short text column (must stay text).
// Categorical level values are codes, as in a table read from .sav/.dta.
Table statOriginTable() {
    return makeTable({
        Column::numeric("income", {1.5, -2.25, kNaN, 1e6, 0.1}, {0, 0, 1, 0, 0}),
        Column::numeric("weight", {1, 2, 3, 4, 5}),
        Column::count("visits", {0, 3, kNaN, 12, 7}, {0, 0, 1, 0, 0}),
        Column::categorical("grade", {0, 2, 1, -1, 0},
                            {{"-1", "refused (ne veut pas)"},
                             {"2", "middle"},
                             {"5", "high — très élevé"},
                             {"9", "never used"}}),
        Column::text("comment", {"first", "zweite Zeile ü", "", "x", "日本語"}, {0, 0, 1, 0, 0}),
    });
}

// A categorical column as the CSV reader makes it: level values are the labels' text.
Column csvRegion() {
    return Column::categorical("region", {0, 1, -1, 2, 0},
                               {{"North", "North"}, {"Süd", "Süd"}, {"Øst", "Øst"}});
}

std::vector<std::string> leftoverTemporaries(const std::string& target) {
    std::vector<std::string> found;
    const std::string stem = fs::path(target).filename().string() + ".tmp-";
    for (const auto& e : fs::directory_iterator(fs::path(target).parent_path()))
        if (e.path().filename().string().rfind(stem, 0) == 0) found.push_back(e.path().string());
    return found;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Writes a file with ReadStat directly: `define` adds variables/labels, `rows` inserts them.
enum class Kind { Sav, Por, Dta, Xport, Sas7bdat };
using Define = std::function<std::vector<readstat_variable_t*>(readstat_writer_t*)>;
using Rows = std::function<void(readstat_writer_t*, const std::vector<readstat_variable_t*>&)>;

ssize_t toFile(const void* data, size_t n, void* ctx) {
    return static_cast<ssize_t>(std::fwrite(data, 1, n, static_cast<std::FILE*>(ctx)));
}

void writeWithReadStat(const std::string& path, Kind kind, long rowCount, const Define& define,
                       const Rows& rows) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    QVERIFY(f);
    readstat_writer_t* w = readstat_writer_init();
    readstat_set_data_writer(w, toFile);
    const auto vars = define(w);
    readstat_error_t e = READSTAT_OK;
    switch (kind) {
        case Kind::Sav:
            e = readstat_begin_writing_sav(w, f, rowCount);
            break;
        case Kind::Por:
            e = readstat_begin_writing_por(w, f, rowCount);
            break;
        case Kind::Dta:
            e = readstat_begin_writing_dta(w, f, rowCount);
            break;
        case Kind::Xport:
            e = readstat_begin_writing_xport(w, f, rowCount);
            break;
        case Kind::Sas7bdat:
            e = readstat_begin_writing_sas7bdat(w, f, rowCount);
            break;
    }
    QCOMPARE(e, READSTAT_OK);
    rows(w, vars);
    QCOMPARE(readstat_end_writing(w), READSTAT_OK);
    readstat_writer_free(w);
    std::fclose(f);
}

void check(readstat_error_t e) {
    if (e != READSTAT_OK) qFatal("ReadStat: %s", readstat_error_message(e));
}

// The display format of each variable as ReadStat reads it from the file, independent of
// ppsynth's reader.
std::vector<std::string> displayFormats(const std::string& path) {
    std::vector<std::string> formats;
    readstat_parser_t* parser = readstat_parser_init();
    readstat_set_variable_handler(
        parser, [](int, readstat_variable_t* v, const char*, void* user) -> int {
            const char* f = readstat_variable_get_format(v);
            static_cast<std::vector<std::string>*>(user)->push_back(f ? f : "");
            return READSTAT_HANDLER_OK;
        });
    const bool sav = path.ends_with(".sav");
    const readstat_error_t e = sav ? readstat_parse_sav(parser, path.c_str(), &formats)
                                   : readstat_parse_dta(parser, path.c_str(), &formats);
    readstat_parser_free(parser);
    if (e != READSTAT_OK) qFatal("ReadStat: %s", readstat_error_message(e));
    return formats;
}

// A file of one date column WHEN (three dates and a missing cell) written by ReadStat with
// display format `format`, as SPSS, Stata or SAS would have written it.
void writeDateFile(const std::string& path, Kind kind, const std::string& format,
                   const std::vector<double>& values) {
    writeWithReadStat(
        path, kind, static_cast<long>(values.size()) + 1,
        [&](readstat_writer_t* w) {
            std::vector<readstat_variable_t*> v{
                readstat_add_variable(w, "WHEN", READSTAT_TYPE_DOUBLE, 8)};
            readstat_variable_set_format(v[0], format.c_str());
            return v;
        },
        [&](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
            for (std::size_t r = 0; r <= values.size(); ++r) {
                check(readstat_begin_row(w));
                if (r == 1)
                    check(readstat_insert_missing_value(w, v[0]));
                else
                    check(readstat_insert_double_value(w, v[0], values[r < 1 ? r : r - 1]));
                check(readstat_end_row(w));
            }
        });
}

// Values as writeDateFile lays them out: the missing cell second.
std::vector<double> withMissingSecond(const std::vector<double>& values) {
    std::vector<double> out = values;
    out.insert(out.begin() + 1, kNaN);
    return out;
}

// 15 March 2020 (a Sunday) and what each program counts for it.
constexpr double kDays = 21989;                     // Stata %td, SAS: days since 1960
constexpr double kSpss = (kDays + 137775) * 86400;  // SPSS: seconds since 14 October 1582
constexpr double kAfternoon = 13.5 * 3600;          // 13:30:00

}  // namespace

class TstStatFiles : public QObject {
    Q_OBJECT
  private slots:
    void formats_data() {
        QTest::addColumn<FileFormat>("format");
        QTest::newRow("sav") << FileFormat::Sav;
        QTest::newRow("dta") << FileFormat::Dta;
    }

    // A table whose categorical levels are codes reads back exactly equal.
    void roundTripIsExactForStatOrigin_data() { formats_data(); }
    void roundTripIsExactForStatOrigin() {
        QFETCH(FileFormat, format);
        const Table t = statOriginTable();
        const std::string path = outPath("exact" + ext(format));
        const Status s = writeTable(t, path);
        QVERIFY2(s.isOk(), s.message().c_str());
        auto back = readTable(path);
        QVERIFY2(back.hasValue(), back.hasValue() ? "" : back.message().c_str());
        for (std::size_t j = 0; j < t.columnCount(); ++j)
            QVERIFY2(back->column(j) == t.column(j), t.column(j).name().c_str());
        QVERIFY(*back == t);
        QCOMPARE_TYPE(back->column(1).type(), ColumnType::Numeric);  // whole values, still numeric
        QCOMPARE_TYPE(back->column(4).type(), ColumnType::Text);  // 4 distinct values, still text
        QCOMPARE(back->column(3).levels()[2].label, std::string("high — très élevé"));
        QVERIFY(leftoverTemporaries(path).empty());
    }

    // The documented rule for CSV-origin categoricals: level values become "1".."K" in level
    // order; labels, codes, order and missing cells are kept.
    void csvCategoricalIsRenumbered_data() { formats_data(); }
    void csvCategoricalIsRenumbered() {
        QFETCH(FileFormat, format);
        const Table t = makeTable({csvRegion(), Column::numeric("y", {0.5, 1, 2, 3, 4})});
        const std::string path = outPath("csv_origin" + ext(format));
        QVERIFY(writeTable(t, path).isOk());
        auto back = readTable(path);
        QVERIFY(back.hasValue());
        const Table expected =
            makeTable({Column::categorical("region", {0, 1, -1, 2, 0},
                                           {{"1", "North"}, {"2", "Süd"}, {"3", "Øst"}}),
                       Column::numeric("y", {0.5, 1, 2, 3, 4})});
        QVERIFY(*back == expected);
        QVERIFY(!(*back == t));  // the level values did change, as documented
        // From then on the round trip is exact.
        const std::string again = outPath("csv_origin_again" + ext(format));
        QVERIFY(writeTable(*back, again).isOk());
        auto back2 = readTable(again);
        QVERIFY(back2.hasValue());
        QVERIFY(*back2 == expected);
    }

    // Integer level values that are not ascending, not canonical ("07") or not whole are
    // renumbered too, since reading orders levels by code.
    void nonCodeLevelValuesAreRenumbered_data() {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("kept");
        QTest::newRow("ascending codes") << "3"
                                         << "10" << true;
        QTest::newRow("descending") << "10"
                                    << "3" << false;
        QTest::newRow("leading zero") << "07"
                                      << "10" << false;
        QTest::newRow("fraction") << "1.5"
                                  << "2" << false;
        QTest::newRow("beyond Stata long") << "1"
                                           << "3000000000" << false;
    }
    void nonCodeLevelValuesAreRenumbered() {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, kept);
        const Table t = makeTable({Column::categorical(
            "g", {1, 0, 1}, {{a.toStdString(), "first"}, {b.toStdString(), "second"}})});
        for (FileFormat f : {FileFormat::Sav, FileFormat::Dta}) {
            const std::string path = outPath("levels" + ext(f));
            QVERIFY(writeTable(t, path).isOk());
            auto back = readTable(path);
            QVERIFY(back.hasValue());
            const auto& lv = back->column(0).levels();
            QCOMPARE(lv.size(), std::size_t{2});
            QCOMPARE(lv[0].value, kept ? a.toStdString() : std::string("1"));
            QCOMPARE(lv[1].value, kept ? b.toStdString() : std::string("2"));
            QCOMPARE(lv[0].label, std::string("first"));
            QCOMPARE(back->column(0).codes(), (std::vector<std::int32_t>{1, 0, 1}));
        }
    }

    void crossFormatAndCompressed() {
        const Table t = statOriginTable();
        const std::string sav = outPath("cross.sav"), dta = outPath("cross.dta"),
                          zsav = outPath("cross.zsav");
        QVERIFY(writeTable(t, sav).isOk());
        auto fromSav = readTable(sav);
        QVERIFY(fromSav.hasValue());
        QVERIFY(writeTable(*fromSav, dta).isOk());
        QVERIFY(writeTable(*fromSav, zsav).isOk());
        auto fromDta = readTable(dta);
        auto fromZsav = readTable(zsav);
        QVERIFY(fromDta.hasValue() && fromZsav.hasValue());
        QVERIFY(*fromDta == t);
        QVERIFY(*fromZsav == t);
    }

    // Many columns need several type-note lines; no rows is a valid table.
    void manyColumnsAndNoRows_data() { formats_data(); }
    void manyColumnsAndNoRows() {
        QFETCH(FileFormat, format);
        Table wide;
        for (int j = 0; j < 150; ++j) {
            const std::string name = "v" + std::to_string(j);
            if (j % 3 == 0)
                QVERIFY(wide.addColumn(Column::numeric(name, {1, 2})).isOk());
            else if (j % 3 == 1)
                QVERIFY(wide.addColumn(Column::count(name, {1, 2})).isOk());
            else
                QVERIFY(wide.addColumn(Column::text(name, {"a", "b"})).isOk());
        }
        const std::string path = outPath("wide" + ext(format));
        QVERIFY(writeTable(wide, path).isOk());
        auto back = readTable(path);
        QVERIFY(back.hasValue());
        QVERIFY(*back == wide);

        const Table empty = makeTable({Column::numeric("x", {}), Column::text("s", {}),
                                       Column::categorical("g", {}, {{"1", "one"}})});
        const std::string emptyPath = outPath("empty" + ext(format));
        const Status s = writeTable(empty, emptyPath);
        QVERIFY2(s.isOk(), s.message().c_str());
        auto backEmpty = readTable(emptyPath);
        QVERIFY2(backEmpty.hasValue(), backEmpty.hasValue() ? "" : backEmpty.message().c_str());
        QVERIFY(*backEmpty == empty);
    }

    // Text beyond Stata's 2045-byte str limit goes through strL; SPSS takes it as a long string.
    void longText_data() { formats_data(); }
    void longText() {
        QFETCH(FileFormat, format);
        const std::string longText(5000, 'z');
        const Table t = makeTable(
            {Column::text("note", {longText, "short", "", "ü" + longText}, {0, 0, 1, 0})});
        const std::string path = outPath("long_text" + ext(format));
        const Status s = writeTable(t, path);
        QVERIFY2(s.isOk(), s.message().c_str());
        auto back = readTable(path);
        QVERIFY2(back.hasValue(), back.hasValue() ? "" : back.message().c_str());
        QVERIFY(*back == t);
    }

    // ppsynth's type note applies only while it fits the column names: a file whose columns
    // were renamed elsewhere falls back to inference.
    void typeNoteNeedsMatchingNames() {
        const Table t = makeTable({Column::numeric("a", {1, 2}), Column::text("b", {"p", "q"})});
        const std::string ours = outPath("typed.sav");
        QVERIFY(writeTable(t, ours).isOk());
        std::vector<std::string> notes;
        readstat_parser_t* parser = readstat_parser_init();
        readstat_set_note_handler(parser, [](int, const char* note, void* ctx) {
            static_cast<std::vector<std::string>*>(ctx)->push_back(note);
            return 0;
        });
        QCOMPARE(readstat_parse_sav(parser, ours.c_str(), &notes), READSTAT_OK);
        readstat_parser_free(parser);
        QCOMPARE(notes.size(), std::size_t{1});
        QVERIFY2(QString::fromStdString(notes[0]).contains(
                     QRegularExpression("^ppsynth column types [0-9a-f]{8}: nt$")),
                 notes[0].c_str());

        for (const char* first : {"a", "renamed"}) {
            const std::string path = outPath(std::string("copied_note_") + first + ".sav");
            writeWithReadStat(
                path, Kind::Sav, 2,
                [&](readstat_writer_t* w) {
                    readstat_add_note(w, notes[0].c_str());
                    return std::vector<readstat_variable_t*>{
                        readstat_add_variable(w, first, READSTAT_TYPE_DOUBLE, 0),
                        readstat_add_variable(w, "b", READSTAT_TYPE_STRING, 1)};
                },
                [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                    for (int r = 0; r < 2; ++r) {
                        check(readstat_begin_row(w));
                        check(readstat_insert_double_value(w, v[0], r + 1));
                        check(readstat_insert_string_value(w, v[1], r ? "q" : "p"));
                        check(readstat_end_row(w));
                    }
                });
            auto back = readTable(path);
            QVERIFY(back.hasValue());
            const bool fits = std::string(first) == "a";
            QCOMPARE_TYPE(back->column(0).type(), fits ? ColumnType::Numeric : ColumnType::Count);
            QCOMPARE_TYPE(back->column(1).type(),
                          fits ? ColumnType::Text : ColumnType::Categorical);
        }
    }

    // Files not written by ppsynth carry no type note: types are inferred.
    void typeInferenceForForeignFiles() {
        const std::string path = outPath("foreign.sav");
        writeWithReadStat(
            path, Kind::Sav, 4,
            [](readstat_writer_t* w) {
                readstat_label_set_t* yn = readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "yn");
                readstat_label_double_value(yn, 1, "yes");
                readstat_label_double_value(yn, 2, "no");
                std::vector<readstat_variable_t*> v;
                v.push_back(readstat_add_variable(w, "whole", READSTAT_TYPE_DOUBLE, 0));
                v.push_back(readstat_add_variable(w, "negative", READSTAT_TYPE_DOUBLE, 0));
                v.push_back(readstat_add_variable(w, "frac", READSTAT_TYPE_DOUBLE, 0));
                v.push_back(readstat_add_variable(w, "answer", READSTAT_TYPE_DOUBLE, 0));
                readstat_variable_set_label_set(v.back(), yn);
                v.push_back(readstat_add_variable(w, "city", READSTAT_TYPE_STRING, 8));
                v.push_back(readstat_add_variable(w, "allmiss", READSTAT_TYPE_DOUBLE, 0));
                return v;
            },
            [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                const double whole[] = {0, 4, 2, 7}, negative[] = {1, -1, 0, 2},
                             frac[] = {1, 2.5, 3, 4}, answer[] = {2, 1, 7, 2};
                const char* city[] = {"Oslo", "Bergen", "Oslo", "Ålesund"};
                for (int r = 0; r < 4; ++r) {
                    check(readstat_begin_row(w));
                    check(readstat_insert_double_value(w, v[0], whole[r]));
                    check(readstat_insert_double_value(w, v[1], negative[r]));
                    check(readstat_insert_double_value(w, v[2], frac[r]));
                    check(readstat_insert_double_value(w, v[3], answer[r]));
                    check(readstat_insert_string_value(w, v[4], city[r]));
                    check(readstat_insert_missing_value(w, v[5]));
                    check(readstat_end_row(w));
                }
            });
        auto t = readTable(path);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        QCOMPARE_TYPE(t->column(0).type(), ColumnType::Count);
        QCOMPARE_TYPE(t->column(1).type(), ColumnType::Numeric);
        QCOMPARE_TYPE(t->column(2).type(), ColumnType::Numeric);
        QCOMPARE_TYPE(t->column(5).type(), ColumnType::Numeric);  // no evidence of counts
        QCOMPARE(t->column(5).missingCount(), std::size_t{4});
        // Labelled: levels by code, the unlabelled 7 labelled by itself.
        const Column& answer = t->column(3);
        QCOMPARE_TYPE(answer.type(), ColumnType::Categorical);
        QCOMPARE(answer.levels(), (std::vector<Level>{{"1", "yes"}, {"2", "no"}, {"7", "7"}}));
        QCOMPARE(answer.codes(), (std::vector<std::int32_t>{1, 0, 2, 1}));
        // Unlabelled strings: levels sorted by text.
        const Column& city = t->column(4);
        QCOMPARE_TYPE(city.type(), ColumnType::Categorical);
        QCOMPARE(
            city.levels(),
            (std::vector<Level>{{"Bergen", "Bergen"}, {"Oslo", "Oslo"}, {"Ålesund", "Ålesund"}}));
        QCOMPARE(city.codes(), (std::vector<std::int32_t>{1, 0, 1, 2}));

        // The level limit: strings become text, labelled numbers become numbers (with a note).
        ReadOptions few;
        few.maxLevels = 2;
        ReadReport report;
        auto limited = readTable(path, few, &report);
        QVERIFY(limited.hasValue());
        QCOMPARE_TYPE(limited->column(3).type(), ColumnType::Count);
        QCOMPARE_TYPE(limited->column(4).type(), ColumnType::Text);
        QCOMPARE(report.notes.size(), std::size_t{1});
        QVERIFY(QString::fromStdString(report.notes[0]).contains("column 'answer'"));
    }

    // SPSS user-missing values and ranges, including a labelled one, become missing cells
    // and no level.
    void spssUserMissing() {
        const std::string path = outPath("user_missing.sav");
        writeWithReadStat(
            path, Kind::Sav, 6,
            [](readstat_writer_t* w) {
                readstat_label_set_t* ls = readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "ls");
                readstat_label_double_value(ls, 1, "agree");
                readstat_label_double_value(ls, 2, "disagree");
                readstat_label_double_value(ls, 99, "refused");
                std::vector<readstat_variable_t*> v;
                v.push_back(readstat_add_variable(w, "opinion", READSTAT_TYPE_DOUBLE, 0));
                readstat_variable_set_label_set(v[0], ls);
                check(readstat_variable_add_missing_double_value(v[0], 99));
                v.push_back(readstat_add_variable(w, "age", READSTAT_TYPE_DOUBLE, 0));
                check(readstat_variable_add_missing_double_range(v[1], -9, -1));
                check(readstat_variable_add_missing_double_value(v[1], 999));
                v.push_back(readstat_add_variable(w, "code", READSTAT_TYPE_STRING, 4));
                check(readstat_variable_add_missing_string_value(v[2], "NA"));
                return v;
            },
            [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                const double opinion[] = {1, 99, 2, 1, -1, 2};  // -1: system missing
                const double age[] = {34, -9, 999, -3.5, 51, 0};
                const char* code[] = {"A", "NA", "B", "A", "", "B"};
                for (int r = 0; r < 6; ++r) {
                    check(readstat_begin_row(w));
                    if (opinion[r] < 0)
                        check(readstat_insert_missing_value(w, v[0]));
                    else
                        check(readstat_insert_double_value(w, v[0], opinion[r]));
                    check(readstat_insert_double_value(w, v[1], age[r]));
                    check(readstat_insert_string_value(w, v[2], code[r]));
                    check(readstat_end_row(w));
                }
            });
        auto t = readTable(path);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const Column& opinion = t->column(0);
        QCOMPARE(opinion.levels(), (std::vector<Level>{{"1", "agree"}, {"2", "disagree"}}));
        QCOMPARE(opinion.codes(), (std::vector<std::int32_t>{0, -1, 1, 0, -1, 1}));
        const Column& age = t->column(1);
        QCOMPARE_TYPE(age.type(), ColumnType::Count);  // 34, 51, 0 once -9, 999, -3.5 are missing
        QCOMPARE(age.missingMask(), (std::vector<std::uint8_t>{0, 1, 1, 1, 0, 0}));
        QCOMPARE(age.value(0), 34.0);
        QCOMPARE(age.value(4), 51.0);
        const Column& code = t->column(2);
        QCOMPARE(code.levels(), (std::vector<Level>{{"A", "A"}, {"B", "B"}}));
        QCOMPARE(code.codes(), (std::vector<std::int32_t>{0, -1, 1, 0, -1, 1}));
    }

    // Names a format refuses become names it accepts, as pandas' to_stata makes them; valid
    // names stay; the results are unique (SPSS ignoring case) and within the length limit.
    void variableNamesForAFormat() {
        const std::vector<std::string> names = {
            "Sepal.Length", "Sepal_Length", "2nd wave", "if", "x.", std::string(40, 'a'), "Größe"};
        const auto dta = statVariableNames(names, FileFormat::Dta);
        QCOMPARE(dta, (std::vector<std::string>{"Sepal_Length_2", "Sepal_Length", "_2nd_wave",
                                                "if_", "x_", std::string(32, 'a'), "Gr__e"}));
        const auto sav = statVariableNames(names, FileFormat::Sav);
        QCOMPARE(sav, (std::vector<std::string>{"Sepal.Length", "Sepal_Length", "v2nd_wave", "if",
                                                "x_", std::string(40, 'a'), "Größe"}));
        QCOMPARE(statVariableNames({"A", "a.", "a_"}, FileFormat::Sav),
                 (std::vector<std::string>{"A", "a__2", "a_"}));
        QCOMPARE(statVariableNames({"a b"}, FileFormat::Csv), (std::vector<std::string>{"a b"}));
        // Every name given is one the writer accepts.
        Table t;
        for (const auto& n : dta) QVERIFY(t.addColumn(Column::numeric(n, {1.0})).isOk());
        QVERIFY(writeTable(t, outPath("renamed.dta")).isOk());
    }

    // An SPSS portable file (.por) reads as the .sav with the same contents: value labels,
    // user-missing codes, a date format, text.
    void portableFileReadsLikeSav() {
        const auto define = [](readstat_writer_t* w) {
            readstat_label_set_t* ls = readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "ls");
            readstat_label_double_value(ls, 1, "agree");
            readstat_label_double_value(ls, 2, "disagree");
            std::vector<readstat_variable_t*> v;
            v.push_back(readstat_add_variable(w, "OPINION", READSTAT_TYPE_DOUBLE, 0));
            readstat_variable_set_label_set(v[0], ls);
            v.push_back(readstat_add_variable(w, "INCOME", READSTAT_TYPE_DOUBLE, 0));
            check(readstat_variable_add_missing_double_value(v[1], -9));
            v.push_back(readstat_add_variable(w, "BORN", READSTAT_TYPE_DOUBLE, 0));
            readstat_variable_set_format(v[2], "DATE11");
            v.push_back(readstat_add_variable(w, "REGION", READSTAT_TYPE_STRING, 8));
            return v;
        };
        const auto rows = [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
            const double opinion[] = {1, 2, 2, 1};
            const double income[] = {41250.5, -9, 1e6, 0.125};
            const char* region[] = {"North", "South", "", "East"};
            for (int r = 0; r < 4; ++r) {
                check(readstat_begin_row(w));
                check(readstat_insert_double_value(w, v[0], opinion[r]));
                check(readstat_insert_double_value(w, v[1], income[r]));
                check(readstat_insert_double_value(w, v[2], kSpss + 86400.0 * r));
                check(readstat_insert_string_value(w, v[3], region[r]));
                check(readstat_end_row(w));
            }
        };
        const std::string sav = outPath("portable.sav"), por = outPath("portable.por");
        writeWithReadStat(sav, Kind::Sav, 4, define, rows);
        writeWithReadStat(por, Kind::Por, 4, define, rows);
        auto a = readTable(sav);
        auto b = readTable(por);
        QVERIFY2(b.hasValue(), b.hasValue() ? "" : b.message().c_str());
        QVERIFY(a.hasValue());
        QCOMPARE(b->columnCount(), std::size_t{4});
        for (std::size_t j = 0; j < 4; ++j) {
            const Column &x = a->column(j), &y = b->column(j);
            QCOMPARE(y.name(), x.name());
            QCOMPARE_TYPE(y.type(), x.type());
            QCOMPARE(y.missingMask(), x.missingMask());
            if (x.type() == ColumnType::Categorical) {
                QCOMPARE(y.levels(), x.levels());
                QCOMPARE(y.codes(), x.codes());
            } else if (x.type() == ColumnType::Text) {
                QCOMPARE(y.texts(), x.texts());
            } else {
                for (std::size_t i = 0; i < x.size(); ++i)
                    if (!x.isMissing(i)) QCOMPARE(y.value(i), x.value(i));
            }
        }
        QCOMPARE(b->column(0).levels(), (std::vector<Level>{{"1", "agree"}, {"2", "disagree"}}));
        QCOMPARE(b->column(1).missingMask(), (std::vector<std::uint8_t>{0, 1, 0, 0}));
        QCOMPARE(b->column(1).value(3), 0.125);
    }

    // Stata's .a-.z are missing; a label on .a is no level.
    void stataExtendedMissing() {
        const std::string path = outPath("extended_missing.dta");
        writeWithReadStat(
            path, Kind::Dta, 4,
            [](readstat_writer_t* w) {
                readstat_label_set_t* ls = readstat_add_label_set(w, READSTAT_TYPE_INT32, "sexl");
                readstat_label_int32_value(ls, 1, "female");
                readstat_label_int32_value(ls, 2, "male");
                readstat_label_tagged_value(ls, 'a', "not asked");
                std::vector<readstat_variable_t*> v;
                v.push_back(readstat_add_variable(w, "sex", READSTAT_TYPE_INT32, 0));
                readstat_variable_set_label_set(v[0], ls);
                v.push_back(readstat_add_variable(w, "score", READSTAT_TYPE_DOUBLE, 0));
                return v;
            },
            [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                for (int r = 0; r < 4; ++r) {
                    check(readstat_begin_row(w));
                    if (r == 1)
                        check(readstat_insert_tagged_missing_value(w, v[0], 'a'));
                    else
                        check(readstat_insert_int32_value(w, v[0], r == 2 ? 2 : 1));
                    if (r == 3)
                        check(readstat_insert_tagged_missing_value(w, v[1], 'z'));
                    else if (r == 0)
                        check(readstat_insert_missing_value(w, v[1]));
                    else
                        check(readstat_insert_double_value(w, v[1], 0.5 * r));
                    check(readstat_end_row(w));
                }
            });
        auto t = readTable(path);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        QCOMPARE(t->column(0).levels(), (std::vector<Level>{{"1", "female"}, {"2", "male"}}));
        QCOMPARE(t->column(0).codes(), (std::vector<std::int32_t>{0, -1, 1, 0}));
        QCOMPARE_TYPE(t->column(1).type(), ColumnType::Numeric);
        QCOMPARE(t->column(1).missingMask(), (std::vector<std::uint8_t>{1, 0, 0, 1}));
        QCOMPARE(t->column(1).value(2), 1.0);
    }

    // Value labels on user-missing codes only (visits: 98 "don't know", 99 "refused") or on
    // one value of many (age 0 = "under 1") annotate a quantity: the column stays a count,
    // whether the SPSS measure level says scale or is unset. A nominal measure level makes
    // the column categorical even with few labels.
    void labelsOnQuantitiesKeepThemNumbers_data() {
        QTest::addColumn<int>("measure");
        QTest::addColumn<QString>("ageNote");
        QTest::newRow("scale") << static_cast<int>(READSTAT_MEASURE_SCALE)
                               << "its SPSS measure level is scale";
        QTest::newRow("unset") << static_cast<int>(READSTAT_MEASURE_UNKNOWN)
                               << "they name only 1 of its 40 distinct values";
    }
    void labelsOnQuantitiesKeepThemNumbers() {
        QFETCH(int, measure);
        QFETCH(QString, ageNote);
        const std::string path = outPath("labelled_quantities.sav");
        writeWithReadStat(
            path, Kind::Sav, 40,
            [&](readstat_writer_t* w) {
                const auto m = static_cast<readstat_measure_t>(measure);
                readstat_label_set_t* dk = readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "dk");
                readstat_label_double_value(dk, 98, "don't know");
                readstat_label_double_value(dk, 99, "refused");
                readstat_label_set_t* infant =
                    readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "infant");
                readstat_label_double_value(infant, 0, "under 1");
                readstat_label_set_t* north =
                    readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "north");
                readstat_label_double_value(north, 1, "north");
                readstat_label_set_t* sexes =
                    readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "sex");
                readstat_label_double_value(sexes, 1, "male");
                readstat_label_double_value(sexes, 2, "female");
                std::vector<readstat_variable_t*> v;
                v.push_back(readstat_add_variable(w, "visits", READSTAT_TYPE_DOUBLE, 0));
                readstat_variable_set_label_set(v[0], dk);
                check(readstat_variable_add_missing_double_range(v[0], 98, 99));
                readstat_variable_set_measure(v[0], m);
                v.push_back(readstat_add_variable(w, "age", READSTAT_TYPE_DOUBLE, 0));
                readstat_variable_set_label_set(v[1], infant);
                readstat_variable_set_measure(v[1], m);
                v.push_back(readstat_add_variable(w, "region", READSTAT_TYPE_DOUBLE, 0));
                readstat_variable_set_label_set(v[2], north);
                readstat_variable_set_measure(v[2], READSTAT_MEASURE_NOMINAL);
                // Every value labelled: categories even under the scale measure many files
                // leave on such variables.
                v.push_back(readstat_add_variable(w, "sex", READSTAT_TYPE_DOUBLE, 0));
                readstat_variable_set_label_set(v[3], sexes);
                readstat_variable_set_measure(v[3], m);
                return v;
            },
            [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                for (int r = 0; r < 40; ++r) {
                    check(readstat_begin_row(w));
                    check(readstat_insert_double_value(w, v[0], r == 5 ? 99 : r % 7));
                    check(readstat_insert_double_value(w, v[1], r));
                    check(readstat_insert_double_value(w, v[2], 1 + r % 3));
                    check(readstat_insert_double_value(w, v[3], 1 + r % 2));
                    check(readstat_end_row(w));
                }
            });
        ReadReport report;
        auto t = readTable(path, {}, &report);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const Column& visits = t->column(0);
        QCOMPARE_TYPE(visits.type(), ColumnType::Count);
        QCOMPARE(visits.missingCount(), std::size_t{1});
        QVERIFY(visits.isMissing(5));
        QCOMPARE(visits.value(6), 6.0);
        const Column& age = t->column(1);
        QCOMPARE_TYPE(age.type(), ColumnType::Count);
        QCOMPARE(age.value(39), 39.0);
        const Column& region = t->column(2);
        QCOMPARE_TYPE(region.type(), ColumnType::Categorical);
        QCOMPARE(region.levels(), (std::vector<Level>{{"1", "north"}, {"2", "2"}, {"3", "3"}}));
        const Column& sex = t->column(3);
        QCOMPARE_TYPE(sex.type(), ColumnType::Categorical);
        QCOMPARE(sex.levels(), (std::vector<Level>{{"1", "male"}, {"2", "female"}}));
        // Only age's labels were left aside, and the note says why and what to do.
        QCOMPARE(report.notes.size(), std::size_t{1});
        const QString note = QString::fromStdString(report.notes[0]);
        qInfo("%s", qPrintable(note));
        QVERIFY2(note.startsWith("column 'age' has value labels") && note.contains(ageNote) &&
                     note.contains("type override to categorical"),
                 qPrintable(note));

        // Overriding age to categorical makes its levels from the labels.
        ReadOptions categorical;
        categorical.typeOverrides = {{"age", ColumnType::Categorical}};
        auto overridden = readTable(path, categorical);
        QVERIFY2(overridden.hasValue(), overridden.hasValue() ? "" : overridden.message().c_str());
        const Column& ageLevels = overridden->column(1);
        QCOMPARE_TYPE(ageLevels.type(), ColumnType::Categorical);
        QCOMPARE(ageLevels.levels().size(), std::size_t{40});
        QCOMPARE(ageLevels.levels()[0], (Level{"0", "under 1"}));
        QCOMPARE(ageLevels.levels()[1], (Level{"1", "1"}));
    }

    // A label set larger than the level limit, of which the data use a few codes (250
    // countries, 5 present), gives a categorical column of the codes present, named by
    // their labels. ppsynth's own files keep unused levels (roundTripIsExactForStatOrigin).
    void unusedLabelsAreNoLevels() {
        const std::string path = outPath("country.dta");
        writeWithReadStat(
            path, Kind::Dta, 30,
            [](readstat_writer_t* w) {
                readstat_label_set_t* ls = readstat_add_label_set(w, READSTAT_TYPE_INT32, "ctry");
                for (int k = 1; k <= 250; ++k)
                    readstat_label_int32_value(ls, k, ("country " + std::to_string(k)).c_str());
                std::vector<readstat_variable_t*> v{
                    readstat_add_variable(w, "country", READSTAT_TYPE_INT32, 0)};
                readstat_variable_set_label_set(v[0], ls);
                return v;
            },
            [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                for (int r = 0; r < 30; ++r) {
                    check(readstat_begin_row(w));
                    check(readstat_insert_int32_value(w, v[0], 1 + 2 * (r % 5)));
                    check(readstat_end_row(w));
                }
            });
        ReadReport report;
        auto t = readTable(path, {}, &report);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const Column& country = t->column(0);
        QCOMPARE_TYPE(country.type(), ColumnType::Categorical);
        QCOMPARE(country.levels(), (std::vector<Level>{{"1", "country 1"},
                                                       {"3", "country 3"},
                                                       {"5", "country 5"},
                                                       {"7", "country 7"},
                                                       {"9", "country 9"}}));
        QCOMPARE(country.code(7), 2);
        QVERIFY(report.notes.empty());
        // The level limit counts the codes present: 5 do not fit in 4.
        ReadOptions four;
        four.maxLevels = 4;
        ReadReport limited;
        auto t4 = readTable(path, four, &limited);
        QVERIFY(t4.hasValue());
        QCOMPARE_TYPE(t4->column(0).type(), ColumnType::Count);
        QCOMPARE(limited.notes.size(), std::size_t{1});
        QVERIFY2(QString::fromStdString(limited.notes[0]).contains("but 5 distinct values"),
                 limited.notes[0].c_str());
    }

    // Date and time formats: the numbers are counts from an origin only the format names, so
    // the column gets a note saying what they count, and is a plain number (not a count).
    void dateFormatsAreNoted_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");  // empty: no note
        QTest::newRow("sas DATE9") << static_cast<int>(Kind::Sas7bdat) << "d.sas7bdat"
                                   << "DATE9" << 22000.0 << "days since 1 January 1960";
        QTest::newRow("sas MMDDYY10") << static_cast<int>(Kind::Sas7bdat) << "d.sas7bdat"
                                      << "MMDDYY10" << 22000.0 << "days since 1 January 1960";
        QTest::newRow("sas DATETIME20")
            << static_cast<int>(Kind::Sas7bdat) << "dt.sas7bdat"
            << "DATETIME20" << 1.9e9 << "seconds since 1 January 1960 00:00";
        QTest::newRow("xpt YYMMDD10") << static_cast<int>(Kind::Xport) << "d.xpt"
                                      << "YYMMDD10" << 22000.0 << "days since 1 January 1960";
        QTest::newRow("sas BEST12") << static_cast<int>(Kind::Sas7bdat) << "n.sas7bdat"
                                    << "BEST12" << 22000.0 << "";
        QTest::newRow("spss DATE11") << static_cast<int>(Kind::Sav) << "d.sav"
                                     << "DATE11" << 13e9 << "seconds since 14 October 1582";
        QTest::newRow("spss ADATE10") << static_cast<int>(Kind::Sav) << "a.sav"
                                      << "ADATE10" << 13e9 << "seconds since 14 October 1582";
        QTest::newRow("spss DATETIME20") << static_cast<int>(Kind::Sav) << "dt.sav"
                                         << "DATETIME20" << 13e9 << "seconds since 14 October 1582";
        QTest::newRow("spss F8.0") << static_cast<int>(Kind::Sav) << "n.sav"
                                   << "F8.0" << 13e9 << "";
        QTest::newRow("stata %td") << static_cast<int>(Kind::Dta) << "d.dta"
                                   << "%td" << 22000.0 << "days since 1 January 1960";
        QTest::newRow("stata %tcDDmonCCYY")
            << static_cast<int>(Kind::Dta) << "c.dta"
            << "%tcDDmonCCYY" << 1.9e12 << "milliseconds since 1 January 1960";
        QTest::newRow("stata %tm") << static_cast<int>(Kind::Dta) << "m.dta"
                                   << "%tm" << 700.0 << "months since January 1960";
        QTest::newRow("stata %9.0g") << static_cast<int>(Kind::Dta) << "n.dta"
                                     << "%9.0g" << 22000.0 << "";
    }
    void dateFormatsAreNoted() {
        QFETCH(int, kind);
        QFETCH(QString, name);
        QFETCH(QString, format);
        QFETCH(double, value);
        QFETCH(QString, expected);
        const std::string path = outPath("date_" + name.toStdString());
        const std::string fmt = format.toStdString();
        writeWithReadStat(
            path, static_cast<Kind>(kind), 3,
            [&](readstat_writer_t* w) {
                std::vector<readstat_variable_t*> v{
                    readstat_add_variable(w, "WHEN", READSTAT_TYPE_DOUBLE, 8)};
                readstat_variable_set_format(v[0], fmt.c_str());
                return v;
            },
            [&](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                for (int r = 0; r < 3; ++r) {
                    check(readstat_begin_row(w));
                    check(readstat_insert_double_value(w, v[0], value * (1 + r)));
                    check(readstat_end_row(w));
                }
            });
        ReadReport report;
        auto t = readTable(path, {}, &report);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        QCOMPARE(t->column(0).value(1), 2 * value);
        if (expected.isEmpty()) {
            QVERIFY(report.notes.empty());
            QCOMPARE_TYPE(t->column(0).type(), ColumnType::Count);
            return;
        }
        QCOMPARE_TYPE(t->column(0).type(), ColumnType::Numeric);
        QCOMPARE(report.notes.size(), std::size_t{1});
        const QString note = QString::fromStdString(report.notes[0]);
        qInfo("%s", qPrintable(note));
        QVERIFY2(note.startsWith("column 'WHEN' has the ") && note.contains(format) &&
                     note.contains(expected) && note.contains("plain numbers"),
                 qPrintable(note));
    }

    // A date column keeps its display format through read -> write -> read of the same
    // program: SPSS and Stata show dates again, with the same numbers.
    void dateFormatsSurviveRoundTrip_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("value");
        QTest::newRow("sav DATE11") << static_cast<int>(Kind::Sav) << "DATE11" << kSpss;
        QTest::newRow("sav ADATE10") << static_cast<int>(Kind::Sav) << "ADATE10" << kSpss;
        QTest::newRow("sav DATETIME20")
            << static_cast<int>(Kind::Sav) << "DATETIME20" << kSpss + kAfternoon;
        QTest::newRow("sav TIME8") << static_cast<int>(Kind::Sav) << "TIME8" << kAfternoon;
        QTest::newRow("sav DTIME") << static_cast<int>(Kind::Sav) << "DTIME12" << 2 * 86400.0;
        QTest::newRow("dta %td") << static_cast<int>(Kind::Dta) << "%td" << kDays;
        QTest::newRow("dta %tdCCYY-NN-DD")
            << static_cast<int>(Kind::Dta) << "%tdCCYY-NN-DD" << kDays;
        QTest::newRow("dta %tc") << static_cast<int>(Kind::Dta) << "%tc"
                                 << (kDays * 86400 + kAfternoon) * 1000;
        QTest::newRow("dta %tC") << static_cast<int>(Kind::Dta) << "%tC" << 1.9e12;
        QTest::newRow("dta %tm") << static_cast<int>(Kind::Dta) << "%tm" << 722.0;
        QTest::newRow("dta %ty") << static_cast<int>(Kind::Dta) << "%ty" << 2020.0;
    }
    void dateFormatsSurviveRoundTrip() {
        QFETCH(int, kind);
        QFETCH(QString, format);
        QFETCH(double, value);
        const bool sav = static_cast<Kind>(kind) == Kind::Sav;
        const std::string fmt = format.toStdString();
        const std::string source = outPath(std::string("dates_in") + (sav ? ".sav" : ".dta"));
        const std::vector<double> values{value, value + 1, value + 30};
        writeDateFile(source, static_cast<Kind>(kind), fmt, values);

        auto t = readTable(source);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const TimeFormat expected{sav ? TimeFormat::Family::Spss : TimeFormat::Family::Stata, fmt};
        QVERIFY(t->column(0).timeFormat() == expected);

        const std::string written = outPath(std::string("dates_out") + (sav ? ".sav" : ".dta"));
        const Status s = writeTable(*t, written);
        QVERIFY2(s.isOk(), s.message().c_str());
        QCOMPARE(displayFormats(written), std::vector<std::string>{fmt});
        auto back = readTable(written);
        QVERIFY2(back.hasValue(), back.hasValue() ? "" : back.message().c_str());
        QVERIFY(*back == *t);  // the same numbers, missing cell and format
        QVERIFY(back->column(0).timeFormat() == expected);
        const auto want = withMissingSecond(values);
        for (std::size_t i = 0; i < want.size(); ++i)
            if (i != 1) QCOMPARE(back->column(0).value(i), want[i]);
        QVERIFY(back->column(0).isMissing(1));
    }

    // Between programs a date becomes the other program's date (a date-time its date-time,
    // a time of day a time), with the numbers converted from one origin and unit to the
    // other; formats without a counterpart leave plain numbers, unchanged. `returns`: the
    // file written back in the first program has the first format and numbers again.
    void datesConvertBetweenPrograms_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("value");
        QTest::addColumn<FileFormat>("target");
        QTest::addColumn<QString>("targetFormat");  // empty: none (plain numbers)
        QTest::addColumn<double>("targetValue");
        QTest::addColumn<bool>("returns");
        const auto sav = static_cast<int>(Kind::Sav), dta = static_cast<int>(Kind::Dta),
                   sas = static_cast<int>(Kind::Sas7bdat);
        const double tc = (kDays * 86400 + kAfternoon) * 1000;
        QTest::newRow("sav DATE11 -> %td")
            << sav << "DATE11" << kSpss << FileFormat::Dta << "%td" << kDays << true;
        QTest::newRow("sav ADATE10 -> %tdNN/DD/CCYY")
            << sav << "ADATE10" << kSpss << FileFormat::Dta << "%tdNN/DD/CCYY" << kDays << true;
        QTest::newRow("sav EDATE10 -> %tdDD/NN/CCYY")
            << sav << "EDATE10" << kSpss << FileFormat::Dta << "%tdDD/NN/CCYY" << kDays << true;
        QTest::newRow("sav MOYR8 -> %tdMon_CCYY")
            << sav << "MOYR8" << kSpss << FileFormat::Dta << "%tdMon_CCYY" << kDays << true;
        QTest::newRow("sav DATETIME20 -> %tc")
            << sav << "DATETIME20" << kSpss + kAfternoon << FileFormat::Dta << "%tc" << tc << true;
        QTest::newRow("sav TIME8 -> %tcHH:MM:SS") << sav << "TIME8" << kAfternoon << FileFormat::Dta
                                                  << "%tcHH:MM:SS" << kAfternoon * 1000 << true;
        QTest::newRow("sav DTIME: no Stata duration")
            << sav << "DTIME12" << 2 * 86400.0 << FileFormat::Dta << "" << 2 * 86400.0 << false;
        QTest::newRow("%td -> DATE11")
            << dta << "%td" << kDays << FileFormat::Sav << "DATE11" << kSpss << true;
        QTest::newRow("%tdCCYY-NN-DD -> DATE11")
            << dta << "%tdCCYY-NN-DD" << kDays << FileFormat::Sav << "DATE11" << kSpss << false;
        QTest::newRow("%tc -> DATETIME20")
            << dta << "%tc" << tc << FileFormat::Sav << "DATETIME20" << kSpss + kAfternoon << true;
        // March 2020 is month 722 since January 1960; its first day is 14 days before the 15th.
        QTest::newRow("%tm -> MOYR8")
            << dta << "%tm" << 722.0 << FileFormat::Sav << "MOYR8" << kSpss - 14 * 86400 << false;
        // The first quarter of 2020 is quarter 240; it starts on 1 January (day 21915).
        QTest::newRow("%tq -> QYR8") << dta << "%tq" << 240.0 << FileFormat::Sav << "QYR8"
                                     << (21915 + 137775) * 86400.0 << false;
        // Stata's week 11 of 2020 (3120 + 10) starts 70 days after 1 January.
        QTest::newRow("%tw -> DATE11") << dta << "%tw" << 3130.0 << FileFormat::Sav << "DATE11"
                                       << (21915 + 70 + 137775) * 86400.0 << false;
        QTest::newRow("%tC: no SPSS date-time with leap seconds")
            << dta << "%tC" << 1.9e12 << FileFormat::Sav << "" << 1.9e12 << false;
        QTest::newRow("%ty: years stay numbers")
            << dta << "%ty" << 2020.0 << FileFormat::Sav << "" << 2020.0 << false;
        QTest::newRow("sas DATE9 -> %td")
            << sas << "DATE9" << kDays << FileFormat::Dta << "%td" << kDays << false;
        QTest::newRow("sas MMDDYY10 -> ADATE10")
            << sas << "MMDDYY10" << kDays << FileFormat::Sav << "ADATE10" << kSpss << false;
        QTest::newRow("sas DATETIME20 -> %tc") << sas << "DATETIME20" << kDays * 86400 + kAfternoon
                                               << FileFormat::Dta << "%tc" << tc << false;
        QTest::newRow("sas TIME8 -> TIME8")
            << sas << "TIME8" << kAfternoon << FileFormat::Sav << "TIME8" << kAfternoon << false;
    }
    void datesConvertBetweenPrograms() {
        QFETCH(int, kind);
        QFETCH(QString, format);
        QFETCH(double, value);
        QFETCH(FileFormat, target);
        QFETCH(QString, targetFormat);
        QFETCH(double, targetValue);
        QFETCH(bool, returns);
        const auto sourceKind = static_cast<Kind>(kind);
        const std::string sourceExt = sourceKind == Kind::Sav   ? ".sav"
                                      : sourceKind == Kind::Dta ? ".dta"
                                                                : ".sas7bdat";
        const std::string source = outPath("convert_in" + sourceExt);
        writeDateFile(source, sourceKind, format.toStdString(), {value});
        auto t = readTable(source);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());

        const std::string written = outPath("convert_out" + ext(target));
        const Status s = writeTable(*t, written);
        QVERIFY2(s.isOk(), s.message().c_str());
        const std::vector<std::string> formats = displayFormats(written);
        if (targetFormat.isEmpty())  // ReadStat's defaults for plain numbers
            QVERIFY2(formats[0] == "F8.2" || formats[0] == "%10.0g", formats[0].c_str());
        else
            QCOMPARE(formats, std::vector<std::string>{targetFormat.toStdString()});
        auto back = readTable(written);
        QVERIFY2(back.hasValue(), back.hasValue() ? "" : back.message().c_str());
        const Column& c = back->column(0);
        QCOMPARE(c.value(0), targetValue);
        QVERIFY(c.isMissing(1));
        QCOMPARE(c.timeFormat().has_value(), !targetFormat.isEmpty());
        if (!returns) return;

        const std::string again = outPath("convert_again" + sourceExt);
        QVERIFY(writeTable(*back, again).isOk());
        QCOMPARE(displayFormats(again), std::vector<std::string>{format.toStdString()});
        auto twice = readTable(again);
        QVERIFY(twice.hasValue());
        QVERIFY(*twice == *t);
    }

    // A file whose text is not in the encoding it declares (here Windows-1252 bytes in a .sav
    // that says UTF-8, as older programs wrote) fails with a message naming the encoding
    // option; with the option set it reads.
    void fileEncodingOption() {
        const std::string path = outPath("cp1252.sav");
        writeWithReadStat(
            path, Kind::Sav, 2,
            [](readstat_writer_t* w) {
                readstat_label_set_t* ls = readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "l");
                readstat_label_double_value(ls, 1, "caf\xe9");
                readstat_label_double_value(ls, 2, "na\xefve \x80");
                std::vector<readstat_variable_t*> v{
                    readstat_add_variable(w, "g", READSTAT_TYPE_DOUBLE, 0),
                    readstat_add_variable(w, "s", READSTAT_TYPE_STRING, 8)};
                readstat_variable_set_label_set(v[0], ls);
                return v;
            },
            [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                for (int r = 0; r < 2; ++r) {
                    check(readstat_begin_row(w));
                    check(readstat_insert_double_value(w, v[0], r + 1));
                    check(readstat_insert_string_value(w, v[1], r ? "\xe9t\xe9" : "x"));
                    check(readstat_end_row(w));
                }
            });
        auto failed = readTable(path);
        QVERIFY(!failed.hasValue());
        QString msg = QString::fromStdString(failed.message());
        qInfo("%s", qPrintable(msg));
        QVERIFY2(msg.contains("could not be converted to UTF-8") &&
                     msg.contains("data.read.stat_encoding") && msg.contains("WINDOWS-1252"),
                 qPrintable(msg));
        // The kind, not the text, is what the GUI decides on to offer another encoding.
        QCOMPARE(failed.kind(), ErrorKind::Encoding);

        ReadOptions cp1252;
        cp1252.stat.encoding = "WINDOWS-1252";
        auto t = readTable(path, cp1252);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        QCOMPARE(t->column(0).levels(), (std::vector<Level>{{"1", "café"}, {"2", "naïve €"}}));
        QCOMPARE(t->column(1).levels()[1].label, std::string("été"));

        ReadOptions unknown;
        unknown.stat.encoding = "NO-SUCH-CODEPAGE";
        auto bad = readTable(path, unknown);
        QVERIFY(!bad.hasValue());
        msg = QString::fromStdString(bad.message());
        qInfo("%s", qPrintable(msg));
        QVERIFY2(
            msg.endsWith(
                "the chosen encoding 'NO-SUCH-CODEPAGE' (data.read.stat_encoding) is not one this "
                "system knows; use an iconv name such as WINDOWS-1252, CP850 or ISO-8859-15"),
            qPrintable(msg));
        QCOMPARE(bad.kind(), ErrorKind::Encoding);
    }

    // Stata 118+ text is UTF-8 by definition, so ReadStat passes it through unchecked;
    // Windows-1252 bytes in one (as a converted old file may hold) fail with the same message
    // as unconvertible text in other formats instead of reaching the table. ReadStat honours
    // the encoding option for these files too, so with it they read.
    void stata118NotUtf8_data() {
        QTest::addColumn<bool>("inLabel");
        QTest::addColumn<QString>("where");
        QTest::newRow("string value") << false << "column 's' row 2 is not valid UTF-8";
        QTest::newRow("value label") << true << "a value label is not valid UTF-8";
    }
    void stata118NotUtf8() {
        QFETCH(bool, inLabel);
        QFETCH(QString, where);
        const std::string path = outPath("cp1252_118.dta");
        const char* cp1252 = "caf\xe9 \x80";
        writeWithReadStat(
            path, Kind::Dta, 2,
            [&](readstat_writer_t* w) {
                check(readstat_writer_set_file_format_version(w, 118));
                readstat_label_set_t* ls = readstat_add_label_set(w, READSTAT_TYPE_DOUBLE, "l");
                readstat_label_double_value(ls, 1, "one");
                readstat_label_double_value(ls, 2, inLabel ? cp1252 : "two");
                std::vector<readstat_variable_t*> v{
                    readstat_add_variable(w, "s", READSTAT_TYPE_STRING, 8),
                    readstat_add_variable(w, "g", READSTAT_TYPE_DOUBLE, 0)};
                readstat_variable_set_label_set(v[1], ls);
                return v;
            },
            [&](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                for (int r = 0; r < 2; ++r) {
                    check(readstat_begin_row(w));
                    check(readstat_insert_string_value(w, v[0], r && !inLabel ? cp1252 : "x"));
                    check(readstat_insert_double_value(w, v[1], r + 1));
                    check(readstat_end_row(w));
                }
            });
        auto failed = readTable(path);
        QVERIFY(!failed.hasValue());
        const QString msg = QString::fromStdString(failed.message());
        qInfo("%s", qPrintable(msg));
        QVERIFY2(msg.contains("could not be converted to UTF-8") && msg.contains(where) &&
                     msg.contains("data.read.stat_encoding") && msg.contains("WINDOWS-1252"),
                 qPrintable(msg));
        QCOMPARE(failed.kind(), ErrorKind::Encoding);

        ReadOptions windows1252;
        windows1252.stat.encoding = "WINDOWS-1252";
        auto t = readTable(path, windows1252);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const auto& levels = t->column(inLabel ? 1 : 0).levels();
        QVERIFY(std::any_of(levels.begin(), levels.end(),
                            [](const Level& l) { return l.label == "café €"; }));
    }

    // SAS files made with ReadStat's XPORT and sas7bdat writers: numbers, SAS special
    // missing (.A), system missing, strings.
    void sasFiles_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("xpt") << static_cast<int>(Kind::Xport) << "sas_made.xpt";
        QTest::newRow("sas7bdat") << static_cast<int>(Kind::Sas7bdat) << "sas_made.sas7bdat";
    }
    void sasFiles() {
        QFETCH(int, kind);
        QFETCH(QString, name);
        const std::string path = outPath(name.toStdString());
        writeWithReadStat(
            path, static_cast<Kind>(kind), 5,
            [](readstat_writer_t* w) {
                std::vector<readstat_variable_t*> v;
                v.push_back(readstat_add_variable(w, "HEIGHT", READSTAT_TYPE_DOUBLE, 8));
                v.push_back(readstat_add_variable(w, "KIDS", READSTAT_TYPE_DOUBLE, 8));
                v.push_back(readstat_add_variable(w, "ARM", READSTAT_TYPE_STRING, 8));
                return v;
            },
            [](readstat_writer_t* w, const std::vector<readstat_variable_t*>& v) {
                const double height[] = {1.62, 1.80, 0, 1.75, 1.5};
                const double kids[] = {0, 2, 1, 3, 1};
                const char* arm[] = {"PLACEBO", "DRUG", "DRUG", "", "PLACEBO"};
                for (int r = 0; r < 5; ++r) {
                    check(readstat_begin_row(w));
                    if (r == 2)
                        check(readstat_insert_tagged_missing_value(w, v[0], 'A'));
                    else if (r == 4)
                        check(readstat_insert_missing_value(w, v[0]));
                    else
                        check(readstat_insert_double_value(w, v[0], height[r]));
                    check(readstat_insert_double_value(w, v[1], kids[r]));
                    check(readstat_insert_string_value(w, v[2], arm[r]));
                    check(readstat_end_row(w));
                }
            });
        auto t = readTable(path);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        QCOMPARE(t->rowCount(), std::size_t{5});
        const Column& height = t->column(0);
        QCOMPARE(height.name(), std::string("HEIGHT"));
        QCOMPARE_TYPE(height.type(), ColumnType::Numeric);
        QCOMPARE(height.missingMask(), (std::vector<std::uint8_t>{0, 0, 1, 0, 1}));
        QCOMPARE(height.value(0), 1.62);
        QCOMPARE(height.value(3), 1.75);
        QCOMPARE_TYPE(t->column(1).type(), ColumnType::Count);
        QCOMPARE(t->column(1).values(), (std::vector<double>{0, 2, 1, 3, 1}));
        const Column& arm = t->column(2);
        QCOMPARE(arm.levels(), (std::vector<Level>{{"DRUG", "DRUG"}, {"PLACEBO", "PLACEBO"}}));
        QCOMPARE(arm.codes(), (std::vector<std::int32_t>{1, 0, 0, -1, 1}));
    }

    void badInput_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");  // empty: a truncated real .sav
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated sav")
            << "truncated.sav" << QByteArray() << "is not a valid SPSS file";
        QTest::newRow("garbage sav")
            << "garbage.sav" << QByteArray(300, '\x7f') << "is not a valid SPSS file (";
        QTest::newRow("text renamed dta") << "notes.dta" << QByteArray("name,age\nAnna,34\nBo,51\n")
                                          << "is not a valid Stata file";
        QTest::newRow("text renamed xpt")
            << "notes.xpt" << QByteArray("hello\n") << "is not a valid SAS transport (XPORT) file";
        QTest::newRow("empty sas7bdat")
            << "empty.sas7bdat" << QByteArray("") << "is not a valid SAS file";
    }
    void badInput() {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const std::string path = outPath(name.toStdString());
        if (name == "truncated.sav") {
            const std::string whole = outPath("whole.sav");
            QVERIFY(writeTable(statOriginTable(), whole).isOk());
            const std::string all = slurp(whole);
            std::ofstream(path, std::ios::binary)
                .write(all.data(), static_cast<std::streamsize>(all.size() / 2));
        } else {
            std::ofstream(path, std::ios::binary).write(bytes.constData(), bytes.size());
        }
        const std::string before = slurp(path);
        auto t = readTable(path);
        QVERIFY(!t.hasValue());
        const QString msg = QString::fromStdString(t.message());
        QVERIFY2(msg.startsWith("'" + QString::fromStdString(path) + "'"), qPrintable(msg));
        QVERIFY2(msg.contains(expected), qPrintable(msg));
        qInfo("%s", qPrintable(msg));
        QCOMPARE(slurp(path), before);  // the source is never modified
    }

    // A file whose end is cut is refused, naming the file and what is missing; ReadStat
    // alone reads a .dta without its closing tag (and its value labels) without complaint.
    void cutShortRefused_data() {
        QTest::addColumn<FileFormat>("format");
        QTest::addColumn<int>("cut");  // bytes cut from the end
        QTest::addColumn<QString>("expected");
        const QString noTag =
            "is cut short: a Stata file ends with the tag </stata_dta>, and this one does not, "
            "so its end (the value labels, perhaps rows) is missing. Export or copy the file "
            "again";
        QTest::newRow("dta without its closing tag") << FileFormat::Dta << 12 << noTag;
        QTest::newRow("dta cut in its value labels") << FileFormat::Dta << 40 << noTag;
        QTest::newRow("dta cut by one byte") << FileFormat::Dta << 1 << noTag;
        QTest::newRow("sav cut by one byte") << FileFormat::Sav << 1 << "is cut short";
        QTest::newRow("sav without its last row") << FileFormat::Sav << 40 << "is cut short";
    }
    void cutShortRefused() {
        QFETCH(FileFormat, format);
        QFETCH(int, cut);
        QFETCH(QString, expected);
        const std::string whole = outPath("whole" + ext(format));
        QVERIFY(writeTable(statOriginTable(), whole).isOk());
        QVERIFY(readTable(whole).hasValue());
        const std::string all = slurp(whole);
        if (format == FileFormat::Dta) QVERIFY(all.starts_with("<stata_dta>"));
        const std::string path = outPath("cut" + ext(format));
        std::ofstream(path, std::ios::binary)
            .write(all.data(), static_cast<std::streamsize>(all.size() - std::size_t(cut)));
        auto t = readTable(path);
        QVERIFY2(!t.hasValue(), "a file cut short was read");
        const QString msg = QString::fromStdString(t.message());
        qInfo("%s", qPrintable(msg));
        QVERIFY2(msg.startsWith("'" + QString::fromStdString(path) + "'"), qPrintable(msg));
        QVERIFY2(msg.contains(expected), qPrintable(msg));
    }

    void invalidNames_data() {
        QTest::addColumn<FileFormat>("format");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("stata digit first")
            << FileFormat::Dta << "2nd"
            << "column '2nd' cannot be written to a Stata file: Stata variable names cannot "
               "start with a digit; rename the column";
        QTest::newRow("stata space") << FileFormat::Dta << "first name"
                                     << "may contain only letters, digits and underscores";
        QTest::newRow("stata non-ascii") << FileFormat::Dta << "größe"
                                         << "may contain only letters, digits and underscores";
        QTest::newRow("stata too long")
            << FileFormat::Dta << QString(33, 'a') << "at most 32 characters";
        QTest::newRow("stata reserved") << FileFormat::Dta << "long"
                                        << "reserved word in Stata";
        QTest::newRow("stata strN") << FileFormat::Dta << "str12"
                                    << "reserved word in Stata";
        QTest::newRow("spss reserved") << FileFormat::Sav << "WITH"
                                       << "reserved word in SPSS";
        QTest::newRow("spss space") << FileFormat::Sav << "a b"
                                    << "may contain only letters";
        QTest::newRow("spss digit first") << FileFormat::Sav << "1x"
                                          << "must start with a letter";
        QTest::newRow("spss too long") << FileFormat::Sav << QString(65, 'a') << "at most 64 bytes";
    }
    void invalidNames() {
        QFETCH(FileFormat, format);
        QFETCH(QString, name);
        QFETCH(QString, expected);
        const Table t =
            makeTable({Column::numeric("ok", {1, 2}), Column::numeric(name.toStdString(), {1, 2})});
        const std::string path = outPath("bad_name" + ext(format));
        const Status s = writeTable(t, path);
        QVERIFY(!s.isOk());
        const QString msg = QString::fromStdString(s.message());
        QVERIFY2(msg.contains(expected), qPrintable(msg));
        QVERIFY2(msg.startsWith("'" + QString::fromStdString(path) + "': column '" + name + "'"),
                 qPrintable(msg));
        QVERIFY(!fs::exists(path));
        QVERIFY(leftoverTemporaries(path).empty());
    }

    void validNonAsciiSpssName() {
        const Table t = makeTable({Column::numeric("größe", {1.5, 2})});
        const std::string path = outPath("umlaut_name.sav");
        QVERIFY(writeTable(t, path).isOk());
        auto back = readTable(path);
        QVERIFY(back.hasValue());
        QVERIFY(*back == t);
    }

    void otherWriteErrors_data() {
        QTest::addColumn<FileFormat>("format");
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("expected");
        QTest::newRow("sav case clash")
            << FileFormat::Sav << 0 << "same name apart from upper/lower";
        QTest::newRow("sav long label")
            << FileFormat::Sav << 1 << "longer than the 120 bytes an SPSS value label may have";
        QTest::newRow("dta infinity")
            << FileFormat::Dta << 2 << "column 'x' row 2: inf cannot be stored in a Stata file";
        QTest::newRow("sav nothing") << FileFormat::Sav << 3 << "a table without columns";
    }
    void otherWriteErrors() {
        QFETCH(FileFormat, format);
        QFETCH(int, which);
        QFETCH(QString, expected);
        Table t;
        if (which == 0) t = makeTable({Column::numeric("Age", {1}), Column::numeric("age", {2})});
        if (which == 1)
            t = makeTable({Column::categorical("g", {0}, {{"1", std::string(121, 'l')}})});
        if (which == 2)
            t = makeTable({Column::numeric("x", {1, std::numeric_limits<double>::infinity()})});
        const std::string path = outPath("write_error" + ext(format));
        const Status s = writeTable(t, path);
        QVERIFY(!s.isOk());
        QVERIFY2(QString::fromStdString(s.message()).contains(expected), s.message().c_str());
        QVERIFY(!fs::exists(path));
    }

    // A failure in the middle of writing (ReadStat refuses a value Stata cannot hold, after
    // the header is out) removes the temporary and leaves an existing file as it was.
    void failedWriteKeepsExistingFile() {
        const std::string path = outPath("precious.dta");
        { std::ofstream(path) << "precious contents"; }
        std::vector<double> big(50, 1.0);
        big[40] = 1e308;  // above Stata's largest double (about 8.988e307)
        const Table t = makeTable({Column::numeric("x", big)});
        const Status s = writeTable(t, path);
        QVERIFY(!s.isOk());
        const QString msg = QString::fromStdString(s.message());
        QVERIFY2(msg.contains("column 'x' row 41"), qPrintable(msg));
        QCOMPARE(slurp(path), std::string("precious contents"));
        QVERIFY(leftoverTemporaries(path).empty());
        // A failure before any byte is written behaves the same.
        const Status bad = writeTable(makeTable({Column::numeric("2x", {1})}), path);
        QVERIFY(!bad.isOk());
        QCOMPARE(slurp(path), std::string("precious contents"));
        QVERIFY(leftoverTemporaries(path).empty());
        // And a good write replaces it.
        QVERIFY(writeTable(statOriginTable(), path).isOk());
        QVERIFY(readTable(path).hasValue());
    }

    void cancelledRead_data() { formats_data(); }
    void cancelledRead() {
        QFETCH(FileFormat, format);
        std::vector<double> xs(20000);
        for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 0.5 + static_cast<double>(i);
        const std::string path = outPath("cancel" + ext(format));
        QVERIFY(writeTable(makeTable({Column::numeric("x", xs)}), path).isOk());
        const double size = static_cast<double>(fs::file_size(path));

        // Progress reaches the caller in bytes of the file...
        std::vector<Progress> seen;
        ReadOptions watch;
        watch.progress = [&](const Progress& p) {
            seen.push_back(p);
            return Continue::Yes;
        };
        QVERIFY(readTable(path, watch).hasValue());
        QVERIFY(seen.size() >= 2);
        for (std::size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].stage, std::string("reading"));
            QCOMPARE(seen[i].total, size);
            QVERIFY(seen[i].done >= 0 && seen[i].done <= size);
            if (i) QVERIFY(seen[i].done >= seen[i - 1].done);
        }
        // ...and Stop ends the read with a "reading cancelled" error.
        int calls = 0;
        ReadOptions stop;
        stop.progress = [&](const Progress&) {
            return ++calls >= 2 ? Continue::Stop : Continue::Yes;
        };
        auto t = readTable(path, stop);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("reading cancelled"));
        QCOMPARE(calls, 2);
    }

    void memoryBudget() {
        const std::string path = outPath("budget.sav");
        QVERIFY(writeTable(makeTable({Column::numeric("x", std::vector<double>(1000, 1.5))}), path)
                    .isOk());
        ReadOptions tight;
        tight.memoryBudgetBytes = 1000;  // 1000 cells need at least 9000 bytes
        auto t = readTable(path, tight);
        QVERIFY(!t.hasValue());
        QVERIFY2(QString::fromStdString(t.message()).contains("of memory to read"),
                 t.message().c_str());
        tight.memoryBudgetBytes = 9000;
        QVERIFY(readTable(path, tight).hasValue());
    }
};

QTEST_GUILESS_MAIN(TstStatFiles)
#include "tst_stat_files.moc"
