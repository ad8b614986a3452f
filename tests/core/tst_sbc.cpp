// Simulation-based calibration (Talts, Betancourt, Simpson, Vehtari and Gelman 2018) of
// every model with NUTS: theta ~ prior, y ~ p(y | x, theta), L thinned posterior draws of
// the model given y, and the rank of theta among them. If the log
// density (likelihood, priors, Jacobians) and the sampler are right, the ranks are uniform
// on 0..L. Each quantity is checked by two tests: a chi-square test on B bins of the rank
// histogram, and a z-test on the mean rank (a wrong prior scale or Jacobian shifts the
// posterior, which moves the mean rank; the z-test is the more powerful of the two
// against shifts). Fixed seeds make the outcome deterministic; the thresholds are
// conservative (chi-square p < 1e-4 per quantity, |z| > 4), so a pass does not depend on
// luck and a failure means a real miscalibration. Labelled slow.
//
// The data come from the CENTRED parameterization's predict() (tau sampled) and each model
// is fitted twice: in the default form (tau integrated out, reported tau an exact draw from
// p(tau | beta)) and with tau sampled (non-centred rows), so the test also checks that
// every form describes the same model.
// Mixture (K = 2): component labels are not identified, so only label-invariant quantities
// are ranked (tau, gamma, the mean prediction, the pi-weighted mean of sigma); it is also
// fitted by its own sampler alone (mcmc::Kernel::Gibbs, the augmented Gibbs sweep).
// Hyperparameters are tightened where the defaults' heavy tails would simulate absurd data
// sets (counts beyond 1e9); SBC holds for any prior, as long as data and fit share it.
#include <QTest>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/random/cauchy_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <cstdio>
#include <functional>
#include <thread>

#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/normal_mixture.hpp"

using namespace ppsynth;
using namespace ppsynth::models;

