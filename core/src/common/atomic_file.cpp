#include "ppsynth/common/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace ppsynth {

namespace fs = std::filesystem;

// gethostname once per call; the tag never holds a path separator.
std::string hostTag() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return "host";
    std::string h(name);
    for (char& c : h)
        if (c == '/' || c == '\\') c = '_';
    return h.empty() ? "host" : h;
}

namespace {
std::string temporaryBeside(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    static const std::string host = hostTag();
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
        return Error::io("could not write '" + path + "': " + ec.message());
    }
    return {};
}

Status checkFileDestination(const std::string& path, bool overwrite) {
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(path, ec);
    if (!fs::exists(status)) return {};
    if (!overwrite)
        return Error::alreadyExists("'" + path +
                                    "' already exists; choose another file or allow overwriting");
    if (!fs::is_regular_file(path, ec))
        return Error{"'" + path + "' exists and is not a file; it is not replaced"};
    return {};
}

namespace {
// Whether `inner` is `outer` or below it; both canonical (absolute, no links, no "..").
bool within(const fs::path& outer, const fs::path& inner) {
    auto o = outer.begin();
    auto i = inner.begin();
    for (; o != outer.end(); ++o, ++i) {
        if (o->empty() && std::next(o) == outer.end()) break;  // trailing separator
        if (i == inner.end() || *o != *i) return false;
    }
    return true;
}
}  // namespace

Expected<std::string> pathInside(const std::string& root, const std::string& relative) {
    const fs::path rel(relative);
    const std::string where = "'" + relative + "' in '" + root + "'";
    if (relative.empty() || rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
        return Error{"refusing to write " + where + ": not a path inside the destination"};
    for (const auto& part : rel)
        if (part == ".." || part == "." || part.empty())
            return Error{"refusing to write " + where +
                         ": a '.' or '..' in it could lead outside the destination"};
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(fs::absolute(root, ec), ec);
    if (ec) return Error::io("cannot resolve the destination '" + root + "': " + ec.message());
    const fs::path full = base / rel;
    const fs::path folder = fs::weakly_canonical(full.parent_path(), ec);
    if (ec) return Error::io("cannot resolve " + where + ": " + ec.message());
    if (!within(base, folder))
        return Error{"refusing to write " + where + ": a link on the way leads to '" +
                     folder.string() + "', outside the destination"};
    if (fs::is_symlink(fs::symlink_status(full, ec)))
        return Error{"refusing to write " + where +
                     ": a link is already there, which could lead outside the destination"};
    return (folder / full.filename()).string();
}

Status writeFileAtomically(const std::string& path,
                           const std::function<Status(std::ostream&)>& write) {
    return commitFileAtomically(path, [&](const std::string& tmp) -> Status {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return Error::io("could not create '" + tmp +
                             "': check that the folder exists and is writable");
        Status s = write(out);
        if (!s.isOk()) return s;
        out.flush();
        if (!out) return Error::io("could not write '" + path + "': the disk may be full");
        return {};
    });
}

}  // namespace ppsynth
