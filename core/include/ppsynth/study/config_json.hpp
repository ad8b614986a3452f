// JSON text of a configuration (run, sweep, simulation, the GUI's project file): checks that
// every JSON reader of a configuration shares.
#pragma once

#include <string>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::study {

// Refuses JSON text in which one object gives a key twice (JSON parsers keep one of the two
// silently), naming the key and where it is: "synthesizers[2]: key 'c' appears twice", with
// `root` as the name of the outermost object. Comments are allowed, as in configurations.
// Text that is not JSON passes: the caller's parser says what is wrong with it.
Status checkUniqueKeys(const std::string& jsonText, const std::string& root = "configuration");

}  // namespace ppsynth::study
