#include "common/read_text.hpp"

#include <fstream>
#include <sstream>

namespace ppsynth {

std::optional<std::string> readFileText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace ppsynth
