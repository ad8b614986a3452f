// readCsv: the file side of the CSV parser (opening, size check against memory, reading).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "data/csv_parse.hpp"
#include "data/formats.hpp"
#include "data/memory_budget.hpp"
#include "ppsynth/common/atomic_file.hpp"

namespace ppsynth::data::detail {

namespace {

// A parsed table takes about twice its file's bytes at the peak of reading (8-byte
// doubles for cells of a few characters, plus the read window); the check refuses files
// that clearly cannot fit before spending minutes on them.
constexpr std::size_t kMemoryPerFileByte = 2;

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

class FileSource final : public ByteSource {
  public:
    FileSource(std::FILE* file, std::string quoted, std::size_t size)
        : file_(file), quoted_(std::move(quoted)), size_(size) {}
    Expected<std::size_t> read(char* buffer, std::size_t n) override {
        const std::size_t got = std::fread(buffer, 1, n, file_.get());
        if (got == 0 && std::ferror(file_.get()))
            return Error::io(quoted_ + " could not be read: " + std::strerror(errno));
        return got;
    }
    std::size_t totalBytes() const override { return size_; }

  private:
    std::unique_ptr<std::FILE, FileCloser> file_;
    std::string quoted_;
    std::size_t size_;
};

}  // namespace

Expected<Table> readCsv(const std::string& path, const ReadOptions& options, ReadReport* report) {
    const std::string quoted = "'" + path + "'";
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return Error::io(quoted + " could not be opened: " + ec.message());

    const std::size_t needed = static_cast<std::size_t>(size) * kMemoryPerFileByte;
    const auto available = options.memoryBudgetBytes > 0 ? std::optional(options.memoryBudgetBytes)
                                                         : availableMemoryBytes();
    if (available && needed > *available)
        return Error{
            quoted + " is " + humanBytes(size) + "; reading it needs about " + humanBytes(needed) +
            " of memory but only " + humanBytes(*available) +
            (options.memoryBudgetBytes > 0 ? " is allowed (the memory budget)" : " is available")};

    errno = 0;
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return Error::io(quoted + " could not be opened: " + std::strerror(errno));
    FileSource source(file, quoted, static_cast<std::size_t>(size));
    return parseCsv(source, path, options, report);
}

Status writeCsv(const Table& table, const std::string& path, const WriteOptions& options) {
    return writeFileAtomically(path,
                               [&](std::ostream& out) { return writeCsvTo(table, out, options); });
}

}  // namespace ppsynth::data::detail
