// Utility of several sensitive variables (METHOD.md section 9): the correlation-matrix
// difference against a brute-force Pearson computation, the cross-regressions (each sensitive
// variable on the predictors and the others) against a direct OLS by the normal equations
// and the combining rules written out, and a run with two sensitive variables whose run.json
// holds every variable's report and the joint measures (a one-variable run's holds neither).
#include <Eigen/Dense>
#include <QTest>
#include <boost/math/distributions/students_t.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/joint_utility.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/utility_json.hpp"
#include "ppsynth/utility/correlation_difference.hpp"
#include "ppsynth/utility/cross_regression.hpp"

using namespace ppsynth;

namespace {

// Pearson r from its definition, loop by loop.
double pearson(const Eigen::MatrixXd& Y, Eigen::Index a, Eigen::Index b) {
    const double n = static_cast<double>(Y.rows());
    double ma = 0, mb = 0;
    for (Eigen::Index i = 0; i < Y.rows(); ++i) ma += Y(i, a) / n, mb += Y(i, b) / n;
    double sab = 0, saa = 0, sbb = 0;
    for (Eigen::Index i = 0; i < Y.rows(); ++i) {
        sab += (Y(i, a) - ma) * (Y(i, b) - mb);
        saa += (Y(i, a) - ma) * (Y(i, a) - ma);
        sbb += (Y(i, b) - mb) * (Y(i, b) - mb);
    }
    return sab / std::sqrt(saa * sbb);
}

// n x q correlated normals: column k = z_k + rho * column k-1.
Eigen::MatrixXd correlated(Rng& rng, Eigen::Index n, Eigen::Index q, double rho) {
    boost::random::normal_distribution<double> z(0.0, 1.0);
    Eigen::MatrixXd Y(n, q);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index k = 0; k < q; ++k) Y(i, k) = z(rng) + (k > 0 ? rho * Y(i, k - 1) : 0.0);
    return Y;
}

// Direct OLS by the normal equations: coefficients and sigma^2 (X'X)^-1's diagonal.
std::pair<Eigen::VectorXd, Eigen::VectorXd> directOls(const Eigen::MatrixXd& X,
                                                      const Eigen::VectorXd& y) {
    const Eigen::MatrixXd XtXi = (X.transpose() * X).inverse();
    const Eigen::VectorXd b = XtXi * X.transpose() * y;
    const Eigen::VectorXd r = y - X * b;
    const double s2 = r.squaredNorm() / static_cast<double>(X.rows() - X.cols());
    return {b, s2 * XtXi.diagonal()};
}

constexpr std::size_t kN = 300;

data::Table twoTargets(std::size_t n = kN) {
    auto rng = makeRng(20261128, 0, Purpose::Test);
    boost::random::normal_distribution<double> z(0.0, 1.0);
    std::vector<double> x, y1, y2;
    for (std::size_t i = 0; i < n; ++i) {
        x.push_back(z(rng));
        y1.push_back(2 + 0.5 * x.back() + 0.5 * z(rng));
        y2.push_back(1 + 0.8 * y1.back() - 0.3 * x.back() + 0.4 * z(rng));
    }
    data::Table t;
    auto add = [&t](data::Column c) { [[maybe_unused]] auto s = t.addColumn(std::move(c)); };
    add(data::Column::numeric("x", x));
    add(data::Column::numeric("y1", y1));
    add(data::Column::numeric("y2", y2));
    return t;
}

study::RunConfig runConfig(bool several) {
    study::RunConfig c;
    c.data.path = "simulated.csv";
    c.data.target = "y1";
    if (several) c.data.targets = {"y1", "y2"};
    c.data.predictors = {"x"};
    c.model.family = "normal";
    c.mcmc.chains = 2;
    c.mcmc.warmup = 150;
    c.mcmc.draws = 150;
    c.mcmc.threads = 2;
    c.mcmc.seed = 5;
    c.synthesis.m = 4;
    c.risk.L = 4;
    c.utility.bootstrap = 50;
    study::SynthesizerConfig u;
    u.name = "Unweighted";
    c.synthesizers = {u};
    return c;
}

}  // namespace

