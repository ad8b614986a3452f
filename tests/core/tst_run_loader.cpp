// Reopening a run folder: everything the run wrote comes back equal (record-level results
// exactly, summaries recomputed from them equal the run's), and a data file that changed,
// moved or went missing, a damaged folder and a cancel each give a clear error.
#include <QTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"
#include "run_fixture.hpp"
#include "run_maker.hpp"
#include "test_files.hpp"

using namespace ppsynth;
namespace fs = std::filesystem;

namespace {

fs::path outputDir(const std::string& sub) {
    const QByteArray env = qgetenv("PPSYNTH_TEST_OUTPUT");
    const fs::path dir =
        fs::path(env.isEmpty() ? fs::temp_directory_path().string() : env.toStdString()) /
        "run_loader" / sub;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// One run through the same steps as `ppsynth-cli run`, written with its draws.
struct Written {
    study::RunResult run;
    fs::path dir, data;
};

Written makeRun(const std::string& sub) {
    const fs::path base = outputDir(sub);
    const std::string configPath = fixture::writeInputs(base);
    auto made = fixture::runConfig(configPath);
    // Flags the fixture's fits do not raise, set so their round trip is checked too.
    // An unbounded Delta (a weighted record's non-finite log-likelihood) must read back as
    // unbounded, not as unknown.
    const double inf = std::numeric_limits<double>::infinity();
    for (auto& s : made.run.synthesizers) {
        if (s.scheme == study::Scheme::Scalar) {
            auto& sd = std::get<study::ScalarDetails>(s.details);
            sd.noiseLimited = true;
            sd.tries.front().delta = sd.tries.front().epsilon = inf;
        }
        if (s.scheme == study::Scheme::Lipschitz) {
            s.epsilonDiagnostics.converged = false;
            s.epsilonDiagnostics.reasons = {"split R-hat of D_s is 1.300 (bulk)", "second"};
            // A fit run until converged, with tempering (one pair not yet recorded: NaN).
            s.diagnostics.untilConverged = {3, true, false, {}, 1500};
            s.diagnostics.ladders = {{1.0, 0.31, 0.1}, {1.0, 0.35, 0.125}};
            s.diagnostics.swapAcceptance = {{0.42, std::nan("")}, {0.3, 0.21}};
        }
        if (s.scheme == study::Scheme::Unweighted) {
            s.diagnostics.untilConverged = {
                2, false, true, {"D_s: R-hat 1.030", "f_i agreement: rank correlation 0.800"}, 900};
            s.deltaX = s.deltaAlphaX = s.epsilon.perDataset = s.epsilon.total = inf;
            s.global.epsilonLow = s.global.epsilonHigh = inf;
            s.records.recordDelta[0] = inf;
        }
    }
    study::OutputOptions oo;
    oo.keepDraws = true;
    fixture::writeRun(made, base / "run", oo);
    return {std::move(made.run), base / "run", base / "data.sav"};
}

// A file in a European spreadsheet's dialect: ';' between cells, decimal commas, and -9
// for an age not given (every tenth record). Read with defaults, -9 would be an age.
fs::path writeDialectCsv(const fs::path& path) {
    std::ofstream out(path);
    out << "region;sex;age;visits\n";
    const char* regions[] = {"North", "South", "East"};
    const char* sexes[] = {"female", "male"};
    for (std::size_t i = 0; i < fixture::kRows; ++i) {
        out << regions[i % 3] << ';' << sexes[(i / 3) % 2] << ';';
        if (i % 10 == 7)
            out << "-9";
        else
            out << 18 + (i * 7) % 60 << ",5";
        out << ';' << 20 + (i * 13) % 17 + (i % 37 == 0 ? 60 : 0) << '\n';
    }
    return path;
}

std::string dialectConfigJson(const std::string& dataPath) {
    return R"({
      "data": {"path": ")" +
           dataPath + R"(", "target": "visits", "missing": "listwise",
               "predictors": ["region", "sex", "age"], "known": ["region", "sex"],
               "read": {"delimiter": ";", "decimal": ",", "missing_tokens": ["-9", ""]}},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 200, "seed": 3},
      "synthesis": {"m": 2}, "risk": {"L": 2}, "utility": {"enabled": false},
      "synthesizers": [
        {"name": "Unweighted", "scheme": "unweighted"},
        {"name": "LW", "scheme": "lipschitz", "c": 0.7}
      ]})";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

