#include <QTest>
#include <filesystem>
#include <fstream>

#include "ppsynth/data/examples.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"

using namespace ppsynth;

namespace {
// The poisson example with the conjugate model: exact draws, so the run takes well under a
// second while exercising every scheme's path through the runner.
study::RunConfig poissonConfig() {
    auto c = study::parseRunConfig(R"({
      "data": {"path": "poisson.csv", "target": "y"},
      "model": {"family": "poisson-means"},
      "mcmc": {"chains": 2, "warmup": 0, "draws": 500, "seed": 3},
      "synthesis": {"m": 4}, "risk": {"L": 6},
      "synthesizers": [
        {"name": "Unweighted", "scheme": "unweighted"},
        {"name": "LW", "scheme": "lipschitz", "c": 0.7, "g": 0.0},
        {"name": "LW-M", "scheme": "lipschitz", "M": 3.5},
        {"name": "CW", "scheme": "marginal", "source": "data"},
        {"name": "EM", "scheme": "scalar", "match": "LW"},
        {"name": "LW_final", "scheme": "reweight", "base": "LW"},
        {"name": "LW1", "scheme": "lipschitz", "c": 1.0, "g": 0.0}
      ]})");
    return *c;
}
}  // namespace

class TstRunner : public QObject {
    Q_OBJECT
  private slots:
    void everySchemeRunsAndAccountsEpsilon() {
        const auto table = data::makeExample(data::ExampleId::Poisson);
        auto run = study::runStudy(poissonConfig(), table);
        QVERIFY2(run.hasValue(), run.hasValue() ? "" : run.message().c_str());
        QCOMPARE(run->synthesizers.size(), std::size_t{7});
        for (const auto& s : run->synthesizers) {
            QCOMPARE(s.epsilon.perDataset, 2 * s.deltaAlphaX);
            QCOMPARE(s.epsilon.total, 4 * s.epsilon.perDataset);
            QCOMPARE(s.synthetic.size(), std::size_t{4});
            QCOMPARE(s.ir.size(), std::size_t{1000});
            // Delta_{alpha,x} is the largest per-record bound.
            QVERIFY(std::abs(s.recordDelta.maxCoeff() - s.deltaAlphaX) < 1e-12);
        }
        const auto* u = run->find("Unweighted");
        const auto* lw = run->find("LW");
        // Down-weighting lowers the bound.
        QVERIFY(lw->deltaAlphaX < u->deltaAlphaX);
        // M truncation keeps every record's alpha_i f_i at or below M.
        const auto* m = run->find("LW-M");
        QVERIFY((m->alpha.array() * run->f.array()).maxCoeff() <= 3.5);
        // The scalar weight is matched to LW's epsilon within the 2% tolerance.
        const auto* em = run->find("EM");
        QVERIFY(std::abs(em->epsilon.perDataset - lw->epsilon.perDataset) <=
                0.02 * lw->epsilon.perDataset);
        QVERIFY(!em->scalarTries.empty());
        // Re-weighting raises weights and keeps the bound within tolerance.
        const auto* fin = run->find("LW_final");
        QVERIFY(fin->deltaAlphaX <= 1.02 * lw->deltaAlphaX);
        QVERIFY(fin->alpha.sum() >= lw->alpha.sum());
        // Paper 001 sec. 3.1: LW keeps the bulk of the records at higher weights than CW.
        QVERIFY2(run->find("LW1")->weights.median > run->find("CW")->weights.median,
                 (std::to_string(run->find("LW1")->weights.median) + " vs " +
                  std::to_string(run->find("CW")->weights.median))
                     .c_str());
        // Synthetic counts stay whole.
        for (double v : lw->synthetic[0]) QCOMPARE(v, std::round(v));
    }
    void sameSeedSameRun() {
        const auto table = data::makeExample(data::ExampleId::Poisson);
        auto a = study::runStudy(poissonConfig(), table);
        auto b = study::runStudy(poissonConfig(), table);
        QCOMPARE(a->find("LW")->synthetic, b->find("LW")->synthetic);
        QCOMPARE(a->find("EM")->deltaAlphaX, b->find("EM")->deltaAlphaX);
    }
    void outputFolderHoldsNothingRecordLevelInRunJson() {
        const auto table = data::makeExample(data::ExampleId::Poisson);
        auto run = study::runStudy(poissonConfig(), table);
        const std::string dir =
            std::string(qgetenv("PPSYNTH_TEST_OUTPUT").constData()) + "/tst_runner_out";
        std::filesystem::remove_all(dir);
        QVERIFY(study::writeRunOutput(*run, table, dir).isOk());
        QVERIFY(std::filesystem::exists(dir + "/synthetic/LW/synthetic_04.csv"));
        QVERIFY(std::filesystem::exists(dir + "/confidential/LW_records.csv"));
        std::ifstream in(dir + "/run.json");
        std::string json((std::istreambuf_iterator<char>(in)), {});
        for (const char* key :
             {"\"delta_x\"", "\"delta_alpha_x\"", "\"epsilon\"", "\"epsilon_total\"",
              "\"delta_method\"", "\"weights\"", "\"ir\"", "\"rhat_max\"", "\"ess_bulk_min\"",
              "\"ess_tail_min\"", "\"divergences\"", "\"seconds\""})
            QVERIFY2(json.find(key) != std::string::npos, key);
        // A second write to the same folder is refused rather than mixed in.
        QVERIFY(!study::writeRunOutput(*run, table, dir).isOk());
    }
};

QTEST_APPLESS_MAIN(TstRunner)
#include "tst_runner.moc"
