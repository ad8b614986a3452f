// Several sensitive variables (METHOD.md section 9) end to end: the joint fit's Lipschitz
// quantities are those of the summed record log-likelihoods; synthesis is sequential, so the
// unweighted synthesizer recovers a known conditional structure (y2 = b y1 + g x + noise)
// within Monte Carlo error; every sensitive column is replaced in the synthetic files.
#include <Eigen/Dense>
#include <QTest>
#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/privacy/box_risk.hpp"
#include "ppsynth/study/joint_model.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"

using namespace ppsynth;

namespace {

constexpr std::size_t kN = 500;
// The truth: y1 = 2 + 0.5 x + e1 (sd 0.5), y2 = 1 + 0.8 y1 - 0.3 x + e2 (sd 0.4).
constexpr double kB = 0.8, kG = -0.3;

data::Table simulated() {
    auto rng = makeRng(20261127, 0, Purpose::Test);
    boost::random::normal_distribution<double> z(0.0, 1.0);
    std::vector<double> x, y1, y2, other;
    for (std::size_t i = 0; i < kN; ++i) {
        x.push_back(z(rng));
        y1.push_back(2 + 0.5 * x.back() + 0.5 * z(rng));
        y2.push_back(1 + kB * y1.back() + kG * x.back() + 0.4 * z(rng));
        other.push_back(static_cast<double>(i));
    }
    data::Table t;
    auto add = [&t](data::Column c) { [[maybe_unused]] auto s = t.addColumn(std::move(c)); };
    add(data::Column::numeric("x", x));
    add(data::Column::numeric("y1", y1));
    add(data::Column::numeric("y2", y2));
    add(data::Column::numeric("id", other));
    return t;
}

study::RunConfig config() {
    study::RunConfig c;
    c.data.path = "simulated.csv";
    c.data.target = "y1";
    c.data.targets = {"y1", "y2"};
    c.data.predictors = {"x"};
    c.model.family = "normal";
    c.mcmc.chains = 2;
    c.mcmc.warmup = 200;
    c.mcmc.draws = 200;
    c.mcmc.threads = 2;
    c.mcmc.seed = 11;
    c.synthesis.m = 40;
    c.risk.L = 5;
    c.utility.enabled = false;
    study::SynthesizerConfig u;
    u.name = "Unweighted";
    study::SynthesizerConfig lw;
    lw.name = "LW";
    lw.scheme = study::Scheme::Lipschitz;
    lw.c = 0.7;
    c.synthesizers = {u, lw};
    return c;
}

// OLS of y on [1, columns...]: coefficients and their standard errors.
struct Ols {
    Eigen::VectorXd b, se;
};
Ols ols(const Eigen::VectorXd& y, const std::vector<Eigen::VectorXd>& columns) {
    Eigen::MatrixXd X(y.size(), static_cast<Eigen::Index>(columns.size()) + 1);
    X.col(0).setOnes();
    for (std::size_t j = 0; j < columns.size(); ++j)
        X.col(static_cast<Eigen::Index>(j) + 1) = columns[j];
    const Eigen::MatrixXd XtXi = (X.transpose() * X).inverse();
    Ols o;
    o.b = XtXi * X.transpose() * y;
    const double s2 = (y - X * o.b).squaredNorm() / static_cast<double>(y.size() - X.cols());
    o.se = (s2 * XtXi.diagonal()).cwiseSqrt();
    return o;
}

Eigen::VectorXd slice(const std::vector<double>& flat, std::size_t k) {
    return Eigen::Map<const Eigen::VectorXd>(flat.data() + k * kN, static_cast<Eigen::Index>(kN));
}

}  // namespace