class TstRunLoader : public QObject {
    Q_OBJECT
  private slots:
    void everythingComesBackEqual() {
        const Written w = makeRun("equal");
        auto loaded = study::loadRunFolder(w.dir.string());
        QVERIFY2(loaded.hasValue(), loaded.hasValue() ? "" : loaded.message().c_str());
        const study::RunResult& a = w.run;
        const study::RunResult& b = loaded->run;
        QCOMPARE(study::toJson(b.config), study::toJson(a.config));
        QCOMPARE(b.dataSha256, a.dataSha256);
        QCOMPARE(b.dataSha256.size(), std::size_t{64});
        // One bootstrap of the confidential data serves every synthesizer's utility table.
        const auto& lwStats = a.find("LW")->utility->statistics;
        const auto& emStats = a.find("EM")->utility->statistics;
        for (std::size_t k = 0; k < lwStats.size(); ++k) {
            QCOMPARE(emStats[k].original.lower, lwStats[k].original.lower);
            QCOMPARE(emStats[k].original.upper, lwStats[k].original.upper);
        }
        // The synthetic files hold the modelled columns only: the input's household ids are
        // confidential data no synthesizer touched.
        const std::string header =
            test::slurp(w.dir / "synthetic" / "LW" / "synthetic_01.csv").substr(0, 200);
        QCOMPARE(header.substr(0, header.find('\n')), std::string("region,sex,age,visits"));
        QCOMPARE(b.parameterNames, a.parameterNames);
        QCOMPARE(b.inputs.keptRows, a.inputs.keptRows);
        QVERIFY(b.inputs.yOriginal == a.inputs.yOriginal);
        QVERIFY(b.f == a.f);
        QCOMPARE(loaded->table.rowCount(), fixture::kRows);
        QCOMPARE(b.synthesizers.size(), a.synthesizers.size());
        int measured = 0;  // synthesizers whose Delta over the halves of the draws exists
        for (std::size_t s = 0; s < a.synthesizers.size(); ++s) {
            const auto& x = a.synthesizers[s];
            const auto& y = b.synthesizers[s];
            QCOMPARE(y.name, x.name);
            QVERIFY(y.scheme == x.scheme);
            QVERIFY(y.records.alpha == x.records.alpha);
            QVERIFY(y.records.recordDelta == x.records.recordDelta);
            QCOMPARE(y.records.ir, x.records.ir);
            QCOMPARE(y.records.pairwiseWeight, x.records.pairwiseWeight);
            QCOMPARE(y.synthetic, x.synthetic);
            QVERIFY(y.draws == x.draws);
            QCOMPARE(y.deltaX, x.deltaX);
            QCOMPARE(y.deltaAlphaX, x.deltaAlphaX);
            QCOMPARE(y.deltaMethod, x.deltaMethod);
            QCOMPARE(y.epsilon.perDataset, x.epsilon.perDataset);
            QCOMPARE(y.epsilon.total, x.epsilon.total);
            QCOMPARE(y.epsilon.m, x.epsilon.m);
            QCOMPARE(y.global.epsilonHigh, x.global.epsilonHigh);
            QCOMPARE(y.weights.median, x.weights.median);
            QCOMPARE(y.weights.zeros, x.weights.zeros);
            QCOMPARE(y.irSummary.mean, x.irSummary.mean);
            QCOMPARE(y.records.irTop, x.records.irTop);
            QCOMPARE(y.irSummary.aboveThreshold, x.irSummary.aboveThreshold);
            QCOMPARE(y.records.whackAMole, x.records.whackAMole);
            QCOMPARE(y.fits, x.fits);
            QCOMPARE(y.stageSeconds.synthesis, x.stageSeconds.synthesis);
            QCOMPARE(y.utilityError, x.utilityError);
            QCOMPARE(y.utility.has_value(), x.utility.has_value());
            if (x.utility) {
                QCOMPARE(y.utility->statistics.size(), x.utility->statistics.size());
                QCOMPARE(y.utility->statistics.front().ciOverlap,
                         x.utility->statistics.front().ciOverlap);
                QCOMPARE(y.utility->ecdf.Um, x.utility->ecdf.Um);
            }
            // Each scheme's own details, and only its own, come back.
            QCOMPARE(x.details.index(), study::detailsFor(x.scheme).index());
            QCOMPARE(y.details.index(), x.details.index());
            if (const auto* xp = x.pairwise()) QCOMPARE(y.pairwise()->singletons, xp->singletons);
            QCOMPARE(y.scalar() != nullptr, x.scheme == study::Scheme::Scalar);
            if (const auto* xs = x.scalar()) {
                const auto* ys = y.scalar();
                QCOMPARE(ys->tries.size(), xs->tries.size());
                for (std::size_t t = 0; t < xs->tries.size(); ++t) {
                    QCOMPARE(ys->tries[t].delta, xs->tries[t].delta);
                    QCOMPARE(ys->tries[t].epsilon, xs->tries[t].epsilon);
                    QCOMPARE(ys->tries[t].spread, xs->tries[t].spread);
                }
                QCOMPARE(ys->a, xs->a);
                QCOMPARE(ys->noiseLimited, xs->noiseLimited);
                QCOMPARE(ys->noise, xs->noise);
                QCOMPARE(ys->converged, xs->converged);
                QVERIFY(ys->noiseLimited);
            }
            QCOMPARE(y.global.epsilonLow, x.global.epsilonLow);
            QCOMPARE(y.reweight() != nullptr, x.scheme == study::Scheme::Reweight);
            if (const auto* xr = x.reweight()) {
                const auto* yr = y.reweight();
                QCOMPARE(yr->k, xr->k);
                QCOMPARE(yr->tries.size(), xr->tries.size());
                for (std::size_t t = 0; t < xr->tries.size(); ++t) {
                    QCOMPARE(yr->tries[t].k, xr->tries[t].k);
                    QCOMPARE(yr->tries[t].keeps, xr->tries[t].keeps);
                }
            }
            QCOMPARE(y.parameters.size(), x.parameters.size());
            QCOMPARE(y.parameters.front().median, x.parameters.front().median);
            const auto& ex = x.epsilonDiagnostics;
            const auto& ey = y.epsilonDiagnostics;
            QVERIFY(ex.diagnosed && ey.diagnosed);
            QCOMPARE(ey.converged, ex.converged);
            QCOMPARE(ey.reasons, ex.reasons);
            QCOMPARE(ey.rhatBulk, ex.rhatBulk);
            QCOMPARE(ey.rhatTail, ex.rhatTail);
            QCOMPARE(ey.essBulk, ex.essBulk);
            QCOMPARE(ey.essTail, ex.essTail);
            QCOMPARE(ey.deltaPerChain, ex.deltaPerChain);
            QCOMPARE(ey.argmaxRecord, ex.argmaxRecord);
            QCOMPARE(ey.argmaxLoglik, ex.argmaxLoglik);
            if (std::isfinite(ex.deltaFirstHalf)) ++measured;
            QCOMPARE(ey.deltaFirstHalf, ex.deltaFirstHalf);
            QCOMPARE(ey.deltaSecondHalf, ex.deltaSecondHalf);
            QCOMPARE(ey.loglikRhatBulk, ex.loglikRhatBulk);
            QCOMPARE(ey.loglikRhatTail, ex.loglikRhatTail);
            QCOMPARE(ey.fAgreement.has_value(), ex.fAgreement.has_value());
            if (ex.fAgreement)
                QCOMPARE(ey.fAgreement->rankCorrelation, ex.fAgreement->rankCorrelation);
            const auto& dx = x.diagnostics;
            const auto& dy = y.diagnostics;
            // Run until converged and tempering come back (the Results page, the report and
            // a release's manifest read them from a reopened run).
            QCOMPARE(dy.untilConverged.blocks, dx.untilConverged.blocks);
            QCOMPARE(dy.untilConverged.drawsPerChain, dx.untilConverged.drawsPerChain);
            QCOMPARE(dy.untilConverged.converged, dx.untilConverged.converged);
            QCOMPARE(dy.untilConverged.budgetReached, dx.untilConverged.budgetReached);
            QCOMPARE(dy.untilConverged.shortfall, dx.untilConverged.shortfall);
            QCOMPARE(dy.ladders, dx.ladders);
            QCOMPARE(dy.swapAcceptance.size(), dx.swapAcceptance.size());
            for (std::size_t c = 0; c < dx.swapAcceptance.size(); ++c) {
                QCOMPARE(dy.swapAcceptance[c].size(), dx.swapAcceptance[c].size());
                for (std::size_t j = 0; j < dx.swapAcceptance[c].size(); ++j)
                    QVERIFY(dy.swapAcceptance[c][j] == dx.swapAcceptance[c][j] ||
                            (std::isnan(dy.swapAcceptance[c][j]) &&
                             std::isnan(dx.swapAcceptance[c][j])));
            }
            QCOMPARE(dy.divergencesPerChain, dx.divergencesPerChain);
            QCOMPARE(dy.draws, dx.draws);
            QCOMPARE(dy.quantities.size(), dx.quantities.size());
            for (std::size_t q = 0; q < dx.quantities.size(); ++q) {
                QCOMPARE(dy.quantities[q].name, dx.quantities[q].name);
                QCOMPARE(dy.quantities[q].summary.rhatBulk, dx.quantities[q].summary.rhatBulk);
                QCOMPARE(dy.quantities[q].summary.rhatTail, dx.quantities[q].summary.rhatTail);
                QCOMPARE(dy.quantities[q].summary.essTail, dx.quantities[q].summary.essTail);
            }
        }
        QVERIFY(measured > 0);
        // Utility was measured (the configuration's default) and came back.
        QVERIFY(b.find("LW")->utility.has_value());
        // The run has a pairwise synthesizer and a re-weighting: both made their extras.
        QVERIFY(!b.find("Pairwise")->records.pairwiseWeight.empty());
        QVERIFY(!b.find("LW_final")->reweight()->tries.empty());
        QCOMPARE(b.find("LW")->diagnostics.untilConverged.blocks, 3);
        QCOMPARE(b.find("Unweighted")->diagnostics.untilConverged.stopReason(),
                 std::string("budget reached"));
    }

