// Bad-input corpus for the CSV reader: every <case>.expected in tests/data/bad_input/csv
// holds the exact message readTable must give for its sibling input (any other extension;
// <case>.csv when there is none, i.e. a missing file). An optional <case>.options sets
// read options, one "key=value" per line. Paths in messages show as bare file names.
#include <QTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ppsynth/data/io.hpp"

using namespace ppsynth::data;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(std::string)

namespace {

const fs::path kCorpus = PPSYNTH_BAD_INPUT_CSV_DIR;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
}

// Applies "key=value" lines; false names an unknown key so a typo cannot pass silently.
bool applyOptions(const fs::path& file, ReadOptions& o, std::string& unknown) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto eq = line.find('=');
        const std::string key = line.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : line.substr(eq + 1);
        if (key == "memoryBudgetBytes")
            o.memoryBudgetBytes = std::stoull(value);
        else if (key == "encoding")
            o.csv.encoding = value;
        else if (key == "delimiter")
            o.csv.delimiter = value == "tab" ? '\t' : value.at(0);
        else if (key == "maxLevels")
            o.maxLevels = std::stoull(value);
        else {
            unknown = key;
            return false;
        }
    }
    return true;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

}  // namespace

class TstBadInputCsv : public QObject {
    Q_OBJECT
  private slots:
    void corpusIsThere() {
        std::size_t n = 0;
        for (const auto& e : fs::directory_iterator(kCorpus))
            if (e.path().extension() == ".expected") ++n;
        QVERIFY2(n >= 9, "the bad-input corpus lost cases");
    }

    void badInput_data() {
        QTest::addColumn<std::string>("input");
        QTest::addColumn<std::string>("options");
        QTest::addColumn<std::string>("expected");
        std::vector<fs::path> cases;
        for (const auto& e : fs::directory_iterator(kCorpus))
            if (e.path().extension() == ".expected") cases.push_back(e.path());
        std::sort(cases.begin(), cases.end());
        for (const auto& expected : cases) {
            const std::string stem = expected.stem().string();
            fs::path input = kCorpus / (stem + ".csv");
            for (const auto& e : fs::directory_iterator(kCorpus)) {
                const auto ext = e.path().extension();
                if (e.path().stem() == stem && ext != ".expected" && ext != ".options")
                    input = e.path();
            }
            const fs::path options = kCorpus / (stem + ".options");
            QTest::newRow(stem.c_str())
                << input.string() << (fs::exists(options) ? options.string() : std::string())
                << slurp(expected);
        }
    }
    void badInput() {
        QFETCH(std::string, input);
        QFETCH(std::string, options);
        QFETCH(std::string, expected);
        ReadOptions o;
        std::string unknown;
        if (!options.empty()) QVERIFY2(applyOptions(options, o, unknown), unknown.c_str());
        auto t = readTable(input, o);
        QVERIFY2(!t.hasValue(), "a bad input was read without an error");
        const std::string shown =
            replaceAll(t.message(), input, fs::path(input).filename().string());
        QCOMPARE(shown, expected);
    }
};

QTEST_GUILESS_MAIN(TstBadInputCsv)
#include "tst_bad_input_csv.moc"
