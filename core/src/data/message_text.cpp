#include "data/message_text.hpp"

namespace ppsynth::data::detail {

namespace {
std::string joined(const std::vector<std::string>& items, const std::string& last = "and") {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += i + 1 == items.size() ? " " + last + " " : ", ";
        out += items[i];
    }
    return out;
}
}  // namespace

std::string quotedList(const std::vector<std::string>& names, const std::string& last) {
    std::vector<std::string> quoted;
    quoted.reserve(names.size());
    for (const auto& n : names) quoted.push_back("'" + n + "'");
    return joined(quoted, last);
}

std::string plainList(const std::vector<std::string>& names) {
    return joined(names);
}

std::string rowList(std::span<const std::size_t> indices, std::size_t shown) {
    std::string out;
    for (std::size_t i = 0; i < indices.size() && i < shown; ++i) {
        if (i > 0) out += ", ";
        out += std::to_string(indices[i] + 1);
    }
    if (indices.size() > shown) out += ", ...";
    return out;
}

std::string rowsPhrase(std::span<const std::size_t> indices, std::size_t shown) {
    return (indices.size() == 1 ? "row " : "rows ") + rowList(indices, shown);
}

std::string counted(std::size_t n, const std::string& singular, const std::string& plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace ppsynth::data::detail
