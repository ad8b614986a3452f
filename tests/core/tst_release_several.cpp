// Release bundles of runs with several sensitive variables (METHOD.md section 9): every one is
// synthetic and checked like the first, one epsilon covers them all, predictors stay shared.
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ppsynth/data/table.hpp"
#include "ppsynth/release/bundle.hpp"
#include "ppsynth/release/from_run.hpp"
#include "ppsynth/study/runner.hpp"
#include "test_files.hpp"

using ppsynth::Status;
using ppsynth::data::Column;
using ppsynth::data::FileFormat;
using ppsynth::data::Table;
using namespace ppsynth::release;
namespace study = ppsynth::study;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kRows = 10;

// Confidential values whose text cannot appear by chance.
double incomeOriginal(std::size_t i) {
    return 52731.113 + 977.31 * static_cast<double>(i);
}
double visitsOriginal(std::size_t i) {
    return static_cast<double>(17 + 3 * i);
}
// Synthetic values of dataset l.
double incomeSynthetic(std::size_t l, std::size_t i) {
    return 40000.5 + 100.25 * static_cast<double>(i) + 1000.0 * static_cast<double>(l);
}
double visitsSynthetic(std::size_t l, std::size_t i) {
    return static_cast<double>((i + l) % 5);
}

void add(Table& t, Column c) {
    const Status s = t.addColumn(std::move(c));
    if (!s) qFatal("%s", s.message().c_str());
}

// The confidential data: age, region (predictors), income and visits (sensitive).
Table confidentialTable() {
    std::vector<double> age, income, visits;
    std::vector<std::int32_t> region;
    for (std::size_t i = 0; i < kRows; ++i) {
        age.push_back(30.5 + static_cast<double>(i));
        region.push_back(static_cast<std::int32_t>(i % 2));
        income.push_back(incomeOriginal(i));
        visits.push_back(visitsOriginal(i));
    }
    Table t;
    add(t, Column::numeric("age", age));
    add(t, Column::categorical("region", region, {{"North", "North"}, {"South", "South"}}));
    add(t, Column::numeric("income", income));
    add(t, Column::count("visits", visits));
    return t;
}

// Synthetic dataset l as a run hands it to the writer: both sensitive variables replaced.
Table syntheticDataset(std::size_t l) {
    Table t = confidentialTable();
    std::vector<double> income, visits;
    for (std::size_t i = 0; i < kRows; ++i) {
        income.push_back(incomeSynthetic(l, i));
        visits.push_back(visitsSynthetic(l, i));
    }
    if (!t.replaceColumn(*t.indexOf("income"), Column::numeric("income", income)) ||
        !t.replaceColumn(*t.indexOf("visits"), Column::count("visits", visits)))
        qFatal("could not replace a column");
    return t;
}

ReleaseRequest severalRequest(std::size_t m) {
    ReleaseRequest r;
    for (std::size_t l = 0; l < m; ++l) r.datasets.push_back(syntheticDataset(l));
    r.target = "income";
    r.targets = {"income", "visits"};
    r.releasedColumns = {"age", "region", "income", "visits"};
    r.manifest.createdUtc = "2026-11-28T01:00:00Z";
    r.manifest.model.family = "normal";
    r.manifest.mechanism.synthesizer = "LW";
    r.manifest.mechanism.scheme = "lipschitz";
    r.manifest.sampling.chains = 2;
    r.manifest.sampling.drawsPerChain = 100;
    r.manifest.privacy.epsilonPerDataset = 4.5;
    r.manifest.privacy.deltaEstimate = "max over draws";
    return r;
}

// A finished run with income then visits (Poisson given income), m = 3, LW converged.
study::RunResult severalRun(std::size_t m) {
    study::RunResult run;
    auto& c = run.config;
    c.data.target = "income";
    c.data.targets = {"income", "visits"};
    c.data.predictors = {"age", "region"};
    c.data.transform = "log";
    c.model.family = "normal";
    study::RunConfig::ModelOverride visits;
    visits.family = "poisson";
    visits.transform = "none";
    c.models["visits"] = visits;
    study::SynthesizerConfig sc;
    sc.name = "LW";
    sc.scheme = study::Scheme::Lipschitz;
    sc.c = 0.7;
    c.synthesizers.push_back(sc);
    study::SynthesizerResult r;
    r.name = "LW";
    r.scheme = study::Scheme::Lipschitz;
    r.epsilon.perDataset = 6.25;
    r.deltaMethod = "max over draws";
    r.epsilonDiagnostics.diagnosed = true;
    r.epsilonDiagnostics.converged = true;
    for (std::size_t l = 0; l < m; ++l) {
        std::vector<double> y;  // income's n values, then visits'
        for (std::size_t i = 0; i < kRows; ++i) y.push_back(incomeSynthetic(l, i));
        for (std::size_t i = 0; i < kRows; ++i) y.push_back(visitsSynthetic(l, i));
        r.synthetic.push_back(std::move(y));
    }
    run.synthesizers.push_back(std::move(r));
    run.inputs.yOriginal.resize(kRows);
    for (std::size_t i = 0; i < kRows; ++i) {
        run.inputs.keptRows.push_back(i);
        run.inputs.yOriginal[static_cast<Eigen::Index>(i)] = incomeOriginal(i);
    }
    return run;
}

