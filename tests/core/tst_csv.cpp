// CSV reader and writer: quoting, delimiters, encodings, missing tokens, type detection,
// level order, round trips and cancellation. Every parse case runs with several read
// window sizes so records split across windows are covered.
#include <QTest>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "data/csv_parse.hpp"
#include "data/formats.hpp"
#include "data/message_text.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/data/table.hpp"

using namespace ppsynth;
using namespace ppsynth::data;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(ppsynth::data::ColumnType)

namespace {

// The message refusing `csv` when `column`'s type is set to numeric ("(read)" if it was read).
std::string refusedAsNumbers(const std::string& csv, const std::string& column,
                             ReadOptions o = {}) {
    o.typeOverrides = {{column, ColumnType::Numeric}};
    auto t = detail::parseCsvBuffer(csv, "t.csv", o);
    return t.hasValue() ? std::string("(read)") : t.message();
}

// "name:type=cell|cell" per column joined by "; ", missing cells as <NA>.
std::string describe(const Table& t) {
    std::string s;
    for (const auto& c : t.columns()) {
        if (!s.empty()) s += "; ";
        s += c.name() + ":" + std::string(toString(c.type())) + "=";
        for (std::size_t r = 0; r < c.size(); ++r) {
            if (r > 0) s += "|";
            s += c.isMissing(r) ? "<NA>" : c.display(r);
        }
    }
    return s;
}

std::string outputDir() {
    const QByteArray env = qgetenv("PPSYNTH_TEST_OUTPUT");
    std::string dir = env.isEmpty()
                          ? std::filesystem::temp_directory_path().string() + "/ppsynth-test"
                          : env.toStdString();
    std::filesystem::create_directories(dir + "/csv");
    return dir + "/csv";
}

std::string levelLabels(const Column& c) {
    std::string s;
    for (const auto& l : c.levels()) s += (s.empty() ? "" : ",") + l.label;
    return s;
}

}  // namespace