    // data.read travels in run.json: the reopened run reads the file as the run did, and
    // its synthetic files (written in the CSV writer's own dialect) still read back.
    void dataReadOptionsComeBack() {
        const fs::path base = outputDir("dialect");
        const fs::path data = writeDialectCsv(base / "survey.csv");
        const fs::path configPath = base / "config.json";
        std::ofstream(configPath) << dialectConfigJson(data.string());
        auto config = study::loadRunConfig(configPath.string());
        QVERIFY2(config.hasValue(), config.hasValue() ? "" : config.message().c_str());
        auto input = study::readRunData(*config);
        QVERIFY2(input.hasValue(), input.hasValue() ? "" : input.message().c_str());
        auto run = study::runStudy(*config, input->table);
        QVERIFY2(run.hasValue(), run.hasValue() ? "" : run.message().c_str());
        run->dataSha256 = input->sha256;
        // Every tenth age is -9, missing, so listwise deletion keeps nine records in ten.
        QCOMPARE(run->inputs.recordCount(), fixture::kRows - fixture::kRows / 10);
        const fs::path dir = base / "run";
        QVERIFY(bool(study::writeRunOutput(*run, input->table, dir.string())));

        auto loaded = study::loadRunFolder(dir.string());
        QVERIFY2(loaded.hasValue(), loaded.hasValue() ? "" : loaded.message().c_str());
        const study::RunResult& back = loaded->run;
        QCOMPARE(study::toJson(back.config), study::toJson(run->config));
        QCOMPARE(back.config.data.read.csv.delimiter, ';');
        QCOMPARE(back.inputs.keptRows, run->inputs.keptRows);
        QVERIFY(back.inputs.X == run->inputs.X);
        QVERIFY(back.inputs.yOriginal == run->inputs.yOriginal);
        QCOMPARE(loaded->table.find("age")->value(0), 18.5);
        QVERIFY(loaded->dataVerified);
        for (const auto& name : {"Unweighted", "LW"}) {
            QVERIFY(back.find(name)->records.alpha == run->find(name)->records.alpha);
            QCOMPARE(back.find(name)->synthetic, run->find(name)->synthetic);
        }
    }

