// Paper 000 sec. 5.2 reproduced qualitatively (slow: about 100 s wall on 2 shared cores) with
// the bundled resources/examples/paper000_sec52_quick.json: Unweighted / LW (0.7, 0) / CW
// (IR from the data) / EM at LW's epsilon on income_survey, with the normal synthesizer of
// the quick variant instead of the K = 20 mixture. The paper's findings, as assertions:
//  - the weights lower the bound: LW's and CW's epsilon far below Unweighted's;
//  - EM is matched to LW's epsilon (within the 2% tolerance of the search);
//  - at equal epsilon LW keeps more utility than EM: a smaller S_pMSE (the propensity score
//    over all the predictors and y). The 90th percentile's CI overlap (the paper's Figure 6)
//    is printed, not asserted: here it swings with EM's refit noise (0.22 and 0.78 for two
//    EM refits 0.2% apart in a, against LW's 0.58; on the K = 20 mixture EM's was 0.72 and
//    0.78 against LW's 0.62), while S_pMSE put LW first in all four runs (0.23 against 0.38
//    and 0.59; 0.095 against 0.38 and 0.38 on the mixture);
//  - CW over-downweights (001 sec. 3.1, 000 Figure 6): its 90th percentile and ECDF are
//    worse than LW's.
#include <QTest>

#include "../common/near.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/study/runner.hpp"

using namespace ppsynth;

class TstPaper000Sec52 : public QObject {
    Q_OBJECT
  private slots:
    void lwBeatsEmAndCwAtEqualEpsilon() {
        auto config = study::loadRunConfig(PPSYNTH_EXAMPLES_DIR "/paper000_sec52_quick.json");
        QVERIFY2(config.hasValue(), config.hasValue() ? "" : config.message().c_str());
        auto table = data::readTable(config->data.path);
        QVERIFY(table.hasValue());
        auto run = study::runStudy(*config, *table);
        QVERIFY2(run.hasValue(), run.hasValue() ? "" : run.message().c_str());
        const auto& u = *run->find("Unweighted");
        const auto& lw = *run->find("LW");
        const auto& cw = *run->find("CW");
        const auto& em = *run->find("EM");
        for (const auto* s : {&u, &lw, &cw, &em}) QVERIFY2(s->utility.has_value(), s->name.c_str());
        QVERIFY(lw.epsilon.perDataset < 0.5 * u.epsilon.perDataset);
        QVERIFY(cw.epsilon.perDataset < 0.5 * u.epsilon.perDataset);
        QVERIFY_WITHIN(em.epsilon.perDataset, lw.epsilon.perDataset, 0.02 * lw.epsilon.perDataset);
        auto q90 = [](const study::SynthesizerResult& s) -> const study::StatisticUtility& {
            return s.utility->statistics[3];
        };
        QCOMPARE(q90(lw).name, std::string("quantile 0.9"));
        const double truth = q90(lw).original.estimate;
        qInfo(
            "q0.90: data %.0f; LW %.0f (overlap %.3f), EM %.0f (%.3f), CW %.0f (%.3f), "
            "Unweighted %.0f (%.3f)",
            truth, q90(lw).synthetic.estimate, q90(lw).ciOverlap, q90(em).synthetic.estimate,
            q90(em).ciOverlap, q90(cw).synthetic.estimate, q90(cw).ciOverlap,
            q90(u).synthetic.estimate, q90(u).ciOverlap);
        qInfo("U_m: LW %.4f, EM %.4f, CW %.4f, Unweighted %.4f", lw.utility->ecdf.Um,
              em.utility->ecdf.Um, cw.utility->ecdf.Um, u.utility->ecdf.Um);
        qInfo("S_pMSE: LW %.3f, EM %.3f", lw.utility->pmse.sPmse, em.utility->pmse.sPmse);
        QVERIFY(lw.utility->pmse.sPmse < em.utility->pmse.sPmse);
        QVERIFY(q90(lw).ciOverlap > q90(cw).ciOverlap);
        QVERIFY(lw.utility->ecdf.Um < cw.utility->ecdf.Um);
    }
};

QTEST_APPLESS_MAIN(TstPaper000Sec52)
#include "tst_paper000_sec52.moc"
