// libFuzzer target for the CSV parser and writer. The first byte picks options (read
// window size, delimiter, encoding, header, level limit) so the fuzzer also explores
// records split across windows; the rest is the file. Beyond "no crash, no sanitizer
// report" it checks that a table read, written and read again writes the same text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "data/csv_parse.hpp"

using namespace ppsynth::data;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_csv invariant broken: %s\n%s\n", what, detail.c_str());
    std::abort();
}

void checkShape(const Table& t) {
    for (const auto& c : t.columns()) {
        if (c.size() != t.rowCount()) fail("ragged table", c.name());
        if (c.type() == ColumnType::Categorical)
            for (std::size_t r = 0; r < c.size(); ++r)
                if (c.code(r) >= static_cast<std::int32_t>(c.levels().size()) ||
                    (c.code(r) < 0 && !c.isMissing(r)))
                    fail("categorical code out of range", c.name());
    }
}

std::string written(const Table& t) {
    std::ostringstream out;
    if (!detail::writeCsvTo(t, out, {}).isOk()) fail("writer refused a table", "");
    return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t knobs = data[0];
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);

    ReadOptions options;
    constexpr std::size_t kChunks[] = {1, 2, 3, 7, 16, 64, 4096, std::size_t{1} << 20};
    options.csv.chunkBytes = kChunks[knobs & 7U];
    constexpr char kDelimiters[] = {0, 0, ',', ';'};
    options.csv.delimiter = kDelimiters[(knobs >> 3U) & 3U];
    constexpr const char* kEncodings[] = {"auto", "auto", "utf-8", "latin-1"};
    options.csv.encoding = kEncodings[(knobs >> 5U) & 3U];
    options.csv.header = (knobs & 0x80U) == 0;
    options.maxLevels = (knobs & 0x10U) ? 3 : 100;

    auto first = detail::parseCsvBuffer(bytes, "fuzz.csv", options);
    if (!first) {
        if (first.message().empty()) fail("error without a message", "");
        return 0;
    }
    checkShape(*first);

    // Written text must read back to a table that writes the same text.
    const std::string text1 = written(*first);
    ReadOptions again;
    again.csv.delimiter = ',';
    again.maxLevels = options.maxLevels;
    auto second = detail::parseCsvBuffer(text1, "again.csv", again);
    if (!second) fail("written table does not read back", second.message() + "\n" + text1);
    checkShape(*second);
    if (second->rowCount() != first->rowCount() || second->columnCount() != first->columnCount())
        fail("read-back changed the shape", text1);
    const std::string text2 = written(*second);
    if (text1 != text2) fail("write(read(write(t))) differs", text1 + "\n----\n" + text2);
    return 0;
}
