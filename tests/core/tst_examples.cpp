// The bundled examples: reproducible from a seed, the documented shapes, and the generating
// distributions recovered within Monte Carlo error (4 standard errors, so a correct
// generator fails a single check with probability about 6e-5).
#include <QTest>
#include <algorithm>
#include <cmath>
#include <set>

#include "../common/near.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/data/number_format.hpp"

using namespace ppsynth::data;

Q_DECLARE_METATYPE(ExampleId)

namespace {

struct Moments {
    double mean = 0, var = 0, mu4 = 0;  // mean, variance, fourth central moment
};

// Exact moments of a distribution on 0..kMax from its log pmf (the tail beyond kMax is
// negligible for the means and sizes used here).
template <typename LogPmf>
Moments momentsFromPmf(LogPmf logPmf) {
    constexpr int kMax = 6000;
    Moments m;
    for (int k = 0; k <= kMax; ++k) m.mean += k * std::exp(logPmf(k));
    for (int k = 0; k <= kMax; ++k) {
        const double p = std::exp(logPmf(k)), d = k - m.mean;
        m.var += p * d * d;
        m.mu4 += p * d * d * d * d;
    }
    return m;
}

double poissonLogPmf(int k, double lambda) {
    return k * std::log(lambda) - lambda - std::lgamma(k + 1.0);
}
// NB2 with mean mu and size r: Var = mu + mu^2 / r.
double nbLogPmf(int k, double mu, double r) {
    return std::lgamma(k + r) - std::lgamma(r) - std::lgamma(k + 1.0) + r * std::log(r / (r + mu)) +
           k * std::log(mu / (r + mu));
}

Moments sampleMoments(const std::vector<double>& y) {
    Moments m;
    for (double v : y) m.mean += v;
    m.mean /= static_cast<double>(y.size());
    for (double v : y) m.var += (v - m.mean) * (v - m.mean);
    m.var /= static_cast<double>(y.size() - 1);
    return m;
}

std::vector<std::size_t> levelCounts(const Column& c) {
    std::vector<std::size_t> n(c.levels().size(), 0);
    for (auto code : c.codes()) ++n[static_cast<std::size_t>(code)];
    return n;
}

double normalCdf(double z) {
    return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

}  // namespace

class TstExamples : public QObject {
    Q_OBJECT
  private slots:
    void listMatchesIds() {
        const auto& list = exampleList();
        QCOMPARE(list.size(), std::size_t{5});
        for (std::size_t i = 0; i < list.size(); ++i) {
            QCOMPARE(static_cast<std::size_t>(list[i].id), i);
            QVERIFY(exampleFromName(list[i].name) == list[i].id);
            QVERIFY(!list[i].description.empty());
        }
        QVERIFY(exampleInfo(ExampleId::IncomeSurvey).name == "income_survey");
    }

    void unknownNameIsAnError() {
        auto t = makeExample("incomes");
        QVERIFY(!t.hasValue());
        QCOMPARE(t.message(),
                 std::string(
                     "there is no example named 'incomes'; the examples are "
                     "poisson, nb_mixture, income_survey, lognormal_mixture, household_spending"));
    }

    void reproducible_data() {
        QTest::addColumn<ExampleId>("id");
        for (const auto& e : exampleList()) QTest::newRow(e.name.data()) << e.id;
    }
    void reproducible() {
        QFETCH(ExampleId, id);
        const Table a = makeExample(id), b = makeExample(id);
        QVERIFY(a == b);
        QVERIFY(makeExample(id, exampleInfo(id).defaultSeed) == a);
        QVERIFY(makeExample(id, 7) == makeExample(id, 7));
        QVERIFY(!(makeExample(id, 7) == a));
        QVERIFY(!(makeExample(id, 7) == makeExample(id, 8)));
        // By name gives the same table.
        auto byName = makeExample(exampleInfo(id).name);
        QVERIFY(byName.hasValue());
        QVERIFY(*byName == a);
    }

