// The CSV parser behind readCsv, reachable from memory for tests and the fuzzer
// (private to core).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include "ppsynth/data/io.hpp"

namespace ppsynth::data::detail {

// Where the parser's bytes come from, in chunks.
class ByteSource {
  public:
    virtual ~ByteSource() = default;
    // Reads up to `n` bytes into `buffer`: the count read (0 at the end) or an error.
    virtual Expected<std::size_t> read(char* buffer, std::size_t n) = 0;
    // Total size for progress and row estimates; 0 when unknown.
    virtual std::size_t totalBytes() const = 0;
};

// Parses a whole CSV stream. `name` is how messages show the source ("'name' line 3 ...").
Expected<Table> parseCsv(ByteSource& source, const std::string& name, const ReadOptions& options,
                         ReadReport* report);

// The same over bytes in memory.
Expected<Table> parseCsvBuffer(std::string_view bytes, const std::string& name,
                               const ReadOptions& options, ReadReport* report = nullptr);

// Writes `table` as CSV text (header, labels for categorical cells, empty missing cells).
Status writeCsvTo(const Table& table, std::ostream& out, const WriteOptions& options);

}  // namespace ppsynth::data::detail
