// Synthesizer models (METHOD.md section 1): gradients, normalizing constants, weighting
// semantics, conjugate cases and predictive draws.
#include <Eigen/LU>
#include <Eigen/QR>
#include <QTest>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/negative_binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <limits>
#include <thread>

#include "../common/near.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/models/negbin_regression.hpp"
#include "ppsynth/models/normal_mixture.hpp"
#include "ppsynth/models/normal_regression.hpp"
#include "ppsynth/models/poisson_means.hpp"
#include "ppsynth/models/poisson_regression.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/runner.hpp"

using namespace ppsynth;
using namespace ppsynth::models;

namespace {

struct Data {
    Eigen::MatrixXd X;
    Eigen::VectorXd y;
    std::vector<std::string> names;
};

bool isCount(const std::string& f) {
    return f == "poisson" || f == "negbin" || f == "poisson-means";
}

// Intercept first; then either standard normal columns or one-hot dummies of one
// categorical with p levels (reference level dropped), which makes X sparse.
Data makeData(const std::string& family, int n, int p, std::uint64_t seed, bool dummies = false) {
    Rng rng = makeRng(seed, 0, Purpose::Test);
    boost::random::normal_distribution<double> z(0.0, 1.0);
    boost::random::uniform_int_distribution<int> level(0, p - 1);
    boost::random::uniform_01<double> u;
    Data d;
    d.X = Eigen::MatrixXd::Zero(n, p);
    d.X.col(0).setOnes();
    for (int i = 0; i < n; ++i) {
        if (dummies) {
            const int l = level(rng);
            if (l > 0) d.X(i, l) = 1.0;
        } else {
            for (int j = 1; j < p; ++j) d.X(i, j) = z(rng);
        }
    }
    Eigen::VectorXd beta(p);
    for (int j = 0; j < p; ++j) beta(j) = 0.3 * z(rng);
    d.y.resize(n);
    for (int i = 0; i < n; ++i) {
        const double eta = d.X.row(i).dot(beta);
        if (isCount(family)) {
            boost::random::poisson_distribution<int, double> pois(std::exp(std::log(3.0) + eta));
            d.y(i) = pois(rng);
        } else if (family == "normal") {
            d.y(i) = 2.0 + eta + z(rng);
        } else {  // two separated clusters
            d.y(i) = (u(rng) < 0.3 ? -2.0 : 2.0) + eta + 0.5 * z(rng);
        }
    }
    d.names.push_back("(Intercept)");
    for (int j = 1; j < p; ++j) d.names.push_back("x" + std::to_string(j));
    return d;
}

std::unique_ptr<Model> build(const std::string& family, const Data& d, int K = 3,
                             Priors priors = {}) {
    ModelSpec spec;
    spec.family = family;
    spec.components = K;
    spec.priors = priors;
    auto m = makeModel(spec, d.X, d.y, d.names);
    if (!m) qFatal("makeModel failed: %s", m.message().c_str());
    return std::move(m.value());
}

Eigen::VectorXd randomPoint(const Model& m, std::uint64_t seed, double spread = 0.3) {
    Rng rng = makeRng(seed, 1, Purpose::Test);
    boost::random::normal_distribution<double> z(0.0, spread);
    Eigen::VectorXd q = m.initialPoint(rng);
    for (Eigen::Index j = 0; j < q.size(); ++j) q(j) += z(rng);
    return q;
}

Eigen::VectorXd randomWeights(Eigen::Index n, std::uint64_t seed) {
    Rng rng = makeRng(seed, 2, Purpose::Test);
    boost::random::uniform_01<double> u;
    Eigen::VectorXd a(n);
    for (Eigen::Index i = 0; i < n; ++i) a(i) = u(rng);
    return a;
}

double lp(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& a,
          Eigen::VectorXd* grad = nullptr) {
    Eigen::VectorXd g(q.size());
    const double v = m.logPosterior(q, a, g);
    if (grad) *grad = g;
    return v;
}

bool close(double a, double b, double rel, double abs = 0.0) {
    return std::abs(a - b) <= abs + rel * std::max(std::abs(a), std::abs(b));
}

Data dropRow(const Data& d, Eigen::Index r) {
    Data out = d;
    const Eigen::Index n = d.y.size();
    out.X.resize(n - 1, d.X.cols());
    out.y.resize(n - 1);
    for (Eigen::Index i = 0, o = 0; i < n; ++i)
        if (i != r) {
            out.X.row(o) = d.X.row(i);
            out.y(o++) = d.y(i);
        }
    return out;
}

void familyRows() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("K");
    QTest::addColumn<bool>("dummies");
    QTest::newRow("poisson-means") << "poisson-means" << 1 << false;
    QTest::newRow("poisson") << "poisson" << 1 << false;
    QTest::newRow("poisson sparse X") << "poisson" << 1 << true;
    QTest::newRow("negbin") << "negbin" << 1 << false;
    QTest::newRow("normal") << "normal" << 1 << false;
    QTest::newRow("normal sparse X") << "normal" << 1 << true;
    QTest::newRow("mixture K=1") << "normal-mixture" << 1 << false;
    QTest::newRow("mixture K=3") << "normal-mixture" << 3 << false;
    QTest::newRow("mixture K=20 sparse X") << "normal-mixture" << 20 << true;
}

}  // namespace

