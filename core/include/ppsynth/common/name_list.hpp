// Names in a message a person reads: "'a', 'b', 'c' and 2 more". Used where an error lists
// what is in the way (files in a folder that is not replaced, say).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ppsynth {

// `names` sorted, each in single quotes, at most `shown` (at least one) of them and "and N
// more" for the rest: "'a', 'b', 'c' and 2 more". Empty when there are none.
std::string quotedNames(std::vector<std::string> names, std::size_t shown = 3);

}  // namespace ppsynth
