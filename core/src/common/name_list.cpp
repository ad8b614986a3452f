#include "ppsynth/common/name_list.hpp"

#include <algorithm>

namespace ppsynth {

std::string quotedNames(std::vector<std::string> names, std::size_t shown) {
    std::sort(names.begin(), names.end());
    shown = std::max<std::size_t>(shown, 1);
    std::string out;
    for (std::size_t k = 0; k < names.size() && k < shown; ++k)
        out += (k ? ", '" : "'") + names[k] + "'";
    if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
    return out;
}

}  // namespace ppsynth