nlohmann::json readManifest(const fs::path& bundle) {
    return nlohmann::json::parse(ppsynth::test::slurp(bundle / "manifest.json"));
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

class TstReleaseSeveral : public QObject {
    Q_OBJECT

  private slots:
    // releaseFromRun on a two-variable run: written (the second variable differs between
    // datasets), both variables synthetic in the manifest, one epsilon for all of them.
    void releaseOfATwoVariableRun() {
        const study::RunResult run = severalRun(3);
        const Table table = confidentialTable();
        const fs::path bundle = ppsynth::test::outputDir("release_several") / "two";
        fs::remove_all(bundle);
        const Status s = releaseFromRun(run, table, "LW", bundle.string(), {FileFormat::Csv});
        QVERIFY2(s.isOk(), s.message().c_str());
        const auto j = readManifest(bundle);
        QVERIFY(j["data"]["target"] == "income");
        QVERIFY(j["data"]["targets"] == nlohmann::json({"income", "visits"}));
        QVERIFY(j["data"]["predictors"] == nlohmann::json({"age", "region"}));
        QCOMPARE(j["synthesized"].size(), std::size_t{2});
        QVERIFY(j["synthesized"][0]["variable"] == "income");
        QVERIFY(j["synthesized"][0]["model"]["family"] == "normal");
        QVERIFY(j["synthesized"][0]["transform"]["name"] == "log");
        QVERIFY(j["synthesized"][1]["variable"] == "visits");
        QVERIFY(j["synthesized"][1]["order"] == 2);
        QVERIFY(j["synthesized"][1]["model"]["family"] == "poisson");
        QVERIFY(j["synthesized"][1]["transform"]["name"] == "none");
        // One epsilon, per dataset and for all m, covering both.
        QCOMPARE(j["privacy"]["epsilon_per_dataset"].get<double>(), 6.25);
        QCOMPARE(j["privacy"]["epsilon_total"].get<double>(), 18.75);
        QVERIFY(j["privacy"]["epsilon_covers"]["variables"] ==
                nlohmann::json({"income", "visits"}));
        const std::string readme = ppsynth::test::slurp(bundle / "README.txt");
        QVERIFY(contains(readme, "income (synthetic), visits (synthetic), age, region."));
        QVERIFY(contains(readme, "This one epsilon covers the release of all 2 synthetic"));
        QVERIFY(contains(readme,
                         "  1. income: model normal; transform log\n"
                         "  2. visits: model poisson; transform none\n"));
        // The confidential values are nowhere in the bundle.
        const std::string data = ppsynth::test::slurp(bundle / "data" / "synthetic_02.csv");
        QVERIFY(!contains(data, "52731.113"));
        QVERIFY(contains(data, "41100.75"));
    }

    // The README's R and Stata examples cover every synthesized variable, not only the first:
    // the R code, run on the bundle, reads each dataset once and finds each variable's mean in
    // each dataset (the q of the combining rules).
    void readmeExamplesCoverEveryVariable() {
        const fs::path bundle = ppsynth::test::outputDir("release_several") / "readme";
        fs::remove_all(bundle);
        ReleaseRequest r = severalRequest(3);
        r.formats = {FileFormat::Csv, FileFormat::Dta};
        const Status s = writeReleaseBundle(r, bundle.string());
        QVERIFY2(s.isOk(), s.message().c_str());
        const std::string readme = ppsynth::test::slurp(bundle / "README.txt");
        for (const char* part :
             {"In R (the mean of each synthesized variable",
              "  vars <- c(\"income\", \"visits\")\n", "      q[l, v] <- mean(d[[v]])\n",
              "In Stata (the mean of each synthesized variable", "  local vars income visits\n",
              "      quietly mean `vars'\n", "          local q`k'_`l' = _b[`v']\n",
              "use \"data/synthetic_`f'.dta\", clear"})
            QVERIFY2(contains(readme, part), part);
        QVERIFY(!contains(readme, "In R (the mean of income"));
        QVERIFY(!contains(readme, "d$income"));

        const QString rscript = QStandardPaths::findExecutable("Rscript");
        if (rscript.isEmpty()) QSKIP("Rscript is not installed: the R example was not run");
        const std::string open = "vcov() of lm()):\n\n";
        const auto from = readme.find(open) + open.size();
        const auto to = readme.find("\n\n", from);
        QVERIFY(from != std::string::npos + open.size() && to != std::string::npos);
        std::istringstream code(readme.substr(from, to - from));
        std::ofstream script(bundle / "example.R");
        for (std::string line; std::getline(code, line);) script << line.substr(2) << "\n";
        script << "for (v in vars) cat(\"mean\", v, sprintf(\"%.12g\", q[, v]), \"\\n\")\n";
        script.close();
        QProcess p;
        p.setWorkingDirectory(QString::fromStdString(bundle.string()));
        p.start(rscript, {"example.R"});
        QVERIFY(p.waitForFinished(60000));
        const std::string out = p.readAllStandardOutput().toStdString();
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        for (const char* v : {"income", "visits"}) {
            std::string line = std::string("mean ") + v;
            for (std::size_t l = 0; l < 3; ++l) {
                double sum = 0;
                for (std::size_t i = 0; i < kRows; ++i)
                    sum +=
                        v == std::string("income") ? incomeSynthetic(l, i) : visitsSynthetic(l, i);
                char text[64];
                std::snprintf(text, sizeof text, " %.12g", sum / kRows);
                line += text;
            }
            QVERIFY2(contains(out, line + " \n"), (line + "\nin\n" + out).c_str());
        }
    }

    void refusals_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("second equals its confidential values")
            << 0
            << "column 'visits' equals the confidential values of the sensitive variable "
               "'visits'";
        QTest::newRow("confidential column of the second sneaks in")
            << 1
            << "column 'n_visits' equals the confidential values of the sensitive "
               "variable 'visits'";
        QTest::newRow("second not released") << 2 << "'visits' must be among the released";
        QTest::newRow("predictor differs") << 3 << "dataset 2: column 'age' differs";
        QTest::newRow("first not the target") << 4 << "not the first of its sensitive";
    }
    // A two-variable request is refused, naming the column, when the second variable (or a
    // copy of it) is the confidential values; a differing second variable alone is accepted.
    void refusals() {
        QFETCH(int, kind);
        QFETCH(QString, messagePart);
        ReleaseRequest r = severalRequest(2);
        std::vector<double> income, visits;
        for (std::size_t i = 0; i < kRows; ++i) {
            income.push_back(incomeOriginal(i));
            visits.push_back(visitsOriginal(i));
        }
        r.originalTargets = {&income, &visits};
        QVERIFY2(validateReleaseRequest(r).isOk(), validateReleaseRequest(r).message().c_str());
        switch (kind) {
            case 0:  // a run that forgot to replace the second variable
                for (auto& t : r.datasets)
                    QVERIFY(t.replaceColumn(*t.indexOf("visits"), Column::count("visits", visits))
                                .isOk());
                break;
            case 1:
                for (auto& t : r.datasets)
                    QVERIFY(t.addColumn(Column::numeric("n_visits", visits)).isOk());
                r.releasedColumns.push_back("n_visits");
                break;
            case 2:
                r.releasedColumns.pop_back();
                break;
            case 3: {
                std::vector<double> age(kRows, 44.0);
                QVERIFY(
                    r.datasets[1]
                        .replaceColumn(*r.datasets[1].indexOf("age"), Column::numeric("age", age))
                        .isOk());
                break;
            }
            case 4:
                r.targets = {"visits", "income"};
                break;
        }
        const Status check = validateReleaseRequest(r);
        QVERIFY(!check.isOk());
        QVERIFY2(contains(check.message(), messagePart.toStdString()), check.message().c_str());
        const fs::path bundle = ppsynth::test::outputDir("release_several") / "refused";
        fs::remove_all(bundle);
        QCOMPARE(writeReleaseBundle(r, bundle.string()).message(), check.message());
        QVERIFY(!fs::exists(bundle));
    }

    // Through the run: a run whose second variable was not replaced is refused by
    // releaseFromRun, naming it (the confidential values come from the data file).
    void releaseFromRunRefusesAnUnreplacedSecondVariable() {
        study::RunResult run = severalRun(2);
        for (auto& y : run.synthesizers[0].synthetic)
            for (std::size_t i = 0; i < kRows; ++i) y[kRows + i] = visitsOriginal(i);
        const fs::path bundle = ppsynth::test::outputDir("release_several") / "unreplaced";
        fs::remove_all(bundle);
        const Status s =
            releaseFromRun(run, confidentialTable(), "LW", bundle.string(), {FileFormat::Csv});
        QVERIFY(!s.isOk());
        QVERIFY2(contains(s.message(), "column 'visits' equals the confidential values"),
                 s.message().c_str());
        QVERIFY(!fs::exists(bundle));
    }
};

QTEST_APPLESS_MAIN(TstReleaseSeveral)
#include "tst_release_several.moc"
