// NUTS on the synthesizer models against exact answers, with record weights: the normal
// regression with a conjugate prior against its closed-form Gaussian posterior, the
// Poisson-Gamma posterior sampled by NUTS on the Poisson-means model (which a run would draw
// exactly), and the runner's warm start of weighted refits (short step-size-only warm-up
// from the unweighted chains) sampling the same target as a cold full warm-up.
// The density-level weighting identities (alpha_i = 0 drops record i, a duplicate at 0.5
// each equals the record at 1) are exact and live in tst_models.
#include <QTest>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <cstdio>

#include "ppsynth/mcmc/diagnostics.hpp"
#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/normal_regression.hpp"
#include "ppsynth/models/poisson_means.hpp"
#include "ppsynth/study/fit.hpp"

using namespace ppsynth;
using namespace ppsynth::models;

namespace {

Eigen::VectorXd randomWeights(Eigen::Index n, std::uint64_t seed) {
    Rng rng = makeRng(seed, 2, Purpose::Test);
    boost::random::uniform_01<double> u;
    Eigen::VectorXd a(n);
    for (Eigen::Index i = 0; i < n; ++i) a(i) = 0.2 + 0.8 * u(rng);
    return a;
}

// Per column of the constrained draws: mean, sd and bulk ESS over all chains.
struct Moments {
    Eigen::VectorXd mean, sd, ess;
};

Moments moments(const Model& m, const std::vector<Eigen::MatrixXd>& chainDraws) {
    const auto P = static_cast<Eigen::Index>(m.parameterNames().size());
    Moments out{Eigen::VectorXd(P), Eigen::VectorXd(P), Eigen::VectorXd(P)};
    std::vector<Eigen::MatrixXd> constrained;
    for (const auto& d : chainDraws) {
        Eigen::MatrixXd c(d.rows(), P);
        for (Eigen::Index s = 0; s < d.rows(); ++s)
            c.row(s) = m.constrain(d.row(s).transpose()).head(P).transpose();
        constrained.push_back(c);
    }
    const auto names = m.parameterNames();
    for (Eigen::Index j = 0; j < P; ++j) {
        mcmc::ChainDraws cd;
        // Scales (tau, sigma, phi) on the log scale: tau's half-t tail has no fourth moment,
        // so the SE of its sd from the Normal formula sd / sqrt(2 ESS) would be meaningless.
        const auto& name = names[static_cast<std::size_t>(j)];
        const bool scale = name.starts_with("tau[") || name == "sigma" || name == "phi";
        for (const auto& c : constrained)
            cd.push_back(scale ? Eigen::VectorXd(c.col(j).array().log())
                               : Eigen::VectorXd(c.col(j)));
        const auto s = mcmc::summarize(cd);
        out.mean(j) = s.mean;
        out.sd(j) = s.sd;
        out.ess(j) = s.essBulk;
    }
    return out;
}

std::vector<Eigen::MatrixXd> chainsOf(const mcmc::SamplerResult& r) {
    std::vector<Eigen::MatrixXd> out;
    for (const auto& c : r.chains) out.push_back(c.draws);
    return out;
}

std::vector<Eigen::MatrixXd> chainsOf(const study::Fit& f, int chains) {
    std::vector<Eigen::MatrixXd> out;
    const Eigen::Index S = f.draws.rows() / chains;
    for (int c = 0; c < chains; ++c) out.push_back(f.draws.middleRows(c * S, S));
    return out;
}

}  // namespace