class TstModels : public QObject {
    Q_OBJECT
  private slots:
    // Richardson-extrapolated central differences (h = 1e-5 and h / 2): the truncation error
    // is O(h^4 |f^(5)|), small even beside the log-spike of the integrated-tau prior at
    // beta = 0 (|f'''| grows like 1 / |beta|^3 there; a plain central difference was 4e-5
    // off on one such coordinate), and the rounding error ~ eps |f| / h (~3e-11 |f|); both far
    // below the tolerance 1e-6 (1 + |g_j|) + 1e-9 |f| for the O(1e2..1e3) log posteriors here.
    void gradientMatchesFiniteDifferences_data() {
        familyRows();
        QTest::newRow("normal fixed tau, sigma") << "normal fixed" << 1 << false;
        QTest::newRow("mixture fixed sigma") << "normal-mixture fixed" << 4 << false;
        QTest::newRow("poisson tau sampled") << "poisson sampled" << 1 << true;
        QTest::newRow("negbin tau sampled") << "negbin sampled" << 1 << false;
        QTest::newRow("normal tau sampled") << "normal sampled" << 1 << true;
        QTest::newRow("mixture K=20 tau integrated") << "normal-mixture integrated" << 20 << true;
        QTest::newRow("mixture K=3 tau integrated") << "normal-mixture integrated" << 3 << false;
        QTest::newRow("poisson centred") << "poisson centred" << 1 << true;
        QTest::newRow("negbin centred") << "negbin centred" << 1 << false;
        QTest::newRow("normal centred") << "normal centred" << 1 << false;
        QTest::newRow("mixture K=3 centred") << "normal-mixture centred" << 3 << false;
    }
    void gradientMatchesFiniteDifferences() {
        QFETCH(QString, family);
        QFETCH(int, K);
        QFETCH(bool, dummies);
        std::string fam = family.toStdString();
        Priors pr;
        if (fam.ends_with(" fixed")) {
            fam = fam.substr(0, fam.size() - 6);
            pr.fixedSigma = 0.8;
            if (fam == "normal") pr.fixedTau = 2.0;
        }
        if (fam.ends_with(" centred")) {
            fam = fam.substr(0, fam.size() - 8);
            pr.tau = TauForm::Sampled;
            pr.centeredCoefficients = true;
        }
        if (fam.ends_with(" sampled")) {
            fam = fam.substr(0, fam.size() - 8);
            pr.tau = TauForm::Sampled;
        }
        if (fam.ends_with(" integrated")) {
            fam = fam.substr(0, fam.size() - 11);
            pr.tau = TauForm::Integrated;
        }
        const Data d = makeData(fam, 40, dummies ? 8 : 4, 11, dummies);
        const auto m = build(fam, d, K, pr);
        if (const auto* rm = dynamic_cast<const RegressionModel*>(m.get()))
            QCOMPARE(rm->designIsSparse(), dummies);
        QCOMPARE(m->dimension(), static_cast<std::size_t>(randomPoint(*m, 1).size()));
        for (std::uint64_t rep = 0; rep < 3; ++rep) {
            const Eigen::VectorXd q = randomPoint(*m, 100 + rep);
            const Eigen::VectorXd a = randomWeights(d.y.size(), 200 + rep);
            Eigen::VectorXd g;
            const double f = lp(*m, q, a, &g);
            QVERIFY(std::isfinite(f));
            auto central = [&](Eigen::Index j, double h) {
                Eigen::VectorXd qp = q, qm = q;
                qp(j) += h;
                qm(j) -= h;
                return (lp(*m, qp, a) - lp(*m, qm, a)) / (2 * h);
            };
            for (Eigen::Index j = 0; j < q.size(); ++j) {
                const double fd = (4.0 * central(j, 0.5e-5) - central(j, 1e-5)) / 3.0;
                const double tol = 1e-6 * (1 + std::abs(g(j))) + 1e-9 * std::abs(f);
                if (std::abs(fd - g(j)) > tol)
                    QFAIL(qPrintable(QString("coordinate %1 (%2): analytic %3, numeric %4")
                                         .arg(j)
                                         .arg(QString::fromStdString(fam))
                                         .arg(g(j), 0, 'g', 12)
                                         .arg(fd, 0, 'g', 12)));
            }
        }
    }

    // Each record's log density with every normalizing constant, against Boost.Math.
    void recordLogLikMatchesBoost_data() { familyRows(); }
    void recordLogLikMatchesBoost() {
        QFETCH(QString, family);
        QFETCH(int, K);
        QFETCH(bool, dummies);
        const std::string fam = family.toStdString();
        const Data d = makeData(fam, 25, dummies ? 8 : 3, 12, dummies);
        const auto m = build(fam, d, K);
        const Eigen::VectorXd q = randomPoint(*m, 5);
        const Eigen::VectorXd theta = m->constrain(q);
        const auto names = m->parameterNames();
        QCOMPARE(static_cast<std::size_t>(theta.size()), names.size());
        Eigen::VectorXd l(d.y.size());
        m->recordLogLik(q, l);
        const Eigen::Index p = d.X.cols();
        for (Eigen::Index i = 0; i < d.y.size(); ++i) {
            double expected = 0;
            const double yi = d.y(i);
            if (fam == "poisson-means") {
                expected =
                    std::log(boost::math::pdf(boost::math::poisson_distribution<>(theta(0)), yi));
            } else if (fam == "poisson") {
                const double mu = std::exp(d.X.row(i).dot(theta.head(p)));
                expected = std::log(boost::math::pdf(boost::math::poisson_distribution<>(mu), yi));
            } else if (fam == "negbin") {
                const double mu = std::exp(d.X.row(i).dot(theta.head(p)));
                const double phi = theta(theta.size() - 1);
                QCOMPARE(names.back(), std::string("phi"));
                boost::math::negative_binomial_distribution<> nb(phi, phi / (phi + mu));
                expected = std::log(boost::math::pdf(nb, yi));
            } else if (fam == "normal") {
                const double mean = d.X.row(i).dot(theta.head(p));
                const double sigma = theta(theta.size() - 1);
                expected =
                    std::log(boost::math::pdf(boost::math::normal_distribution<>(mean, sigma), yi));
            } else {
                // theta = [beta (p x K), tau (p), sigma (K), pi (K), gamma]
                double dens = 0;
                for (int k = 0; k < K; ++k) {
                    const double mean = d.X.row(i).dot(theta.segment(k * p, p));
                    const double sigma = theta(p * K + p + k);
                    const double pi = theta(p * K + p + K + k);
                    dens +=
                        pi * boost::math::pdf(boost::math::normal_distribution<>(mean, sigma), yi);
                }
                expected = std::log(dens);
            }
            QVERIFY2(close(l(i), expected, 1e-12, 1e-12),
                     qPrintable(QString("record %1: %2 vs %3")
                                    .arg(i)
                                    .arg(l(i), 0, 'g', 16)
                                    .arg(expected, 0, 'g', 16)));
        }
        // totalLogLik sums the records.
        QVERIFY(close(m->totalLogLik(q), l.sum(), 1e-14));
    }