    void changedDataIsRefused() {
        const Written w = makeRun("changed");
        // One byte of the data file differs: the checksum no longer matches.
        {
            std::fstream f(w.data, std::ios::in | std::ios::out | std::ios::binary | std::ios::ate);
            const auto size = static_cast<std::streamoff>(f.tellg());
            f.seekp(size - 1);
            f.put('\x01');
        }
        auto loaded = study::loadRunOutput(w.dir.string());
        QVERIFY(!loaded.hasValue());
        QVERIFY2(contains(loaded.message(), "SHA-256") &&
                     contains(loaded.message(), "is not the file this run read") &&
                     contains(loaded.message(), "--data"),
                 loaded.message().c_str());
    }

    void movedDataIsFoundWithDataPath() {
        const Written w = makeRun("moved");
        const fs::path moved = w.dir.parent_path() / "elsewhere.sav";
        fs::rename(w.data, moved);
        auto missing = study::loadRunOutput(w.dir.string());
        QVERIFY(!missing.hasValue());
        QVERIFY2(contains(missing.message(), "is not there") &&
                     contains(missing.message(), "--data FILE"),
                 missing.message().c_str());
        study::LoadOptions lo;
        lo.dataPath = moved.string();
        auto found = study::loadRunOutput(w.dir.string(), lo);
        QVERIFY2(found.hasValue(), found.hasValue() ? "" : found.message().c_str());
        QCOMPARE(found->find("LW")->synthetic, w.run.find("LW")->synthetic);
        // Another file under the right name is still refused.
        fs::copy_file(moved, w.data);
        { std::ofstream(w.data, std::ios::app) << "x"; }
        lo.dataPath = w.data.string();
        QVERIFY(!study::loadRunOutput(w.dir.string(), lo).hasValue());
    }