class TstCsv : public QObject {
    Q_OBJECT
  private slots:
    void parse_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<std::string>("encoding");
        QTest::addColumn<std::size_t>("maxLevels");
        QTest::addColumn<std::string>("expected");
        const std::string a = "auto";
        const std::size_t m = 100;
        QTest::newRow("comma") << std::string("a,b\n1,x\n2,y\n") << a << m
                               << std::string("a:count=1|2; b:categorical=x|y");
        QTest::newRow("semicolon") << std::string("a;b\n1,5;x\n2,5;y\n") << a << m
                                   << std::string("a:numeric=1.5|2.5; b:categorical=x|y");
        QTest::newRow("tab") << std::string("a\tb\n 1 \t x y \n2\ty\n") << a << m
                             << std::string("a:count=1|2; b:categorical=x y|y");
        QTest::newRow("pipe") << std::string("a|b|c\n1|2|3\n") << a << m
                              << std::string("a:count=1; b:count=2; c:count=3");
        QTest::newRow("quoted delimiter") << std::string("a,b\n\"x,y\",1\n\"z\",2\n") << a << m
                                          << std::string("a:categorical=x,y|z; b:count=1|2");
        QTest::newRow("quoted newline") << std::string("a,b\n\"line1\nline2\",1\nz,2\n") << a << m
                                        << std::string("a:categorical=line1\nline2|z; b:count=1|2");
        QTest::newRow("doubled quotes") << std::string("a\n\"say \"\"hi\"\"\"\n\"\"\"\"\n") << a
                                        << m << std::string("a:categorical=say \"hi\"|\"");
        QTest::newRow("crlf") << std::string("a,b\r\n1,2\r\n3,4\r\n") << a << m
                              << std::string("a:count=1|3; b:count=2|4");
        QTest::newRow("no trailing newline")
            << std::string("a,b\n1,2\n3,4") << a << m << std::string("a:count=1|3; b:count=2|4");
        QTest::newRow("spaces trimmed") << std::string(" a , b \n  1 ,  x\n2,\" y \"\n") << a << m
                                        << std::string("a:count=1|2; b:categorical=x| y ");
        QTest::newRow("bom") << std::string("\xEF\xBB\xBFid,v\n1,2\n") << a << m
                             << std::string("id:count=1; v:count=2");
        QTest::newRow("latin-1 fallback")
            << std::string("city,n\nK\xF6ln,1\nBonn,2\n") << a << m
            << std::string("city:categorical=K\xC3\xB6ln|Bonn; n:count=1|2");
        QTest::newRow("latin-1 forced") << std::string("c\n\xE9t\xE9\n") << std::string("latin-1")
                                        << m << std::string("c:categorical=\xC3\xA9t\xC3\xA9");
        QTest::newRow("utf-8 kept") << std::string("c\n\xC3\xA9t\xC3\xA9\n") << a << m
                                    << std::string("c:categorical=\xC3\xA9t\xC3\xA9");
        QTest::newRow("missing tokens")
            << std::string("a,b,c\n1,NA,.\n,x,\"NA\"\n3,\"\",y\n") << a << m
            << std::string(
                   "a:count=1|<NA>|3; b:categorical=<NA>|x|<NA>; "
                   "c:categorical=<NA>|NA|y");
        QTest::newRow("numeric") << std::string("x\n1\n-2\n") << a << m
                                 << std::string("x:numeric=1|-2");
        QTest::newRow("fraction is numeric")
            << std::string("x\n1\n2.5\n1e3\n") << a << m << std::string("x:numeric=1|2.5|1000");
        QTest::newRow("whole count")
            << std::string("x\n0\n7.0\n12\n") << a << m << std::string("x:count=0|7|12");
        QTest::newRow("all missing is numeric") << std::string("x,y\nNA,1\n,2\n") << a << m
                                                << std::string("x:numeric=<NA>|<NA>; y:count=1|2");
        QTest::newRow("late text switches") << std::string("x\n1.50\n2\nb\n1.5\n") << a << m
                                            << std::string("x:categorical=1.50|2|b|1.5");
        QTest::newRow("late text keeps every spelling")
            << std::string("x\n+2\n1e3\n.5\n7.0\n-0\n-0.0\n2.500\nb\n") << a << m
            << std::string("x:categorical=+2|1e3|.5|7.0|-0|-0.0|2.500|b");
        QTest::newRow("leading zeros are codes")
            << std::string("zip,y\n02134,1\n00501,2\n") << a << m
            << std::string("zip:categorical=02134|00501; y:count=1|2");
        QTest::newRow("leading zero after numbers") << std::string("zip\n12345\n-07\n") << a << m
                                                    << std::string("zip:categorical=12345|-07");
        QTest::newRow("zero and fractions are numbers")
            << std::string("x\n0\n0.5\n-0.25\n") << a << m << std::string("x:numeric=0|0.5|-0.25");
        QTest::newRow("long id is a number") << std::string("id\n1234567890123456789\n") << a << m
                                             << std::string("id:count=1234567890123456768");
        QTest::newRow("non-finite words are numbers")
            << std::string("x\ninf\n-inf\n+inf\nInf\nnan\nNaN\nInfinity\n-Infinity\n1.5\n") << a
            << m << std::string("x:numeric=inf|-inf|inf|inf|NaN|NaN|inf|-inf|1.5");
        QTest::newRow("whole numbers with inf are numeric")
            << std::string("x\n1\ninf\n") << a << m << std::string("x:numeric=1|inf");
        QTest::newRow("nan among texts is text")
            << std::string("x\na\nnan\nb\nc\n") << a << m << std::string("x:categorical=a|nan|b|c");
        {
            std::string nineteen = "x\n";
            std::string expected = "x:count=";
            for (int i = 1; i <= 20; ++i) {
                nineteen += i == 7 ? std::string("12abc\n") : std::to_string(i) + "\n";
                expected += (i > 1 ? "|" : "") + (i == 7 ? std::string("<NA>") : std::to_string(i));
            }
            QTest::newRow("one cell in twenty no number: numbers")
                << nineteen << a << m << expected;
        }
        QTest::newRow("exact 17-digit double is a number")
            << std::string("x\n0.30000000000000004\n0.1000\n") << a << m
            << std::string("x:numeric=0.30000000000000004|0.1");
        QTest::newRow("over level limit is text")
            << std::string("x\na\nb\nc\nb\nNA\n") << a << std::size_t{2}
            << std::string("x:text=a|b|c|b|<NA>");
        QTest::newRow("at level limit is categorical")
            << std::string("x\na\nb\na\n") << a << std::size_t{2}
            << std::string("x:categorical=a|b|a");
        QTest::newRow("generated name avoids the file's")
            << std::string("a,,column_2\n1,2,3\n") << a << m
            << std::string("a:count=1; column_2_2:count=2; column_2:count=3");
        QTest::newRow("windows-1252 fallback")
            << std::string("c\n\x92O\n\x80 5\n\x81\x9D\xE9\n") << a << m
            << std::string("c:categorical=\xE2\x80\x99O|\xE2\x82\xAC 5|\xC2\x81\xC2\x9D\xC3\xA9");
        QTest::newRow("empty header name") << std::string("a,,c\n1,2,3\n") << a << m
                                           << std::string("a:count=1; column_2:count=2; c:count=3");
        QTest::newRow("blank lines skipped") << std::string("a,b\n\n1,2\n   \n3,4\n\n") << a << m
                                             << std::string("a:count=1|3; b:count=2|4");
        QTest::newRow("single column blank lines skipped")
            << std::string("a\n1\n\n3\n\n") << a << m << std::string("a:count=1|3");
        QTest::newRow("single column quoted empty is missing")
            << std::string("a\n1\n\"\"\n3\n") << a << m << std::string("a:count=1|<NA>|3");
        QTest::newRow("lone cr line ends")
            << std::string("a,b\r1,2\r3,4") << a << m << std::string("a:count=1|3; b:count=2|4");
        QTest::newRow("quote in unquoted cell is literal")
            << std::string("a\n5\"\nab\"c\n") << a << m << std::string("a:categorical=5\"|ab\"c");
    }
    void parse() {
        QFETCH(std::string, input);
        QFETCH(std::string, encoding);
        QFETCH(std::size_t, maxLevels);
        QFETCH(std::string, expected);
        for (std::size_t chunk :
             {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{1} << 20}) {
            ReadOptions o;
            o.csv.encoding = encoding;
            o.csv.chunkBytes = chunk;
            o.maxLevels = maxLevels;
            auto t = detail::parseCsvBuffer(input, "t.csv", o);
            QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
            QCOMPARE(QString::fromStdString(describe(*t)), QString::fromStdString(expected));
        }
    }

    void noHeader() {
        ReadOptions o;
        o.csv.header = false;
        auto t = detail::parseCsvBuffer("1,a\n2,b\n", "t.csv", o);
        QVERIFY(t.hasValue());
        QCOMPARE(describe(*t), std::string("column_1:count=1|2; column_2:categorical=a|b"));
    }

    // A type override to categorical or text sees the cells' own text, not numbers.
    void overridesSeeCellText_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<ColumnType>("type");
        QTest::addColumn<std::string>("expected");
        QTest::newRow("zip as text") << std::string("zip,y\n02134,1\n00501,2\n") << ColumnType::Text
                                     << std::string("zip:text=02134|00501; y:count=1|2");
        QTest::newRow("zip as categorical")
            << std::string("zip,y\n02134,1\n00501,2\n") << ColumnType::Categorical
            << std::string("zip:categorical=02134|00501; y:count=1|2");
        QTest::newRow("zip as numbers")
            << std::string("zip,y\n02134,1\n00501,2\n") << ColumnType::Count
            << std::string("zip:count=2134|501; y:count=1|2");
        QTest::newRow("1.50 and 1.5 as categorical")
            << std::string("x,y\n1.50,1\n1.5,2\n1.50,3\n") << ColumnType::Categorical
            << std::string("x:categorical=1.50|1.5|1.50; y:count=1|2|3");
    }
    void overridesSeeCellText() {
        QFETCH(std::string, input);
        QFETCH(ColumnType, type);
        QFETCH(std::string, expected);
        ReadOptions o;
        o.typeOverrides = {{input.substr(0, input.find(',')), type}};
        auto t = detail::parseCsvBuffer(input, "t.csv", o);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        QVERIFY(detail::applyTypeOverrides(*t, o).isOk());
        QCOMPARE(describe(*t), expected);
        if (type == ColumnType::Categorical) QCOMPARE(t->column(0).levels().size(), std::size_t{2});
    }

    void decimalSeparator_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<char>("decimal");
        QTest::addColumn<std::string>("expected");
        QTest::addColumn<bool>("noted");  // the note that auto chose a comma
        const std::string commas = "a;b\n1,5;x\n2,5;y\n";
        const std::string numbers = "a:numeric=1.5|2.5; b:categorical=x|y";
        QTest::newRow("comma") << commas << ',' << numbers << false;
        QTest::newRow("auto picks comma") << commas << char(0) << numbers << true;
        QTest::newRow("point keeps text")
            << commas << '.' << std::string("a:categorical=1,5|2,5; b:categorical=x|y") << false;
        QTest::newRow("comma with tab and exponent")
            << std::string("a\tb\n1e3\t0,5\n-2\t10,25\n") << char(0)
            << std::string("a:numeric=1000|-2; b:numeric=0.5|10.25") << true;
        QTest::newRow("comma spellings kept as levels")
            << std::string("a;b\n1,50;1\n1,5;2\nz;3\n") << ','
            << std::string("a:categorical=1,50|1,5|z; b:count=1|2|3") << false;
        QTest::newRow("auto with points and commas keeps points")
            << std::string("a;b\n1.5;2,5\n") << char(0)
            << std::string("a:numeric=1.5; b:categorical=2,5") << false;
        QTest::newRow("auto never with comma delimiter")
            << std::string("a,b\n\"1,5\",2\n") << char(0)
            << std::string("a:categorical=1,5; b:count=2") << false;
    }
    void decimalSeparator() {
        QFETCH(std::string, input);
        QFETCH(char, decimal);
        QFETCH(std::string, expected);
        QFETCH(bool, noted);
        for (std::size_t chunk : {std::size_t{1}, std::size_t{1} << 20}) {
            ReadOptions o;
            o.csv.decimal = decimal;
            o.csv.chunkBytes = chunk;
            ReadReport report;
            auto t = detail::parseCsvBuffer(input, "t.csv", o, &report);
            QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
            QCOMPARE(QString::fromStdString(describe(*t)), QString::fromStdString(expected));
            const auto note = std::find(report.notes.begin(), report.notes.end(),
                                        "'t.csv': the decimal separator is ',' (comma)");
            QCOMPARE(note != report.notes.end(), noted);
        }
    }

    void decimalSeparatorMessages() {
        ReadOptions o;
        o.csv.decimal = '.';
        o.typeOverrides = {{"a", ColumnType::Numeric}};
        auto t = detail::parseCsvBuffer("a;b\n1,5;x\n", "t.csv", o);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(),
                 std::string("'t.csv' line 2, column 'a': '1,5' is not a number, and the "
                             "column's type is set to numeric (if ',' is the decimal separator, "
                             "set the decimal separator option to ',')"));

        auto converted = Column::text("a", {"1,5"}).convertedTo(ColumnType::Numeric);
        QVERIFY(!converted.hasValue());
        QCOMPARE(converted.message(),
                 std::string("column 'a' cannot be numeric: row 1: '1,5' is not a number (if "
                             "',' is the decimal separator, read the file again with the decimal "
                             "separator option set to ',')"));

        o.csv.decimal = ',';
        o.csv.delimiter = ',';
        t = detail::parseCsvBuffer("a,b\n1,2\n", "t.csv", o);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("'t.csv': the decimal separator and the delimiter are "
                                          "both ',' (comma); choose another delimiter"));
    }

    // The thousands separator option: grouped numbers read as numbers; numbers without
    // separators still read; a misplaced separator leaves text; a number column that turns
    // categorical keeps each cell's own text.
    void thousandsSeparator_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<char>("thousands");
        QTest::addColumn<char>("decimal");
        QTest::addColumn<std::string>("expected");
        QTest::newRow("comma, quoted in a comma file")
            << std::string("a,b\n\"1,234.5\",x\n\"12,345,678\",y\n-999,z\n\"-1,000.25\",w\n") << ','
            << char(0)
            << std::string(
                   "a:numeric=1234.5|12345678|-999|-1000.25; "
                   "b:categorical=x|y|z|w");
        QTest::newRow("point with decimal comma")
            << std::string("a;b\n1.234,5;x\n2.000.000;y\n7,25;z\n") << '.' << char(0)
            << std::string("a:numeric=1234.5|2000000|7.25; b:categorical=x|y|z");
        QTest::newRow("space, decimal comma detected")
            << std::string("a;b\n1 234,5;x\n12 345;y\n") << ' ' << char(0)
            << std::string("a:numeric=1234.5|12345; b:categorical=x|y");
        QTest::newRow("no-break spaces")
            << std::string(
                   "a;b\n1\xC2\xA0"
                   "234,5;x\n12\xE2\x80\xAF"
                   "345;y\n")
            << ' ' << ',' << std::string("a:numeric=1234.5|12345; b:categorical=x|y");
        QTest::newRow("apostrophe") << std::string("a\n1'234.5\n-12'345\n") << '\'' << char(0)
                                    << std::string("a:numeric=1234.5|-12345");
        QTest::newRow("whole numbers are counts")
            << std::string("n;m\n1,000;x\n2,500;y\n") << ',' << char(0)
            << std::string("n:count=1000|2500; m:categorical=x|y");
        QTest::newRow("ungrouped too")
            << std::string("a;b\n1234.5;x\n1,234.5;y\n") << ',' << char(0)
            << std::string("a:numeric=1234.5|1234.5; b:categorical=x|y");
        QTest::newRow("misplaced separator is text")
            << std::string("a;b\n1,23;x\n1,234;y\n") << ',' << char(0)
            << std::string("a:categorical=1,23|1,234; b:categorical=x|y");
        QTest::newRow("separator among decimals is text")
            << std::string("a;b\n1.500,000;x\n") << ',' << char(0)
            << std::string("a:categorical=1.500,000; b:categorical=x");
        QTest::newRow("cells keep their text as levels")
            << std::string("a;b\n1,234;x\n1234;y\n12,345.50;z\nfoo;w\n") << ',' << char(0)
            << std::string("a:categorical=1,234|1234|12,345.50|foo; b:categorical=x|y|z|w");
    }
    void thousandsSeparator() {
        QFETCH(std::string, input);
        QFETCH(char, thousands);
        QFETCH(char, decimal);
        QFETCH(std::string, expected);
        for (std::size_t chunk : {std::size_t{1}, std::size_t{1} << 20}) {
            ReadOptions o;
            o.csv.thousands = thousands;
            o.csv.decimal = decimal;
            o.csv.chunkBytes = chunk;
            ReadReport report;
            auto t = detail::parseCsvBuffer(input, "t.csv", o, &report);
            QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
            QCOMPARE(QString::fromStdString(describe(*t)), QString::fromStdString(expected));
            for (const auto& n : report.notes)
                QVERIFY2(n.find("separates thousands") == std::string::npos, n.c_str());
        }
    }

    // Without the option nothing is guessed: a column that would be numbers with a thousands
    // separator is read as it reads, and a note names the setting (and the decimal separator
    // it needs, when that is not the one in use).
    void thousandsNote_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<char>("decimal");
        QTest::addColumn<std::string>("note");  // empty: no such note
        QTest::newRow("comma")
            << std::string("a,b\n\"1,234.5\",x\n\"12,345\",y\n7,z\n") << char(0)
            << std::string(
                   "'t.csv': column 'a' is read as categorical, but its cells are numbers "
                   "if ',' (comma) separates thousands (such as '1,234.5'); to read them "
                   "as numbers set the thousands separator option to ',' (comma)");
        QTest::newRow("point, decimal comma")
            << std::string("a;b\n1.234,5;x\n2.000;y\n") << char(0)
            << std::string(
                   "'t.csv': column 'a' is read as categorical, but its cells are numbers "
                   "if '.' (point) separates thousands (such as '1.234,5'); to read them "
                   "as numbers set the thousands separator option to '.' (point) and the "
                   "decimal separator option to ','");
        QTest::newRow("space")
            << std::string("a;b\n1 234,5;x\n12,5;y\n") << char(0)
            << std::string(
                   "'t.csv': column 'a' is read as categorical, but its cells are numbers "
                   "if ' ' (space) separates thousands (such as '1 234,5'); to read them "
                   "as numbers set the thousands separator option to ' ' (space)");
        std::string many = "id;amount\n";
        for (int i = 0; i < 150; ++i)
            many += std::to_string(i) + ";\"" + std::to_string(1 + i) + "'500\"\n";
        QTest::newRow("many values: text")
            << many << char(0)
            << std::string(
                   "'t.csv': column 'amount' is read as text, but its cells are numbers "
                   "if \"'\" (apostrophe) separates thousands (such as '1'500'); to read "
                   "them as numbers set the thousands separator option to \"'\" "
                   "(apostrophe)");
        QTest::newRow("words") << std::string("a;b\n1,234;x\nfoo;y\n") << '.' << std::string();
        QTest::newRow("chosen decimal point")
            << std::string("a;b\n1.234,5;x\n") << '.' << std::string();
        QTest::newRow("lists") << std::string("a,b\n\"1,2\",x\n\"3,4\",y\n") << char(0)
                               << std::string();
    }
    void thousandsNote() {
        QFETCH(std::string, input);
        QFETCH(char, decimal);
        QFETCH(std::string, note);
        ReadOptions o;
        o.csv.decimal = decimal;
        ReadReport report;
        auto t = detail::parseCsvBuffer(input, "t.csv", o, &report);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const auto grouping =
            std::find_if(report.notes.begin(), report.notes.end(), [](const std::string& n) {
                return n.find("separates thousands") != std::string::npos;
            });
        if (note.empty()) {
            // (The message is built before the check: never from end().)
            QVERIFY2(grouping == report.notes.end(),
                     grouping == report.notes.end() ? "" : grouping->c_str());
            return;
        }
        QVERIFY2(grouping != report.notes.end(), "no note on thousands");
        QCOMPARE(QString::fromStdString(*grouping), QString::fromStdString(note));
        QVERIFY(t->column(0).type() != ColumnType::Numeric);  // told, not guessed
        // With the setting the note's advice reads the column as numbers.
        o.csv.thousands = note.find("(comma)") != std::string::npos   ? ','
                          : note.find("(point)") != std::string::npos ? '.'
                          : note.find("(space)") != std::string::npos ? ' '
                                                                      : '\'';
        ReadReport after;
        auto again = detail::parseCsvBuffer(input, "t.csv", o, &after);
        QVERIFY2(again.hasValue(), again.hasValue() ? "" : again.message().c_str());
        const Column& c = *again->find(note.find("'amount'") != std::string::npos ? "amount" : "a");
        QVERIFY2(c.type() == ColumnType::Numeric || c.type() == ColumnType::Count,
                 describe(*again).c_str());
    }

    // A decimal comma chosen from numbers that all look like grouped thousands (1,250) says
    // so: which one it is cannot be told from the file.
    void ambiguousDecimalCommaIsNoted() {
        ReadReport report;
        auto t = detail::parseCsvBuffer("a;b\n1,250;x\n-12,500;y\n", "t.csv", {}, &report);
        QVERIFY(t.hasValue());
        QCOMPARE(describe(*t), std::string("a:numeric=1.25|-12.5; b:categorical=x|y"));
        QVERIFY2(std::find(report.notes.begin(), report.notes.end(),
                           "'t.csv': the decimal separator is ',' (comma); every number written "
                           "with a comma has three digits after it, as thousands do (1,250): if "
                           "the comma separates thousands, set the thousands separator option to "
                           "','") != report.notes.end(),
                 report.notes.back().c_str());
        ReadOptions o;
        o.csv.thousands = ',';
        t = detail::parseCsvBuffer("a;b\n1,250;x\n-12,500;y\n", "t.csv", o);
        QVERIFY(t.hasValue());
        QCOMPARE(describe(*t), std::string("a:numeric=1250|-12500; b:categorical=x|y"));
    }

    void thousandsSeparatorMessages() {
        ReadOptions o;
        o.csv.decimal = ',';
        o.csv.thousands = ',';
        auto t = detail::parseCsvBuffer("a;b\n1;2\n", "t.csv", o);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("'t.csv': the thousands and the decimal separator are "
                                          "both ',' (comma); they must differ"));
        o.csv.decimal = 0;
        o.csv.thousands = '_';
        t = detail::parseCsvBuffer("a;b\n1;2\n", "t.csv", o);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("'t.csv': the thousands separator must be ',', '.', ' ' "
                                          "(space), \"'\" or none"));
        o.csv.thousands = '\'';
        o.csv.quote = '\'';
        t = detail::parseCsvBuffer("a;b\n1;2\n", "t.csv", o);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("'t.csv': the thousands separator and the quote are "
                                          "both \"'\" (apostrophe); choose another quote"));
        // A numeric override met by a grouped number names the option.
        ReadOptions n;
        n.csv.decimal = '.';
        n.typeOverrides = {{"a", ColumnType::Numeric}};
        t = detail::parseCsvBuffer("a;b\n1,234.5;x\n", "t.csv", n);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(),
                 std::string("'t.csv' line 2, column 'a': '1,234.5' is not a number, and the "
                             "column's type is set to numeric (if ',' (comma) separates "
                             "thousands, set the thousands separator option to ',' (comma))"));
    }

    void numericOverrideRefusesText() {
        QCOMPARE(refusedAsNumbers("x\n1\nn/a\n", "x"),
                 std::string("'t.csv' line 3, column 'x': 'n/a' is not a number, and the column's "
                             "type is set to numeric (add it to the missing-value tokens if it "
                             "marks a missing value)"));
    }

    // Decimals as exporters write them (17 significant digits, exponents, no leading or
    // trailing digit) read as the nearest double, bit for bit; more digits too.
    void digitsReadAsNearestDouble_data() {
        QTest::addColumn<std::string>("cell");
        QTest::addColumn<double>("expected");
        QTest::newRow("float written with 17 digits")
            << std::string("2.0499999523162842") << 2.0499999523162842;
        QTest::newRow("17 digits") << std::string("28651.572222222221") << 28651.572222222221;
        QTest::newRow("17 digits, not shortest") << std::string("0.30000000000000001") << 0.3;
        QTest::newRow("exponent E-07") << std::string("1.5E-07") << 1.5E-07;
        QTest::newRow("negative exponent e+05") << std::string("-3e+05") << -3e+05;
        QTest::newRow("no leading digit") << std::string(".5") << 0.5;
        QTest::newRow("no trailing digit") << std::string("5.") << 5.0;
        QTest::newRow("largest") << std::string("-1.7976931348623157e308")
                                 << -1.7976931348623157e308;
        QTest::newRow("subnormal")
            << std::string("4.9406564584124654e-324") << 4.9406564584124654e-324;
        QTest::newRow("34 digits") << std::string("0.1000000000000000055511151231257827") << 0.1;
        QTest::newRow("19-digit whole number")
            << std::string("1234567890123456789") << 1234567890123456789.0;
        QTest::newRow("2^53 + 1") << std::string("9007199254740993") << 9007199254740992.0;
    }
    void digitsReadAsNearestDouble() {
        QFETCH(std::string, cell);
        QFETCH(double, expected);
        auto t = detail::parseCsvBuffer("x,y\n" + cell + ",1\n1.25,2\n", "t.csv", {});
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const Column& x = t->column(0);
        QCOMPARE(std::string(toString(x.type())), std::string("numeric"));
        QCOMPARE(std::bit_cast<std::uint64_t>(x.value(0)), std::bit_cast<std::uint64_t>(expected));
    }

    // The issue's case: 83 values of float origin written with 17 significant digits (as
    // pandas and R write them) make one numeric column, each value the double written.
    void floatOriginColumnIsNumeric() {
        std::string csv = "score,minutes\n";
        std::vector<double> scores, minutes;
        char buffer[64];
        for (int k = 0; k < 83; ++k) {
            scores.push_back(static_cast<double>(0.05f + 0.37f * static_cast<float>(k)));
            minutes.push_back(28651.0 + k / 7.0);
            std::snprintf(buffer, sizeof buffer, "%.17g,%.17g\n", scores.back(), minutes.back());
            csv += buffer;
        }
        ReadReport report;
        auto t = detail::parseCsvBuffer(csv, "t.csv", {}, &report);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        for (std::size_t j = 0; j < 2; ++j) {
            const Column& c = t->column(j);
            QCOMPARE(std::string(toString(c.type())), std::string("numeric"));
            const auto& want = j == 0 ? scores : minutes;
            for (std::size_t r = 0; r < want.size(); ++r)
                QVERIFY2(c.value(r) == want[r],
                         (c.name() + " row " + std::to_string(r + 1)).c_str());
        }
        QVERIFY2(report.notes.size() == 1, report.notes.back().c_str());  // the delimiter
    }

    // Non-finite words are missing where the missing-value tokens say so.
    void nonFiniteAsMissing() {
        ReadOptions o;
        o.csv.missingTokens = {"", "NA", "NaN", "inf"};
        auto t = detail::parseCsvBuffer("x\n1\nNaN\ninf\n-inf\n", "t.csv", o);
        QVERIFY(t.hasValue());
        QCOMPARE(describe(*t), std::string("x:numeric=1|<NA>|<NA>|-inf"));
    }

    // One bad cell among numbers: the column stays numbers, the cell is named (line, text)
    // in a note and in the column, a run using the column is refused with that message, and
    // a type of text gives the cell its text back.
    // Excel and LibreOffice save a failed formula's error value into the CSV: each message
    // about such a cell says what it is and where to fix it.
    void spreadsheetErrorValues() {
        const std::string advice =
            " ('#DIV/0!' is a spreadsheet's error value: a formula failed in the workbook the file "
            "was saved from; correct it there and save the file again)";
        std::string csv = "y,x\n";
        for (int i = 1; i <= 40; ++i)
            csv += std::to_string(i % 7) + "," +
                   (i == 18   ? "#DIV/0!"
                    : i == 30 ? "Err:502"
                              : std::to_string(i * 1.5)) +
                   "\n";
        auto t = detail::parseCsvBuffer(csv, "t.csv", {});
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const std::string unread = t->column(1).unreadMessage();
        QVERIFY2(unread.find("line 19 '#DIV/0!', line 31 'Err:502'" + advice +
                             ". The column is read as numbers") != std::string::npos,
                 unread.c_str());

        QCOMPARE(refusedAsNumbers("a,b\n1,x\n#N/A,y\n", "a"),
                 std::string("'t.csv' line 3, column 'a': '#N/A' is not a number, and the "
                             "column's type is set to numeric ('#N/A' is a spreadsheet's error "
                             "value: a formula failed in the workbook the file was saved from; "
                             "correct it there and save the file again)"));

        // Mostly errors: read as categories, and the note says why its cells are not numbers.
        ReadReport report;
        auto cats = detail::parseCsvBuffer("a\n1\n2\n3\n#VALUE!\n#VALUE!\n", "t.csv", {}, &report);
        QVERIFY(cats.hasValue());
        QVERIFY(std::any_of(report.notes.begin(), report.notes.end(), [](const std::string& n) {
            return n.find("line 5, '#VALUE!') ('#VALUE!' is a spreadsheet's error value") !=
                   std::string::npos;
        }));

        for (const char* cell : {"#n/a", "#N/A ", "Err:50", "Err:5020", "Err:50x", "NA", "#"})
            QVERIFY2(!detail::isSpreadsheetError(cell), cell);
        for (const char* cell : {"#N/A", "#NAME?", "#GETTING_DATA", "Err:502", "Err:504"})
            QVERIFY2(detail::isSpreadsheetError(cell), cell);
    }

    void badCellAmongNumbers_data() {
        QTest::addColumn<std::string>("cell");
        QTest::addColumn<std::string>("shown");
        QTest::newRow("letters") << std::string("12abc") << std::string("12abc");
        QTest::newRow("hexadecimal") << std::string("0x1A") << std::string("0x1A");
        QTest::newRow("NUL byte") << std::string(1, '\0') << std::string("\\0");
        QTest::newRow("number and NUL") << std::string("1\0", 2) << std::string("1\\0");
        QTest::newRow("10 MB token")
            << std::string(std::size_t{10} << 20, 'a')
            << std::string(40, 'a') + "... (" + std::to_string(std::size_t{10} << 20) + " bytes)";
    }
    void badCellAmongNumbers() {
        QFETCH(std::string, cell);
        QFETCH(std::string, shown);
        std::string csv = "y,x\n";
        for (int i = 1; i <= 40; ++i)
            csv += std::to_string(i % 7) + "," + (i == 18 ? cell : std::to_string(i * 1.5)) + "\n";
        ReadReport report;
        auto t = detail::parseCsvBuffer(csv, "t.csv", {}, &report);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const Column& x = t->column(1);
        QCOMPARE(std::string(toString(x.type())), std::string("numeric"));
        QVERIFY(x.isMissing(17));
        QCOMPARE(x.value(18), 28.5);
        QCOMPARE(x.unreadCells(), (std::vector<UnreadCell>{{17, cell}}));
        const std::string message =
            "'t.csv' line 19, column 'x': '" + shown +
            "' is not a number, while the column's other 39 cells are. The column is read as "
            "numbers with these cells apart; a run that uses it is refused until the file is "
            "fixed, the cell text is added to the missing-value tokens (if it marks a missing "
            "value), or the column's type is set to categorical or text";
        QCOMPARE(QString::fromStdString(x.unreadMessage()), QString::fromStdString(message));
        QVERIFY(std::find(report.notes.begin(), report.notes.end(), message) != report.notes.end());

        Roles roles;
        roles.target = "y";
        roles.predictors = {"x"};
        PrepareOptions listwise;
        listwise.missing = MissingPolicy::Listwise;
        auto in = prepareModelInputs(*t, roles, listwise);
        QVERIFY(!in.hasValue());
        QCOMPARE(in.message(), message);

        auto text = x.convertedTo(ColumnType::Text);
        QVERIFY(text.hasValue());
        QVERIFY(!text->isMissing(17));
        std::string clean = cell;
        std::erase(clean, '\0');
        QCOMPARE(text->texts()[17], clean);
        QCOMPARE(text->texts()[18], std::string("28.5"));
    }

    // Several bad cells: lines counted across quoted line breaks and blank lines.
    void badCellsNamedByLine() {
        std::string csv = "t,x\n\"two\nlines\",1\n\n";
        for (int i = 2; i <= 100; ++i)
            csv += "a," +
                   (i == 5    ? std::string("n/a")
                    : i == 30 ? "?"
                    : i == 44 ? "x1"
                    : i == 50 ? "-"
                              : std::to_string(i)) +
                   "\n";
        ReadReport report;
        auto t = detail::parseCsvBuffer(csv, "t.csv", {}, &report);
        QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
        const Column& x = t->column(1);
        QCOMPARE(std::string(toString(x.type())), std::string("count"));
        QCOMPARE(x.unreadCells().size(), std::size_t{4});
        QCOMPARE(
            QString::fromStdString(x.unreadMessage()),
            QString("'t.csv' column 'x': 4 of its 100 cells are not numbers, while the "
                    "others are: line 8 'n/a', line 33 '?', line 47 'x1' and 1 more. The column "
                    "is read as numbers with these cells apart; a run that uses it is "
                    "refused until the file is fixed, the cell text is added to the "
                    "missing-value tokens (if it marks a missing value), or the column's "
                    "type is set to categorical or text"));
    }

    // NUL bytes leave text cells (levels that differ only by them become one) and never
    // reach a file written from the table.
    void nulBytesLeaveText() {
        const std::string csv("name,y\nAn\0na,1\nBo,2\n\0\0Bo,3\n", 27);
        auto t = detail::parseCsvBuffer(csv, "t.csv", {});
        QVERIFY(t.hasValue());
        QCOMPARE(describe(*t), std::string("name:categorical=Anna|Bo|Bo; y:count=1|2|3"));
        QCOMPARE(t->column(0).levels().size(), std::size_t{2});
        ReadOptions asText;
        asText.typeOverrides = {{"name", ColumnType::Text}};
        auto text = detail::parseCsvBuffer(csv, "t.csv", asText);
        QVERIFY(text.hasValue());
        QVERIFY(detail::applyTypeOverrides(*text, asText).isOk());
        QCOMPARE(describe(*text), std::string("name:text=Anna|Bo|Bo; y:count=1|2|3"));
        std::ostringstream out;
        QVERIFY(detail::writeCsvTo(*t, out, {}).isOk());
        QVERIFY(out.str().find('\0') == std::string::npos);
    }

    void notes_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<std::string>("note");
        QTest::newRow("semicolon") << std::string("a;b\n1;2\n")
                                   << std::string("'t.csv': the delimiter is ';' (semicolon)");
        QTest::newRow("tab") << std::string("a\tb\n1\t2\n")
                             << std::string("'t.csv': the delimiter is tab");
        QTest::newRow("single column")
            << std::string("a\n1\n")
            << std::string("'t.csv': no delimiter found for certain; using ',' (comma)");
        QTest::newRow("latin-1") << std::string("a,b\n1,x\n2,\xE9\n")
                                 << std::string(
                                        "'t.csv' is not valid UTF-8 (first at line 3, column 'b'); "
                                        "read it as Windows-1252 "
                                        "(Latin-1)");
        QTest::newRow("leading zero")
            << std::string("zip\n02134\n")
            << std::string(
                   "'t.csv': column 'zip' is read as text, not numbers: '02134' has a leading "
                   "zero, which a number drops; set its type to numeric to read it as numbers");
        QTest::newRow("19-digit whole number")
            << std::string("id\n1234567890123456789\n")
            << std::string(
                   "'t.csv': column 'id': '1234567890123456789' is a whole number with more digits "
                   "than a number holds exactly (up to 9007199254740992); it is read as "
                   "1234567890123456768. If the column is an identifier or a code, set its type "
                   "to text to keep every digit");
        QTest::newRow("more than 17 significant digits")
            << std::string("x\n0.1000000000000000055511151231257827\n")
            << std::string(
                   "'t.csv': column 'x': '0.1000000000000000055511151231257827' has 34 "
                   "significant digits; it is read as the nearest number, 0.1 (17 significant "
                   "digits tell every number apart)");
        QTest::newRow("mostly numbers read as categories")
            << std::string("x\n1\n2\n3\nb\n")
            << std::string(
                   "'t.csv': column 'x' is read as categorical, although 3 of its 4 cells are "
                   "numbers (the first that is not: line 5, 'b'); to read it as numbers set its "
                   "type to numeric, and each cell that is not a number is refused with its line");
        QTest::newRow("NUL bytes in text")
            << std::string("name,y\nAn\0na,1\nBo,2\n\0\0Bo,3\n", 27)
            << std::string(
                   "'t.csv': column 'name': 2 cells held NUL bytes (character 0, which text never "
                   "holds; the file may be damaged), first at line 2; they were removed from the "
                   "text");
        QTest::newRow("unnamed clashing")
            << std::string("a,,column_2\n1,2,3\n")
            << std::string("'t.csv': column 2 has no name in the header; named column_2_2");
        QTest::newRow("unnamed")
            << std::string("a,,\n1,2,3\n")
            << std::string("'t.csv': columns 2, 3 have no name in the header; named column_<k>");
    }
    void notes() {
        QFETCH(std::string, input);
        QFETCH(std::string, note);
        ReadReport report;
        auto t = detail::parseCsvBuffer(input, "t.csv", {}, &report);
        QVERIFY(t.hasValue());
        QVERIFY2(std::find(report.notes.begin(), report.notes.end(), note) != report.notes.end(),
                 (report.notes.empty() ? std::string("no notes") : report.notes.back()).c_str());
    }

    void levelOrder_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<std::string>("levels");
        QTest::newRow("text by bytes") << std::string("g\nb\nC\na\nb\n") << std::string("C,a,b");
        QTest::newRow("numbers by value, then text")
            << std::string("g\n10\n2\nother\n-1\nNA\n") << std::string("-1,2,10,other");
    }
    void levelOrder() {
        QFETCH(std::string, input);
        QFETCH(std::string, levels);
        auto t = detail::parseCsvBuffer(input, "t.csv", {});
        QVERIFY(t.hasValue());
        QVERIFY(t->column(0).type() == ColumnType::Categorical);
        QCOMPARE(levelLabels(t->column(0)), levels);
        for (const auto& l : t->column(0).levels()) QCOMPARE(l.value, l.label);
    }

    void codesFollowSortedLevels() {
        auto t = detail::parseCsvBuffer("g\nb\na\nb\n", "t.csv", {});
        QVERIFY(t.hasValue());
        QCOMPARE(t->column(0).codes(), (std::vector<std::int32_t>{1, 0, 1}));
    }

    // More rows than the reader samples before reserving, so the estimate path runs.
    void manyRows() {
        std::string text = "i,x,g\n";
        for (int i = 0; i < 5000; ++i)
            text += std::to_string(i) + "," + std::to_string(i * 0.25) + "," + (i % 3 ? "u" : "v") +
                    "\n";
        ReadOptions o;
        o.csv.chunkBytes = 4096;
        auto t = detail::parseCsvBuffer(text, "t.csv", o);
        QVERIFY(t.hasValue());
        QCOMPARE(t->rowCount(), std::size_t{5000});
        QVERIFY(t->column(0).type() == ColumnType::Count);
        QVERIFY(t->column(1).type() == ColumnType::Numeric);
        QCOMPARE(t->column(1).value(4999), 4999 * 0.25);
        QCOMPARE(t->column(2).code(3), 1);  // levels u, v; row 3 has i % 3 == 0: v
    }

    // The delimiter is guessed from the first 64 KiB; a quoted multi-line cell cut by that
    // boundary must neither confuse the guess nor the rows.
    void sniffWindowCutsQuotedCell() {
        std::string text = "k;note\n";
        int rows = 0;
        while (text.size() < 65536 - 40) {
            text += std::to_string(rows++) + ";plain, with comma\n";
        }
        text += std::to_string(rows++) + ";\"" + std::string(30, 'a') + "\n" +
                std::string(30, 'b') + "\"\n";
        text += std::to_string(rows++) + ";end\n";
        for (std::size_t chunk : {std::size_t{7}, std::size_t{4096}, std::size_t{1} << 20}) {
            ReadOptions o;
            o.csv.chunkBytes = chunk;
            o.maxLevels = 2;
            ReadReport report;
            auto t = detail::parseCsvBuffer(text, "t.csv", o, &report);
            QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
            QCOMPARE(report.notes.front(),
                     std::string("'t.csv': the delimiter is ';' (semicolon)"));
            QCOMPARE(t->rowCount(), static_cast<std::size_t>(rows));
            // Built with append, not a + b + c: with the precompiled test header GCC 12
            // -O2 reports a bogus -Warray-bounds inside std::string's operator+.
            std::string quoted(30, 'a');
            quoted.append("\n").append(30, 'b');
            QCOMPARE(t->column(1).texts()[static_cast<std::size_t>(rows - 2)], quoted);
            QCOMPARE(t->column(1).texts().back(), std::string("end"));
        }
    }

    // Excel's "Unicode Text" is UTF-16 with a byte order mark; read as bytes it would give
    // a ragged-row error nobody can act on.
    void utf16And32Refused_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<std::string>("encoding");
        using namespace std::string_literals;
        QTest::newRow("UTF-16LE") << "\xFF\xFE"
                                     "a\0\t\0b\0\n\0"
                                     "1\0\t\0"
                                     "2\0\n\0"s
                                  << std::string("UTF-16");
        QTest::newRow("UTF-16BE") << "\xFE\xFF"
                                     "\0a\0\t\0b\0\n"s
                                  << std::string("UTF-16");
        QTest::newRow("UTF-32LE") << "\xFF\xFE\0\0"
                                     "a\0\0\0\n\0\0\0"s
                                  << std::string("UTF-32");
        QTest::newRow("UTF-32BE") << "\0\0\xFE\xFF"
                                     "\0\0\0a\0\0\0\n"s
                                  << std::string("UTF-32");
    }
    void utf16And32Refused() {
        QFETCH(std::string, input);
        QFETCH(std::string, encoding);
        auto t = detail::parseCsvBuffer(input, "t.csv", {});
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), "'t.csv' is " + encoding +
                                  " text (as Excel's \"Unicode Text\" saves); save it as \"CSV "
                                  "UTF-8\" and read that");
    }

    // The same files without the byte order mark (some exporters leave it out) are known by
    // their zero bytes and refused with the same advice, read from a file as a person would.
    void unicodeWithoutBomRefused_data() {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QString>("order");
        QTest::newRow("UTF-16LE") << "UTF-16LE"
                                  << "every other byte is zero";
        QTest::newRow("UTF-16BE") << "UTF-16BE"
                                  << "every other byte is zero";
        QTest::newRow("UTF-32LE") << "UTF-32LE"
                                  << "three bytes in four are zero";
        QTest::newRow("UTF-32BE") << "UTF-32BE"
                                  << "three bytes in four are zero";
    }
    void unicodeWithoutBomRefused() {
        QFETCH(QString, encoding);
        QFETCH(QString, order);
        // Non-ASCII text too: the ASCII delimiters, digits and line ends give it away.
        const QString text = QString::fromUtf8(
            "région;revenu;größe\r\nNord-Est;1234,5;1,80\r\nÎle-de-France;2 000;1,65\r\n"
            "日本;17;1,7\r\n");
        const bool little = encoding.endsWith("LE");
        std::string bytes;
        const auto put = [&](char32_t unit, int width) {
            for (int i = 0; i < width; ++i) {
                const int shift = 8 * (little ? i : width - 1 - i);
                bytes.push_back(static_cast<char>((unit >> shift) & 0xFFU));
            }
        };
        if (encoding.startsWith("UTF-16"))
            for (QChar ch : text) put(ch.unicode(), 2);
        else
            for (char32_t cp : text.toUcs4()) put(cp, 4);
        const std::string path = outputDir() + "/no_bom_" + encoding.toStdString() + ".csv";
        {
            std::ofstream out(path, std::ios::binary);
            out << bytes;
        }
        auto t = readTable(path);
        QVERIFY(!t.hasValue());
        QCOMPARE(QString::fromStdString(t.message()),
                 "'" + QString::fromStdString(path) + "' is " + encoding +
                     " text without a byte order mark (" + order +
                     "); save it as \"CSV UTF-8\" and read that");
        // The bytes the test wrote are those of the named encoding.
        QCOMPARE(little ? bytes[1] : bytes[encoding.startsWith("UTF-16") ? 0 : 2], '\0');
    }

    // Text with no zero bytes, or a stray one, is not taken for UTF-16.
    void eightBitTextIsNotUnicode() {
        using namespace std::string_literals;
        for (const std::string& input :
             {"a;b\n1;2\n"s, "x\n\0\n"s, "name;note\nA;a\0b\nB;ok\nC;fine\n"s}) {
            auto t = detail::parseCsvBuffer(input, "t.csv", {});
            const std::string message = t.hasValue() ? std::string() : t.message();
            QVERIFY2(message.find("byte order") == std::string::npos, message.c_str());
        }
    }

    // A header longer than the 64 KiB the delimiter is guessed from.
    void wideFileKeepsItsColumns() {
        constexpr int kColumns = 6000;
        std::string header, row;
        for (int k = 0; k < kColumns; ++k) {
            const std::string sep = k == 0 ? "" : ";";
            header += sep + "variable_" + std::to_string(10000 + k);
            row += sep + std::to_string(k);
        }
        const std::string text = header + "\n" + row + "\n" + row + "\n";
        QVERIFY(header.size() > 80000);
        for (std::size_t chunk : {std::size_t{4096}, std::size_t{1} << 20}) {
            ReadOptions o;
            o.csv.chunkBytes = chunk;
            ReadReport report;
            auto t = detail::parseCsvBuffer(text, "t.csv", o, &report);
            QVERIFY2(t.hasValue(), t.hasValue() ? "" : t.message().c_str());
            QCOMPARE(t->columnCount(), std::size_t{kColumns});
            QCOMPARE(report.notes.front(),
                     std::string("'t.csv': the delimiter is ';' (semicolon)"));
        }
    }

    void oneColumnWithAnotherDelimiterRefused() {
        ReadOptions o;
        o.csv.delimiter = ',';
        auto t = detail::parseCsvBuffer("a;b\n1;2\n", "t.csv", o);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(),
                 std::string("'t.csv': the header reads as one column with the delimiter ',' "
                             "(comma), yet it contains ';' (semicolon); set the delimiter option "
                             "to ';' (semicolon)"));
        // Quoted, it is a name.
        t = detail::parseCsvBuffer("\"a;b\"\n1\n", "t.csv", o);
        QVERIFY(t.hasValue());
    }

    void forcedUtf8NamesRow() {
        ReadOptions o;
        o.csv.encoding = "utf-8";
        auto t = detail::parseCsvBuffer("a,b\n1,x\n2,\xE9\n", "t.csv", o);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(),
                 std::string("'t.csv' line 3, column 'b': the bytes are not valid UTF-8 "
                             "(the file may be Latin-1; choose that encoding)"));
    }

    void raggedRowMessage() {
        auto t = detail::parseCsvBuffer("a,b,c,d,e,f\n" + std::string(10, '\n') + "1,2,3,4,5\n",
                                        "f.csv", {});
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("'f.csv' line 12 has 5 fields but the header has 6"));
    }

    void lineNumbersCountQuotedNewlines() {
        auto t = detail::parseCsvBuffer("a,b\n\"x\ny\",1\n1,2,3\n", "f.csv", {});
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("'f.csv' line 4 has 3 fields but the header has 2"));
    }

    void writerQuotesOnlyWhenNeeded() {
        Table t;
        QVERIFY(t.addColumn(Column::text("name, full",
                                         {"plain", "a,b", "say \"hi\"", " pad", "NA", "x"},
                                         {0, 0, 0, 0, 0, 1}))
                    .isOk());
        QVERIFY(t.addColumn(Column::numeric("v", {0.1, 1e21, -3, 2.5, 1, 0}, {0, 0, 0, 0, 0, 1}))
                    .isOk());
        std::ostringstream out;
        QVERIFY(detail::writeCsvTo(t, out, {}).isOk());
        QCOMPARE(out.str(),
                 std::string("\"name, full\",v\nplain,0.1\n\"a,b\",1e+21\n\"say \"\"hi\"\"\",-3\n"
                             "\" pad\",2.5\n\"NA\",1\n,\n"));
    }

    void roundTrip_data() {
        QTest::addColumn<char>("delimiter");
        QTest::newRow("comma") << ',';
        QTest::newRow("semicolon") << ';';
        QTest::newRow("tab") << '\t';
        QTest::newRow("pipe") << '|';
    }
    void roundTrip() {
        QFETCH(char, delimiter);
        Table t;
        QVERIFY(t.addColumn(Column::numeric("num", {0.1, -2.5e10, 1e-300, 3.141592653589793, 0, 7},
                                            {0, 0, 0, 0, 1, 0}))
                    .isOk());
        QVERIFY(t.addColumn(Column::count("cnt", {0, 12, 3, 4, 5, 9007199254740991.0})).isOk());
        QVERIFY(t.addColumn(Column::categorical(
                                "cat", {0, 2, 1, -1, 0, 1},
                                {{"a b", "a b"}, {"x;y|z", "x;y|z"}, {"\xC3\xBC", "\xC3\xBC"}}))
                    .isOk());
        QVERIFY(t
                    .addColumn(Column::text(
                        "txt", {"line\nbreak", "tab\there", "\"q\"", " lead", "NA", "comma, here"},
                        {0, 0, 0, 0, 0, 0}))
                    .isOk());
        const std::string path = outputDir() + "/roundtrip.csv";
        WriteOptions w;
        w.delimiter = delimiter;
        QVERIFY(writeTable(t, path, std::nullopt, w).isOk());
        ReadOptions o;
        o.maxLevels = 5;  // txt has 6 distinct values: text, not categorical
        auto back = readTable(path, o);
        QVERIFY2(back.hasValue(), back.hasValue() ? "" : back.message().c_str());
        QCOMPARE(describe(*back), describe(t));
        QVERIFY(*back == t);
    }

    void singleColumnRoundTrip() {
        Table t;
        QVERIFY(t.addColumn(Column::numeric("x", {1.5, 0, 2}, {0, 1, 0})).isOk());
        std::ostringstream out;
        QVERIFY(detail::writeCsvTo(t, out, {}).isOk());
        QCOMPARE(out.str(), std::string("x\n1.5\n\"\"\n2\n"));
        auto back = detail::parseCsvBuffer(out.str(), "t.csv", {});
        QVERIFY(back.hasValue());
        QVERIFY(*back == t);
    }

    void progressAndCancel() {
        std::string text = "a,b\n";
        for (int i = 0; i < 2000; ++i) text += std::to_string(i) + ",x\n";
        ReadOptions o;
        o.csv.chunkBytes = 1000;
        std::vector<double> done;
        o.progress = [&](const Progress& p) -> Continue {
            if (p.stage != "reading") return Continue::Stop;
            done.push_back(p.done);
            return done.size() >= 3 ? Continue::Stop : Continue::Yes;
        };
        auto t = detail::parseCsvBuffer(text, "t.csv", o);
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(), std::string("'t.csv': reading cancelled"));
        QCOMPARE(done.size(), std::size_t{3});

        done.clear();
        bool totalRight = true;
        o.progress = [&](const Progress& p) -> Continue {
            totalRight = totalRight && p.total == static_cast<double>(text.size());
            done.push_back(p.done);
            return Continue::Yes;
        };
        QVERIFY(detail::parseCsvBuffer(text, "t.csv", o).hasValue());
        QVERIFY(totalRight);
        QVERIFY(done.size() > 10);
        QVERIFY(std::is_sorted(done.begin(), done.end()));
        QCOMPARE(done.back(), static_cast<double>(text.size()));
    }

    void unreadableSourceIsNamed() {
        const std::string dir = outputDir();  // a folder, not a file: cannot be read as one
        auto t = detail::readCsv(dir, {}, nullptr);
        QVERIFY(!t.hasValue());
        QVERIFY2(t.message().rfind("'" + dir + "' could not be opened: ", 0) == 0,
                 t.message().c_str());
    }

    void readTableFromFile() {
        const std::string path = outputDir() + "/small.tsv";
        {
            std::ofstream f(path, std::ios::binary);
            f << "id\tscore\n1\t2.5\n2\tNA\n";
        }
        ReadReport report;
        auto t = readTable(path, {}, &report);
        QVERIFY(t.hasValue());
        QCOMPARE(describe(*t), std::string("id:count=1|2; score:numeric=2.5|<NA>"));
        QCOMPARE(report.notes.size(), std::size_t{1});
    }
};

QTEST_GUILESS_MAIN(TstCsv)
#include "tst_csv.moc"
