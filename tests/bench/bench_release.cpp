// Release bundle cost: SHA-256 throughput, and the time and size of a bundle of m datasets
// (n rows, 8 released columns) per format. Prints seconds, MB and MB/s.
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/common/sha256.hpp"
#include "ppsynth/release/bundle.hpp"

using namespace ppsynth;
using namespace ppsynth::data;
namespace fs = std::filesystem;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double folderMegabytes(const fs::path& dir) {
    std::uintmax_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) bytes += e.file_size();
    return static_cast<double>(bytes) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t rows = argc > 1 ? std::stoul(argv[1]) : 100000;
    const std::size_t m = argc > 2 ? std::stoul(argv[2]) : 20;

    const std::string block(64 << 20, 'x');
    auto t0 = std::chrono::steady_clock::now();
    const std::string hex = sha256Hex(block);
    std::printf("SHA-256: %.0f MB/s (%s...)\n", 64 * 1.048576 / secondsSince(t0),
                hex.substr(0, 8).c_str());

    Rng rng = makeRng(1, 0, Purpose::Test);
    boost::random::normal_distribution<double> normal(50, 10);
    boost::random::uniform_int_distribution<std::int32_t> level(0, 3);
    release::ReleaseRequest r;
    r.target = "y";
    r.releasedColumns = {"y"};
    Table base;
    for (int j = 0; j < 7; ++j) {
        const std::string name = (j % 2 ? "g" : "x") + std::to_string(j);
        if (j % 2) {
            std::vector<std::int32_t> g(rows);
            for (auto& v : g) v = level(rng);
            (void)base.addColumn(Column::categorical(
                name, std::move(g), {{"A", "A"}, {"B", "B"}, {"C", "C"}, {"D", "D"}}));
        } else {
            std::vector<double> x(rows);
            for (auto& v : x) v = normal(rng);
            (void)base.addColumn(Column::numeric(name, std::move(x)));
        }
        r.releasedColumns.push_back(name);
    }
    for (std::size_t l = 0; l < m; ++l) {
        Table t = base;
        std::vector<double> y(rows);
        for (auto& v : y) v = normal(rng);
        (void)t.addColumn(Column::numeric("y", std::move(y)));
        r.datasets.push_back(std::move(t));
    }
    r.manifest.privacy.epsilonPerDataset = 4.2;
    r.manifest.privacy.deltaEstimate = "max over draws";
    std::printf("bundle: m = %zu datasets x %zu rows x %zu columns\n", m, rows,
                r.releasedColumns.size());

    const fs::path dir = fs::temp_directory_path() / "ppsynth_bench_release";
    fs::remove_all(dir);
    for (FileFormat f : {FileFormat::Csv, FileFormat::Sav, FileFormat::Dta}) {
        r.formats = {f};
        const fs::path out = dir / std::string(toString(f));
        t0 = std::chrono::steady_clock::now();
        const Status s = release::writeReleaseBundle(r, out.string());
        const double secs = secondsSince(t0);
        if (!s) {
            std::printf("%s: %s\n", std::string(toString(f)).c_str(), s.message().c_str());
            continue;
        }
        const double mb = folderMegabytes(out);
        std::printf("%-4s %7.2f s  %8.1f MB  %7.1f MB/s\n", std::string(toString(f)).c_str(), secs,
                    mb, mb / secs);
    }
    fs::remove_all(dir);
    return 0;
}