namespace {

constexpr int kReplicates = 240;
constexpr int kRanks = 49;  // L: thinned draws per replicate (ranks 0..L)
constexpr int kThin = 5;
constexpr int kBins = 10;  // 5 rank values per bin
constexpr int kWarmup = 300;

struct Setup {
    std::string family;
    int n = 12;
    int K = 1;
    Priors priors;
};

// Quantities ranked: functions of the unconstrained point of the model they are given.
using Quantity = std::function<double(const Model&, const Eigen::VectorXd&)>;

double constrained(const Model& m, const Eigen::VectorXd& q, Eigen::Index j) {
    return m.constrain(q)(j);
}

// One prior draw on the unconstrained scale of the CENTRED model (q = [B, log tau, extras]).
Eigen::VectorXd priorDraw(const Setup& s, Eigen::Index p, Rng& rng) {
    boost::random::normal_distribution<double> z(0.0, 1.0);
    boost::random::student_t_distribution<double> tTau(s.priors.tauDf), tSigma(s.priors.sigmaDf);
    const Eigen::Index K = s.K;
    std::vector<double> q;
    if (s.family == "poisson-means") {
        boost::random::gamma_distribution<double> g(s.priors.meanShape, 1.0 / s.priors.meanRate);
        return Eigen::VectorXd::Constant(1, std::log(g(rng)));
    }
    Eigen::VectorXd tau(p);
    for (Eigen::Index j = 0; j < p; ++j) tau(j) = s.priors.tauScale * std::abs(tTau(rng));
    Eigen::VectorXd out(p * K + p);
    for (Eigen::Index k = 0; k < K; ++k)
        for (Eigen::Index j = 0; j < p; ++j) out(k * p + j) = tau(j) * z(rng);
    out.tail(p) = tau.array().log().matrix();
    auto append = [&](double v) {
        out.conservativeResize(out.size() + 1);
        out(out.size() - 1) = v;
    };
    if (s.family == "negbin") {
        boost::random::cauchy_distribution<double> c(0.0, s.priors.invPhiScale);
        append(std::log(std::abs(c(rng))));
    } else if (s.family == "normal") {
        append(std::log(s.priors.sigmaScale * std::abs(tSigma(rng))));
    } else if (s.family == "normal-mixture") {
        for (Eigen::Index k = 0; k < K; ++k)
            append(std::log(s.priors.sigmaScale * std::abs(tSigma(rng))));
        boost::random::gamma_distribution<double> gg(s.priors.gammaShape, 1.0 / s.priors.gammaRate);
        const double gamma = gg(rng);
        // pi ~ Dirichlet(gamma/K): normalized Gamma(gamma/K) draws, kept on the log scale
        // (log of a Gamma(c) draw as log U / c + log Gamma(c + 1) draw, stable for small c).
        boost::random::gamma_distribution<double> gc(gamma / static_cast<double>(K) + 1.0, 1.0);
        boost::random::uniform_01<double> u;
        Eigen::VectorXd logG(K);
        for (Eigen::Index k = 0; k < K; ++k)
            logG(k) = std::log(gc(rng)) + std::log(u(rng)) * static_cast<double>(K) / gamma;
        for (Eigen::Index k = 0; k + 1 < K; ++k) append(logG(k) - logG(K - 1));  // ALR
        append(std::log(gamma));
    }
    return out;
}

struct Result {
    std::vector<std::string> names;
    std::vector<std::vector<int>> ranks;  // per quantity, per replicate
};

Result runSbc(const Setup& s, const std::vector<std::pair<std::string, Quantity>>& quantities,
              std::uint64_t seed, TauForm tau, mcmc::Kernel kernel = mcmc::Kernel::Nuts,
              const mcmc::TemperingOptions& tempering = {}) {
    Result res;
    for (const auto& q : quantities) res.names.push_back(q.first);
    res.ranks.assign(quantities.size(), std::vector<int>(kReplicates));
    auto replicate = [&](int r) {
        Rng rng = makeRng(seed, static_cast<std::uint64_t>(r), Purpose::Test);
        boost::random::normal_distribution<double> z(0.0, 1.0);
        Eigen::MatrixXd X(s.n, 2);
        for (int i = 0; i < s.n; ++i) X.row(i) << 1.0, z(rng);
        ModelSpec spec;
        spec.family = s.family;
        spec.components = s.K;
        spec.priors = s.priors;
        spec.priors.tau = TauForm::Sampled;
        spec.priors.centeredCoefficients = true;
        auto gen = makeModel(spec, X, Eigen::VectorXd::Zero(s.n));
        if (!gen) qFatal("%s", gen.message().c_str());
        const Eigen::VectorXd theta = priorDraw(s, 2, rng);
        Eigen::VectorXd y(s.n);
        (*gen)->predict(theta, rng, y);
        spec.priors.tau = tau;
        spec.priors.centeredCoefficients = false;
        auto fitModel = makeModel(spec, X, y);
        if (!fitModel) qFatal("replicate %d: %s", r, fitModel.message().c_str());
        const Model& m = **fitModel;

        mcmc::SamplerOptions o;
        o.kernel = kernel;
        o.tempering = tempering;
        o.chains = 1;
        o.threads = 1;
        o.warmup = kWarmup;
        o.draws = kRanks * kThin;
        o.seed = seed * 1000 + static_cast<std::uint64_t>(r);
        Rng init = makeRng(o.seed, 0, Purpose::Init);
        o.starts.resize(1);
        o.starts[0].q = m.initialPoint(init);
        auto fit = mcmc::sampleNuts(WeightedPosterior(m, Eigen::VectorXd::Ones(s.n)), o);
        if (!fit) qFatal("replicate %d: %s", r, fit.message().c_str());
        const Eigen::MatrixXd& draws = fit->chains[0].draws;
        for (std::size_t k = 0; k < quantities.size(); ++k) {
            const double truth = quantities[k].second(**gen, theta);
            int rank = 0;
            for (int l = 0; l < kRanks; ++l)
                if (quantities[k].second(m, draws.row((l + 1) * kThin - 1).transpose()) < truth)
                    ++rank;
            res.ranks[k][static_cast<std::size_t>(r)] = rank;
        }
    };
    // Replicates are independent and seeded by index: any split over threads gives the
    // same ranks.
    std::vector<std::thread> workers;
    for (int t = 0; t < 2; ++t)
        workers.emplace_back([&, t] {
            for (int r = t; r < kReplicates; r += 2) replicate(r);
        });
    for (auto& w : workers) w.join();
    return res;
}

// Checks every quantity; prints the histogram, chi-square p-value and mean-rank z.
void checkRanks(const std::string& label, const Result& res) {
    const boost::math::chi_squared chi(kBins - 1);
    const double L = kRanks;
    const double sdRank = std::sqrt(((L + 1) * (L + 1) - 1) / 12.0);
    for (std::size_t k = 0; k < res.names.size(); ++k) {
        std::vector<int> hist(kBins, 0);
        double sum = 0;
        for (int r : res.ranks[k]) {
            ++hist[static_cast<std::size_t>(r * kBins / (kRanks + 1))];
            sum += r;
        }
        const double expected = static_cast<double>(kReplicates) / kBins;
        double x2 = 0;
        QString h;
        for (int c : hist) {
            x2 += (c - expected) * (c - expected) / expected;
            h += QString::number(c) + " ";
        }
        const double p = boost::math::cdf(boost::math::complement(chi, x2));
        const double zMean = (sum / kReplicates - L / 2) / (sdRank / std::sqrt(kReplicates));
        std::printf("%-16s %-22s ranks [%s] chi2 p = %.4f, mean-rank z = %+.2f\n", label.c_str(),
                    res.names[k].c_str(), qPrintable(h), p, zMean);
        QVERIFY2(p > 1e-4, qPrintable(QString::fromStdString(label + " " + res.names[k]) +
                                      QString(": rank histogram not uniform, p = %1").arg(p)));
        QVERIFY2(std::abs(zMean) < 4.0,
                 qPrintable(QString::fromStdString(label + " " + res.names[k]) +
                            QString(": mean rank off by z = %1").arg(zMean)));
    }
}

// Both forms of the coefficient block (tau integrated out, tau sampled), each checked.
void checkUniform(const std::string& label, const Setup& s,
                  const std::vector<std::pair<std::string, Quantity>>& quantities,
                  std::uint64_t seed) {
    checkRanks(label + " (tau integrated)", runSbc(s, quantities, seed, TauForm::Integrated));
    if (s.family != "poisson-means")
        checkRanks(label + " (tau sampled)", runSbc(s, quantities, seed + 100, TauForm::Sampled));
    if (s.family == "normal-mixture")
        checkRanks(label + " (Gibbs sweep)",
                   runSbc(s, quantities, seed + 200, TauForm::Sampled, mcmc::Kernel::Gibbs));
}

Quantity param(Eigen::Index j) {
    return [j](const Model& m, const Eigen::VectorXd& q) { return constrained(m, q, j); };
}

// The mixture's label-invariant quantities (K = 2; reported: beta (2 x 2), tau (2), sigma
// (2), pi (2), gamma).
std::vector<std::pair<std::string, Quantity>> mixtureQuantities() {
    auto weightedSigma = [](const Model& m, const Eigen::VectorXd& q) {
        const Eigen::VectorXd c = m.constrain(q);
        return c(6) * c(8) + c(7) * c(9);
    };
    auto meanPred = [](const Model& m, const Eigen::VectorXd& q) { return m.meanPrediction(q); };
    return {{"tau[1]", param(4)},
            {"tau[2]", param(5)},
            {"gamma", param(10)},
            {"sum_k pi_k sigma_k", weightedSigma},
            {"mean prediction", meanPred}};
}

}  // namespace