class TstNutsModels : public QObject {
    Q_OBJECT
  private slots:
    // sigma and tau fixed: the weighted posterior of beta is the Gaussian of
    // normalConjugatePosterior (checked against QR in tst_models). NUTS means within 4.5
    // Monte Carlo SEs (sd / sqrt(ESS)) and sds within 4.5 SEs of the sd (sd / sqrt(2 ESS)),
    // with 4 parameters x 2 moments = 8 comparisons.
    void normalRegressionConjugate() {
        const int n = 80, p = 4;
        Rng rng = makeRng(61, 0, Purpose::Test);
        boost::random::normal_distribution<double> z(0.0, 1.0);
        Eigen::MatrixXd X(n, p);
        Eigen::VectorXd y(n);
        for (int i = 0; i < n; ++i) {
            X(i, 0) = 1.0;
            for (int j = 1; j < p; ++j) X(i, j) = z(rng);
            y(i) = 1.0 + 0.5 * X(i, 1) - 0.7 * X(i, 2) + 1.3 * z(rng);
        }
        const Eigen::VectorXd a = randomWeights(n, 62);
        const double sigma = 1.3, tau = 2.0;
        Priors pr;
        pr.fixedSigma = sigma;
        pr.fixedTau = tau;
        const NormalRegression m(X, y, {}, pr);
        const GaussianPosterior exact = normalConjugatePosterior(X, y, a, sigma, tau);
        mcmc::SamplerOptions o;
        o.seed = 63;
        o.threads = 2;
        o.warmup = 500;
        auto r = mcmc::sampleNuts(WeightedPosterior(m, a), o);
        QVERIFY(r.hasValue());
        const Moments mm = moments(m, chainsOf(*r));
        for (Eigen::Index j = 0; j < p; ++j) {
            const double sdExact = std::sqrt(exact.covariance(j, j));
            const double seMean = sdExact / std::sqrt(mm.ess(j));
            const double seSd = sdExact / std::sqrt(2 * mm.ess(j));
            QVERIFY2(std::abs(mm.mean(j) - exact.mean(j)) < 4.5 * seMean,
                     qPrintable(QString("beta %1: mean %2 vs %3 (se %4)")
                                    .arg(j)
                                    .arg(mm.mean(j))
                                    .arg(exact.mean(j))
                                    .arg(seMean)));
            QVERIFY2(std::abs(mm.sd(j) - sdExact) < 4.5 * seSd,
                     qPrintable(QString("beta %1: sd %2 vs %3").arg(j).arg(mm.sd(j)).arg(sdExact)));
        }
    }

    // NUTS on log mu of the Poisson-means model against the Gamma(shape, rate) pseudo
    // posterior: mean shape/rate and variance shape/rate^2.
    void poissonGammaByNuts() {
        const int n = 60;
        Rng rng = makeRng(64, 0, Purpose::Test);
        boost::random::poisson_distribution<int, double> pois(4.0);
        Eigen::VectorXd y(n);
        for (int i = 0; i < n; ++i) y(i) = pois(rng);
        const Eigen::VectorXd a = randomWeights(n, 65);
        const PoissonMeans m(y);
        const GammaPosterior g = m.conjugatePosterior(a);
        mcmc::SamplerOptions o;
        o.seed = 66;
        o.threads = 2;
        o.warmup = 500;
        o.draws = 2000;
        auto r = mcmc::sampleNuts(WeightedPosterior(m, a), o);
        QVERIFY(r.hasValue());
        const Moments mm = moments(m, chainsOf(*r));
        const double mean = g.shape / g.rate, sd = std::sqrt(g.shape) / g.rate;
        QVERIFY2(std::abs(mm.mean(0) - mean) < 4.5 * sd / std::sqrt(mm.ess(0)),
                 qPrintable(QString("mean %1 vs %2").arg(mm.mean(0)).arg(mean)));
        QVERIFY2(std::abs(mm.sd(0) - sd) < 4.5 * sd / std::sqrt(2 * mm.ess(0)),
                 qPrintable(QString("sd %1 vs %2").arg(mm.sd(0)).arg(sd)));
    }