    void shapes_data() {
        QTest::addColumn<ExampleId>("id");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("columns");
        QTest::newRow("poisson") << ExampleId::Poisson << 1000 << 1;
        QTest::newRow("nb_mixture") << ExampleId::NbMixture << 1000 << 1;
        QTest::newRow("income_survey") << ExampleId::IncomeSurvey << 6208 << 12;
        QTest::newRow("lognormal_mixture") << ExampleId::LognormalMixture << 1000 << 16;
        QTest::newRow("household_spending") << ExampleId::HouseholdSpending << 2000 << 10;
    }
    void shapes() {
        QFETCH(ExampleId, id);
        QFETCH(int, rows);
        QFETCH(int, columns);
        const Table t = makeExample(id);
        QCOMPARE(t.rowCount(), static_cast<std::size_t>(rows));
        QCOMPARE(t.columnCount(), static_cast<std::size_t>(columns));
        QCOMPARE(exampleInfo(id).rows, static_cast<std::size_t>(rows));
        const Column* target = t.find(exampleInfo(id).target);
        QVERIFY(target);
        QVERIFY(target->type() == ColumnType::Numeric || target->type() == ColumnType::Count);
        for (auto k : exampleInfo(id).known) {
            const Column* c = t.find(k);
            QVERIFY(c);
            QVERIFY(c->type() == ColumnType::Categorical);
        }
        for (const auto& c : t.columns()) QCOMPARE(c.missingCount(), std::size_t{0});
    }

    void incomeSurveyPredictors_data() {
        QTest::addColumn<QString>("column");
        QTest::addColumn<int>("levels");
        QTest::newRow("gender") << "gender" << 2;
        QTest::newRow("age") << "age" << 5;
        QTest::newRow("education") << "education" << 8;
        QTest::newRow("region") << "region" << 4;
        QTest::newRow("urban") << "urban" << 2;
        QTest::newRow("marital") << "marital" << 5;
        QTest::newRow("urban_type") << "urban_type" << 3;
        QTest::newRow("cbsa") << "cbsa" << 3;
        QTest::newRow("family_size") << "family_size" << 11;
        QTest::newRow("earners") << "earners" << 2;
    }
    void incomeSurveyPredictors() {
        QFETCH(QString, column);
        QFETCH(int, levels);
        for (std::uint64_t seed : {exampleInfo(ExampleId::IncomeSurvey).defaultSeed,
                                   std::uint64_t{1}, std::uint64_t{2}}) {
            const Table t = makeExample(ExampleId::IncomeSurvey, seed);
            const Column* c = t.find(column.toStdString());
            QVERIFY(c);
            QVERIFY(c->type() == ColumnType::Categorical);
            QCOMPARE(c->levels().size(), static_cast<std::size_t>(levels));
            // Every level occurs, and every label is text a CSV reader cannot take for a number.
            for (auto n : levelCounts(*c)) QVERIFY(n > 0);
            for (const auto& l : c->levels()) {
                QVERIFY(!l.label.empty());
                QVERIFY2(!parseNumber(l.label), l.label.c_str());
            }
        }
    }

    void incomeSurveyKnownPatternsAreNotSingletons() {
        // Papers 004/000: {gender, age, region} give 40 patterns, none with a single CU.
        const Table t = makeExample(ExampleId::IncomeSurvey);
        std::vector<int> n(40, 0);
        for (std::size_t i = 0; i < t.rowCount(); ++i)
            ++n[static_cast<std::size_t>(t.find("gender")->code(i) * 20 +
                                         t.find("age")->code(i) * 4 + t.find("region")->code(i))];
        QVERIFY(*std::min_element(n.begin(), n.end()) > 1);
    }

