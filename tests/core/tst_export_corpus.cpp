// Golden corpus of real exports (tests/data/exports, made by scripts/make_export_corpus.sh
// with pandas, R, readr, haven and LibreOffice): each file's inferred column types and exact
// values.
// Every CSV holds the same 12 rows: id 1..12; score, a single-precision value widened to
// double (missing in row 5); minutes = 28651 + k/7 (missing in row 8); income = 1234.5
// (k+1)^3 + 0.25; tiny = 1.5e-07 (k+1); visits = 3k mod 7; region (missing in row 4).
#include <QTest>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "ppsynth/data/io.hpp"
#include "ppsynth/data/table.hpp"

using namespace ppsynth::data;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kDir = std::string(PPSYNTH_TEST_DATA_DIR) + "/exports/";

// "name:type name:type ...".
std::string types(const Table& t) {
    std::string s;
    for (const auto& c : t.columns())
        s += (s.empty() ? "" : " ") + c.name() + ":" + std::string(toString(c.type()));
    return s;
}

Table read(const std::string& file, const ReadOptions& options = {}, ReadReport* report = nullptr) {
    auto t = readTable(kDir + file, options, report);
    if (!t) qFatal("%s", t.message().c_str());
    return std::move(*t);
}

const Column& column(const Table& t, const std::string& name) {
    const Column* c = t.find(name);
    if (!c) qFatal("no column %s", name.c_str());
    return *c;
}

