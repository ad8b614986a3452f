#include <QTest>
#include <boost/random/normal_distribution.hpp>
#include <set>

#include "../common/near.hpp"
#include "ppsynth/study/synthesis.hpp"

using namespace ppsynth;

namespace {
// y*_i ~ Normal(q[0] + i, 1): enough to tell draws and records apart.
class ShiftModel final : public models::Model {
  public:
    explicit ShiftModel(std::size_t n) : n_(n) {}
    std::string family() const override { return "shift"; }
    std::size_t recordCount() const override { return n_; }
    std::size_t dimension() const override { return 1; }
    std::vector<std::string> parameterNames() const override { return {"mu"}; }
    Eigen::VectorXd constrain(const Eigen::VectorXd& q) const override { return q; }
    double logPosterior(const Eigen::VectorXd&, const Eigen::VectorXd&,
                        Eigen::VectorXd& g) const override {
        g.setZero();
        return 0;
    }
    void recordLogLik(const Eigen::VectorXd&, Eigen::Ref<Eigen::VectorXd> out) const override {
        out.setZero();
    }
    void predict(const Eigen::VectorXd& q, Rng& rng,
                 Eigen::Ref<Eigen::VectorXd> out) const override {
        boost::random::normal_distribution<double> z(0.0, 1.0);
        for (Eigen::Index i = 0; i < out.size(); ++i)
            out[i] = q[0] + static_cast<double>(i) + z(rng);
    }
    Eigen::VectorXd initialPoint(Rng&) const override { return Eigen::VectorXd::Zero(1); }
    double meanPrediction(const Eigen::VectorXd& q) const override { return q[0]; }

  private:
    std::size_t n_;
};
}  // namespace

class TstSynthesis : public QObject {
    Q_OBJECT
  private slots:
    void chosenDrawsAreDistinctAndRetained() {
        std::vector<std::size_t> retained{3, 5, 8, 13, 21, 34, 55};
        auto c = study::chooseDraws(retained, 5, 42);
        QVERIFY(c.hasValue());
        std::set<std::size_t> s(c->begin(), c->end());
        QCOMPARE(s.size(), std::size_t{5});
        for (auto v : s) QVERIFY(std::find(retained.begin(), retained.end(), v) != retained.end());
        QCOMPARE(*study::chooseDraws(retained, 5, 42), *c);
        QVERIFY(*study::chooseDraws(retained, 5, 43) != *c);
    }
    void selectionIsUniform() {
        // Each of 10 draws is picked with probability 3/10; over 4000 seeds the counts are
        // Binomial(4000, 0.3): mean 1200, sd 29. Allow 5 sd.
        std::vector<std::size_t> retained(10);
        std::iota(retained.begin(), retained.end(), std::size_t{0});
        std::vector<int> counts(10, 0);
        for (std::uint64_t seed = 0; seed < 4000; ++seed)
            for (auto v : *study::chooseDraws(retained, 3, seed)) ++counts[v];
        for (int c : counts) QVERIFY2(std::abs(c - 1200) < 5 * 29, std::to_string(c).c_str());
    }
    void tooFewDrawsIsAnError() {
        auto c = study::chooseDraws({1, 2}, 3, 1);
        QVERIFY(!c.hasValue());
        QCOMPARE(c.message(),
                 std::string("cannot make 3 synthetic datasets from 2 retained draws: each dataset "
                             "needs its own draw; sample more draws or lower m/L"));
    }
    void sameForAnyThreadCountAndBackTransformed() {
        ShiftModel model(50);
        Eigen::MatrixXd draws(4, 1);
        draws << 0, 100, 200, 300;
        study::SynthesisOptions o;
        o.seed = 9;
        o.backTransform = [](double v) { return 2 * v; };
        auto one = study::synthesize(model, draws, {3, 1}, o);
        o.threads = 4;
        auto four = study::synthesize(model, draws, {3, 1}, o);
        QVERIFY(one.hasValue() && four.hasValue());
        QCOMPARE(*one, *four);
        // Dataset 0 comes from draw 3 (mu = 300), back-transformed by doubling.
        QVERIFY_NEAR((*one)[0][0], 600, 10);
        QVERIFY_NEAR((*one)[1][10], 2 * (100 + 10), 10);
    }
    void countsStayWhole() {
        ShiftModel model(20);
        Eigen::MatrixXd draws = Eigen::MatrixXd::Constant(1, 1, 5.0);
        study::SynthesisOptions o;
        o.integer = true;
        auto d = study::synthesize(model, draws, {0}, o);
        // Not vacuous: one dataset of all 20 records, which are not whole before rounding.
        QVERIFY(d.hasValue());
        QCOMPARE(d->size(), std::size_t{1});
        QCOMPARE((*d)[0].size(), std::size_t{20});
        for (double v : (*d)[0]) QCOMPARE(v, std::round(v));
        o.integer = false;
        auto raw = study::synthesize(model, draws, {0}, o);
        QVERIFY(raw.hasValue() && (*raw)[0].size() == 20);
        QVERIFY(std::any_of((*raw)[0].begin(), (*raw)[0].end(),
                            [](double v) { return v != std::round(v); }));
    }
    // A back-transform that overflows (exp of a draw far out on the model's scale) never
    // yields a dataset holding inf or NaN: synthesis stops, naming the dataset and record.
    void nonFiniteValuesAreRefused_data() {
        QTest::addColumn<double>("mu");
        QTest::addColumn<QString>("what");
        QTest::newRow("exp overflows") << 800.0 << "infinite";
        QTest::newRow("log of negatives") << -100.0 << "not a number";
    }
    void nonFiniteValuesAreRefused() {
        QFETCH(double, mu);
        QFETCH(QString, what);
        ShiftModel model(5);
        Eigen::MatrixXd draws = Eigen::MatrixXd::Constant(1, 1, mu);
        study::SynthesisOptions o;
        o.backTransform = [mu](double v) { return mu > 0 ? std::exp(v) : std::log(v); };
        auto d = study::synthesize(model, draws, {0}, o);
        QVERIFY(!d.hasValue());
        QVERIFY2(d.message().find("synthetic dataset 1, modelled record 1: the synthetic value "
                                  "is " +
                                  what.toStdString()) != std::string::npos,
                 d.message().c_str());
    }
};

QTEST_APPLESS_MAIN(TstSynthesis)
#include "tst_synthesis.moc"