    void incomeRange_data() {
        QTest::addColumn<quint64>("seed");
        QTest::newRow("default") << quint64(exampleInfo(ExampleId::IncomeSurvey).defaultSeed);
        for (quint64 s : {1, 2, 3, 4, 5}) QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s;
    }
    void incomeRange() {
        QFETCH(quint64, seed);
        const Table t = makeExample(ExampleId::IncomeSurvey, seed);
        const Column* income = t.find("income");
        QVERIFY(income);
        QVERIFY(income->type() == ColumnType::Numeric);
        const auto& y = income->values();
        const auto [lo, hi] = std::minmax_element(y.begin(), y.end());
        QVERIFY2(*lo >= -7000 && *lo < 0, qPrintable(QString::number(*lo)));
        // The tail reaches far (~50 bounded-Pareto draws above 250K; P(none above 500K) ~ 1e-11)
        // but never past the papers' 1.8M.
        QVERIFY2(*hi <= 1'800'000 && *hi >= 500'000, qPrintable(QString::number(*hi)));
        const auto negatives = std::count_if(y.begin(), y.end(), [](double v) { return v < 0; });
        QVERIFY2(negatives >= 5 && negatives <= 15, qPrintable(QString::number(negatives)));
        for (double v : y) QCOMPARE(v, std::round(v));  // whole dollars
        // Right skew as in the papers: mean well above median (72K vs 50K there).
        std::vector<double> s(y);
        std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
        const double median = s[s.size() / 2];
        const double mean = sampleMoments(y).mean;
        QVERIFY(median > 35'000 && median < 70'000);
        QVERIFY(mean > 1.2 * median);
    }

    void countColumns_data() {
        QTest::addColumn<ExampleId>("id");
        QTest::addColumn<QString>("column");
        QTest::newRow("poisson") << ExampleId::Poisson << "y";
        QTest::newRow("nb_mixture") << ExampleId::NbMixture << "y";
        QTest::newRow("doctor_visits") << ExampleId::IncomeSurvey << "doctor_visits";
    }
    void countColumns() {
        QFETCH(ExampleId, id);
        QFETCH(QString, column);
        const Table t = makeExample(id);
        const Column* c = t.find(column.toStdString());
        QVERIFY(c);
        QVERIFY(c->type() == ColumnType::Count);
        for (double v : c->values()) {
            QVERIFY(v >= 0);
            QCOMPARE(v, std::round(v));
        }
    }

    void doctorVisitsOverDispersed() {
        const Table t = makeExample(ExampleId::IncomeSurvey);  // v must not outlive the table
        const auto& v = t.find("doctor_visits")->values();
        const Moments m = sampleMoments(v);
        const double zeros = static_cast<double>(std::count(v.begin(), v.end(), 0.0)) /
                             static_cast<double>(v.size());
        QVERIFY2(m.mean > 2 && m.mean < 5, qPrintable(QString::number(m.mean)));
        QVERIFY(m.var > 3 * m.mean);  // NB size 0.9: Var = mu + mu^2/0.9, about 4.7 mu
        QVERIFY2(zeros > 0.15 && zeros < 0.40, qPrintable(QString::number(zeros)));
    }

    void countMoments_data() {
        QTest::addColumn<ExampleId>("id");
        QTest::addColumn<quint64>("seed");
        for (quint64 s : {quint64(0), quint64(1), quint64(2)}) {
            QTest::newRow(qPrintable(QString("poisson %1").arg(s))) << ExampleId::Poisson << s;
            QTest::newRow(qPrintable(QString("nb_mixture %1").arg(s))) << ExampleId::NbMixture << s;
        }
    }
    void countMoments() {
        QFETCH(ExampleId, id);
        QFETCH(quint64, seed);
        // Seed 0 stands for the default seed.
        const Table t = makeExample(id, seed == 0 ? exampleInfo(id).defaultSeed : seed);
        const auto& y = t.column(0).values();
        const double n = static_cast<double>(y.size());
        // Population moments from the pmf. The two NB components share mean 100, so the
        // mixture's central moments are the weighted components' (Var = 100 + 1e4*0.08 = 900).
        Moments p;
        if (id == ExampleId::Poisson) {
            p = momentsFromPmf([](int k) { return poissonLogPmf(k, 100); });
            QVERIFY_NEAR(p.var, 100, 1e-6);
        } else {
            const Moments a = momentsFromPmf([](int k) { return nbLogPmf(k, 100, 5); });
            const Moments b = momentsFromPmf([](int k) { return nbLogPmf(k, 100, 20); });
            p = {0.2 * a.mean + 0.8 * b.mean, 0.2 * a.var + 0.8 * b.var, 0.2 * a.mu4 + 0.8 * b.mu4};
            QVERIFY_NEAR(p.var, 900, 1e-6);
        }
        // SE of the mean sqrt(Var/n); SE of the sample variance sqrt((mu4 - Var^2 (n-3)/(n-1))/n).
        const double seMean = std::sqrt(p.var / n);
        const double seVar = std::sqrt((p.mu4 - p.var * p.var * (n - 3) / (n - 1)) / n);
        const Moments s = sampleMoments(y);
        QVERIFY2(
            std::abs(s.mean - p.mean) < 4 * seMean,
            qPrintable(QString("mean %1 vs %2 +- %3").arg(s.mean).arg(p.mean).arg(4 * seMean)));
        QVERIFY2(std::abs(s.var - p.var) < 4 * seVar,
                 qPrintable(QString("var %1 vs %2 +- %3").arg(s.var).arg(p.var).arg(4 * seVar)));
    }

    // Three related sensitive variables: whole, positive expenditures that follow income (the
    // marginal log-log slopes, which add the predictors' shared effects to the elasticities
    // 0.35 and 0.55, in wide bands; households with incomes of 5000 or more) and housing
    // following food.
    void householdSpending() {
        const Table t = makeExample(ExampleId::HouseholdSpending);
        const auto* income = t.find("income");
        const auto* food = t.find("exp_food");
        const auto* housing = t.find("exp_housing");
        QVERIFY(income && food && housing);
        std::vector<double> li, lf, lh;
        for (std::size_t i = 0; i < t.rowCount(); ++i) {
            QVERIFY(food->value(i) > 0 && housing->value(i) > 0);
            QCOMPARE(food->value(i), std::round(food->value(i)));
            QCOMPARE(housing->value(i), std::round(housing->value(i)));
            if (income->value(i) < 5000) continue;
            li.push_back(std::log(income->value(i)));
            lf.push_back(std::log(food->value(i)));
            lh.push_back(std::log(housing->value(i)));
        }
        auto slope = [](const std::vector<double>& x, const std::vector<double>& y) {
            double mx = 0, my = 0;
            for (std::size_t i = 0; i < x.size(); ++i) mx += x[i], my += y[i];
            mx /= static_cast<double>(x.size());
            my /= static_cast<double>(y.size());
            double sxy = 0, sxx = 0;
            for (std::size_t i = 0; i < x.size(); ++i)
                sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
            return sxy / sxx;
        };
        // Marginal slopes include the predictors' shared effects: wide but informative bands.
        QVERIFY2(slope(li, lf) > 0.2 && slope(li, lf) < 0.6, "food does not follow income");
        QVERIFY2(slope(li, lh) > 0.35 && slope(li, lh) < 0.85, "housing does not follow income");
        QVERIFY2(slope(lf, lh) > 0.3, "housing does not follow food");
    }

    void lognormalMixture() {
        const Table t = makeExample(ExampleId::LognormalMixture);
        // Predictors x1..x15 with 2, 3, 4, 2, 3, 4, ... levels, each level present.
        for (int j = 1; j <= 15; ++j) {
            const Column* c = t.find("x" + std::to_string(j));
            QVERIFY(c);
            QVERIFY(c->type() == ColumnType::Categorical);
            QCOMPARE(c->levels().size(), static_cast<std::size_t>(2 + (j - 1) % 3));
            for (auto n : levelCounts(*c)) QVERIFY(n > 0);
        }
        const auto& y = t.find("y")->values();
        QVERIFY(std::all_of(y.begin(), y.end(), [](double v) { return v > 0; }));
        // Share below 0.3 (between the modes near 0.1 and 1): exact for the assumed design by
        // enumerating the 3456 equally likely level combinations of x1..x8 (slopes per level
        // step, centred): 0.4 Phi((ln .3 - ln .12 - s)/.45) + 0.6 Phi((ln .3 - s)/.30).
        const double slope[8] = {0.10, -0.08, 0.12, -0.10, 0.08, 0.08, -0.06, 0.10};
        const int levels[8] = {2, 3, 4, 2, 3, 4, 2, 3};
        double p = 0;
        int combos = 0;
        std::vector<int> code(8, 0);
        for (;;) {
            double s = 0;
            for (int j = 0; j < 8; ++j)
                s += slope[j] * (code[static_cast<std::size_t>(j)] - 0.5 * (levels[j] - 1));
            p += 0.4 * normalCdf((std::log(0.3) - std::log(0.12) - s) / 0.45) +
                 0.6 * normalCdf((std::log(0.3) - s) / 0.30);
            ++combos;
            int j = 0;
            while (j < 8 && ++code[static_cast<std::size_t>(j)] == levels[j])
                code[static_cast<std::size_t>(j++)] = 0;
            if (j == 8) break;
        }
        QCOMPARE(combos, 3456);
        p /= combos;
        const double n = static_cast<double>(y.size());
        const double share = static_cast<double>(std::count_if(y.begin(), y.end(),
                                                               [](double v) { return v < 0.3; })) /
                             n;
        const double se = std::sqrt(p * (1 - p) / n);
        QVERIFY2(std::abs(share - p) < 4 * se,
                 qPrintable(QString("share %1 vs %2 +- %3").arg(share).arg(p).arg(4 * se)));
        // Skewed, with the paper's largest values of a few units.
        const double top = *std::max_element(y.begin(), y.end());
        QVERIFY2(top > 1.5 && top < 8, qPrintable(QString::number(top)));
    }
};

QTEST_APPLESS_MAIN(TstExamples)
#include "tst_examples.moc"