class TstSeveralTargets : public QObject {
    Q_OBJECT
  private slots:
    // l_{s,i} = sum_k l^(k)_{s,i}: the joint fit's f_i, D_s and Delta are those of the sum
    // (|sum|, not the sum of |.|), recomputed here from its draws conditional by conditional.
    void jointBoundsAreThoseOfTheSummedLogLik() {
        const auto table = simulated();
        auto c = config();
        auto inputs = study::prepareRunInputs(c, table);
        QVERIFY(inputs);
        auto joint = study::makeJointModel(c, table, *inputs, nullptr);
        QVERIFY2(joint, joint ? "" : joint.message().c_str());
        QCOMPARE((*joint)->variableCount(), std::size_t{2});
        QCOMPARE((*joint)->parts()[1].model->parameterNames().front().substr(0, 4),
                 std::string("beta"));
        study::FitOptions fo;
        fo.sampler.chains = 2;
        fo.sampler.warmup = 100;
        fo.sampler.draws = 50;
        fo.sampler.threads = 2;
        Eigen::VectorXd alpha = Eigen::VectorXd::Constant(kN, 0.6);
        auto fit = study::fitAny(**joint, alpha, fo);
        QVERIFY2(fit, fit ? "" : fit.message().c_str());
        QCOMPARE(fit->draws.rows(), Eigen::Index{100});
        QCOMPARE(fit->lipschitz.drawCount(), std::size_t{100});
        QCOMPARE(fit->warmStarts.size(), std::size_t{4});  // 2 conditionals x 2 chains
        Eigen::VectorXd f = Eigen::VectorXd::Zero(kN), l1(kN), l2(kN);
        double delta = 0;
        const auto& parts = (*joint)->parts();
        for (Eigen::Index s = 0; s < fit->draws.rows(); ++s) {
            const Eigen::VectorXd q = fit->draws.row(s).transpose();
            parts[0].model->recordLogLik((*joint)->segment(q, 0), l1);
            parts[1].model->recordLogLik((*joint)->segment(q, 1), l2);
            double ds = 0;
            for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(kN); ++i) {
                const double v = 0.6 * std::abs(l1[i] + l2[i]);
                f[i] = std::max(f[i], v);
                ds = std::max(ds, v);
            }
            QCOMPARE(fit->lipschitz.drawMax()[static_cast<std::size_t>(s)], ds);
            delta = std::max(delta, ds);
        }
        QVERIFY((fit->lipschitz.recordMax() - f).cwiseAbs().maxCoeff() == 0.0);
        QCOMPARE(privacy::lipschitzBound(fit->lipschitz).delta, delta);
        // Each conditional's diagnostics, named by its variable.
        QVERIFY(std::any_of(fit->diagnostics.quantities.begin(), fit->diagnostics.quantities.end(),
                            [](const auto& q) { return q.name.rfind("y2: beta", 0) == 0; }));
    }

    // The known truth: the unweighted synthesizer's datasets give the confidential data's
    // regression of y2 on y1 and x (and of y1 on x), within Monte Carlo error: each of the m
    // estimates differs from the confidential one by a posterior draw and a new noise draw,
    // about sqrt(2) standard errors, so their mean lies within 4 sqrt(2 / m) SE (plus a
    // little for the short chains).
    void unweightedRecoversTheJointRegressions() {
        const auto table = simulated();
        const auto c = config();
        auto run = study::runStudy(c, table);
        QVERIFY2(run, run ? "" : run.message().c_str());
        const auto& u = run->synthesizers[0];
        QCOMPARE(u.synthetic.size(), std::size_t{40});
        QCOMPARE(u.synthetic.front().size(), 2 * kN);
        // One epsilon for the release of both variables.
        QVERIFY(std::isfinite(u.epsilon.perDataset) && u.epsilon.perDataset > 0);
        const auto& lw = run->synthesizers[1];
        QVERIFY(lw.deltaAlphaX < u.deltaAlphaX);

        const auto x = [&] {
            const auto& v = table.find("x")->values();
            return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(kN))
                .eval();
        }();
        const auto col = [&](const char* name) {
            const auto& v = table.find(name)->values();
            return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(kN))
                .eval();
        };
        const Ols truth2 = ols(col("y2"), {col("y1"), x});
        const Ols truth1 = ols(col("y1"), {x});
        Eigen::VectorXd mean2 = Eigen::VectorXd::Zero(3), mean1 = Eigen::VectorXd::Zero(2);
        double corr = 0;
        for (const auto& d : u.synthetic) {
            const Eigen::VectorXd s1 = slice(d, 0), s2 = slice(d, 1);
            mean2 += ols(s2, {s1, x}).b / 40.0;
            mean1 += ols(s1, {x}).b / 40.0;
            const Eigen::ArrayXd a = s1.array() - s1.mean(), b = s2.array() - s2.mean();
            corr += (a * b).sum() / std::sqrt((a * a).sum() * (b * b).sum()) / 40.0;
        }
        const double k = 4 * std::sqrt(2.0 / 40.0) + 0.5;
        for (Eigen::Index j = 0; j < 3; ++j)
            QVERIFY2(std::abs(mean2[j] - truth2.b[j]) < k * truth2.se[j],
                     qPrintable(QString("y2 coefficient %1: synthetic %2, confidential %3 (se %4)")
                                    .arg(j)
                                    .arg(mean2[j])
                                    .arg(truth2.b[j])
                                    .arg(truth2.se[j])));
        for (Eigen::Index j = 0; j < 2; ++j)
            QVERIFY2(std::abs(mean1[j] - truth1.b[j]) < k * truth1.se[j],
                     qPrintable(QString("y1 coefficient %1: synthetic %2, confidential %3")
                                    .arg(j)
                                    .arg(mean1[j])
                                    .arg(truth1.b[j])));
        // And the truth itself is where it should be (the simulation is what it says).
        QVERIFY(std::abs(truth2.b[1] - kB) < 4 * truth2.se[1]);
        QVERIFY(std::abs(truth2.b[2] - kG) < 4 * truth2.se[2]);
        const Eigen::ArrayXd a = col("y1").array() - col("y1").mean(),
                             b = col("y2").array() - col("y2").mean();
        const double r = (a * b).sum() / std::sqrt((a * a).sum() * (b * b).sum());
        QVERIFY2(std::abs(corr - r) < 0.03,
                 qPrintable(QString("correlation %1 vs %2").arg(corr).arg(r)));

        // Both sensitive columns replaced in the synthetic files; the predictor as it is.
        auto t = study::syntheticTable(*run, table, u.synthetic.front());
        QVERIFY2(t, t ? "" : t.message().c_str());
        QCOMPARE(t->find("y1")->values()[3], u.synthetic.front()[3]);
        QCOMPARE(t->find("y2")->values()[3], u.synthetic.front()[kN + 3]);
        QCOMPARE(t->find("x")->values()[3], table.find("x")->values()[3]);
        QVERIFY(t->find("id") == nullptr);
    }

    // A study prepared once (sweeps) runs other synthesizers on the shared joint fit: refits
    // start from each conditional's own chains, and the datasets keep both variables.
    void preparedStudyRunsOtherSynthesizers() {
        const auto table = simulated();
        auto c = config();
        c.synthesis.m = 5;
        c.mcmc.warmup = 100;
        c.mcmc.draws = 100;
        c.synthesizers.resize(1);
        auto prepared = study::prepareStudy(c, table);
        QVERIFY2(prepared, prepared ? "" : prepared.message().c_str());
        auto other = c;
        study::SynthesizerConfig cw;
        cw.name = "CW";
        cw.scheme = study::Scheme::Pairwise;
        cw.source = "synthetic";
        other.synthesizers = {cw};
        auto run = study::runPrepared(*prepared, other);
        QVERIFY2(run, run ? "" : run.message().c_str());
        const auto& r = run->synthesizers.front();
        QCOMPARE(r.synthetic.size(), std::size_t{5});
        QCOMPARE(r.synthetic.front().size(), 2 * kN);
        QCOMPARE(r.records.pairwiseWeight.size(), kN);
        QVERIFY(std::isfinite(r.epsilon.perDataset));
        QCOMPARE(r.parameters.front().name.substr(0, 4), std::string("y1: "));

        // risk.radii: the box's radius per variable; the run's risk is boxMarginalRisk with
        // those radii (y2 wider here), and differs from the run's radius for every variable.
        auto wide = c;
        wide.risk.radii["y2"] = 0.6;
        auto widened = study::runPrepared(*prepared, wide);
        QVERIFY2(widened, widened ? "" : widened.message().c_str());
        const auto& u = widened->synthesizers.front();
        std::vector<double> y;
        for (const char* name : {"y1", "y2"})
            for (double v : table.find(name)->values()) y.push_back(v);
        std::vector<std::int32_t> pattern(kN, 0);
        auto expected = privacy::boxMarginalRisk(y, 2, u.synthetic, pattern, {},
                                                 {privacy::Radius{0.2, true}, {0.6, true}});
        QVERIFY(expected);
        QCOMPARE(u.records.ir, *expected);
        auto narrow = study::runPrepared(*prepared, c);
        QVERIFY(narrow);
        QVERIFY(narrow->synthesizers.front().records.ir != u.records.ir);
    }
};

QTEST_APPLESS_MAIN(TstSeveralTargets)
#include "tst_several_targets.moc"