    // The runner's refit (study/runner.cpp): a weighted refit starting from the unweighted
    // chains' final state, step size and metric, with 150 warm-up iterations adapting the
    // step size only, against a cold refit with the full 1000-iteration warm-up. Negative
    // binomial regression on dummy-coded data with strongly varying weights, so the refit's
    // target is clearly not the unweighted one. Every reported parameter: means within 5
    // combined Monte Carlo SEs, sds within 5 combined SEs of the sd.
    void warmStartedRefitSamplesSameTarget() {
        const int n = 400, levels = 6;
        Rng rng = makeRng(67, 0, Purpose::Test);
        boost::random::uniform_int_distribution<int> level(0, levels - 1);
        boost::random::normal_distribution<double> z(0.0, 0.5);
        Eigen::MatrixXd X = Eigen::MatrixXd::Zero(n, levels);
        Eigen::VectorXd y(n);
        for (int i = 0; i < n; ++i) {
            X(i, 0) = 1.0;
            const int l = level(rng);
            if (l > 0) X(i, l) = 1.0;
            const double mu = std::exp(1.5 + 0.3 * l + z(rng));
            boost::random::poisson_distribution<int, double> pois(mu);
            y(i) = pois(rng);
        }
        ModelSpec spec;
        spec.family = "negbin";
        auto built = makeModel(spec, X, y);
        QVERIFY(built.hasValue());
        const Model& m = **built;
        study::FitOptions cold;
        cold.sampler.seed = 68;
        cold.sampler.threads = 2;
        auto unweighted = study::fitModel(m, Eigen::VectorXd::Ones(n), cold);
        QVERIFY(unweighted.hasValue());

        // Weights in [0.1, 1], lowest for the largest counts (as LW would give).
        Eigen::VectorXd a(n);
        const double ymax = y.maxCoeff();
        for (int i = 0; i < n; ++i) a(i) = 1.0 - 0.9 * y(i) / ymax;

        cold.sampler.seed = 69;
        auto reference = study::fitModel(m, a, cold);
        QVERIFY(reference.hasValue());
        study::FitOptions warm = cold;
        warm.sampler.seed = 70;
        warm.sampler.warmup = 150;
        warm.sampler.adaptMetric = false;
        warm.sampler.starts = unweighted->warmStarts;
        auto refit = study::fitModel(m, a, warm);
        QVERIFY(refit.hasValue());

        std::printf(
            "weighted refit: cold 1000 warm-up %lld gradients, %.0f min ESS, %d divergences; "
            "warm start 150 step-size-only %lld gradients, %.0f min ESS, %d divergences\n",
            static_cast<long long>(reference->gradientEvaluations),
            reference->diagnostics.minEssBulk, reference->diagnostics.divergences,
            static_cast<long long>(refit->gradientEvaluations), refit->diagnostics.minEssBulk,
            refit->diagnostics.divergences);
        QVERIFY(refit->diagnostics.maxRhat < 1.02);
        QVERIFY(refit->gradientEvaluations < reference->gradientEvaluations);
        const Moments mr = moments(m, chainsOf(*reference, 4));
        const Moments mw = moments(m, chainsOf(*refit, 4));
        const Moments mu = moments(m, chainsOf(*unweighted, 4));
        const auto names = m.parameterNames();
        bool targetMoved = false;
        for (Eigen::Index j = 0; j < mr.mean.size(); ++j) {
            const double se =
                std::sqrt(mr.sd(j) * mr.sd(j) / mr.ess(j) + mw.sd(j) * mw.sd(j) / mw.ess(j));
            const double seSd = std::sqrt(mr.sd(j) * mr.sd(j) / (2 * mr.ess(j)) +
                                          mw.sd(j) * mw.sd(j) / (2 * mw.ess(j)));
            const QString what = QString::fromStdString(names[static_cast<std::size_t>(j)]);
            QVERIFY2(
                std::abs(mr.mean(j) - mw.mean(j)) < 5 * se,
                qPrintable(
                    what +
                    QString(": mean %1 vs %2 (se %3)").arg(mr.mean(j)).arg(mw.mean(j)).arg(se)));
            QVERIFY2(std::abs(mr.sd(j) - mw.sd(j)) < 5 * seSd,
                     qPrintable(what + QString(": sd %1 vs %2").arg(mr.sd(j)).arg(mw.sd(j))));
            if (std::abs(mu.mean(j) - mr.mean(j)) > 10 * se) targetMoved = true;
        }
        // The check has power: the weighted target differs from the unweighted one the
        // refit started from, so a refit that stayed there would fail above.
        QVERIFY(targetMoved);
    }
};

QTEST_APPLESS_MAIN(TstNutsModels)
#include "tst_nuts_models.moc"
