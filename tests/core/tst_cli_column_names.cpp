// The column options of `ppsynth-cli utility` (--target, --regress) and `ppsynth-cli risk`
// (--target, --known) with a column whose name has a comma ("income, net", as R and Excel
// exports write them): an argument that is exactly a column's name is that column, the
// option may be given again, and any other argument is a comma-separated list as before. The
// results equal those of the same files with the comma-free names; a name the file lacks is an
// error naming the option, the argument and each missing column.
#include <QTest>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "cli_process.hpp"
#include "ppsynth/data/io.hpp"
#include "test_files.hpp"

using namespace ppsynth;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kN = 120;

// Region as a predictor and four numbers; `shift` perturbs the numbers (synthetic files).
data::Table households(bool commas, int shift) {
    data::Table t;
    std::vector<std::int32_t> region;
    std::vector<double> income, food, rent;
    for (std::size_t i = 0; i < kN; ++i) {
        region.push_back(static_cast<std::int32_t>(i % 3));
        const auto d = static_cast<double>(static_cast<int>((i * (7 + shift)) % 23) - 11) * shift;
        income.push_back(20000.0 + static_cast<double>((i * 7919) % 30000) + 40 * d);
        food.push_back(3000.0 + static_cast<double>((i * 131) % 2000) + 5 * d);
        rent.push_back(6000.0 + static_cast<double>((i * 313) % 4000) + 9 * d);
    }
    auto add = [&t](data::Column c) { [[maybe_unused]] auto s = t.addColumn(std::move(c)); };
    add(data::Column::categorical(commas ? "region, code" : "region_code", region,
                                  {{"0", "north"}, {"1", "south"}, {"2", "west"}}));
    add(data::Column::numeric(commas ? "income, net" : "income_net", income));
    add(data::Column::numeric("food", food));
    add(data::Column::numeric("rent", rent));
    return t;
}

struct Files {
    QString original;
    QStringList synthetic;
};

Files writeFiles(const fs::path& dir, bool commas) {
    Files f;
    const std::string tag = commas ? "commas" : "plain";
    auto write = [&](int shift, const std::string& name) {
        const auto path = dir / (tag + "_" + name + ".csv");
        [[maybe_unused]] auto s = data::writeTable(households(commas, shift), path.string());
        return QString::fromStdString(path.string());
    };
    f.original = write(0, "original");
    f.synthetic = QStringList{write(1, "s1"), write(2, "s2")};
    return f;
}

// The JSON a command printed, without timings, as text in which the plain files' names read as
// the names with commas.
std::string comparable(const QByteArray& out, bool plain) {
    json j = json::parse(out.toStdString(), nullptr, false);
    if (j.is_discarded()) return "not JSON: " + out.toStdString();
    std::function<void(json&)> drop = [&drop](json& x) {
        if (x.is_object()) {
            x.erase("seconds");
            for (auto& [key, value] : x.items()) drop(value);
        } else if (x.is_array()) {
            for (auto& e : x) drop(e);
        }
    };
    drop(j);
    std::string text = j.dump();
    if (!plain) return text;
    for (const auto& [from, to] :
         {std::pair<std::string, std::string>{"income_net", "income, net"},
          std::pair<std::string, std::string>{"region_code", "region, code"}}) {
        for (auto at = text.find(from); at != std::string::npos;
             at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    }
    return text;
}

QStringList command(const QString& name, const Files& f, const QStringList& args) {
    QStringList all{name, QStringLiteral("--original"), f.original, QStringLiteral("--synthetic")};
    all << f.synthetic << args << QStringLiteral("--json");
    if (name == QLatin1String("utility"))
        all << QStringLiteral("--bootstrap") << QStringLiteral("20") << QStringLiteral("--no-pmse");
    return all;
}

}  // namespace

class TstCliColumnNames : public QObject {
    Q_OBJECT
    Files commas_, plain_;

