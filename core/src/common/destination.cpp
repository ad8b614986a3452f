#include "ppsynth/common/destination.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace ppsynth {

namespace fs = std::filesystem;

namespace {

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

Error cannotWrite(const std::string& path, const std::string& why) {
    return Error::io("cannot write '" + path + "': " + why +
                     "; choose a destination you can write to");
}

// Why an entry could not be made in `dir`, from the error the system gave.
std::string reason(int error, const fs::path& dir) {
    switch (error) {
        case EROFS:
            return quoted(dir) + " is on a read-only file system";
        case EACCES:
        case EPERM:
            return "permission denied in " + quoted(dir) + " (no new files may be made there)";
        case ENOSPC:
        case EDQUOT:
            return "the disk holding " + quoted(dir) + " is full";
        case ENOTDIR:
            return quoted(dir) + " is a file, not a folder";
        default:
            return "nothing can be made in " + quoted(dir) + " (" +
                   std::error_code(error, std::generic_category()).message() + ")";
    }
}

}  // namespace

Status checkWritableDestination(const std::string& path, DestinationUse use) {
    if (path.empty()) return Error{"no destination given; name a folder or file to write"};
    std::error_code ec;
    fs::path target = fs::absolute(fs::path(path), ec);
    if (ec) target = fs::path(path);
    target = target.lexically_normal();
    // "out/" names the folder "out".
    if (!target.has_filename() && target.has_relative_path()) target = target.parent_path();

    // Where the first new entry goes.
    fs::path dir = target.parent_path();
    if (use == DestinationUse::Filled) {
        const fs::file_status st = fs::status(target, ec);
        if (!ec && fs::is_directory(st))
            dir = target;
        else if (!ec && fs::exists(st))
            return cannotWrite(path, quoted(target) + " is a file, not a folder");
    }
    if (dir.empty()) dir = fs::current_path(ec);

    // The nearest folder above that exists: the folders between are made by the command.
    for (;;) {
        const fs::file_status st = fs::status(dir, ec);
        if (!ec && fs::exists(st)) {
            if (!fs::is_directory(st))
                return cannotWrite(path, quoted(dir) + " is a file, not a folder");
            break;
        }
        if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
            return cannotWrite(path, "cannot look at " + quoted(dir) + " (" + ec.message() + ")");
        if (ec == std::errc::no_such_file_or_directory) {
            std::error_code linkEc;
            if (fs::is_symlink(fs::symlink_status(dir, linkEc)))
                return cannotWrite(path, quoted(dir) + " is a link to something that is not there");
        }
        const fs::path up = dir.parent_path();
        if (up == dir || up.empty()) return cannotWrite(path, "no folder above it exists");
        dir = up;
    }

    // A probe proves it: permission bits, read-only mounts, ACLs and full disks all show.
    static std::atomic<unsigned> counter{0};
    const fs::path probe =
        dir / (".ppsynth-probe-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    if (::mkdir(probe.c_str(), 0700) == 0) {
        ::rmdir(probe.c_str());
        return {};
    }
    const int error = errno;
    if (error == EEXIST) return {};  // only an earlier probe of this process: it was writable
    return cannotWrite(path, reason(error, dir));
}

}  // namespace ppsynth