class TstJointUtility : public QObject {
    Q_OBJECT
  private slots:
    void correlationDifferenceIsBruteForce_data() {
        QTest::addColumn<int>("q");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::newRow("q 2, m 1") << 2 << 1 << 7;
        QTest::newRow("q 2, m 3") << 2 << 3 << 25;
        QTest::newRow("q 3, m 5") << 3 << 5 << 40;
        QTest::newRow("q 4, m 2") << 4 << 2 << 12;
    }
    void correlationDifferenceIsBruteForce() {
        QFETCH(int, q);
        QFETCH(int, m);
        QFETCH(int, n);
        auto rng = makeRng(static_cast<std::uint64_t>(100 * q + m), 0, Purpose::Test);
        const Eigen::MatrixXd Yo = correlated(rng, n, q, 0.7);
        std::vector<Eigen::MatrixXd> Ys;
        for (int l = 0; l < m; ++l) Ys.push_back(correlated(rng, n, q, 0.3 * l));
        std::vector<std::string> names;
        for (int k = 0; k < q; ++k) names.push_back("v" + std::to_string(k + 1));
        auto d = utility::correlationDifference(Yo, Ys, names);
        QVERIFY2(d.hasValue(), d ? "" : d.message().c_str());
        QCOMPARE(d->pairs.size(), static_cast<std::size_t>(q * (q - 1) / 2));
        double frobenius = 0, maxAbs = 0;
        std::vector<double> perDataset(static_cast<std::size_t>(m), 0.0);
        std::size_t k = 0;
        for (int a = 0; a < q; ++a)
            for (int b = a + 1; b < q; ++b, ++k) {
                const auto& p = d->pairs[k];
                QCOMPARE(p.a, names[static_cast<std::size_t>(a)]);
                QCOMPARE(p.b, names[static_cast<std::size_t>(b)]);
                const double ro = pearson(Yo, a, b);
                QVERIFY(std::abs(p.original - ro) < 1e-12);
                double mean = 0, meanAbs = 0;
                for (int l = 0; l < m; ++l) {
                    const double rl = pearson(Ys[static_cast<std::size_t>(l)], a, b);
                    QVERIFY(std::abs(p.perDataset[static_cast<std::size_t>(l)] - rl) < 1e-12);
                    mean += rl / m;
                    meanAbs += std::abs(rl - ro) / m;
                    // Both triangles of the symmetric difference.
                    perDataset[static_cast<std::size_t>(l)] += 2 * (rl - ro) * (rl - ro);
                    maxAbs = std::max(maxAbs, std::abs(rl - ro));
                }
                QVERIFY(std::abs(p.synthetic - mean) < 1e-12);
                QVERIFY(std::abs(p.difference - (mean - ro)) < 1e-12);
                QVERIFY(std::abs(p.meanAbsDifference - meanAbs) < 1e-12);
            }
        for (int l = 0; l < m; ++l) {
            const double f = std::sqrt(perDataset[static_cast<std::size_t>(l)]);
            QVERIFY(std::abs(d->perDatasetFrobenius[static_cast<std::size_t>(l)] - f) < 1e-12);
            frobenius += f / m;
        }
        QVERIFY(std::abs(d->frobenius - frobenius) < 1e-12);
        QCOMPARE(d->maxAbs, maxAbs);
    }

    // A hand-computed case: the original's two columns are exactly linear (r = 1), the
    // synthetic's are orthogonal (r = 0): the pair's difference is -1, ||D||_F = sqrt(2).
    void correlationDifferenceByHand() {
        Eigen::MatrixXd Yo(4, 2), Ys(4, 2);
        Yo << 1, 3, 2, 5, 3, 7, 4, 9;
        Ys << 1, 1, -1, 1, 1, -1, -1, -1;
        auto d = utility::correlationDifference(Yo, {Ys}, {"a", "b"});
        QVERIFY(d.hasValue());
        QVERIFY(std::abs(d->pairs[0].original - 1) < 1e-12);
        QVERIFY(std::abs(d->pairs[0].synthetic) < 1e-12);
        QVERIFY(std::abs(d->pairs[0].difference + 1) < 1e-12);
        QVERIFY(std::abs(d->frobenius - std::sqrt(2.0)) < 1e-12);
    }

    void constantVariableIsNamed() {
        Eigen::MatrixXd Yo(3, 2), Ys(3, 2);
        Yo << 1, 2, 2, 3, 3, 5;
        Ys << 1, 4, 2, 4, 3, 4;
        auto d = utility::correlationDifference(Yo, {Ys}, {"income", "food"});
        QVERIFY(!d);
        QVERIFY2(d.message().find("synthetic dataset 1") != std::string::npos, d.message().c_str());
        QVERIFY2(d.message().find("'food' is constant") != std::string::npos, d.message().c_str());
    }

