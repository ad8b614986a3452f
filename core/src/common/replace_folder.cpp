#include "common/replace_folder.hpp"

#include <unistd.h>

#include <atomic>

namespace ppsynth {

namespace fs = std::filesystem;

namespace {

fs::path asideName(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    return target.string() + ".old-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

}  // namespace

Expected<std::string> replaceFolder(const fs::path& temp, const fs::path& target, bool exists,
                                    const std::string& what, const RenameFolder& renameFolder,
                                    const RemoveFolder& removeFolder) {
    const RenameFolder rename = renameFolder
                                    ? renameFolder
                                    : [](const fs::path& from, const fs::path& to,
                                         std::error_code& ec) { fs::rename(from, to, ec); };
    const RemoveFolder remove =
        removeFolder ? removeFolder
                     : [](const fs::path& dir, std::error_code& ec) { fs::remove_all(dir, ec); };
    std::error_code ec;
    if (!exists) {
        rename(temp, target, ec);
        if (ec)
            return Error::io("could not move the " + what + " into '" + target.string() +
                             "': " + ec.message());
        return std::string();
    }
    // Old aside, new in, old deleted; if the new one cannot move in, the old one goes back.
    const fs::path old = asideName(target);
    rename(target, old, ec);
    if (ec)
        return Error::io("could not replace '" + target.string() + "': " + ec.message() +
                         "; the existing " + what + " is unchanged");
    rename(temp, target, ec);
    if (ec) {
        std::error_code back;
        rename(old, target, back);
        if (back)
            return Error::io("could not move the new " + what + " into '" + target.string() +
                             "': " + ec.message() + "; moving the existing " + what +
                             " back failed too (" + back.message() + "): it is now '" +
                             old.string() + "', rename that folder to '" +
                             target.filename().string() + "' to restore it");
        return Error::io("could not move the new " + what + " into '" + target.string() +
                         "': " + ec.message() + "; the existing " + what + " is unchanged");
    }
    // The new folder is in place. An old one left beside it is not lost data, but it is a
    // whole folder under a name nobody chose: say where it is so it is not taken for the new.
    remove(old, ec);
    if (ec)
        return "the new " + what + " is in '" + target.string() + "', but the " + what +
               " it replaced could not be deleted (" + ec.message() + "): it was left in '" +
               old.string() + "'; remove that folder by hand";
    return std::string();
}

}  // namespace ppsynth