// Bit for bit: the reader must give the double the writer had.
bool same(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

double minutes(int k) {
    return 28651.0 + k / 7.0;
}

// numpy: float32 arithmetic; R: double arithmetic rounded to single precision.
double pandasScore(int k) {
    return static_cast<double>(2.05f + 0.37f * static_cast<float>(k));
}
double rScore(int k) {
    return static_cast<double>(static_cast<float>(2.05 + 0.37 * k));
}

// A value as LibreOffice shows it in the format 0,00E-00 (three significant digits), read
// back: 1.5e-07 * 11 is shown as 1,65E-06, which reads as the double nearest 1.65e-06.
double shown(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2e", v);
    return std::strtod(buf, nullptr);
}

bool contains(const std::vector<std::string>& notes, const std::string& part) {
    return std::any_of(notes.begin(), notes.end(),
                       [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

}  // namespace

class TstExportCorpus : public QObject {
    Q_OBJECT
  private slots:
    // Files that keep every double (shortest round trip or 17 significant digits): each
    // value is the one written, bit for bit.
    void exactExports_data() {
        QTest::addColumn<std::string>("file");
        QTest::addColumn<bool>("pandas");
        QTest::newRow("pandas to_csv default") << std::string("pandas_default.csv") << true;
        QTest::newRow("pandas float_format %.17g") << std::string("pandas_17g.csv") << true;
        QTest::newRow("readr write_csv") << std::string("readr_write_csv.csv") << false;
        QTest::newRow("R formatC digits 17") << std::string("r_digits17.csv") << false;
    }
    void exactExports() {
        QFETCH(std::string, file);
        QFETCH(bool, pandas);
        const Table t = read(file);
        QCOMPARE(types(t), std::string("id:count score:numeric minutes:numeric income:numeric "
                                       "tiny:numeric visits:count region:categorical"));
        QCOMPARE(t.rowCount(), std::size_t{12});
        for (int k = 0; k < 12; ++k) {
            const auto r = static_cast<std::size_t>(k);
            const std::string where = file + " row " + std::to_string(k + 1);
            QVERIFY2(column(t, "score").isMissing(r) == (k == 4), where.c_str());
            if (k != 4)
                QVERIFY2(same(column(t, "score").value(r), pandas ? pandasScore(k) : rScore(k)),
                         where.c_str());
            if (k != 7) QVERIFY2(same(column(t, "minutes").value(r), minutes(k)), where.c_str());
            QVERIFY2(
                same(column(t, "income").value(r), 1234.5 * (k + 1) * (k + 1) * (k + 1) + 0.25),
                where.c_str());
            QVERIFY2(same(column(t, "tiny").value(r), 1.5e-07 * (k + 1)), where.c_str());
        }
        QVERIFY(column(t, "minutes").isMissing(7));
        QVERIFY(column(t, "region").isMissing(3));
        QVERIFY(same(column(t, "score").value(0), 2.0499999523162842));  // the issue's example
    }

    // R's write.csv keeps 15 significant digits: each value is the nearest double to them.
    void rWriteCsv() {
        const Table t = read("r_write_csv.csv");
        QCOMPARE(types(t), std::string("id:count score:numeric minutes:numeric income:numeric "
                                       "tiny:numeric visits:count region:categorical"));
        QVERIFY(same(column(t, "score").value(0), 2.04999995231628));
        QVERIFY(same(column(t, "minutes").value(1), 28651.1428571429));
        QVERIFY(same(column(t, "tiny").value(0), 1.5e-07));
        QVERIFY(column(t, "score").isMissing(4));
        QVERIFY(column(t, "region").isMissing(3));  // NA
    }

    // R's write.csv2: ';' and a decimal comma, found without options.
    void rWriteCsv2() {
        const Table t = read("r_write_csv2.csv");
        QCOMPARE(types(t), std::string("id:count score:numeric minutes:numeric income:numeric "
                                       "tiny:numeric visits:count region:categorical"));
        QVERIFY(same(column(t, "score").value(0), 2.04999995231628));
        QVERIFY(same(column(t, "tiny").value(0), 1.5e-07));
        QVERIFY(same(column(t, "income").value(1), 9876.25));
    }

    // pandas with float_format="%.3f": what the file says, three decimals ("0.000" for
    // every tiny value makes that column whole numbers).
    void pandasFloatFormat() {
        const Table t = read("pandas_float_format.csv");
        QCOMPARE(types(t), std::string("id:count score:numeric minutes:numeric income:numeric "
                                       "tiny:count visits:count region:categorical"));
        QVERIFY(same(column(t, "score").value(0), 2.05));
        QVERIFY(same(column(t, "minutes").value(1), 28651.143));
    }

    // A European spreadsheet export: ';', decimal comma, '.' grouping thousands. Without the
    // thousands option the grouped columns are categories, with a note naming the option;
    // with it they are numbers.
    void european() {
        ReadReport report;
        const Table plain = read("european.csv", {}, &report);
        QCOMPARE(types(plain),
                 std::string("id:count score:numeric minutes:categorical income:categorical "
                             "visits:count region:categorical"));
        QVERIFY(same(column(plain, "score").value(0), 2.05));
        QVERIFY2(contains(report.notes, "set the thousands separator option to '.' (point)"),
                 report.notes.empty() ? "no notes" : report.notes.back().c_str());
        ReadOptions grouped;
        grouped.csv.thousands = '.';
        const Table t = read("european.csv", grouped);
        QCOMPARE(types(t), std::string("id:count score:numeric minutes:numeric income:numeric "
                                       "visits:count region:categorical"));
        QVERIFY(same(column(t, "minutes").value(1), 28651.14));
        QVERIFY(same(column(t, "income").value(11), 2133216.25));
        QVERIFY(column(t, "minutes").isMissing(7));
    }

    // LibreOffice Calc in a German locale, saved as Text CSV with ';': decimal comma in every
    // number, '.' grouping thousands in the cells formatted #.##0,00, a scientific format
    // (1,50E-07), general cells with 15 significant digits. Without the thousands option the
    // grouped columns are categories and a note names the option; with it (and the decimal
    // separator detected or given) every number is the value LibreOffice showed.
    void libreOfficeGerman_data() {
        QTest::addColumn<char>("delimiter");
        QTest::addColumn<char>("decimal");
        QTest::newRow("thousands '.' only") << char(0) << char(0);
        QTest::newRow("';', decimal ',' and thousands '.' given") << ';' << ',';
    }
    void libreOfficeGerman() {
        QFETCH(char, delimiter);
        QFETCH(char, decimal);
        ReadReport report;
        const Table plain = read("libreoffice_de.csv", {}, &report);
        QCOMPARE(types(plain),
                 std::string("id:count score:numeric minutes:categorical income:categorical "
                             "tiny:numeric visits:count region:categorical"));
        QVERIFY2(contains(report.notes, "set the thousands separator option to '.' (point)"),
                 report.notes.empty() ? "no notes" : report.notes.back().c_str());
        ReadOptions options;
        options.csv.delimiter = delimiter;
        options.csv.decimal = decimal;
        options.csv.thousands = '.';
        const Table t = read("libreoffice_de.csv", options);
        QCOMPARE(types(t), std::string("id:count score:numeric minutes:numeric income:numeric "
                                       "tiny:numeric visits:count region:categorical"));
        QCOMPARE(t.rowCount(), std::size_t{12});
        for (int k = 0; k < 12; ++k) {
            const auto r = static_cast<std::size_t>(k);
            const std::string where = "row " + std::to_string(k + 1);
            QVERIFY2(same(column(t, "id").value(r), k + 1.0), where.c_str());
            QVERIFY2(
                same(column(t, "income").value(r), 1234.5 * (k + 1) * (k + 1) * (k + 1) + 0.25),
                where.c_str());
            QVERIFY2(same(column(t, "tiny").value(r), shown(1.5e-07 * (k + 1))), where.c_str());
            QVERIFY2(same(column(t, "visits").value(r), double((k * 3) % 7)), where.c_str());
        }
        QVERIFY(same(column(t, "score").value(0), 2.04999995231628));  // 15 digits, as shown
        QVERIFY(same(column(t, "score").value(10), 5.75));
        QVERIFY(column(t, "score").isMissing(4));
        QVERIFY(same(column(t, "minutes").value(0), 28651.0));
        QVERIFY(same(column(t, "minutes").value(1), 28651.14));
        QVERIFY(same(column(t, "minutes").value(11), 28652.57));
        QVERIFY(column(t, "minutes").isMissing(7));
        QVERIFY(same(column(t, "income").value(9), 1234500.25));  // two groups: 1.234.500,25
        QVERIFY(column(t, "region").isMissing(3));
        QCOMPARE(column(t, "region").display(0), std::string("north"));
    }

    // Non-finite values as pandas (inf, -inf; NaN as an empty cell) and R (Inf, -Inf; NaN
    // and NA both as NA) write them.
    void nonFinite_data() {
        QTest::addColumn<std::string>("file");
        QTest::addColumn<std::string>("cells");
        QTest::newRow("pandas") << std::string("pandas_nonfinite.csv")
                                << std::string("1.5 inf -inf NA 2.25");
        QTest::newRow("R") << std::string("r_nonfinite.csv")
                           << std::string("1.5 inf -inf NA NA 2.25");
    }
    void nonFinite() {
        QFETCH(std::string, file);
        QFETCH(std::string, cells);
        const Table t = read(file);
        const Column& x = t.column(0);
        QCOMPARE(std::string(toString(x.type())), std::string("numeric"));
        std::string got;
        for (std::size_t r = 0; r < x.size(); ++r)
            got += (r ? " " : "") + (x.isMissing(r) ? std::string("NA") : x.display(r));
        QCOMPARE(got, cells);
    }

    // haven's SPSS and Stata files: labelled values are categories, dates are numbers
    // with their date format, text with an empty cell is categorical with a missing cell.
    void havenFiles_data() {
        QTest::addColumn<std::string>("file");
        QTest::addColumn<std::string>("format");
        QTest::newRow("sav") << std::string("haven.sav") << std::string("DATE");
        QTest::newRow("dta") << std::string("haven.dta") << std::string("%td");
    }
    void havenFiles() {
        QFETCH(std::string, file);
        QFETCH(std::string, format);
        ReadReport report;
        const Table t = read(file, {}, &report);
        QCOMPARE(types(t), std::string("id:count score:numeric sex:categorical visited:numeric "
                                       "region:categorical"));
        QVERIFY(same(column(t, "score").value(0), rScore(0)));
        QVERIFY(column(t, "score").isMissing(4));
        const Column& sex = column(t, "sex");
        QCOMPARE(sex.levels().size(), std::size_t{2});
        QCOMPARE(sex.levels()[0].label, std::string("male"));
        QCOMPARE(sex.levels()[1].label, std::string("female"));
        QCOMPARE(sex.display(1), std::string("female"));
        const Column& visited = column(t, "visited");
        QVERIFY(visited.timeFormat().has_value());
        QVERIFY2(visited.timeFormat()->name.starts_with(format),
                 visited.timeFormat()->name.c_str());
        QVERIFY(column(t, "region").isMissing(3));
        QCOMPARE(column(t, "region").display(0), std::string("north"));
    }

    // haven's files with their end cut: refused, naming the file, never read without their
    // value labels (ReadStat alone reads the .dta cut by 40 bytes with rc 0 and no labels).
    void cutHavenFilesRefused_data() {
        QTest::addColumn<std::string>("file");
        QTest::addColumn<int>("cut");
        for (int cut : {1, 12, 40, 200}) {
            QTest::newRow(("dta cut by " + std::to_string(cut)).c_str())
                << std::string("haven.dta") << cut;
            QTest::newRow(("sav cut by " + std::to_string(cut)).c_str())
                << std::string("haven.sav") << cut;
        }
    }
    void cutHavenFilesRefused() {
        QFETCH(std::string, file);
        QFETCH(int, cut);
        std::ifstream in(kDir + file, std::ios::binary);
        const std::string all((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
        QVERIFY(all.size() > 200);
        const auto dir = std::filesystem::temp_directory_path() / "ppsynth_export_corpus";
        std::filesystem::create_directories(dir);
        const std::string path = (dir / ("cut_" + file)).string();
        std::ofstream(path, std::ios::binary)
            .write(all.data(), static_cast<std::streamsize>(all.size() - std::size_t(cut)));
        auto t = readTable(path);
        QVERIFY2(!t.hasValue(), "a file cut short was read");
        QVERIFY2(t.message().starts_with("'" + path + "' is cut short: "), t.message().c_str());
    }
};

QTEST_APPLESS_MAIN(TstExportCorpus)
#include "tst_export_corpus.moc"