    // regressionUtilityPerDataset against the normal equations and Reiter's rules by hand.
    void crossRegressionIsDirectOls() {
        auto rng = makeRng(42, 0, Purpose::Test);
        const Eigen::Index n = 60;
        const std::size_t m = 3;
        auto design = [&](const Eigen::MatrixXd& Y) {
            Eigen::MatrixXd X(n, 3);
            X.col(0).setOnes();
            X.col(1) = Y.col(0);
            X.col(2) = Y.col(2);
            return X;
        };
        const Eigen::MatrixXd Yo = correlated(rng, n, 3, 0.8);
        std::vector<Eigen::MatrixXd> Xs;
        std::vector<std::vector<double>> ys;
        std::vector<Eigen::MatrixXd> Ys;
        for (std::size_t l = 0; l < m; ++l) {
            Ys.push_back(correlated(rng, n, 3, 0.6));
            Xs.push_back(design(Ys.back()));
            ys.emplace_back(Ys.back().col(1).data(), Ys.back().col(1).data() + n);
        }
        const Eigen::VectorXd yo = Yo.col(1);
        auto r = utility::regressionUtilityPerDataset(design(Yo),
                                                      std::vector<double>(yo.data(), yo.data() + n),
                                                      Xs, ys, {"(Intercept)", "v1", "v3"});
        QVERIFY2(r.hasValue(), r ? "" : r.message().c_str());
        const auto [bo, vo] = directOls(design(Yo), yo);
        Eigen::MatrixXd q(3, m), u(3, m);
        for (std::size_t l = 0; l < m; ++l) {
            const auto [b, v] = directOls(Xs[l], Ys[l].col(1));
            q.col(static_cast<Eigen::Index>(l)) = b;
            u.col(static_cast<Eigen::Index>(l)) = v;
        }
        for (Eigen::Index j = 0; j < 3; ++j) {
            const auto& c = r->coefficients[static_cast<std::size_t>(j)];
            QVERIFY(std::abs(c.original - bo(j)) < 1e-10);
            const double qbar = q.row(j).mean();
            const double b = (q.row(j).array() - qbar).square().sum() / (m - 1);
            const double ubar = u.row(j).mean();
            QVERIFY(std::abs(c.synthetic.qbar - qbar) < 1e-10);
            QVERIFY(std::abs(c.synthetic.b - b) < 1e-10);
            QVERIFY(std::abs(c.synthetic.ubar - ubar) < 1e-10);
            QVERIFY(std::abs(c.synthetic.T - (b / m + ubar)) < 1e-10);
            // The original interval is the t interval with n - p degrees of freedom.
            const double t = boost::math::quantile(
                boost::math::students_t_distribution<double>(static_cast<double>(n - 3)), 0.975);
            QVERIFY(std::abs(c.originalInterval.lower - (bo(j) - t * std::sqrt(vo(j)))) < 1e-10);
            QVERIFY(std::abs(c.originalInterval.upper - (bo(j) + t * std::sqrt(vo(j)))) < 1e-10);
        }
    }

    // computeJointUtility regresses each variable on the predictors and the OTHER variables.
    void jointRegressionsUseTheOtherVariables() {
        auto rng = makeRng(7, 0, Purpose::Test);
        const Eigen::Index n = 80;
        boost::random::normal_distribution<double> z(0.0, 1.0);
        study::JointUtilityInputs in;
        in.targets = {"a", "b", "c"};
        in.original = correlated(rng, n, 3, 0.5);
        for (int l = 0; l < 3; ++l) in.synthetic.push_back(correlated(rng, n, 3, 0.5));
        Eigen::VectorXd x(n);
        for (Eigen::Index i = 0; i < n; ++i) x(i) = z(rng);
        in.regressionDesign = Eigen::MatrixXd(n, 2);
        in.regressionDesign << Eigen::VectorXd::Ones(n), x;
        in.regressionNames = {"(Intercept)", "x"};
        in.propensityPredictors = x;
        in.propensityNames = {"x"};
        study::UtilityOptions options;
        auto j = study::computeJointUtility(in, options);
        QVERIFY2(j.hasValue(), j ? "" : j.message().c_str());
        QCOMPARE(j->regressions.size(), std::size_t{3});
        const auto& rb = j->regressions[1];
        QCOMPARE(rb.target, std::string("b"));
        QCOMPARE(rb.terms.size(), std::size_t{4});
        QCOMPARE(rb.terms[2].term, std::string("a"));
        QCOMPARE(rb.terms[3].term, std::string("c"));
        Eigen::MatrixXd X(n, 4);
        X << Eigen::VectorXd::Ones(n), x, in.original.col(0), in.original.col(2);
        const auto [bo, vo] = directOls(X, in.original.col(1));
        for (Eigen::Index t = 0; t < 4; ++t)
            QVERIFY(std::abs(rb.terms[static_cast<std::size_t>(t)].original.estimate - bo(t)) <
                    1e-10);
        // pMSE over x and all three variables: k = 1 + 1 + 3; its reference 2 q / (k - 1).
        QVERIFY(j->pmse.computed);
        QCOMPARE(j->pmse.k, 5);
        QVERIFY(std::abs(j->pmse.sPmseReference - 2.0 * 3 / 4) < 1e-12);
        QVERIFY(j->correlationComputed);
        QCOMPARE(j->correlation.pairs.size(), std::size_t{3});
    }