    // The non-centred coefficients (beta_j = tau_j z_j, j > 0) target the same posterior as
    // the centred ones: at corresponding points the log densities differ by exactly the log
    // Jacobian K sum_{j>0} log tau_j of z -> beta, the constrained draws agree, and so do
    // the record log densities.
    void nonCentredIsSamePosterior_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("K");
        QTest::newRow("poisson") << "poisson" << 1;
        QTest::newRow("negbin") << "negbin" << 1;
        QTest::newRow("normal") << "normal" << 1;
        QTest::newRow("mixture K=4") << "normal-mixture" << 4;
    }
    void nonCentredIsSamePosterior() {
        QFETCH(QString, family);
        QFETCH(int, K);
        const std::string fam = family.toStdString();
        const Data d = makeData(fam, 40, 4, 51);
        Priors centred, sampled;
        centred.tau = sampled.tau = TauForm::Sampled;
        centred.centeredCoefficients = true;
        const auto mn = build(fam, d, K, sampled);
        const auto mc = build(fam, d, K, centred);
        const Eigen::VectorXd a = randomWeights(40, 52);
        const Eigen::Index p = 4, nb = p * K;
        for (std::uint64_t rep = 0; rep < 3; ++rep) {
            const Eigen::VectorXd qn = randomPoint(*mn, 53 + rep, 0.8);
            Eigen::VectorXd qc = qn;
            double logJ = 0;
            for (Eigen::Index j = 1; j < p; ++j) {
                const double tau = std::exp(qn(nb + j));
                for (Eigen::Index k = 0; k < K; ++k) qc(k * p + j) = tau * qn(k * p + j);
                logJ += static_cast<double>(K) * qn(nb + j);
            }
            QVERIFY(close(lp(*mn, qn, a), lp(*mc, qc, a) + logJ, 1e-12, 1e-10));
            QVERIFY((mn->constrain(qn) - mc->constrain(qc)).norm() < 1e-12 * qc.norm());
            Eigen::VectorXd ln(40), lc(40);
            mn->recordLogLik(qn, ln);
            mc->recordLogLik(qc, lc);
            QVERIFY((ln - lc).cwiseAbs().maxCoeff() < 1e-10);
            QVERIFY_NEAR(mn->meanPrediction(qn), mc->meanPrediction(qc), 1e-10);
        }
    }

    // With tau integrated out the sampler moves w (beta_j = T(||w_j||) w_j / ||w_j||), and
    // its log density at w must be the centred model's density integrated over every
    // log tau_j, at beta(w), plus log |det dbeta/dw|. For p = 2 columns: a 2-D trapezoid
    // over (log tau_1, log tau_2) on [-16, 9]^2 with step 0.05 (smooth integrand, error
    // far below the tolerance), the Jacobian by central differences of constrain(). The
    // tolerance 1e-5 covers the whitening table (T' within 1e-6 of exact per row).
    void integratedIsCentredMarginalized_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("K");
        QTest::newRow("poisson") << "poisson" << 1;
        QTest::newRow("normal") << "normal" << 1;
        QTest::newRow("mixture K=3") << "normal-mixture" << 3;
    }
    void integratedIsCentredMarginalized() {
        QFETCH(QString, family);
        QFETCH(int, K);
        const std::string fam = family.toStdString();
        const Data d = makeData(fam, 30, 2, 61);
        Priors centred, whitened;
        centred.tau = TauForm::Sampled;
        centred.centeredCoefficients = true;
        whitened.tau = TauForm::Integrated;
        const auto mi = build(fam, d, K, whitened);
        const auto mc = build(fam, d, K, centred);
        QCOMPARE(mc->dimension(), mi->dimension() + 2);
        const Eigen::VectorXd a = randomWeights(30, 62);
        const Eigen::Index nb = 2 * K;
        for (std::uint64_t rep = 0; rep < 2; ++rep) {
            const Eigen::VectorXd qi = randomPoint(*mi, 63 + rep, 0.8);
            const Eigen::VectorXd beta = mi->constrain(qi).head(nb);
            Eigen::VectorXd qc(qi.size() + 2);
            qc << beta, 0.0, 0.0, qi.tail(qi.size() - nb);
            const double h = 0.05;
            std::vector<double> vals;
            double peak = -std::numeric_limits<double>::infinity();
            for (double u1 = -16; u1 <= 9; u1 += h)
                for (double u2 = -16; u2 <= 9; u2 += h) {
                    qc(nb) = u1;
                    qc(nb + 1) = u2;
                    vals.push_back(lp(*mc, qc, a));
                    peak = std::max(peak, vals.back());
                }
            double sum = 0;
            for (double v : vals) sum += std::exp(v - peak);
            Eigen::MatrixXd J(nb, nb);
            for (Eigen::Index c = 0; c < nb; ++c) {
                Eigen::VectorXd qp = qi, qm = qi;
                qp(c) += 1e-6;
                qm(c) -= 1e-6;
                J.col(c) = (mi->constrain(qp).head(nb) - mi->constrain(qm).head(nb)) / 2e-6;
            }
            const double logJ = std::log(std::abs(J.determinant()));
            const double marginal = peak + std::log(sum * h * h) + logJ;
            const double integrated = lp(*mi, qi, a);
            QVERIFY2(close(integrated, marginal, 0, 1e-5),
                     qPrintable(QString("integrated %1, centred marginalized %2")
                                    .arg(integrated, 0, 'g', 14)
                                    .arg(marginal, 0, 'g', 14)));
            // Same beta and extras reported; tau is a draw, so only its being positive.
            const Eigen::VectorXd ci = mi->constrain(qi), cc = mc->constrain(qc);
            QCOMPARE(ci.size(), cc.size());
            QVERIFY((ci.head(nb) - cc.head(nb)).norm() < 1e-14 * ci.head(nb).norm());
            QVERIFY((ci.tail(ci.size() - nb - 2) - cc.tail(cc.size() - nb - 2)).norm() < 1e-12);
            QVERIFY(ci(nb) > 0 && ci(nb + 1) > 0);
        }
    }

    // Count families evaluate each distinct (x_i, y_i) once with the summed weight when
    // there are few (here 300 records, a two-level dummy and counts 0-9: about 20 pairs).
    // The weighted log likelihood must still be sum_i alpha_i l_i with l_i from
    // recordLogLik (which works per record): lp(alpha) - lp(0) cancels the prior.
    void groupedRecordsGiveTheSameSums_data() {
        QTest::addColumn<QString>("family");
        QTest::newRow("poisson") << "poisson";
        QTest::newRow("negbin") << "negbin";
    }
    void groupedRecordsGiveTheSameSums() {
        QFETCH(QString, family);
        const int n = 300;
        Rng rng = makeRng(81, 0, Purpose::Test);
        boost::random::uniform_int_distribution<int> count(0, 9), bit(0, 1);
        Data d;
        d.X = Eigen::MatrixXd::Ones(n, 2);
        d.y.resize(n);
        for (int i = 0; i < n; ++i) {
            d.X(i, 1) = bit(rng);
            d.y(i) = count(rng);
        }
        d.names = {"(Intercept)", "x1"};
        const auto m = build(family.toStdString(), d, 1);
        const Eigen::VectorXd a = randomWeights(n, 82);
        for (std::uint64_t rep = 0; rep < 3; ++rep) {
            const Eigen::VectorXd q = randomPoint(*m, 83 + rep, 0.5);
            Eigen::VectorXd l(n), g1, g0;
            m->recordLogLik(q, l);
            const double diff = lp(*m, q, a, &g1) - lp(*m, q, Eigen::VectorXd::Zero(n), &g0);
            QVERIFY2(
                close(diff, a.dot(l), 1e-12, 1e-10),
                qPrintable(QString("%1 vs %2").arg(diff, 0, 'g', 16).arg(a.dot(l), 0, 'g', 16)));
            // Gradient of the weighted sum by central differences of recordLogLik.
            for (Eigen::Index j = 0; j < q.size(); ++j) {
                Eigen::VectorXd qp = q, qm = q, lp1(n), lm1(n);
                qp(j) += 1e-6;
                qm(j) -= 1e-6;
                m->recordLogLik(qp, lp1);
                m->recordLogLik(qm, lm1);
                const double fd = a.dot(lp1 - lm1) / 2e-6;
                QVERIFY2(close(g1(j) - g0(j), fd, 1e-6, 1e-6),
                         qPrintable(
                             QString("coordinate %1: %2 vs %3").arg(j).arg(g1(j) - g0(j)).arg(fd)));
            }
        }
    }

    // alpha_i = 0 is the same as dropping record i (value and gradient).
    void zeroWeightDropsRecord_data() { familyRows(); }
    void zeroWeightDropsRecord() {
        QFETCH(QString, family);
        QFETCH(int, K);
        QFETCH(bool, dummies);
        const std::string fam = family.toStdString();
        const Data d = makeData(fam, 30, dummies ? 8 : 3, 13, dummies);
        const Eigen::Index r = 7;
        const Data dd = dropRow(d, r);
        const auto full = build(fam, d, K);
        const auto less = build(fam, dd, K);
        const Eigen::VectorXd q = randomPoint(*full, 6);
        Eigen::VectorXd a = randomWeights(d.y.size(), 7);
        a(r) = 0.0;
        Eigen::VectorXd aLess(d.y.size() - 1);
        for (Eigen::Index i = 0, o = 0; i < a.size(); ++i)
            if (i != r) aLess(o++) = a(i);
        Eigen::VectorXd g1, g2;
        const double v1 = lp(*full, q, a, &g1), v2 = lp(*less, q, aLess, &g2);
        QVERIFY2(close(v1, v2, 1e-12),
                 qPrintable(QString("%1 vs %2").arg(v1, 0, 'g', 17).arg(v2, 0, 'g', 17)));
        for (Eigen::Index j = 0; j < q.size(); ++j) QVERIFY(close(g1(j), g2(j), 1e-10, 1e-10));
    }

    // A record duplicated with alpha = 0.5 each equals the single record with alpha = 1.
    void duplicateHalfWeights_data() { familyRows(); }
    void duplicateHalfWeights() {
        QFETCH(QString, family);
        QFETCH(int, K);
        QFETCH(bool, dummies);
        const std::string fam = family.toStdString();
        const Data d = makeData(fam, 20, dummies ? 8 : 3, 14, dummies);
        Data dup = d;
        const Eigen::Index r = 3, n = d.y.size();
        dup.X.conservativeResize(n + 1, Eigen::NoChange);
        dup.X.row(n) = d.X.row(r);
        dup.y.conservativeResize(n + 1);
        dup.y(n) = d.y(r);
        const auto one = build(fam, d, K);
        const auto two = build(fam, dup, K);
        const Eigen::VectorXd q = randomPoint(*one, 8);
        Eigen::VectorXd a = randomWeights(n, 9);
        a(r) = 1.0;
        Eigen::VectorXd a2(n + 1);
        a2.head(n) = a;
        a2(r) = 0.5;
        a2(n) = 0.5;
        Eigen::VectorXd g1, g2;
        const double v1 = lp(*one, q, a, &g1), v2 = lp(*two, q, a2, &g2);
        QVERIFY2(close(v1, v2, 1e-12),
                 qPrintable(QString("%1 vs %2").arg(v1, 0, 'g', 17).arg(v2, 0, 'g', 17)));
        for (Eigen::Index j = 0; j < q.size(); ++j) QVERIFY(close(g1(j), g2(j), 1e-10, 1e-10));
    }

    // A record whose log density is -inf drops out exactly when its weight is 0.
    void zeroWeightIgnoresInfiniteRecord() {
        Data d = makeData("poisson", 10, 2, 15);
        d.X(4, 1) = 1e3;  // eta = 1e3 * beta_1 overflows exp for beta_1 = 1
        const auto m = build("poisson", d);
        Eigen::VectorXd q = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(m->dimension()));
        q(1) = 1.0;
        Eigen::VectorXd l(10);
        m->recordLogLik(q, l);
        QVERIFY(std::isinf(l(4)));
        Eigen::VectorXd a = Eigen::VectorXd::Ones(10);
        a(4) = 0.0;
        Eigen::VectorXd g;
        QVERIFY(std::isfinite(lp(*m, q, a, &g)));
        QVERIFY(g.allFinite());
    }

    void poissonMeansConjugate() {
        const Eigen::VectorXd y{{0, 3, 1, 4, 2}};
        const Eigen::VectorXd a{{1.0, 0.5, 0.0, 0.25, 1.0}};
        Priors pr;
        pr.meanShape = 2.0;
        pr.meanRate = 0.5;
        const PoissonMeans m(y, pr);
        const GammaPosterior post = m.conjugatePosterior(a);
        // shape 2 + (0 + 1.5 + 0 + 1 + 2) = 6.5; rate 0.5 + 2.75 = 3.25.
        QCOMPARE(post.shape, 6.5);
        QCOMPARE(post.rate, 3.25);
        // The Model interface on q = log mu is that Gamma density times mu (Jacobian), up
        // to a constant: the difference must not depend on q.
        const boost::math::gamma_distribution<> gd(post.shape, 1.0 / post.rate);
        double ref = 0;
        for (int t = 0; t < 5; ++t) {
            const double mu = 0.5 + 0.6 * t;
            Eigen::VectorXd q{{std::log(mu)}}, g;
            const double diff =
                lp(m, q, a, &g) - (std::log(boost::math::pdf(gd, mu)) + std::log(mu));
            if (t == 0) ref = diff;
            QVERIFY(close(diff, ref, 1e-12, 1e-12));
            // d/du [log Gamma pdf(e^u) + u] = shape - rate e^u
            QVERIFY(close(g(0), post.shape - post.rate * mu, 1e-12, 1e-12));
        }
        // Exact draws: mean shape/rate, variance shape/rate^2, within 4 Monte Carlo SEs.
        Rng rng = makeRng(1, 0, Purpose::Test);
        const std::size_t S = 40000;
        const Eigen::VectorXd mu = m.drawExact(a, S, rng);
        const double k = post.shape, b = post.rate, Sd = static_cast<double>(S);
        const double mean = mu.mean();
        const double var = (mu.array() - mean).square().sum() / (Sd - 1);
        const double seMean = std::sqrt(k / (b * b) / Sd);
        const double seVar = std::sqrt((2 * k * k + 6 * k) / std::pow(b, 4) / Sd);
        QVERIFY2(std::abs(mean - k / b) < 4 * seMean, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(var - k / (b * b)) < 4 * seVar, qPrintable(QString::number(var)));
    }

    // The closed form against an independent route: least squares on the augmented
    // system [sqrt(A) X / sigma; I / tau] beta = [sqrt(A) y / sigma; 0] by Householder QR;
    // and the model's log posterior is exactly that Gaussian (zero gradient at the mean,
    // quadratic drop -0.5 d' P d).
    void normalClosedForm() {
        const Data d = makeData("normal", 50, 4, 16);
        const Eigen::VectorXd a = randomWeights(50, 17);
        const double sigma = 1.3, tau = 2.5;
        const GaussianPosterior post = normalConjugatePosterior(d.X, d.y, a, sigma, tau);
        const Eigen::Index p = 4;
        Eigen::MatrixXd A(50 + p, p);
        Eigen::VectorXd b = Eigen::VectorXd::Zero(50 + p);
        A.topRows(50) = a.array().sqrt().matrix().asDiagonal() * d.X / sigma;
        A.bottomRows(p) = Eigen::MatrixXd::Identity(p, p) / tau;
        b.head(50) = a.array().sqrt().matrix().cwiseProduct(d.y) / sigma;
        const Eigen::HouseholderQR<Eigen::MatrixXd> qr(A);
        const Eigen::VectorXd mean = qr.solve(b);
        const Eigen::MatrixXd Rm = qr.matrixQR().topRows(p).triangularView<Eigen::Upper>();
        const Eigen::MatrixXd cov = (Rm.transpose() * Rm).inverse();
        QVERIFY((post.mean - mean).norm() <= 1e-10 * mean.norm());
        QVERIFY((post.covariance - cov).norm() <= 1e-10 * cov.norm());

        Priors pr;
        pr.fixedSigma = sigma;
        pr.fixedTau = tau;
        const auto m = build("normal", d, 1, pr);
        QCOMPARE(m->dimension(), std::size_t{4});
        Eigen::VectorXd g;
        const double f0 = lp(*m, post.mean, a, &g);
        QVERIFY(g.norm() < 1e-9);
        const Eigen::VectorXd dq{{0.1, -0.2, 0.05, 0.3}};
        const double expected = -0.5 * dq.dot(cov.inverse() * dq);
        QVERIFY(close(lp(*m, post.mean + dq, a) - f0, expected, 1e-9));
    }

    // K = 1: pi = 1, the Dirichlet term vanishes, and the mixture is the normal regression
    // plus the independent Gamma prior (with Jacobian) of the unused gamma.
    void mixtureWithOneComponentIsNormalRegression() {
        const Data d = makeData("normal", 60, 3, 18);
        const auto normal = build("normal", d);
        const auto mix = build("normal-mixture", d, 1);
        QCOMPARE(mix->dimension(), normal->dimension() + 1);
        const Eigen::VectorXd a = randomWeights(60, 19);
        const Eigen::VectorXd qn = randomPoint(*normal, 20);
        const double g = 0.4;
        Eigen::VectorXd qm(qn.size() + 1);
        qm << qn, g;
        Eigen::VectorXd gn, gm;
        const double vn = lp(*normal, qn, a, &gn), vm = lp(*mix, qm, a, &gm);
        const double gammaTerm =
            std::log(boost::math::pdf(boost::math::gamma_distribution<>(1.0, 1.0), std::exp(g))) +
            g;
        QVERIFY(close(vm - vn, gammaTerm, 1e-10, 1e-10));
        for (Eigen::Index j = 0; j < qn.size(); ++j) QVERIFY(close(gm(j), gn(j), 1e-10, 1e-10));
        QVERIFY(close(gm(qn.size()), 1.0 - std::exp(g), 1e-12, 1e-12));
        Eigen::VectorXd ln(60), lm(60);
        normal->recordLogLik(qn, ln);
        mix->recordLogLik(qm, lm);
        QVERIFY((ln - lm).cwiseAbs().maxCoeff() < 1e-12);
    }

    // Dirichlet(gamma/K) sends weights towards 0: log pi of -800 (pi underflows) must keep
    // the density and the gradient finite.
    void mixtureTinyWeightsStayFinite() {
        const Data d = makeData("normal-mixture", 40, 2, 21);
        const auto m = build("normal-mixture", d, 5);
        Eigen::VectorXd q = randomPoint(*m, 22);
        const auto* mix = dynamic_cast<const NormalMixture*>(m.get());
        QVERIFY(mix);
        // simplex coordinates are the K - 1 entries before log gamma
        const Eigen::Index off = q.size() - 1 - 4;
        q(off) = -800.0;
        q(off + 2) = -750.0;
        const Eigen::VectorXd logPi = mix->logWeights(q);
        QVERIFY(logPi.allFinite());
        QVERIFY(logPi(0) < -790.0);
        Eigen::VectorXd g;
        QVERIFY(std::isfinite(lp(*m, q, randomWeights(40, 23), &g)));
        QVERIFY(g.allFinite());
        Eigen::VectorXd l(40);
        m->recordLogLik(q, l);
        QVERIFY(l.allFinite());
    }

    // The weights' coordinates must carry exactly Dirichlet(gamma / K) with the Jacobian of
    // their map to (pi_1..pi_{K-1}), found here by finite differences, not from the sticks'
    // Beta algebra: with every alpha_i = 0 the change in the log density between two points
    // that differ in the weights and gamma is the change in
    // log Dirichlet(pi | gamma / K) + log |d pi / du| + log Gamma(gamma | 1, 1) + log gamma.
    void mixtureWeightsHaveDirichletPrior() {
        const int K = 5;
        const Data d = makeData("normal-mixture", 30, 2, 24);
        const auto m = build("normal-mixture", d, K);
        const auto* mix = dynamic_cast<const NormalMixture*>(m.get());
        QVERIFY(mix);
        const Eigen::Index off = static_cast<Eigen::Index>(m->dimension()) - K;  // K-1 + gamma
        const Eigen::VectorXd zero = Eigen::VectorXd::Zero(30);
        auto reference = [&](const Eigen::VectorXd& q) {
            const double gamma = std::exp(q(off + K - 1)), c = gamma / K;
            const Eigen::VectorXd logPi = mix->logWeights(q);
            Eigen::MatrixXd J(K - 1, K - 1);
            const double h = 1e-6;
            for (int j = 0; j < K - 1; ++j) {
                Eigen::VectorXd up = q, dn = q;
                up(off + j) += h;
                dn(off + j) -= h;
                J.col(j) = (mix->logWeights(up).array().exp() - mix->logWeights(dn).array().exp())
                               .head(K - 1)
                               .matrix() /
                           (2 * h);
            }
            return std::lgamma(gamma) - K * std::lgamma(c) + (c - 1.0) * logPi.sum() +
                   std::log(std::abs(J.determinant())) +
                   std::log(boost::math::pdf(boost::math::gamma_distribution<>(1.0, 1.0), gamma)) +
                   std::log(gamma);
        };
        const Eigen::VectorXd q1 = randomPoint(*m, 25, 0.8);
        for (std::uint64_t seed : {26, 27, 28}) {
            Eigen::VectorXd q2 = q1;
            const Eigen::VectorXd r = randomPoint(*m, seed, 0.8);
            q2.tail(K) = r.tail(K);
            const double got = lp(*m, q2, zero) - lp(*m, q1, zero);
            const double want = reference(q2) - reference(q1);
            QVERIFY2(
                close(got, want, 1e-6, 1e-6),
                qPrintable(QString("lp change %1, Dirichlet reference %2").arg(got).arg(want)));
        }
    }

    // Predictive draws: with an intercept-only design every record shares one distribution,
    // so the n draws are iid: mean and variance within 5 Monte Carlo standard errors
    // (SE of the variance from the sample fourth central moment).
    void predictMoments_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("K");
        QTest::newRow("poisson-means") << "poisson-means" << 1;
        QTest::newRow("poisson") << "poisson" << 1;
        QTest::newRow("negbin") << "negbin" << 1;
        QTest::newRow("normal") << "normal" << 1;
        QTest::newRow("mixture K=3") << "normal-mixture" << 3;
    }
    void predictMoments() {
        QFETCH(QString, family);
        QFETCH(int, K);
        const std::string fam = family.toStdString();
        const int n = 40000;
        const Data d = makeData(fam, n, 1, 24);
        const auto m = build(fam, d, K);
        Eigen::VectorXd q = randomPoint(*m, 25, 0.5);
        // Strong overdispersion (phi = 1) so the NB variance differs clearly from Poisson's.
        if (fam == "negbin") q(q.size() - 1) = 0.0;
        const Eigen::VectorXd th = m->constrain(q);
        double mean = 0, var = 0;
        if (fam == "poisson-means") {
            mean = var = th(0);  // theta = (mu)
        } else if (fam == "poisson") {
            mean = var = std::exp(th(0));
        } else if (fam == "negbin") {
            mean = std::exp(th(0));
            const double phi = th(th.size() - 1);
            var = mean + mean * mean / phi;
        } else if (fam == "normal") {
            mean = th(0);
            var = th(th.size() - 1) * th(th.size() - 1);
        } else {
            // theta = [beta (K), tau, sigma (K), pi (K), gamma]
            double m2 = 0;
            for (int k = 0; k < K; ++k) {
                const double mu = th(k), s = th(K + 1 + k), pi = th(2 * K + 1 + k);
                mean += pi * mu;
                m2 += pi * (s * s + mu * mu);
            }
            var = m2 - mean * mean;
        }
        QVERIFY(close(m->meanPrediction(q), mean, 1e-12));
        Rng rng = makeRng(3, 0, Purpose::Test);
        Eigen::VectorXd ys(n);
        m->predict(q, rng, ys);
        if (isCount(fam)) QVERIFY((ys.array() == ys.array().round()).all() && ys.minCoeff() >= 0);
        const double sm = ys.mean();
        const Eigen::ArrayXd c = ys.array() - sm;
        const double sv = c.square().sum() / (n - 1);
        const double m4 = c.square().square().mean();
        const double seMean = std::sqrt(var / n), seVar = std::sqrt((m4 - sv * sv) / n);
        QVERIFY2(std::abs(sm - mean) < 5 * seMean,
                 qPrintable(QString("mean %1 vs %2 (se %3)").arg(sm).arg(mean).arg(seMean)));
        QVERIFY2(std::abs(sv - var) < 5 * seVar,
                 qPrintable(QString("var %1 vs %2 (se %3)").arg(sv).arg(var).arg(seVar)));
    }

    // With covariates: the sum over records of (y*_i - E_i) / sqrt(sum Var_i) is standard
    // normal; its value over 20 predict calls averages to 0 within 5 / sqrt(20).
    void predictFollowsCovariates() {
        const Data d = makeData("negbin", 2000, 3, 26);
        const auto m = build("negbin", d);
        const Eigen::VectorXd q = randomPoint(*m, 27);
        const Eigen::VectorXd th = m->constrain(q);
        const double phi = th(th.size() - 1);
        const Eigen::ArrayXd mu = (d.X * th.head(3)).array().exp();
        const double sd = std::sqrt((mu + mu.square() / phi).sum());
        QVERIFY(close(m->meanPrediction(q), mu.mean(), 1e-12));
        Rng rng = makeRng(4, 0, Purpose::Test);
        Eigen::VectorXd ys(2000);
        double zsum = 0;
        for (int r = 0; r < 20; ++r) {
            m->predict(q, rng, ys);
            zsum += (ys.array() - mu).sum() / sd;
        }
        QVERIFY2(std::abs(zsum / 20) < 5 / std::sqrt(20.0), qPrintable(QString::number(zsum / 20)));
    }

    void parameterNames() {
        const Data d = makeData("normal", 10, 2, 28);
        QCOMPARE(build("normal", d)->parameterNames(),
                 (std::vector<std::string>{"beta[(Intercept)]", "beta[x1]", "tau[(Intercept)]",
                                           "tau[x1]", "sigma"}));
        const auto mix = build("normal-mixture", d, 2)->parameterNames();
        QCOMPARE(mix.front(), std::string("beta[1,(Intercept)]"));
        QCOMPARE(mix[3], std::string("beta[2,x1]"));
        QCOMPARE(mix.back(), std::string("gamma"));
        QCOMPARE(mix[mix.size() - 2], std::string("pi[2]"));
        Data c = makeData("negbin", 10, 2, 28);
        QCOMPARE(build("negbin", c)->parameterNames().back(), std::string("phi"));
        QCOMPARE(build("poisson-means", c)->parameterNames(), std::vector<std::string>{"mu"});
    }

    // Every family of the registry is a configuration's model.family that survives parse ->
    // JSON -> parse with its K, its priors and a transform it accepts, and the factory builds
    // it from that configuration: a family added to the registry alone is usable end to end.
    void registryFamiliesRoundTrip_data() {
        QTest::addColumn<QString>("family");
        for (const auto& f : familyRegistry())
            QTest::newRow(f.id.c_str()) << QString::fromStdString(f.id);
    }
    void registryFamiliesRoundTrip() {
        QFETCH(QString, family);
        const FamilyInfo* info = findFamily(family.toStdString());
        QVERIFY(info);
        QVERIFY(info->make);
        QVERIFY(!info->label.empty() && !info->tooltip.empty());
        QVERIFY(!info->transforms.empty() && !info->samplers.empty());
        std::string priors;
        for (const auto& name : info->priors) {
            const PriorInfo* p = findPrior(name);
            QVERIFY2(p, name.c_str());
            priors += (priors.empty() ? "\"" : ", \"") + name +
                      "\": " + std::to_string(2 * p->defaultValue());
        }
        // (No raw strings: moc does not parse them in this file.)
        const std::string q = "\"";
        const std::string text =
            "{" + q + "data" + q + ": {" + q + "path" + q + ": " + q + "d.csv" + q + ", " + q +
            "target" + q + ": " + q + "y" + q + ", " + q + "transform" + q + ": " + q +
            info->transforms.back() + q + "}, " + q + "model" + q + ": {" + q + "family" + q +
            ": " + q + info->id + q + ", " + q + "K" + q + ": 3, " + q + "priors" + q + ": {" +
            priors + "}}, " + q + "synthesizers" + q + ": [{" + q + "name" + q + ": " + q + "U" +
            q + ", " + q + "scheme" + q + ": " + q + "unweighted" + q + "}]}";
        const auto once = study::parseRunConfig(text);
        QVERIFY2(once, once ? "" : once.message().c_str());
        const auto config = study::parseRunConfig(study::toJson(*once));
        QVERIFY2(config, config ? "" : config.message().c_str());
        QCOMPARE(config->model.family, info->id);
        QCOMPARE(config->data.transform, info->transforms.back());
        const auto parsedPriors = study::priorsFromConfig(config->model.priors);
        QVERIFY(parsedPriors);
        // The priors the run reports for the family are exactly the registry's.
        const auto reported = study::priorValues(*parsedPriors, info->id);
        QCOMPARE(reported.size(), info->priors.size());
        for (const auto& name : info->priors)
            QCOMPARE(reported.at(name), 2 * findPrior(name)->defaultValue());

        ModelSpec spec;
        spec.family = config->model.family;
        spec.components = config->model.K;
        spec.priors = *parsedPriors;
        const Data d = makeData(info->counts ? "poisson" : "normal", 30, 2, 41);
        const auto m = makeModel(spec, d.X, d.y, d.names);
        QVERIFY2(m, m ? "" : m.message().c_str());
        QCOMPARE((*m)->family(), info->id);
        QCOMPARE((*m)->recordCount(), std::size_t{30});
        QCOMPARE(isCountFamily(info->id), info->counts);
        QCOMPARE(isMixtureFamily(info->id), info->mixture);
    }

    void factoryErrors_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<double>("badY");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative count")
            << "poisson" << -1.0
            << "the poisson model needs non-negative whole numbers, but row 3 has -1";
        QTest::newRow("fraction")
            << "negbin" << 2.5
            << "the negbin model needs non-negative whole numbers, but row 3 has 2.5";
        QTest::newRow("nan") << "normal" << std::numeric_limits<double>::quiet_NaN()
                             << "the response at row 3 is not a finite number";
        QTest::newRow("unknown family")
            << "gaussian" << 1.0
            << "unknown model family 'gaussian' (expected normal, normal-mixture, "
               "poisson, negbin or poisson-means)";
    }
    void factoryErrors() {
        QFETCH(QString, family);
        QFETCH(double, badY);
        QFETCH(QString, message);
        Data d = makeData("poisson", 5, 2, 29);
        d.y(2) = badY;
        ModelSpec spec;
        spec.family = family.toStdString();
        const auto m = makeModel(spec, d.X, d.y, d.names);
        QVERIFY(!m);
        QCOMPARE(QString::fromStdString(m.message()), message);
    }
    void factoryChecksSettings() {
        const Data d = makeData("normal", 5, 2, 30);
        ModelSpec spec;
        spec.priors.sigmaScale = -1;
        auto m = makeModel(spec, d.X, d.y);
        QVERIFY(!m);
        QVERIFY(QString::fromStdString(m.message()).contains("sigma scale"));
        spec = {};
        spec.family = "normal-mixture";
        spec.components = 0;
        QVERIFY(!makeModel(spec, d.X, d.y));
        spec = {};
        QVERIFY(!makeModel(spec, d.X, d.y.head(4)));
        QVERIFY(!makeModel(spec, d.X, d.y, {"a"}));
        QVERIFY(makeModel(spec, d.X, d.y).hasValue());
    }

    // The sparse copy of a dummy-coded X (built a block of columns at a time so it can be
    // cancelled) must give the dense products: same log density and gradient.
    void sparseDesignMatchesDense_data() {
        QTest::addColumn<QString>("family");
        for (const char* f : {"normal", "poisson", "negbin", "normal-mixture"})
            QTest::newRow(f) << QString(f);
    }
    void sparseDesignMatchesDense() {
        QFETCH(QString, family);
        const std::string fam = family.toStdString();
        const Data d = makeData(fam, 300, 150, 41, true);
        auto make = [&](bool allowSparse) -> std::unique_ptr<RegressionModel> {
            if (fam == "normal")
                return std::make_unique<NormalRegression>(d.X, d.y, d.names, Priors{}, allowSparse);
            if (fam == "poisson")
                return std::make_unique<PoissonRegression>(d.X, d.y, d.names, Priors{},
                                                           allowSparse);
            if (fam == "negbin")
                return std::make_unique<NegBinRegression>(d.X, d.y, d.names, Priors{}, allowSparse);
            return std::make_unique<NormalMixture>(d.X, d.y, 3, d.names, Priors{}, allowSparse);
        };
        const auto sparse = make(true), dense = make(false);
        QVERIFY(sparse->designIsSparse());
        QVERIFY(!dense->designIsSparse());
        for (std::uint64_t rep = 0; rep < 3; ++rep) {
            const Eigen::VectorXd q = randomPoint(*sparse, 300 + rep);
            const Eigen::VectorXd a = randomWeights(d.y.size(), 400 + rep);
            Eigen::VectorXd gs, gd;
            const double fs = lp(*sparse, q, a, &gs), fd = lp(*dense, q, a, &gd);
            QVERIFY_NEAR(fs, fd, 1e-9 * (1 + std::abs(fd)));
            QVERIFY_NEAR((gs - gd).cwiseAbs().maxCoeff(), 0.0,
                         1e-9 * (1 + gd.cwiseAbs().maxCoeff()));
        }
    }

    // Building a model scans X several times (seconds for thousands of dummy columns): a set
    // cancel flag gives "cancelled" for every family, never a half-built model.
    void factoryStopsWhenCancelled_data() {
        QTest::addColumn<QString>("family");
        for (const auto& f : modelFamilies()) QTest::newRow(f.c_str()) << QString::fromStdString(f);
    }
    void factoryStopsWhenCancelled() {
        QFETCH(QString, family);
        const Data d = makeData(family.toStdString(), 400, 300, 43, true);
        ModelSpec spec;
        spec.family = family.toStdString();
        spec.components = 3;
        std::atomic<bool> stop{true};
        spec.cancel = &stop;
        const auto m = makeModel(spec, d.X, d.y, d.names);
        QVERIFY(!m);
        QCOMPARE(m.kind(), ErrorKind::Cancelled);
        stop = false;
        QVERIFY(makeModel(spec, d.X, d.y, d.names).hasValue());
    }

    // NUTS can fling a trajectory far out (phi -> 0 or inf, sigma -> 0, gamma -> 0). At any
    // unconstrained point the log density must come back without throwing: either finite
    // with a finite gradient, or -inf (which the sampler counts as a divergence), never NaN
    // or +inf. Each coordinate alone and all of them together are pushed to the extremes.
    void extremePointsNeverThrow_data() { familyRows(); }
    void extremePointsNeverThrow() {
        QFETCH(QString, family);
        QFETCH(int, K);
        QFETCH(bool, dummies);
        const std::string fam = family.toStdString();
        const Data d = makeData(fam, 30, dummies ? 8 : 3, 41, dummies);
        const auto m = build(fam, d, K);
        const Eigen::VectorXd q0 = randomPoint(*m, 42);
        const Eigen::VectorXd a = randomWeights(d.y.size(), 43);
        const double inf = std::numeric_limits<double>::infinity();
        const std::vector<double> extremes{-inf, -1e6, -800, -745.5, -300, -40, -1e-300,
                                           0,    40,   300,  710,    800,  1e6, inf};
        auto check = [&](const Eigen::VectorXd& q, const QString& where) {
            Eigen::VectorXd g(q.size());
            double f = 0;
            try {
                f = m->logPosterior(q, a, g);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(where + ": threw " + e.what()));
            }
            QVERIFY2(!std::isnan(f) && f != inf, qPrintable(where + ": " + QString::number(f)));
            if (std::isfinite(f)) QVERIFY2(g.allFinite(), qPrintable(where + ": gradient"));
            Eigen::VectorXd l(d.y.size());
            m->recordLogLik(q, l);  // must not throw either
        };
        for (Eigen::Index j = 0; j < q0.size(); ++j)
            for (double v : extremes) {
                Eigen::VectorXd q = q0;
                q(j) = v;
                check(q, QString("coordinate %1 = %2").arg(j).arg(v));
            }
        for (double v : extremes)
            check(Eigen::VectorXd::Constant(q0.size(), v), QString("all = %1").arg(v));
    }

    // evaluate() is const and thread-safe: concurrent calls give the serial results.
    void concurrentEvaluationMatchesSerial() {
        const Data d = makeData("normal-mixture", 500, 3, 31);
        const auto m = build("normal-mixture", d, 6);
        const Eigen::VectorXd a = randomWeights(500, 32);
        std::vector<Eigen::VectorXd> qs;
        std::vector<double> serial;
        for (std::uint64_t t = 0; t < 8; ++t) {
            qs.push_back(randomPoint(*m, 40 + t));
            serial.push_back(lp(*m, qs.back(), a));
        }
        std::vector<int> bad(2, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 2; ++t)
            threads.emplace_back([&, t] {
                for (int rep = 0; rep < 50; ++rep)
                    for (std::size_t k = static_cast<std::size_t>(t); k < qs.size(); k += 2) {
                        const WeightedPosterior target(*m, a);
                        Eigen::VectorXd g(qs[k].size());
                        if (target.evaluate(qs[k], g) != serial[k])
                            ++bad[static_cast<std::size_t>(t)];
                    }
            });
        for (auto& th : threads) th.join();
        QCOMPARE(bad[0] + bad[1], 0);
    }
};

QTEST_APPLESS_MAIN(TstModels)
#include "tst_models.moc"
