#include "cli_guard.hpp"

#include <iostream>

#include "ppsynth/common/atomic_file.hpp"
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

}  // namespace ppsynth::cli
