// NUTS on analytic targets: moments recovered within Monte Carlo error (tolerances from the
// ESS), divergences on a funnel, thread-count invariance, cancellation latency, warm start.
#include <QTest>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>

#include "../common/near.hpp"
#include "mcmc/adaptation.hpp"  // white-box: the warm-up schedule
#include "mcmc_targets.hpp"
#include "ppsynth/mcmc/diagnostics.hpp"
#include "ppsynth/mcmc/nuts.hpp"

using namespace ppsynth;
using namespace ppsynth::mcmc;
using ppsynth::testing::Funnel;
using ppsynth::testing::Gaussian;
using ppsynth::testing::GibbsBivariate;
using ppsynth::testing::HeldBivariate;
using ppsynth::testing::PooledPair;
using ppsynth::testing::SlowNormal;
using ppsynth::testing::StdNormal;
using ppsynth::testing::TwoModes;

namespace {

Eigen::MatrixXd pooled(const SamplerResult& r) {
    Eigen::Index rows = 0;
    for (const auto& c : r.chains) rows += c.draws.rows();
    Eigen::MatrixXd all(rows, r.chains.front().draws.cols());
    Eigen::Index at = 0;
    for (const auto& c : r.chains) {
        all.middleRows(at, c.draws.rows()) = c.draws;
        at += c.draws.rows();
    }
    return all;
}

ChainDraws transformed(const SamplerResult& r,
                       const std::function<double(const Eigen::RowVectorXd&)>& f) {
    ChainDraws out;
    for (const auto& c : r.chains) {
        Eigen::VectorXd v(c.draws.rows());
        for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = f(c.draws.row(i));
        out.push_back(v);
    }
    return out;
}

double meanLeapfrogs(const SamplerResult& r) {
    double sum = 0;
    double n = 0;
    for (const auto& c : r.chains)
        for (const auto& s : c.stats) {
            sum += s.nLeapfrog;
            n += 1;
        }
    return sum / n;
}

}  // namespace

class TstNuts : public QObject {
    Q_OBJECT
  private slots:
    void standardNormal100() {
        constexpr double kMaxZ = 4.42;
        StdNormal target(100);
        SamplerOptions o;
        o.seed = 20240611;
        o.threads = 2;
        auto r = sampleNuts(target, o);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        const RunDiagnostics diag = diagnose(*r);
        QCOMPARE(diag.divergences, 0);
        QVERIFY2(diag.maxRhat < 1.01, qPrintable(QString::number(diag.maxRhat)));
        const Eigen::MatrixXd all = pooled(*r);
        double worstMean = 0;
        double worstVar = 0;
        for (Eigen::Index j = 0; j < all.cols(); ++j) {
            const double ess = diag.quantities[static_cast<std::size_t>(j)].summary.essBulk;
            const double mean = all.col(j).mean();
            // sd is 1: the mean's Monte Carlo sd is 1/sqrt(ESS). 100 dimensions, two z
            // each: |z| < 4.42 keeps the family-wise false alarm rate at 0.2% (|z| < 4
            // alone was 1.3%; seeds 1-6 give a largest |z| of 2.4-3.6).
            const double zMean = std::abs(mean) * std::sqrt(ess);
            QVERIFY2(zMean < kMaxZ,
                     qPrintable(QString("dim %1 mean %2 ess %3").arg(j).arg(mean).arg(ess)));
            // Var(x^2) = 2 for a standard normal; ESS of x^2 from its own draws.
            const double essSq = summarize(transformed(*r, [j](const Eigen::RowVectorXd& q) {
                                     return q[j] * q[j];
                                 })).essBulk;
            const double var = (all.col(j).array() - mean).square().mean();
            const double zVar = std::abs(var - 1) / std::sqrt(2 / essSq);
            QVERIFY2(zVar < kMaxZ,
                     qPrintable(QString("dim %1 var %2 ess %3").arg(j).arg(var).arg(essSq)));
            worstMean = std::max(worstMean, zMean);
            worstVar = std::max(worstVar, zVar);
        }
        std::printf(
            "100-d normal: step %.3f, min bulk ESS %.0f, max |z| mean %.2f var %.2f, "
            "mean leapfrogs %.1f\n",
            r->chains[0].stepSize, diag.minEssBulk, worstMean, worstVar, meanLeapfrogs(*r));
        // Draws per second are plentiful: bulk ESS near or above the draw count.
        QVERIFY(diag.minEssBulk > 1500);
    }

