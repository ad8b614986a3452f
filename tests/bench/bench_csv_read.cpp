// CSV reading speed and memory: writes a 1,000,000-row, 12-column file (counts, numbers,
// categories, 1% missing) by streaming, then reads it with readTable and prints file MB,
// seconds, MB/s, the table's in-memory MB and the peak RSS increase while reading.
// Usage: bench_csv_read [file.csv] [rows]   (default: a temporary file, 1,000,000 rows)
#include <sys/resource.h>

#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "ppsynth/data/io.hpp"

namespace {

// Small deterministic generator (splitmix64): the file is the same on every run.
struct SplitMix {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31U);
    }
    double uniform() { return static_cast<double>(next() >> 11U) * 0x1.0p-53; }
    std::uint64_t below(std::uint64_t n) { return next() % n; }
};

void appendFixed(std::string& line, double v, int decimals) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
    line.append(buf, r.ptr);
}

void appendInt(std::string& line, std::uint64_t v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    line.append(buf, r.ptr);
}

// Streams rows to disk so generating does not raise the process's peak memory.
bool generate(const std::string& path, std::size_t rows) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const char* regions[] = {"North East",    "North West", "Yorkshire",  "East Midlands",
                             "West Midlands", "London",     "South East", "South West"};
    const char* education[] = {"none", "primary", "secondary", "vocational", "university"};
    SplitMix rng{20240601};
    std::string line =
        "id,age,income,weight,score,children,sex,region,education,visits,bmi,employed\n";
    for (std::size_t i = 1; i <= rows; ++i) {
        const auto missing = [&] { return rng.below(100) == 0; };
        appendInt(line, i);
        line += ',';
        appendInt(line, 18 + rng.below(73));
        line += ',';
        if (!missing()) appendFixed(line, 12000.0 + rng.uniform() * 90000.0, 2);
        line += ',';
        appendFixed(line, 0.5 + rng.uniform() * 2.0, 6);
        line += ',';
        appendFixed(line, (rng.uniform() - 0.5) * 8.0, 4);
        line += ',';
        appendInt(line, rng.below(6));
        line += ',';
        line += rng.below(2) ? "f" : "m";
        line += ',';
        line += regions[rng.below(8)];
        line += ',';
        if (missing())
            line += "NA";
        else
            line += education[rng.below(5)];
        line += ',';
        appendInt(line, rng.below(31));
        line += ',';
        if (!missing()) appendFixed(line, 17.0 + rng.uniform() * 20.0, 1);
        line += ',';
        line += rng.below(4) ? "yes" : "no";
        line += '\n';
        if (line.size() > (1U << 16U)) {
            std::fwrite(line.data(), 1, line.size(), f);
            line.clear();
        }
    }
    std::fwrite(line.data(), 1, line.size(), f);
    return std::fclose(f) == 0;
}

// A "VmHWM:" / "VmRSS:" figure from /proc/self/status in bytes.
std::size_t statusBytes(const char* key) {
    std::ifstream in("/proc/self/status");
    std::string k;
    std::string rest;
    while (in >> k) {
        if (k == key) {
            std::size_t kib = 0;
            in >> kib;
            return kib * 1024;
        }
        std::getline(in, rest);
    }
    return 0;
}

// Resets VmHWM to the current RSS (Linux >= 4.0); false when not allowed.
bool resetPeak() {
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
    out.flush();
    return static_cast<bool>(out);
}

// User + system CPU seconds of this process: on a busy machine wall time mostly measures
// the other processes.
double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto sec = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    return sec(u.ru_utime) + sec(u.ru_stime);
}

double mb(std::size_t bytes) {
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    const std::string path =
        argc > 1 ? argv[1] : (fs::temp_directory_path() / "ppsynth_bench_csv_read.csv").string();
    const std::size_t rows = argc > 2 ? std::stoull(argv[2]) : 1000000;
    if (!generate(path, rows)) {
        std::fprintf(stderr, "could not write %s\n", path.c_str());
        return 1;
    }
    const std::size_t fileBytes = fs::file_size(path);

    const bool reset = resetPeak();
    const std::size_t baseline = reset ? statusBytes("VmRSS:") : statusBytes("VmHWM:");
    const double cpuStart = cpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    auto table = ppsynth::data::readTable(path);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpuSeconds() - cpuStart;
    const std::size_t peak = statusBytes("VmHWM:");
    if (!table) {
        std::fprintf(stderr, "%s\n", table.message().c_str());
        return 1;
    }
    const std::size_t tableBytes = table->memoryBytes();
    const std::size_t increase = peak > baseline ? peak - baseline : 0;

    std::printf("bench_csv_read: %zu rows x %zu columns\n", table->rowCount(),
                table->columnCount());
    for (const auto& c : table->columns())
        std::printf("  %-10s %-12s missing %zu\n", c.name().c_str(),
                    std::string(ppsynth::data::toString(c.type())).c_str(), c.missingCount());
    std::printf("file            %8.1f MB\n", mb(fileBytes));
    std::printf("read time       %8.3f s\n", seconds);
    std::printf("throughput      %8.1f MB/s\n", mb(fileBytes) / seconds);
    std::printf("CPU time        %8.3f s (%.1f MB/s per CPU second)\n", cpu, mb(fileBytes) / cpu);
    std::printf("table in memory %8.1f MB\n", mb(tableBytes));
    std::printf("peak RSS rise   %8.1f MB%s\n", mb(increase),
                reset ? "" : " (VmHWM not resettable)");
    std::printf("peak / table    %8.2f\n",
                static_cast<double>(increase) / static_cast<double>(tableBytes));
    if (argc <= 1) fs::remove(path);
    return 0;
}
