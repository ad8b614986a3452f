#include "ppsynth/common/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace ppsynth {

namespace fs = std::filesystem;

namespace {
// This host's name, so two processes of the same PID on two nodes of a cluster, writing
// into one shared folder, never share a temporary file.
std::string hostName() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return "host";
    std::string h(name);
    for (char& c : h)
        if (c == '/' || c == '\\') c = '_';
    return h.empty() ? "host" : h;
}

std::string temporaryBeside(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    static const std::string host = hostName();
    return path + ".tmp-" + host + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(counter++);
}
}  // namespace

Status commitFileAtomically(const std::string& path,
                            const std::function<Status(const std::string&)>& produce) {
    const std::string tmp = temporaryBeside(path);
    Status s = produce(tmp);
    std::error_code ec;
    if (!s.isOk()) {
        fs::remove(tmp, ec);
        return s;
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return Error{"could not write '" + path + "': " + ec.message()};
    }
    return {};
}

Status checkFileDestination(const std::string& path, bool overwrite) {
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(path, ec);
    if (!fs::exists(status)) return {};
    if (!overwrite)
        return Error{"'" + path + "' already exists; choose another file or allow overwriting"};
    if (!fs::is_regular_file(path, ec))
        return Error{"'" + path + "' exists and is not a file; it is not replaced"};
    return {};
}

Status writeFileAtomically(const std::string& path,
                           const std::function<Status(std::ostream&)>& write) {
    return commitFileAtomically(path, [&](const std::string& tmp) -> Status {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return Error{"could not create '" + tmp +
                         "': check that the folder exists and is writable"};
        Status s = write(out);
        if (!s.isOk()) return s;
        out.flush();
        if (!out) return Error{"could not write '" + path + "': the disk may be full"};
        return {};
    });
}

}  // namespace ppsynth