    void damagedFoldersAreNamed() {
        const fs::path empty = outputDir("empty");
        auto none = study::loadRunOutput(empty.string());
        QVERIFY(!none.hasValue());
        QVERIFY2(contains(none.message(), "no run.json"), none.message().c_str());

        const Written w = makeRun("damaged");
        fs::remove(w.dir / "confidential" / "CW_records.csv");
        auto noRecords = study::loadRunOutput(w.dir.string());
        QVERIFY(!noRecords.hasValue());
        QVERIFY2(contains(noRecords.message(), "CW_records.csv"), noRecords.message().c_str());

        std::ofstream(w.dir / "run.json") << "{\"configuration\": 3}";
        auto bad = study::loadRunOutput(w.dir.string());
        QVERIFY(!bad.hasValue());
        QVERIFY2(contains(bad.message(), "run.json"), bad.message().c_str());
    }

    // A run.json edited by hand so that a synthesizer's name is a path ("../CW" would read
    // the records from the run folder's top and the datasets from beside 'synthetic') is
    // refused, even with the files the path leads to in place.
    void namesThatArePathsAreRefused() {
        const Written w = makeRun("edited_names");
        fs::copy(w.dir / "confidential" / "CW_records.csv", w.dir / "CW_records.csv");
        fs::copy(w.dir / "confidential" / "CW_draws.csv", w.dir / "CW_draws.csv");
        fs::copy(w.dir / "synthetic" / "CW", w.dir / "CW");
        auto j = nlohmann::json::parse(test::slurp(w.dir / "run.json"));
        for (auto& s : j["configuration"]["synthesizers"])
            if (s["name"] == "CW") s["name"] = "../CW";
        j["synthesizers"]["../CW"] = j["synthesizers"]["CW"];
        j["synthesizers"].erase("CW");
        std::ofstream(w.dir / "run.json") << j.dump(2);
        study::LoadOptions lo;
        lo.synthetic = true;
        lo.draws = true;
        auto loaded = study::loadRunOutput(w.dir.string(), lo);
        QVERIFY(!loaded.hasValue());
        QVERIFY2(contains(loaded.message(), "the name '../CW' starts with '.'"),
                 loaded.message().c_str());
    }

