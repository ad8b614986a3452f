#include "cli_guard.hpp"

#include <iostream>
#include <vector>

#include "ppsynth/common/atomic_file.hpp"
#include "ppsynth/common/leftovers.hpp"
#include "ppsynth/release/bundle_guard.hpp"

namespace ppsynth::cli {

namespace {

constexpr int kUsageError = 2;

int refused(const std::string& flag, const std::string& why) {
    std::cerr << "error: " << flag << ": " << why << "\n";
    return kUsageError;
}

}  // namespace

int refuseInsideBundle(const std::string& out, const std::string& flag, const std::string& what) {
    if (out.empty()) return 0;
    if (const std::string why = release::confidentialDestinationProblem(out, what); !why.empty())
        return refused(flag, why);
    return 0;
}

int refuseBundleInBundle(const std::string& out, const std::string& flag) {
    if (const std::string why = release::nestedBundleProblem(out); !why.empty())
        return refused(flag, why);
    return 0;
}

int refuseExistingFile(const std::string& out, bool overwrite) {
    if (out.empty()) return 0;
    const Status s = checkFileDestination(out, overwrite);
    if (s) return 0;
    std::cerr << "error: " << s.message();
    if (!overwrite) std::cerr << " (--overwrite replaces it)";  // the only refusal without it
    std::cerr << "\n";
    return 1;
}

int refuseUnwritable(const std::string& out, const std::string& flag, DestinationUse use) {
    if (out.empty()) return 0;
    const Status s = checkWritableDestination(out, use);
    if (s) return 0;
    std::cerr << "error: " << flag << ": " << s.message() << "\n";
    return 1;
}

void warnAboutLeftovers(const std::string& out) {
    if (out.empty()) return;
    std::vector<std::string> removable;
    for (const auto& l : findLeftovers(out)) {
        if (l.state == Leftover::State::Removable)
            removable.push_back(describeLeftover(l));
        else
            std::cerr << "note: found " << describeLeftover(l) << "\n";
    }
    if (removable.empty()) return;
    std::cerr << "warning: an earlier ppsynth was stopped before it finished and left ";
    for (std::size_t i = 0; i < removable.size(); ++i)
        std::cerr << (i == 0 ? "" : i + 1 == removable.size() ? " and " : ", ") << removable[i];
    std::cerr << "; " << (removable.size() == 1 ? "it" : "they")
              << " may hold confidential files: remove " << (removable.size() == 1 ? "it" : "them")
              << " with 'ppsynth-cli clean " << out << "'\n";
}

}  // namespace ppsynth::cli
