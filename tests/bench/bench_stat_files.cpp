// Write and read a synthetic-sized table as .sav, .zsav and .dta; prints seconds and MB.
#include <boost/random/normal_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/data/io.hpp"

using namespace ppsynth;
using namespace ppsynth::data;

int main(int argc, char** argv) {
    const std::size_t rows = argc > 1 ? std::stoul(argv[1]) : 200000;
    Rng rng = makeRng(1, 0, Purpose::Test);
    boost::random::normal_distribution<double> normal(50, 10);
    boost::random::poisson_distribution<int> poisson(3);
    boost::random::uniform_int_distribution<std::int32_t> level(0, 4);
    Table t;
    for (int j = 0; j < 4; ++j) {
        std::vector<double> x(rows), c(rows);
        std::vector<std::int32_t> g(rows);
        for (std::size_t i = 0; i < rows; ++i) {
            x[i] = normal(rng);
            c[i] = poisson(rng);
            g[i] = level(rng);
        }
        const std::string k = std::to_string(j);
        (void)t.addColumn(Column::numeric("x" + k, std::move(x)));
        (void)t.addColumn(Column::count("n" + k, std::move(c)));
        (void)t.addColumn(Column::categorical(
            "g" + k, std::move(g), {{"1", "a"}, {"2", "b"}, {"3", "c"}, {"4", "d"}, {"5", "e"}}));
    }
    const auto dir = std::filesystem::temp_directory_path();
    std::printf("%zu rows x %zu columns\n", t.rowCount(), t.columnCount());
    for (const char* ext : {".sav", ".zsav", ".dta"}) {
        const std::string path = (dir / (std::string("ppsynth_bench") + ext)).string();
        const auto t0 = std::chrono::steady_clock::now();
        const Status s = writeTable(t, path);
        const auto t1 = std::chrono::steady_clock::now();
        auto back = readTable(path);
        const auto t2 = std::chrono::steady_clock::now();
        if (!s || !back || !(*back == t)) {
            std::printf("%s: failed (%s)\n", ext,
                        s ? (back ? "differs" : back.message().c_str()) : s.message().c_str());
            return 1;
        }
        const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
        std::printf("%-6s write %.3f s  read %.3f s  %.1f MB\n", ext,
                    std::chrono::duration<double>(t1 - t0).count(),
                    std::chrono::duration<double>(t2 - t1).count(), mb);
        std::filesystem::remove(path);
    }
    return 0;
}