class TstSbc : public QObject {
    Q_OBJECT
  private slots:
    void poissonMeans() {
        Setup s{"poisson-means", 8, 1, {}};
        checkUniform("poisson-means", s, {{"mu", param(0)}}, 71);
    }

    // Reported order: beta[1], beta[2], tau[1], tau[2] (then phi / sigma).
    void poisson() {
        Setup s{"poisson", 12, 1, {}};
        s.priors.tauScale = 0.5;
        checkUniform("poisson", s,
                     {{"beta[1]", param(0)},
                      {"beta[2]", param(1)},
                      {"tau[1]", param(2)},
                      {"tau[2]", param(3)}},
                     72);
    }

    void negbin() {
        Setup s{"negbin", 12, 1, {}};
        s.priors.tauScale = 0.5;
        s.priors.invPhiScale = 1.0;
        checkUniform("negbin", s,
                     {{"beta[1]", param(0)},
                      {"beta[2]", param(1)},
                      {"tau[1]", param(2)},
                      {"tau[2]", param(3)},
                      {"phi", param(4)}},
                     73);
    }

    void normal() {
        Setup s{"normal", 8, 1, {}};
        checkUniform("normal", s,
                     {{"beta[1]", param(0)},
                      {"beta[2]", param(1)},
                      {"tau[1]", param(2)},
                      {"tau[2]", param(3)},
                      {"sigma", param(4)}},
                     74);
    }

    void normalMixture() {
        Setup s{"normal-mixture", 12, 2, {}};
        checkUniform("normal-mixture K=2", s, mixtureQuantities(), 75);
    }

    // Parallel tempering of the mixture's Gibbs sweep (mcmc.tempering): replicas at
    // likelihood powers t_1 = 1 > t_2 > t_3 (the ladder adapted in the warm-up, fixed after),
    // swaps between neighbours; only the t = 1 replica's draws are ranked. A swap ratio with
    // its sign flipped sends the better states to the hot replicas and the cold replica's
    // draws away from the posterior.
    void normalMixtureTempered() {
        Setup s{"normal-mixture", 12, 2, {}};
        mcmc::TemperingOptions t;
        t.replicas = 3;
        t.hottest = 0.1;
        checkRanks("normal-mixture K=2 (tempered, 3 replicas)",
                   runSbc(s, mixtureQuantities(), 76, TauForm::Sampled, mcmc::Kernel::Gibbs, t));
    }
};

QTEST_APPLESS_MAIN(TstSbc)
#include "tst_sbc.moc"
