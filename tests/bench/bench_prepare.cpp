// Prints how long prepareModelInputs takes (roles, listwise deletion, transform, design
// matrix with its rank check, patterns) on generated tables of growing size.
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/prepare.hpp"

using namespace ppsynth;
using namespace ppsynth::data;

namespace {
Column categorical(const std::string& name, std::size_t n, int levels, Rng& rng) {
    boost::random::uniform_int_distribution<std::int32_t> pick(0, levels - 1);
    std::vector<std::int32_t> codes(n);
    for (auto& c : codes) c = pick(rng);
    std::vector<Level> lv;
    for (int k = 0; k < levels; ++k) lv.push_back({std::to_string(k), name + std::to_string(k)});
    return Column::categorical(name, std::move(codes), std::move(lv));
}

Table makeTable(std::size_t n, Rng& rng) {
    boost::random::normal_distribution<double> z;
    Table t;
    std::vector<double> y(n);
    std::vector<std::uint8_t> miss(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = std::exp(10 + z(rng));
        miss[i] = i % 97 == 0;  // about 1% missing: listwise deletion has work to do
    }
    (void)t.addColumn(Column::numeric("income", std::move(y), std::move(miss)));
    (void)t.addColumn(categorical("region", n, 5, rng));
    (void)t.addColumn(categorical("occupation", n, 10, rng));
    (void)t.addColumn(categorical("industry", n, 20, rng));
    for (int k = 0; k < 5; ++k) {
        std::vector<double> x(n);
        for (auto& v : x) v = 40 + 12 * z(rng);
        (void)t.addColumn(Column::numeric("x" + std::to_string(k), std::move(x)));
    }
    return t;
}
}  // namespace

// A categorical predictor with thousands of levels (the level limit raised): the rank
// check must stay fast, full rank or not (a district nested in its region is collinear).
void manyLevels() {
    std::printf("\n%10s %6s %10s %10s  %s\n", "n", "levels", "seconds", "X MB", "result");
    for (int levels : {1000, 5000}) {
        for (bool nested : {false, true}) {
            const std::size_t n = 20000;
            auto rng = makeRng(2, static_cast<std::uint64_t>(levels), Purpose::Test);
            Table t;
            boost::random::normal_distribution<double> z;
            std::vector<double> y(n), x(n);
            for (std::size_t i = 0; i < n; ++i) {
                y[i] = 10 + z(rng);
                x[i] = z(rng);
            }
            Column district = categorical("district", n, levels, rng);
            std::vector<std::int32_t> regionCodes(n);
            for (std::size_t i = 0; i < n; ++i) regionCodes[i] = district.code(i) % 7;
            std::vector<Level> lv;
            for (int k = 0; k < 7; ++k) lv.push_back({std::to_string(k), "r" + std::to_string(k)});
            (void)t.addColumn(Column::numeric("y", std::move(y)));
            (void)t.addColumn(Column::numeric("x", std::move(x)));
            (void)t.addColumn(std::move(district));
            (void)t.addColumn(Column::categorical("region", std::move(regionCodes), std::move(lv)));
            Roles roles;
            roles.target = "y";
            roles.predictors = {"district", "x"};
            if (nested) roles.predictors.push_back("region");
            PrepareOptions opt;
            opt.maxLevels = 10000;
            const auto t0 = std::chrono::steady_clock::now();
            auto in = prepareModelInputs(t, roles, opt);
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::printf("%10zu %6d %10.3f %10.1f  %s\n", n, levels, s,
                        in ? static_cast<double>(in->X.size()) * 8.0 / 1e6 : 0.0,
                        in ? "full rank" : in.message().substr(0, 90).c_str());
            std::fflush(stdout);
        }
    }
}

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "levels") {  // only the many-levels table
        manyLevels();
        return 0;
    }
    Roles roles;
    roles.target = "income";
    roles.predictors = {"region", "occupation", "industry", "x0", "x1", "x2", "x3", "x4"};
    roles.known = {"region", "occupation"};
    PrepareOptions opt;
    opt.transform = TransformKind::Log;
    opt.missing = MissingPolicy::Listwise;
    std::printf("%10s %6s %10s %10s %10s\n", "n", "p", "seconds", "X MB", "patterns");
    for (std::size_t n : {10000u, 100000u, 1000000u}) {
        auto rng = makeRng(1, n, Purpose::Test);
        const Table t = makeTable(n, rng);
        const auto t0 = std::chrono::steady_clock::now();
        auto in = prepareModelInputs(t, roles, opt);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!in) {
            std::printf("n=%zu: %s\n", n, in.message().c_str());
            return 1;
        }
        std::printf("%10zu %6td %10.3f %10.1f %10zu\n", n, in->X.cols(), s,
                    static_cast<double>(in->X.size()) * 8.0 / 1e6, in->patterns.count());
    }
    manyLevels();
    return 0;
}
