// A risk-utility sweep with two sensitive variables (METHOD.md sections 8 and 9): sweep.csv
// keeps every one-variable column and adds each variable's utility columns ("pmse[y2]", ...)
// and the joint ones, read off each row's utility report; sweep.json's rows carry the same
// numbers under "variables" and "joint".
#include <QTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/sweep.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kN = 120;

// x, then y1 = 20 + 3 x + noise and y2 = 5 + 0.4 y1 + noise, all positive; deterministic.
void writeData(const fs::path& path) {
    std::ofstream out(path);
    out << "x,y1,y2\n";
    for (std::size_t i = 0; i < kN; ++i) {
        const double x = static_cast<double>(i % 10);
        const double y1 = 20 + 3 * x + 4 * std::sin(static_cast<double>(i) * 1.7);
        const double y2 = 5 + 0.4 * y1 + 2 * std::cos(static_cast<double>(i) * 2.3);
        out << x << ',' << y1 << ',' << y2 << '\n';
    }
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.emplace_back();
    return out;
}

// sweep.csv as rows of column name -> cell.
std::vector<std::map<std::string, std::string>> readCsv(const std::string& text,
                                                        std::vector<std::string>& header) {
    std::stringstream in(text);
    std::string line;
    std::getline(in, line);
    header = split(line);
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
        const auto cells = split(line);
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i)
            row[header[i]] = cells[i];
        rows.push_back(std::move(row));
    }
    return rows;
}

// A cell against the report's number: equal (shortest round trip), or NA for NaN.
bool same(const std::string& cell, double v) {
    if (!std::isfinite(v)) return cell == "NA";
    return cell != "NA" && std::stod(cell) == v;
}

}  // namespace

class TstSweepSeveral : public QObject {
    Q_OBJECT

  private slots:
    void perVariableAndJointColumns() {
        const fs::path dir = test::freshDir("tst_sweep_several", "case");
        writeData(dir / "two.csv");
        const std::string text = R"({
          "data": {"path": "two.csv", "targets": ["y1", "y2"], "predictors": ["x"]},
          "model": {"family": "normal"},
          "mcmc": {"chains": 2, "warmup": 100, "draws": 100, "seed": 5, "threads": 1},
          "synthesis": {"m": 3}, "risk": {"L": 2}, "utility": {"bootstrap": 40},
          "sweep": {"points": [{"c": 0.7, "g": 0.0}], "threads": 2}})";
        auto c = study::parseSweepConfig(text, dir.string());
        QVERIFY2(c.hasValue(), c.hasValue() ? "" : c.message().c_str());
        auto input = study::readRunData(c->run);
        QVERIFY2(input.hasValue(), input.hasValue() ? "" : input.message().c_str());
        const std::string out = (dir / "sweep").string();
        auto s = study::runSweep(*c, *input, out);
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : s.message().c_str());
        QCOMPARE(s->rows.size(), std::size_t{3});  // Unweighted, LW, EM

        std::vector<std::string> header;
        const auto rows = readCsv(test::slurp(out + "/sweep.csv"), header);
        QCOMPARE(rows.size(), s->rows.size());
        // The one-variable columns first, unchanged, then the new ones in this order.
        const std::vector<std::string> added{"q90_ci_overlap[y1]",
                                             "q90_rel_error[y1]",
                                             "mean_ci_overlap[y1]",
                                             "mean_rel_error[y1]",
                                             "U_m[y1]",
                                             "pmse[y1]",
                                             "s_pmse[y1]",
                                             "q90_ci_overlap[y2]",
                                             "q90_rel_error[y2]",
                                             "mean_ci_overlap[y2]",
                                             "mean_rel_error[y2]",
                                             "U_m[y2]",
                                             "pmse[y2]",
                                             "s_pmse[y2]",
                                             "joint_pmse",
                                             "joint_s_pmse",
                                             "joint_corr_frobenius",
                                             "joint_corr_max_abs",
                                             "joint_regression_ci_overlap"};
        QCOMPARE(header.size(), std::size_t{32} + added.size());
        QCOMPARE(header[31], std::string("target_epsilon"));
        QVERIFY(std::equal(added.begin(), added.end(), header.begin() + 32));

        const auto json = nlohmann::json::parse(test::slurp(out + "/sweep.json"));
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& r = s->rows[i];
            const auto& cells = rows[i];
            QCOMPARE(cells.at("mechanism"), r.mechanism);
            QVERIFY2(r.utility.has_value(), r.utilityError.c_str());
            const auto& u = *r.utility;
            QCOMPARE(u.variables.size(), std::size_t{2});
            QVERIFY(u.joint.has_value());
            // The unsuffixed columns stay the first variable's.
            QVERIFY(same(cells.at("pmse"), u.variables[0].pmse.pmse));
            for (std::size_t k = 0; k < 2; ++k) {
                const auto& v = u.variables[k];
                const std::string t = "[" + v.target + "]";
                QVERIFY2(same(cells.at("pmse" + t), v.pmse.pmse), t.c_str());
                QVERIFY(same(cells.at("s_pmse" + t), v.pmse.sPmse));
                QVERIFY(same(cells.at("U_m" + t), v.ecdf.Um));
                QVERIFY(same(cells.at("mean_ci_overlap" + t), v.statistics[0].ciOverlap));
                QVERIFY(same(cells.at("q90_ci_overlap" + t), v.statistics.back().ciOverlap));
                const auto& row = json["rows"][i]["variables"][k];
                QCOMPARE(row["target"].get<std::string>(), v.target);
                QCOMPARE(row["pmse"].get<double>(), v.pmse.pmse);
            }
            const auto& j = *u.joint;
            QVERIFY(j.correlationComputed && std::isfinite(j.correlation.frobenius));
            QVERIFY(same(cells.at("joint_pmse"), j.pmse.pmse));
            QVERIFY(same(cells.at("joint_s_pmse"), j.pmse.sPmse));
            QVERIFY(same(cells.at("joint_corr_frobenius"), j.correlation.frobenius));
            QVERIFY(same(cells.at("joint_corr_max_abs"), j.correlation.maxAbs));
            const double overlap =
                (j.regressions[0].meanOverlap + j.regressions[1].meanOverlap) / 2;
            QVERIFY(std::isfinite(overlap));
            QVERIFY(same(cells.at("joint_regression_ci_overlap"), overlap));
            const auto& joint = json["rows"][i]["joint"];
            QCOMPARE(joint["corr_frobenius"].get<double>(), j.correlation.frobenius);
            QCOMPARE(joint["regression_ci_overlap"].get<double>(), overlap);
        }
    }
};

QTEST_APPLESS_MAIN(TstSweepSeveral)
#include "tst_sweep_several.moc"