    // A run with two sensitive variables: run.json's utility holds each variable's report,
    // named, and the joint measures; they read back. One variable: neither key.
    void runJsonHasEveryVariableAndTheJoint() {
        const auto table = twoTargets();
        auto run = study::runStudy(runConfig(true), table);
        QVERIFY2(run.hasValue(), run ? "" : run.message().c_str());
        const auto& s = run->synthesizers.front();
        QVERIFY2(s.utility.has_value(), s.utilityError.c_str());
        const auto j = nlohmann::json::parse(study::runSummaryJson(*run));
        const auto& u = j.at("synthesizers").at("Unweighted").at("utility");
        QCOMPARE(u.at("target").get<std::string>(), std::string("y1"));
        QCOMPARE(u.at("variables").size(), std::size_t{2});
        QCOMPARE(u.at("variables")[0].at("target").get<std::string>(), std::string("y1"));
        QCOMPARE(u.at("variables")[1].at("target").get<std::string>(), std::string("y2"));
        // y2's own report measures y2: its original mean is y2's.
        double mean2 = 0;
        for (std::size_t i = 0; i < kN; ++i) mean2 += table.find("y2")->value(i) / kN;
        QVERIFY(std::abs(u.at("variables")[1]
                             .at("statistics")[0]
                             .at("original")
                             .at("estimate")
                             .get<double>() -
                         mean2) < 1e-9);
        // Its parameters are y2's own.
        for (const auto& p : u.at("variables")[1].at("parameters"))
            QVERIFY(p.at("name").get<std::string>().rfind("y2: ", 0) == 0);
        QVERIFY(!u.at("variables")[1].at("parameters").empty());
        const auto& joint = u.at("joint");
        QCOMPARE(joint.at("targets").size(), std::size_t{2});
        QCOMPARE(joint.at("regressions").size(), std::size_t{2});
        QCOMPARE(joint.at("regressions")[1].at("target").get<std::string>(), std::string("y2"));
        // y2 on (intercept, x, y1).
        const auto& terms = joint.at("regressions")[1].at("terms");
        QCOMPARE(terms.size(), std::size_t{3});
        QCOMPARE(terms[2].at("term").get<std::string>(), std::string("y1"));
        QVERIFY(std::abs(terms[2].at("original").at("estimate").get<double>() - 0.8) < 0.1);
        QVERIFY(terms[2].at("ci_overlap").is_number());
        QCOMPARE(joint.at("correlation").at("norm").get<std::string>(), std::string("frobenius"));
        QCOMPARE(joint.at("correlation").at("pairs").size(), std::size_t{1});
        QVERIFY(joint.at("pmse").at("s_pmse").is_number());
        // It reads back.
        auto back = study::utilityReportFromJson(u.dump());
        QVERIFY2(back.hasValue(), back ? "" : back.message().c_str());
        QCOMPARE(back->variables.size(), std::size_t{2});
        QVERIFY(back->joint.has_value());
        QCOMPARE(study::toJson(*back), study::toJson(*s.utility));

        auto one = study::runStudy(runConfig(false), table);
        QVERIFY2(one.hasValue(), one ? "" : one.message().c_str());
        const auto j1 = nlohmann::json::parse(study::runSummaryJson(*one));
        const auto& u1 = j1.at("synthesizers").at("Unweighted").at("utility");
        QVERIFY(!u1.contains("variables"));
        QVERIFY(!u1.contains("joint"));
    }
};

QTEST_APPLESS_MAIN(TstJointUtility)
#include "tst_joint_utility.moc"