  private slots:
    void initTestCase() {
        const auto dir = test::freshDir("tst_cli_column_names", "files");
        commas_ = writeFiles(dir, true);
        plain_ = writeFiles(dir, false);
    }

    // The same command on the files with commas in two names (`args`) and on the same files
    // with plain names (`plainArgs`): the same JSON, names aside.
    void sameAsPlainNames_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("plainArgs");
        QTest::addColumn<bool>("named");  // the JSON names the targets
        QTest::newRow("utility, exact name")
            << "utility" << QStringList{"--target", "income, net", "--regress", "region, code"}
            << QStringList{"--target", "income_net", "--regress", "region_code"} << true;
        QTest::newRow("utility, given again")
            << "utility" << QStringList{"--target", "income, net", "--target", "food"}
            << QStringList{"--target", "income_net,food"} << true;
        QTest::newRow("utility, given again with a list")
            << "utility" << QStringList{"--target",  "income, net", "--target",
                                        "food,rent", "--regress",   "region, code"}
            << QStringList{"--target", "income_net,food,rent", "--regress", "region_code"} << true;
        QTest::newRow("utility, comma list as before")
            << "utility" << QStringList{"--target", "food,rent"}
            << QStringList{"--target", "food", "--target", "rent"} << false;
        QTest::newRow("risk, exact name")
            << "risk" << QStringList{"--target", "income, net", "--known", "region, code"}
            << QStringList{"--target", "income_net", "--known", "region_code"} << false;
        QTest::newRow("risk, given again")
            << "risk"
            << QStringList{"--target", "income, net", "--target", "food", "--known", "region, code"}
            << QStringList{"--target", "income_net,food", "--known", "region_code"} << true;
        QTest::newRow("risk, comma list as before")
            << "risk" << QStringList{"--target", "food,rent", "--radius", "0.1,0.3"}
            << QStringList{"--target", "food", "--target", "rent", "--radius", "0.1,0.3"} << false;
    }
    void sameAsPlainNames() {
        QFETCH(QString, command);
        QFETCH(QStringList, args);
        QFETCH(QStringList, plainArgs);
        const auto withCommas = test::runCli<QByteArray>(::command(command, commas_, args));
        QVERIFY2(withCommas.code == 0, withCommas.err.constData());
        const auto plain = test::runCli<QByteArray>(::command(command, plain_, plainArgs));
        QVERIFY2(plain.code == 0, plain.err.constData());
        const std::string a = comparable(withCommas.out, false);
        QCOMPARE(a, comparable(plain.out, true));
        // Not trivially equal: the output names the column with its comma.
        QFETCH(bool, named);
        if (named) QVERIFY2(a.find("income, net") != std::string::npos, a.c_str());
    }

    // A name the original lacks: the option, the argument and each missing column named.
    void missingColumnsNamed_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("messages");
        QTest::newRow("misspelt name with a comma")
            << "utility" << QStringList{"--target", "income, nett"}
            << QStringList{"--target 'income, nett'", "has no column 'income' and no column 'nett'",
                           "commas_original.csv'"};
        QTest::newRow("list with a misspelt name")
            << "utility" << QStringList{"--target", "food,rnet"}
            << QStringList{"--target 'food,rnet'", "has no column 'rnet'"};
        QTest::newRow("regress") << "utility"
                                 << QStringList{"--target", "food", "--regress", "region code"}
                                 << QStringList{"--regress 'region code'",
                                                "has no column 'region code'"};
        QTest::newRow("risk known")
            << "risk" << QStringList{"--target", "food", "--known", "region, cod"}
            << QStringList{"--known 'region, cod'", "no column 'region' and no column 'cod'"};
    }
    void missingColumnsNamed() {
        QFETCH(QString, command);
        QFETCH(QStringList, args);
        QFETCH(QStringList, messages);
        const auto r = test::runCli<QString>(::command(command, commas_, args));
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.isEmpty());
        for (const auto& m : messages) QVERIFY2(r.err.contains(m), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TstCliColumnNames)
#include "tst_cli_column_names.moc"
