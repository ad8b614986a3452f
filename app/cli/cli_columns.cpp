#include "cli_columns.hpp"

namespace ppsynth::cli {

namespace {

std::string withoutSurroundingSpaces(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

Expected<std::vector<std::string>> columnArguments(const std::vector<std::string>& given,
                                                   const data::Table& table,
                                                   const std::string& file,
                                                   const std::string& option) {
    std::vector<std::string> names;
    for (const auto& argument : given) {
        if (table.find(argument)) {
            names.push_back(argument);
            continue;
        }
        std::vector<std::string> parts, missing;
        std::size_t start = 0;
        while (start <= argument.size()) {
            auto end = argument.find(',', start);
            if (end == std::string::npos) end = argument.size();
            const std::string part = argument.substr(start, end - start);
            const std::string bare = withoutSurroundingSpaces(part);
            if (table.find(part))
                parts.push_back(part);
            else if (table.find(bare))
                parts.push_back(bare);
            else if (!bare.empty())
                missing.push_back(bare);
            start = end + 1;
        }
        if (missing.empty() && parts.empty())
            return Error::invalidInput(option + " '" + argument + "' names no column");
        if (!missing.empty()) {
            std::string lacks;
            for (const auto& m : missing)
                lacks += (lacks.empty() ? "no column '" : " and no column '") + m + "'";
            std::string message = option + " '" + argument + "': '" + file + "' has " + lacks;
            if (argument.find(',') != std::string::npos)
                message += " (nor a column named '" + argument +
                           "' as a whole); a list separates names with commas, and a column "
                           "whose name has a comma is given exactly as the file names it";
            return Error::invalidInput(message);
        }
        names.insert(names.end(), parts.begin(), parts.end());
    }
    return names;
}

}  // namespace ppsynth::cli