    // A run.json edited by hand with a key given twice: refused, named, not read half-right.
    void aKeyTwiceInRunJsonIsRefused() {
        const Written w = makeRun("twice");
        std::ifstream in(w.dir / "run.json");
        std::string text((std::istreambuf_iterator<char>(in)), {});
        in.close();
        const std::string at = "\"configuration\": {";
        const auto pos = text.find(at);
        QVERIFY(pos != std::string::npos);
        text.insert(pos + at.size(), R"("comment": "a", "comment": "b",)");
        std::ofstream(w.dir / "run.json") << text;
        auto loaded = study::loadRunOutput(w.dir.string());
        QVERIFY(!loaded.hasValue());
        QVERIFY2(
            contains(loaded.message(), "run.json': configuration: key 'comment' appears twice"),
            loaded.message().c_str());
    }

    void recordsMustMatchTheData() {
        const Written w = makeRun("records");
        // A records file whose y differs from the data (as if the data were edited and the
        // checksum forgotten): refused by the record check itself.
        const fs::path path = w.dir / "confidential" / "LW_records.csv";
        std::ifstream in(path);
        std::string header, first, rest, line;
        std::getline(in, header);
        std::getline(in, first);
        while (std::getline(in, line)) rest += line + "\n";
        in.close();
        const auto comma = first.find(',');
        const auto comma2 = first.find(',', comma + 1);
        first = first.substr(0, comma) + ",123456" + first.substr(comma2);
        std::ofstream(path) << header << "\n" << first << "\n" << rest;
        auto loaded = study::loadRunOutput(w.dir.string());
        QVERIFY(!loaded.hasValue());
        QVERIFY2(contains(loaded.message(), "does not match the data file"),
                 loaded.message().c_str());
    }

    void cancelStops() {
        const Written w = makeRun("cancel");
        study::LoadOptions lo;
        int calls = 0;
        lo.progress = [&calls](const Progress&) {
            return ++calls >= 3 ? Continue::Stop : Continue::Yes;
        };
        auto loaded = study::loadRunOutput(w.dir.string(), lo);
        QVERIFY(!loaded.hasValue());
        QVERIFY2(contains(loaded.message(), "cancelled"), loaded.message().c_str());
        QCOMPARE(calls, 3);
    }
};

QTEST_APPLESS_MAIN(TstRunLoader)
#include "tst_run_loader.moc"
