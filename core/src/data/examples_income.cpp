// SIMULATED household survey imitating the Consumer Expenditure (CE) sample of Hu,
// Savitsky & Williams (papers 000 sec. 5 and 004 sec. 1.1): 6208 consumer units from the
// 2017 Q1 Interview Survey, ten insensitive categorical predictors with the papers' level
// counts, and a sensitive, highly right-skewed family income (papers: approximately
// -7K to 1,800K, mean about 72K, median about 50K, 90th percentile about 154K, 97.5th
// about 270K, a few negative values from business and investment losses). No real record is
// used: the marginal frequencies are rounded public figures for US households, and the
// income and doctor-visit models are invented to have the papers' shape.
#include <algorithm>
#include <array>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include "data/examples_detail.hpp"

namespace ppsynth::data::detail {

namespace {

constexpr std::size_t kIncomeRows = 6208;
constexpr double kMaxIncome = 1'800'000;  // the papers' approximate range
constexpr double kMinIncome = -7'000;
constexpr double kTailShare = 0.008;  // households in the Pareto tail

// Level codes used by the models below (order of the level lists).
enum Age { Under25, Age25to34, Age35to49, Age50to64, Age65plus };
enum Marital { Married, Widowed, Divorced, Separated, NeverMarried };

struct Household {
    std::int32_t gender, age, education, region, urban, marital, urbanType, cbsa, familySize,
        earners;
};

Household drawHousehold(Rng& rng) {
    Household h{};
    h.gender = drawLevel(rng, {0.47, 0.53});  // reference persons are more often women
    h.age = drawLevel(rng, {0.06, 0.17, 0.26, 0.28, 0.23});
    h.education = drawLevel(rng, {0.04, 0.07, 0.24, 0.19, 0.10, 0.22, 0.10, 0.04});
    h.region = drawLevel(rng, {0.18, 0.22, 0.37, 0.23});
    h.urban = drawLevel(rng, {0.93, 0.07});
    // Marital status depends on age: the young rarely married, the old often widowed.
    static const std::array<std::vector<double>, 5> maritalByAge = {{
        {0.12, 0.00, 0.01, 0.02, 0.85},
        {0.42, 0.01, 0.06, 0.03, 0.48},
        {0.57, 0.02, 0.14, 0.04, 0.23},
        {0.55, 0.07, 0.21, 0.03, 0.14},
        {0.46, 0.31, 0.15, 0.01, 0.07},
    }};
    h.marital = drawLevel(rng, maritalByAge[static_cast<std::size_t>(h.age)]);
    // Urban type and CBSA follow urban status.
    h.urbanType =
        h.urban == 0 ? drawLevel(rng, {0.40, 0.58, 0.02}) : drawLevel(rng, {0.0, 0.12, 0.88});
    h.cbsa = h.urban == 0 ? drawLevel(rng, {0.89, 0.08, 0.03}) : drawLevel(rng, {0.35, 0.30, 0.35});
    // Family size: couples live with others; singles often alone. Sizes 1..11+.
    // The largest sizes are made a little more common than in the population so that every
    // level is present in every draw (about 15 households of 11+ expected).
    static const std::vector<double> sizeMarried = {0.0,   0.45,  0.21,  0.19,  0.09, 0.035,
                                                    0.012, 0.006, 0.004, 0.003, 0.003};
    static const std::vector<double> sizeSingle = {0.52,  0.25,  0.12,  0.06,  0.03, 0.012,
                                                   0.004, 0.003, 0.002, 0.002, 0.002};
    h.familySize = drawLevel(rng, h.marital == Married ? sizeMarried : sizeSingle);
    // A household of one has one earner at most; larger ones more often two or more.
    const double twoPlus = h.familySize == 0 ? 0.0 : (h.age == Age65plus ? 0.20 : 0.60);
    h.earners = boost::random::bernoulli_distribution<double>(twoPlus)(rng) ? 1 : 0;
    return h;
}

// Mean of log income given the predictors (effects on the log scale, invented to give
// plausible gradients: education, earners and age matter most).
double logIncomeMean(const Household& h) {
    static const std::array<double, 2> gender = {0.0, -0.08};
    static const std::array<double, 5> age = {-0.50, -0.05, 0.15, 0.15, -0.30};
    static const std::array<double, 8> education = {-0.55, -0.45, -0.20, -0.05,
                                                    0.05,  0.35,  0.55,  0.75};
    static const std::array<double, 4> region = {0.08, 0.0, -0.06, 0.08};
    static const std::array<double, 2> urban = {0.0, -0.10};
    static const std::array<double, 5> marital = {0.25, -0.10, -0.05, -0.15, -0.05};
    static const std::array<double, 3> urbanType = {0.0, 0.05, -0.05};
    static const std::array<double, 3> cbsa = {0.05, -0.05, -0.10};
    static const std::array<double, 11> familySize = {-0.25, 0.0,   0.05, 0.10, 0.05, 0.0,
                                                      -0.05, -0.05, -0.1, -0.1, -0.1};
    static const std::array<double, 2> earners = {0.0, 0.45};
    const auto at = [](const auto& a, std::int32_t code) {
        return a[static_cast<std::size_t>(code)];
    };
    return std::log(42'000.0) + at(gender, h.gender) + at(age, h.age) + at(education, h.education) +
           at(region, h.region) + at(urban, h.urban) + at(marital, h.marital) +
           at(urbanType, h.urbanType) + at(cbsa, h.cbsa) + at(familySize, h.familySize) +
           at(earners, h.earners);
}

// Family income: a lognormal mixture on the predictors' scale (a steady-income majority,
// an irregular-income minority with a lower, wider distribution) plus a bounded Pareto
// tail of very high incomes, all kept within the papers' upper limit.
double drawIncome(Rng& rng, const Household& h) {
    boost::random::uniform_01<double> u01;
    const double u = u01(rng);
    if (u < kTailShare) {
        // Bounded Pareto(alpha 1.1) on [250K, 1.8M] by inversion.
        constexpr double lo = 250'000, alpha = 1.1;
        const double v = u01(rng);
        const double ratio = std::pow(lo / kMaxIncome, alpha);
        return std::round(lo * std::pow(1.0 - v * (1.0 - ratio), -1.0 / alpha));
    }
    const bool irregular = u < kTailShare + 0.20;
    boost::random::normal_distribution<double> noise(irregular ? -0.45 : 0.0,
                                                     irregular ? 0.85 : 0.50);
    for (;;) {  // truncate at the upper limit by redrawing (rarely needed)
        const double y = std::round(std::exp(logIncomeMean(h) + noise(rng)));
        if (y <= kMaxIncome) return y;
    }
}

std::vector<Level> familySizeLevels() {
    std::vector<Level> out = {{"1 person", "1 person"}};
    for (int k = 2; k <= 10; ++k) {
        const std::string s = std::to_string(k) + " persons";
        out.push_back({s, s});
    }
    out.push_back({"11+ persons", "11+ persons"});
    return out;
}

// Business and investment losses: `count` households drawn at random report a negative
// income of up to 7K.
void addLosses(Rng& rng, std::vector<double>& income, int count) {
    boost::random::uniform_int_distribution<std::size_t> anyRow(0, income.size() - 1);
    boost::random::uniform_01<double> u01;
    for (int k = 0; k < count;) {
        const std::size_t i = anyRow(rng);
        if (income[i] < 0) continue;  // already a loss
        income[i] = std::round(kMinIncome * (0.05 + 0.95 * u01(rng)));
        ++k;
    }
}

// A household column as both examples publish it: its name, its field and its labels.
struct HouseholdColumn {
    const char* name;
    std::int32_t Household::*field;
    std::vector<Level> levels;
};

const std::vector<HouseholdColumn>& householdColumns() {
    static const std::vector<HouseholdColumn> all{
        {"gender", &Household::gender, textLevels({"male", "female"})},
        {"age", &Household::age,
         textLevels({"under 25", "25-34", "35-49", "50-64", "65 and over"})},
        {"education", &Household::education,
         textLevels({"grades 1-8 or none", "grades 9-12 no diploma", "high school graduate",
                     "some college", "associate degree", "bachelor's degree", "master's degree",
                     "professional or doctorate"})},
        {"region", &Household::region, textLevels({"Northeast", "Midwest", "South", "West"})},
        {"urban", &Household::urban, textLevels({"urban", "rural"})},
        {"marital", &Household::marital,
         textLevels({"married", "widowed", "divorced", "separated", "never married"})},
        {"urban_type", &Household::urbanType,
         textLevels({"central city", "other urban", "not urban"})},
        {"cbsa", &Household::cbsa, textLevels({"metropolitan", "micropolitan", "outside CBSA"})},
        {"family_size", &Household::familySize, familySizeLevels()},
        {"earners", &Household::earners, textLevels({"1 earner", "2+ earners"})},
    };
    return all;
}

// The household columns of these fields, in this order (fields, not names: a column that
// does not exist cannot be asked for).
void addHouseholdColumns(Table& t, const std::vector<Household>& hs,
                         std::initializer_list<std::int32_t Household::*> fields) {
    for (auto field : fields)
        for (const auto& c : householdColumns())
            if (c.field == field) {
                std::vector<std::int32_t> codes(hs.size());
                for (std::size_t i = 0; i < hs.size(); ++i) codes[i] = hs[i].*field;
                (void)t.addColumn(Column::categorical(c.name, std::move(codes), c.levels));
            }
}

}  // namespace

Table makeIncomeSurveyExample(Rng& rng) {
    std::vector<Household> hs(kIncomeRows);
    for (auto& h : hs) h = drawHousehold(rng);

    std::vector<double> income(kIncomeRows);
    for (std::size_t i = 0; i < kIncomeRows; ++i) income[i] = drawIncome(rng, hs[i]);
    // Business and investment losses: between 5 and 15 households (the count is drawn too)
    // report a negative income of up to 7K.
    const int losses = boost::random::uniform_int_distribution<int>(5, 15)(rng);
    addLosses(rng, income, losses);

    // Doctor visits of the reference person in the year: NB2 with mean about 3 (older
    // people and women go more, the most educated slightly more), size 0.9 so that about a
    // quarter report none.
    std::vector<double> visits(kIncomeRows);
    static const std::array<double, 5> ageEffect = {-0.35, -0.25, 0.0, 0.30, 0.60};
    for (std::size_t i = 0; i < kIncomeRows; ++i) {
        const auto& h = hs[i];
        const double logMu = std::log(2.4) + ageEffect[static_cast<std::size_t>(h.age)] +
                             (h.gender == 1 ? 0.20 : 0.0) + (h.education >= 5 ? 0.10 : 0.0) +
                             (h.urban == 1 ? -0.10 : 0.0);
        visits[i] = drawNegBinomial(rng, std::exp(logMu), 0.9);
    }

    Table t;
    addHouseholdColumns(
        t, hs,
        {&Household::gender, &Household::age, &Household::education, &Household::region,
         &Household::urban, &Household::marital, &Household::urbanType, &Household::cbsa,
         &Household::familySize, &Household::earners});
    const auto add = [&t](Column c) { (void)t.addColumn(std::move(c)); };  // names are distinct
    add(Column::numeric("income", std::move(income)));
    add(Column::count("doctor_visits", std::move(visits)));
    return t;
}

// SIMULATED household spending: 2000 households drawn like income_survey's (the same
// predictors and income model), with two expenditures that follow income (METHOD.md
// section 9's several sensitive variables): yearly food spending, an elasticity of 0.35 on
// income, more for larger families; yearly housing spending, an elasticity of 0.55, higher in
// the Northeast and the West and in cities, and 0.25 on food spending's own deviation (a
// household that spends more than its income predicts on food does so on housing too). Whole
// dollars, all positive; income keeps its few losses.
Table makeHouseholdSpendingExample(Rng& rng) {
    constexpr std::size_t rows = 2000;
    std::vector<Household> hs(rows);
    for (auto& h : hs) h = drawHousehold(rng);
    std::vector<double> income(rows), food(rows), housing(rows);
    for (std::size_t i = 0; i < rows; ++i) income[i] = drawIncome(rng, hs[i]);
    addLosses(rng, income, 3);  // three business losses
    boost::random::normal_distribution<double> z(0.0, 1.0);
    static const std::array<double, 4> regionHousing = {0.15, -0.05, -0.10, 0.20};
    for (std::size_t i = 0; i < rows; ++i) {
        const auto& h = hs[i];
        const double logIncome = std::log(std::max(income[i], 5'000.0) / 50'000.0);
        const double size = static_cast<double>(std::min(h.familySize, 5));
        const double foodDev = 0.30 * z(rng);
        food[i] = std::round(std::exp(std::log(7'500.0) + 0.35 * logIncome + 0.10 * size +
                                      (h.age == Age65plus ? -0.10 : 0.0) + foodDev));
        housing[i] =
            std::round(std::exp(std::log(18'000.0) + 0.55 * logIncome +
                                regionHousing[static_cast<std::size_t>(h.region)] +
                                (h.urban == 0 ? 0.10 : -0.15) + 0.25 * foodDev + 0.35 * z(rng)));
    }
    Table t;
    addHouseholdColumns(
        t, hs,
        {&Household::gender, &Household::age, &Household::education, &Household::region,
         &Household::urban, &Household::familySize, &Household::earners});
    const auto add = [&t](Column c) { (void)t.addColumn(std::move(c)); };  // names are distinct
    add(Column::numeric("income", std::move(income)));
    add(Column::numeric("exp_food", std::move(food)));
    add(Column::numeric("exp_housing", std::move(housing)));
    return t;
}

}  // namespace ppsynth::data::detail