    void correlatedGaussian_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("rho");
        QTest::addColumn<double>("scaleRange");  // log10 span of the scales
        QTest::newRow("2-d rho .9 scales 1e-2..1e2") << 2 << 0.9 << 4.0;
        QTest::newRow("5-d rho .5 scales 1e-2..1e2") << 5 << 0.5 << 4.0;
        QTest::newRow("10-d rho .7 scales 1e-1..1e1") << 10 << 0.7 << 2.0;
    }
    void correlatedGaussian() {
        QFETCH(int, dim);
        QFETCH(double, rho);
        QFETCH(double, scaleRange);
        Eigen::VectorXd mu(dim), scales(dim);
        for (int i = 0; i < dim; ++i) {
            scales[i] = std::pow(10.0, -scaleRange / 2 + scaleRange * i / (dim - 1));
            mu[i] = (i % 2 == 0 ? 1.0 : -2.0) * scales[i];
        }
        Gaussian target(mu, scales, rho);
        SamplerOptions o;
        o.seed = 7 + static_cast<std::uint64_t>(dim);
        o.threads = 2;
        auto r = sampleNuts(target, o);
        QVERIFY2(r.hasValue(), r.hasValue() ? "" : r.message().c_str());
        const RunDiagnostics diag = diagnose(*r);
        QCOMPARE(diag.divergences, 0);
        QVERIFY(diag.maxRhat < 1.01);
        const Eigen::MatrixXd all = pooled(*r);
        const Eigen::RowVectorXd m = all.colwise().mean();
        const Eigen::MatrixXd centred = all.rowwise() - m;
        const Eigen::MatrixXd cov = centred.transpose() * centred / static_cast<double>(all.rows());
        for (int i = 0; i < dim; ++i) {
            const double ess = diag.quantities[static_cast<std::size_t>(i)].summary.essBulk;
            const double sd = scales[i];
            QVERIFY2(std::abs(m[i] - mu[i]) < 4 * sd / std::sqrt(ess),
                     qPrintable(QString("mean %1: %2 vs %3").arg(i).arg(m[i]).arg(mu[i])));
            QVERIFY2(std::abs(cov(i, i) / (sd * sd) - 1) < 4 * std::sqrt(2 / ess),
                     qPrintable(QString("var %1: %2 vs %3").arg(i).arg(cov(i, i)).arg(sd * sd)));
            for (int j = 0; j < i; ++j) {
                // The sample correlation's sd is about (1 - rho^2) / sqrt(ESS).
                const double corr = cov(i, j) / std::sqrt(cov(i, i) * cov(j, j));
                const double essJ = diag.quantities[static_cast<std::size_t>(j)].summary.essBulk;
                QVERIFY2(
                    std::abs(corr - rho) < 5 * (1 - rho * rho) / std::sqrt(std::min(ess, essJ)),
                    qPrintable(QString("corr %1,%2: %3").arg(i).arg(j).arg(corr)));
            }
        }
        // The adapted metric approximates the variances (within a factor 2 after warm-up).
        for (int i = 0; i < dim; ++i) {
            const double ratio = r->chains[0].invMetric[i] / (scales[i] * scales[i]);
            QVERIFY2(ratio > 0.5 && ratio < 2, qPrintable(QString::number(ratio)));
        }
        std::printf("%d-d Gaussian: min bulk ESS %.0f, step %.3f, mean leapfrogs %.1f\n", dim,
                    diag.minEssBulk, r->chains[0].stepSize, meanLeapfrogs(*r));
    }

    void funnelDiverges() {
        // The 3-d centred funnel: v's neck is too thin for the adapted step size.
        Funnel target(3);
        SamplerOptions o;
        o.seed = 3;
        o.warmup = 500;
        o.draws = 500;
        o.threads = 2;
        auto r = sampleNuts(target, o);
        QVERIFY(r.hasValue());
        const RunDiagnostics diag = diagnose(*r);
        std::printf("funnel: %d divergences of %d draws\n", diag.divergences, diag.draws);
        QVERIFY(diag.divergences > 10);
        bool warned = false;
        for (const auto& w : diag.warnings)
            warned = warned || w.find("divergence") != std::string::npos;
        QVERIFY(warned);
        // A standard normal of the same size has none: the detector is not trigger-happy.
        StdNormal easy(3);
        auto e = sampleNuts(easy, o);
        QVERIFY(e.hasValue());
        QCOMPARE(diagnose(*e).divergences, 0);
    }

    void identicalForAnyThreadCount() {
        Eigen::VectorXd mu = Eigen::VectorXd::LinSpaced(6, -1, 1);
        Eigen::VectorXd scales = Eigen::VectorXd::LinSpaced(6, 0.1, 10);
        Gaussian target(mu, scales, 0.6);
        SamplerOptions o;
        o.seed = 99;
        o.warmup = 300;
        o.draws = 200;
        o.threads = 1;
        auto one = sampleNuts(target, o);
        o.threads = 4;
        auto four = sampleNuts(target, o);
        o.threads = 3;  // uneven chains per thread
        auto three = sampleNuts(target, o);
        QVERIFY(one.hasValue() && four.hasValue() && three.hasValue());
        for (std::size_t c = 0; c < 4; ++c) {
            QVERIFY(one->chains[c].draws == four->chains[c].draws);
            QVERIFY(one->chains[c].draws == three->chains[c].draws);
            QCOMPARE(one->chains[c].stepSize, four->chains[c].stepSize);
            QVERIFY(one->chains[c].invMetric == four->chains[c].invMetric);
            for (std::size_t i = 0; i < one->chains[c].stats.size(); ++i)
                QCOMPARE(one->chains[c].stats[i].energy, four->chains[c].stats[i].energy);
        }
        QCOMPARE(one->gradientEvaluations, four->gradientEvaluations);
        // Different chains differ, and a different seed differs.
        QVERIFY(one->chains[0].draws != one->chains[1].draws);
        o.seed = 100;
        auto other = sampleNuts(target, o);
        QVERIFY(other.hasValue());
        QVERIFY(other->chains[0].draws != one->chains[0].draws);
    }

    // A target's exactMove runs after every transition: with flips each chain spends half
    // its draws in each mode (flips are iid, so 1000 draws give a standard error of 0.016
    // on a chain's share; the bound 0.1 is 6 of them); without, every chain stays in the
    // mode it started in. Same draws for any thread count with the move in place.
    void exactMoveMixesModes() {
        SamplerOptions o;
        o.seed = 5;
        o.warmup = 200;
        o.draws = 1000;
        auto share = [](const ChainResult& c) {
            return (c.draws.col(0).array() > 0).cast<double>().mean();
        };
        auto stuck = sampleNuts(TwoModes(8.0, false), o);
        QVERIFY(stuck.hasValue());
        for (const auto& c : stuck->chains) QVERIFY(share(c) == 0.0 || share(c) == 1.0);
        const TwoModes target(8.0, true);
        o.threads = 1;
        auto one = sampleNuts(target, o);
        o.threads = 2;
        auto two = sampleNuts(target, o);
        QVERIFY(one.hasValue() && two.hasValue());
        for (std::size_t c = 0; c < one->chains.size(); ++c) {
            QVERIFY(one->chains[c].draws == two->chains[c].draws);
            const double s = share(one->chains[c]);
            QVERIFY2(std::abs(s - 0.5) < 0.1,
                     qPrintable(QString("chain %1 share %2").arg(c).arg(s)));
        }
        const Eigen::MatrixXd all = pooled(*one);
        QVERIFY_NEAR(all.col(0).cwiseAbs().mean(), 8.0, 0.1);
    }

    // The windowed adaptation hands each window's variances to the target's poolMetric
    // before regularizing them: both coordinates end with the same metric (about the
    // geometric mean of 0.01 and 100, i.e. 1), where they would otherwise differ 1e4-fold.
    void adaptationAppliesTargetPooling() {
        SamplerOptions o;
        o.chains = 2;
        o.warmup = 300;
        o.draws = 200;
        auto r = sampleNuts(PooledPair(), o);
        QVERIFY(r.hasValue());
        for (const auto& c : r->chains) {
            QCOMPARE(c.invMetric(0), c.invMetric(1));
            QVERIFY2(c.invMetric(0) > 0.3 && c.invMetric(0) < 3.0,
                     qPrintable(QString::number(c.invMetric(0))));
        }
    }

    // A coordinate the target holds is never moved by NUTS (it stays at its start without
    // the target's own move); with an exact Gibbs move for it, NUTS on the other coordinate
    // given it and the move together recover the joint (means 0, variances 1, cov 0.8).
    void heldCoordinatesStayUnderNuts() {
        SamplerOptions o;
        o.chains = 2;
        o.warmup = 300;
        o.draws = 2000;
        auto held = sampleNuts(HeldBivariate(false), o);
        QVERIFY(held.hasValue());
        for (const auto& c : held->chains) {
            QVERIFY(c.draws.col(1).maxCoeff() == c.draws.col(1).minCoeff());
            QVERIFY(c.draws.col(0).maxCoeff() > c.draws.col(0).minCoeff());
        }
        auto r = sampleNuts(HeldBivariate(true), o);
        QVERIFY(r.hasValue());
        const Eigen::MatrixXd all = pooled(*r);
        const Eigen::RowVectorXd mean = all.colwise().mean();
        const Eigen::MatrixXd centred = all.rowwise() - mean;
        const Eigen::MatrixXd cov = centred.transpose() * centred / (all.rows() - 1.0);
        // 4000 draws, autocorrelated Gibbs (rho 0.8): MC sd ~0.05 on means, ~0.07 on (co)variances.
        QVERIFY2(mean.cwiseAbs().maxCoeff() < 0.2 && std::abs(cov(0, 0) - 1) < 0.25 &&
                     std::abs(cov(1, 1) - 1) < 0.25 && std::abs(cov(0, 1) - 0.8) < 0.2,
                 qPrintable(QString("means %1 %2, cov %3 %4 %5")
                                .arg(mean(0))
                                .arg(mean(1))
                                .arg(cov(0, 0))
                                .arg(cov(1, 1))
                                .arg(cov(0, 1))));
    }

    // Kernel::Gibbs: the target's sweep is the whole transition (no trees) and thin keeps
    // every thin-th state: q0's lag-1 autocorrelation is rho^(2 thin). A target without a
    // sweep is an error.
    void gibbsKernelRunsTheSweepAlone() {
        const double rho = 0.9;
        for (const int thin : {1, 5}) {
            SamplerOptions o;
            o.kernel = Kernel::Gibbs;
            o.chains = 2;
            o.warmup = 50;
            o.draws = 20000;
            o.thin = thin;
            auto r = sampleNuts(GibbsBivariate(rho), o);
            QVERIFY(r.hasValue());
            for (const auto& c : r->chains) {
                QCOMPARE(c.gradientEvaluations, std::int64_t{1 + 50 + 20000 * thin});
                for (const auto& s : c.stats) QVERIFY(s.treeDepth == 0 && s.nLeapfrog == 0);
            }
            const Eigen::MatrixXd all = pooled(*r);
            const Eigen::RowVectorXd mean = all.colwise().mean();
            const Eigen::MatrixXd centred = all.rowwise() - mean;
            const Eigen::MatrixXd cov = centred.transpose() * centred / (all.rows() - 1.0);
            const Eigen::VectorXd x = r->chains[0].draws.col(0).array() - mean(0);
            const double lag1 = x.head(x.size() - 1).dot(x.tail(x.size() - 1)) / x.squaredNorm();
            const double want = std::pow(rho, 2 * thin);
            std::printf("thin %d: means %.3f %.3f, cov %.3f %.3f %.3f, lag-1 %.3f (want %.3f)\n",
                        thin, mean(0), mean(1), cov(0, 0), cov(1, 1), cov(0, 1), lag1, want);
            QVERIFY(mean.cwiseAbs().maxCoeff() < 0.1);
            QVERIFY_NEAR(cov(0, 0), 1, 0.1);
            QVERIFY_NEAR(cov(0, 1), rho, 0.1);
            QVERIFY_NEAR(lag1, want, 0.03);
        }
        SamplerOptions o;
        o.kernel = Kernel::Gibbs;
        auto none = sampleNuts(StdNormal(2), o);
        QVERIFY(!none.hasValue());
        QVERIFY(none.message().find("no Gibbs sampler") != std::string::npos);
    }

    // The Gibbs kernel anneals over the first half of the warm-up (anneal = (t + 1) / (W / 2),
    // capped at 1) and passes 1 for the rest of it and every sampling sweep.
    void gibbsWarmupAnneals() {
        struct Recording : GibbsBivariate {
            Recording() : GibbsBivariate(0.5) {}
            mutable std::vector<double> seen;  // one chain: no concurrent calls
            bool gibbsSweep(Eigen::VectorXd& q, Rng& rng, const StopCheck& stop,
                            double anneal) const override {
                seen.push_back(anneal);
                return GibbsBivariate::gibbsSweep(q, rng, stop, anneal);
            }
        } target;
        SamplerOptions o;
        o.kernel = Kernel::Gibbs;
        o.chains = 1;
        o.warmup = 40;
        o.draws = 10;
        o.thin = 2;
        QVERIFY(sampleNuts(target, o).hasValue());
        QCOMPARE(target.seen.size(), std::size_t{40 + 20});
        for (std::size_t t = 0; t < target.seen.size(); ++t)
            QCOMPARE(target.seen[t], std::min(1.0, (static_cast<double>(t) + 1.0) / 20.0));
    }

    // A cancel is noticed between Gibbs sweeps, not only between kept draws: with 2 ms
    // sweeps and thin 200 a draw takes 400 ms, but the chain stops within a sweep or two
    // (counted, not timed; the latency is printed for the record).
    void gibbsKernelCancelsBetweenSweeps() {
        struct SlowGibbs : GibbsBivariate {
            explicit SlowGibbs(const std::atomic<bool>& c) : GibbsBivariate(0.5), cancel(c) {}
            bool gibbsSweep(Eigen::VectorXd& q, Rng& rng, const StopCheck& stop,
                            double anneal) const override {
                if (cancel.load()) ++afterCancel;
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                return GibbsBivariate::gibbsSweep(q, rng, stop, anneal);
            }
            const std::atomic<bool>& cancel;
            mutable std::atomic<int> afterCancel{0};
        };
        std::atomic<bool> cancel{false};
        SamplerOptions o;
        o.kernel = Kernel::Gibbs;
        o.chains = 1;
        o.warmup = 0;
        o.draws = 100;
        o.thin = 200;
        o.cancel = &cancel;
        std::chrono::steady_clock::time_point cancelledAt;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
            cancelledAt = std::chrono::steady_clock::now();
            cancel.store(true);
        });
        SlowGibbs target(cancel);
        auto r = sampleNuts(target, o);
        const auto returned = std::chrono::steady_clock::now();
        canceller.join();
        QVERIFY(!r.hasValue());
        QCOMPARE(r.message(), std::string("sampling cancelled"));
        const double latency = std::chrono::duration<double>(returned - cancelledAt).count();
        std::printf(
            "Gibbs cancel flag -> return: %.1f ms, %d sweeps begun after it (sweep 2 ms, "
            "draw 400 ms)\n",
            1e3 * latency, target.afterCancel.load());
        // A check between draws only would run up to 199 more sweeps.
        QVERIFY2(target.afterCancel.load() <= 2, qPrintable(QString::number(target.afterCancel)));
    }

    void cancelFlagStopsPromptly() {
        // 2 ms per gradient: an iteration costs several gradients (up to 1023 at depth 10),
        // so only a check between leapfrog steps keeps the latency near one gradient. The
        // cancel time is off the 2 ms grid, so the latency includes part of an evaluation.
        std::atomic<bool> cancel{false};
        struct CountingSlowNormal : SlowNormal {
            explicit CountingSlowNormal(const std::atomic<bool>& c)
                : SlowNormal(50, std::chrono::microseconds(2000)), cancel(c) {}
            double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
                if (cancel.load()) ++afterCancel;
                return SlowNormal::evaluate(q, grad);
            }
            const std::atomic<bool>& cancel;
            mutable std::atomic<int> afterCancel{0};
        } target(cancel);
        SamplerOptions o;
        o.chains = 4;
        o.threads = 2;
        o.warmup = 1000;
        o.draws = 1000;
        o.cancel = &cancel;
        std::chrono::steady_clock::time_point cancelledAt;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::microseconds(401300));
            cancelledAt = std::chrono::steady_clock::now();
            cancel.store(true);
        });
        auto r = sampleNuts(target, o);
        const auto returned = std::chrono::steady_clock::now();
        canceller.join();
        QVERIFY(!r.hasValue());
        QCOMPARE(r.message(), std::string("sampling cancelled"));
        const double latency = std::chrono::duration<double>(returned - cancelledAt).count();
        std::printf(
            "cancel flag -> return: %.1f ms, %d gradients begun after it (gradient cost "
            "2 ms)\n",
            1e3 * latency, target.afterCancel.load());
        // Counted, not timed: at most one gradient per running chain (2 threads) after the flag;
        // a check between iterations only would allow up to 1023 per chain.
        QVERIFY2(target.afterCancel.load() <= 4, qPrintable(QString::number(target.afterCancel)));
    }

    void progressStopCancels() {
        StdNormal target(5);
        std::atomic<int> calls{0};
        std::mutex m;
        std::vector<Progress> seen;
        SamplerOptions o;
        o.threads = 2;
        o.progress = [&](const Progress& p) {
            {
                std::lock_guard<std::mutex> lock(m);
                if (seen.size() < 8) seen.push_back(p);
            }
            return ++calls >= 50 ? Continue::Stop : Continue::Yes;
        };
        auto r = sampleNuts(target, o);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.message(), std::string("sampling cancelled"));
        QVERIFY(calls.load() < 60);  // every chain stopped right after
        QCOMPARE(seen.front().stage, std::string("warmup"));
        QCOMPARE(seen.front().total, 1000.0);
        QVERIFY(seen.front().done >= 1);
    }

    void progressReportsBothStages() {
        StdNormal target(3);
        std::mutex m;
        std::vector<int> lastWarm(2, 0), lastSample(2, 0);
        SamplerOptions o;
        o.chains = 2;
        o.warmup = 30;
        o.draws = 40;
        o.threads = 2;
        o.progress = [&](const Progress& p) {
            std::lock_guard<std::mutex> lock(m);
            auto& v = p.stage == "warmup" ? lastWarm : lastSample;
            v[static_cast<std::size_t>(p.worker)] = static_cast<int>(p.done);
            return Continue::Yes;
        };
        QVERIFY(sampleNuts(target, o).hasValue());
        QCOMPARE(lastWarm, std::vector<int>({30, 30}));
        QCOMPARE(lastSample, std::vector<int>({40, 40}));
    }

    void drawHookSeesEveryDraw() {
        StdNormal target(4);
        SamplerOptions o;
        o.warmup = 100;
        o.draws = 150;
        o.threads = 4;
        // Per-chain slots: the hook runs concurrently for different chains.
        std::vector<Eigen::VectorXd> maxima(4, Eigen::VectorXd::Constant(4, -1e300));
        std::vector<int> counts(4, 0);
        o.onDraw = [&](int chain, int iteration, const Eigen::VectorXd& q) {
            auto c = static_cast<std::size_t>(chain);
            QVERIFY(iteration == counts[c]);
            ++counts[c];
            maxima[c] = maxima[c].cwiseMax(q);
        };
        auto r = sampleNuts(target, o);
        QVERIFY(r.hasValue());
        for (std::size_t c = 0; c < 4; ++c) {
            QCOMPARE(counts[c], 150);
            QVERIFY(maxima[c] == r->chains[c].draws.colwise().maxCoeff().transpose());
        }
    }

    void warmStartNeedsLessWarmup() {
        Eigen::VectorXd mu = Eigen::VectorXd::Zero(8);
        Eigen::VectorXd scales =
            (Eigen::VectorXd::LinSpaced(8, -2, 2) * std::log(10.0)).array().exp();
        Gaussian target(mu, scales, 0.3);
        SamplerOptions o;
        o.seed = 11;
        o.threads = 2;
        auto cold = sampleNuts(target, o);
        QVERIFY(cold.hasValue());

        SamplerOptions w = o;
        w.seed = 12;
        w.warmup = 100;
        w.adaptMetric = false;  // keep the adapted metric, tune the step size only
        for (const auto& c : cold->chains) w.starts.push_back(c.warmStart());
        auto warm = sampleNuts(target, w);
        QVERIFY(warm.hasValue());

        SamplerOptions s = o;  // the same short warm-up from scratch
        s.seed = 12;
        s.warmup = 100;
        auto coldShort = sampleNuts(target, s);
        QVERIFY(coldShort.hasValue());

        const RunDiagnostics dc = diagnose(*cold), dw = diagnose(*warm), ds = diagnose(*coldShort);
        const double lc = meanLeapfrogs(*cold), lw = meanLeapfrogs(*warm),
                     ls = meanLeapfrogs(*coldShort);
        std::printf(
            "cold 1000 warm-up: min ESS %.0f, leapfrogs/draw %.1f; warm start 100: %.0f, "
            "%.1f; cold 100: %.0f, %.1f\n",
            dc.minEssBulk, lc, dw.minEssBulk, lw, ds.minEssBulk, ls);
        QVERIFY(dw.maxRhat < 1.01);
        QCOMPARE(dw.divergences, 0);
        const Eigen::MatrixXd all = pooled(*warm);
        for (Eigen::Index i = 0; i < all.cols(); ++i) {
            const double ess = dw.quantities[static_cast<std::size_t>(i)].summary.essBulk;
            QVERIFY_NEAR(all.col(i).mean(), 0.0, 4 * scales[i] / std::sqrt(ess));
        }
        // As efficient as the fully warmed-up run, clearly better than a cold short warm-up.
        QVERIFY(lw < 1.5 * lc);
        QVERIFY(lw < ls);
        QVERIFY(dw.minEssBulk / lw > ds.minEssBulk / ls);
    }

    void reportsUsableErrors() {
        class Nowhere : public LogDensity {
          public:
            std::size_t dimension() const override { return 2; }
            double evaluate(const Eigen::VectorXd&, Eigen::VectorXd& g) const override {
                g.setZero();
                return -std::numeric_limits<double>::infinity();
            }
        } nowhere;
        auto r = sampleNuts(nowhere, SamplerOptions{});
        QVERIFY(!r.hasValue());
        QVERIFY2(r.message().find("chain 1: no point with a finite log density") == 0,
                 r.message().c_str());

        StdNormal target(3);
        SamplerOptions o;
        o.starts.resize(2);
        QVERIFY(sampleNuts(target, o).message().find("one start per chain") != std::string::npos);
        o.starts.resize(4);
        o.starts[2].invMetric = Eigen::VectorXd::Constant(3, -1);
        QCOMPARE(sampleNuts(target, o).message(),
                 std::string("chain 3: the inverse metric must have 3 positive finite values"));
        SamplerOptions d;
        d.adaptDelta = 1;
        QVERIFY(!sampleNuts(target, d).hasValue());
    }

    void adaptationSchedule_data() {
        QTest::addColumn<int>("warmup");
        QTest::addColumn<QList<int>>("windowEnds");
        // Stan's defaults 75 / 25 doubling / 50: windows [75,100) [100,150) [150,250)
        // [250,450) and the last stretched to [450,950).
        QTest::newRow("1000") << 1000 << QList<int>{99, 149, 249, 449, 949};
        // 150 = 75 + 25 + 50 exactly: one window.
        QTest::newRow("150") << 150 << QList<int>{99};
        // 200: the second window (50) would leave 25 < 2 * 50, so it stretches to 149.
        QTest::newRow("200") << 200 << QList<int>{99, 149};
        // 100 < 150: 15% / 75% / 10% -> init 15, window 75, term 10.
        QTest::newRow("100 (short)") << 100 << QList<int>{89};
        QTest::newRow("19 (none)") << 19 << QList<int>{};
    }
    void adaptationSchedule() {
        QFETCH(int, warmup);
        QFETCH(QList<int>, windowEnds);
        detail::WindowedVarianceAdaptation a;
        (void)a.configure(warmup, 75, 50, 25);
        QList<int> ends;
        Eigen::VectorXd inv = Eigen::VectorXd::Ones(1);
        for (int it = 0; it < warmup; ++it) {
            Eigen::VectorXd q(1);
            q << (it % 3);  // variance 1 within any window of a multiple of 3
            if (a.enabled() && a.learn(q, inv)) ends.push_back(it);
        }
        QCOMPARE(ends, windowEnds);
        if (!windowEnds.isEmpty()) {
            // The last window's regularized variance: (n/(n+5)) s^2 + 1e-3 s^2 (5/(n+5))
            // (one parameter: the geometric mean of the variances is s^2 itself).
            const int n = windowEnds.size() == 1
                              ? windowEnds.back() + 1 - a.initBuffer()
                              : windowEnds.back() - windowEnds[windowEnds.size() - 2];
            Eigen::VectorXd w(n);
            for (int i = 0; i < n; ++i) w[i] = (windowEnds.back() - n + 1 + i) % 3;
            const double s2 = (w.array() - w.mean()).square().sum() / (n - 1);
            const double expected = n / (n + 5.0) * s2 + 1e-3 * s2 * 5.0 / (n + 5.0);
            QVERIFY_NEAR(inv[0], expected, 1e-12);
        }
    }

    // The shrinkage is scale-free: a parameter with variance 2e-6 next to one with variance
    // 1.3 keeps its metric within 5% of its sample variance (Stan's absolute 1e-3 target
    // makes it 17 times too wide with this 150-draw window); a window in which nothing
    // moved falls back to Stan's absolute target.
    void metricShrinkageIsScaleFree() {
        detail::WindowedVarianceAdaptation a;
        (void)a.configure(200, 20, 30, 150);
        Eigen::VectorXd inv = Eigen::VectorXd::Ones(2);
        double sum[2] = {0, 0}, sumSq[2] = {0, 0};
        int n = 0;
        for (int it = 0; it < 200; ++it) {
            Eigen::VectorXd q(2);
            q << 1e-3 * ((it * 7) % 5), static_cast<double>((it * 3) % 4);
            const bool inWindow = it >= 20 && it < 170;
            if (inWindow) {
                ++n;
                for (int j = 0; j < 2; ++j) {
                    sum[j] += q[j];
                    sumSq[j] += q[j] * q[j];
                }
            }
            (void)a.learn(q, inv);
        }
        QCOMPARE(n, 150);
        for (int j = 0; j < 2; ++j) {
            const double var = (sumSq[j] - sum[j] * sum[j] / n) / (n - 1);
            QVERIFY2(
                std::abs(inv[j] / var - 1.0) < 0.05,
                qPrintable(
                    QString("parameter %1: metric %2, variance %3").arg(j).arg(inv[j]).arg(var)));
        }
        QVERIFY(detail::WindowedVarianceAdaptation::shrinkScale(Eigen::ArrayXd::Zero(3)) == 1.0);
        QCOMPARE(detail::WindowedVarianceAdaptation::shrinkScale(Eigen::Array2d(1e-6, 1.0)), 1e-3);
    }

    void dualAveragingConverges() {
        // Fed an acceptance statistic that falls with the step size, dual averaging finds
        // the step size where it equals delta = 0.8 (here accept = exp(-eps) -> eps = 0.223).
        detail::StepSizeAdaptation a(0.8);
        a.setMu(std::log(10.0));
        double eps = 1;
        for (int i = 0; i < 2000; ++i) eps = a.learn(std::exp(-eps));
        QVERIFY2(std::abs(a.final() + std::log(0.8)) < 0.01,
                 qPrintable(QString::number(a.final())));
    }

    void shortWarmupStillAdaptsMetric() {
        // 60 warm-up iterations cannot hold 75 + 25 + 50: Stan's 15/75/10 split applies
        // and the metric still moves away from the identity.
        Eigen::VectorXd scales(2);
        scales << 0.01, 100;
        Gaussian target(Eigen::VectorXd::Zero(2), scales, 0);
        SamplerOptions o;
        o.chains = 1;
        o.warmup = 60;
        o.draws = 10;
        auto r = sampleNuts(target, o);
        QVERIFY(r.hasValue());
        const Eigen::VectorXd& m = r->chains[0].invMetric;
        std::printf("short warm-up metric: %.3g %.3g\n", m[0], m[1]);
        QVERIFY(m[1] / m[0] > 100);
    }
};

QTEST_APPLESS_MAIN(TstNuts)
#include "tst_nuts.moc"
