// `ppsynth-cli risk --target a,b` on synthetic files of any origin: with several targets a
// record is close when it is within the radius in every one (a box, METHOD.md section 9);
// the printed summary and the per-record file are privacy::boxPairwiseRisk's, one radius for
// all or one per target; a wrong number of radii is refused.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>
#include <fstream>

#include "cli_process.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/patterns.hpp"
#include "ppsynth/privacy/box_risk.hpp"
#include "test_files.hpp"

using namespace ppsynth;

namespace {

constexpr std::size_t kN = 90;

struct Files {
    std::filesystem::path original, s1, s2;
    std::vector<double> y;                   // y1 then y2
    std::vector<std::vector<double>> synth;  // the two files', same layout
    std::vector<std::int32_t> pattern;
};

data::Table table(const std::vector<double>& y, const std::vector<std::int32_t>& g) {
    data::Table t;
    auto add = [&t](data::Column c) { [[maybe_unused]] auto s = t.addColumn(std::move(c)); };
    add(data::Column::categorical("g", g, {{"1", "a"}, {"2", "b"}, {"3", "c"}}));
    add(data::Column::numeric("y1", std::vector<double>(y.begin(), y.begin() + kN)));
    add(data::Column::numeric("y2", std::vector<double>(y.begin() + kN, y.end())));
    return t;
}

Files makeFiles(const std::filesystem::path& dir) {
    Files f;
    for (std::size_t i = 0; i < kN; ++i) f.pattern.push_back(static_cast<std::int32_t>(i % 3));
    for (std::size_t i = 0; i < 2 * kN; ++i)
        f.y.push_back(100.0 + static_cast<double>((i * 37) % 41));
    for (int l = 0; l < 2; ++l) {
        std::vector<double> s;
        for (std::size_t i = 0; i < 2 * kN; ++i)
            s.push_back(f.y[i] + static_cast<double>(static_cast<int>((i * (7 + l)) % 61) - 30));
        f.synth.push_back(std::move(s));
    }
    f.original = dir / "original.csv";
    f.s1 = dir / "s1.csv";
    f.s2 = dir / "s2.csv";
    [[maybe_unused]] auto a = data::writeTable(table(f.y, f.pattern), f.original.string());
    [[maybe_unused]] auto b = data::writeTable(table(f.synth[0], f.pattern), f.s1.string());
    [[maybe_unused]] auto c = data::writeTable(table(f.synth[1], f.pattern), f.s2.string());
    return f;
}

std::vector<double> column(const std::filesystem::path& csv, const std::string& name) {
    auto t = data::readTable(csv.string());
    if (!t || !t->find(name)) return {};
    return t->find(name)->values();
}

}  // namespace

class TstCliRiskTargets : public QObject {
    Q_OBJECT
  private slots:
    void boxRiskOfTwoTargets_data() {
        QTest::addColumn<QString>("radius");
        QTest::addColumn<double>("r1");
        QTest::addColumn<double>("r2");
        QTest::newRow("one radius") << "0.15" << 0.15 << 0.15;
        QTest::newRow("one per target") << "0.1,0.25" << 0.1 << 0.25;
    }
    void boxRiskOfTwoTargets() {
        QFETCH(QString, radius);
        QFETCH(double, r1);
        QFETCH(double, r2);
        const auto dir = test::freshDir("tst_cli_risk_targets", QTest::currentDataTag());
        const Files f = makeFiles(dir);
        const auto out = dir / "records.csv";
        auto r = test::runCli<QByteArray>(
            {"risk", "--original", QString::fromStdString(f.original.string()), "--synthetic",
             QString::fromStdString(f.s1.string()), QString::fromStdString(f.s2.string()),
             "--target", "y1,y2", "--known", "g", "--radius", radius, "--pairwise", "--json",
             "--out", QString::fromStdString(out.string())});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["records"].toInt(), static_cast<int>(kN));
        QCOMPARE(j["patterns"].toInt(), 3);
        QCOMPARE(j["targets"].toVariant().toStringList(), (QStringList{"y1", "y2"}));

        privacy::RiskOptions o;
        auto expected = privacy::boxPairwiseRisk(f.y, 2, f.synth, f.pattern, o,
                                                 {privacy::Radius{r1, true}, {r2, true}});
        QVERIFY(expected);
        const auto ir = column(out, "ir"), at = column(out, "pairwise_weight");
        QCOMPARE(ir.size(), kN);
        double mean = 0;
        for (std::size_t i = 0; i < kN; ++i) {
            QVERIFY(std::abs(ir[i] - expected->marginal[i]) < 1e-12);
            QVERIFY(std::abs(at[i] - expected->at[i]) < 1e-12);
            mean += expected->marginal[i] / kN;
        }
        QVERIFY(std::abs(j["ir"].toObject()["mean"].toDouble() - mean) < 1e-12);
        // Not a trivial case: some records are at risk, and the box is not the first
        // variable's interval alone.
        QVERIFY(mean > 0);
        auto first = privacy::marginalRisk(
            std::span<const double>(f.y).first(kN),
            {std::vector<double>(f.synth[0].begin(), f.synth[0].begin() + kN),
             std::vector<double>(f.synth[1].begin(), f.synth[1].begin() + kN)},
            f.pattern, [&] {
                privacy::RiskOptions one;
                one.radius = {r1, true};
                return one;
            }());
        QVERIFY(first && *first != expected->marginal);
    }

    void radiiMustMatchTheTargets() {
        const auto dir = test::freshDir("tst_cli_risk_targets", "radii");
        const Files f = makeFiles(dir);
        auto r = test::runCli<QString>({"risk", "--original",
                                        QString::fromStdString(f.original.string()), "--synthetic",
                                        QString::fromStdString(f.s1.string()), "--target", "y1,y2",
                                        "--radius", "0.1,0.2,0.3"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--radius gives 3 radii for 2 targets; give one for all or one "
                                "per target"),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TstCliRiskTargets)
#include "tst_cli_risk_targets.moc"
