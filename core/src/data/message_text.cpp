#include "data/message_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>

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

bool isSpreadsheetError(std::string_view cell) {
    static constexpr std::array<std::string_view, 15> kExcel = {
        "#N/A",      "#DIV/0!",   "#VALUE!", "#REF!",     "#NAME?",
        "#NUM!",     "#NULL!",    "#SPILL!", "#CALC!",    "#FIELD!",
        "#BLOCKED!", "#CONNECT!", "#BUSY!",  "#UNKNOWN!", "#GETTING_DATA"};
    if (std::find(kExcel.begin(), kExcel.end(), cell) != kExcel.end()) return true;
    // LibreOffice: "Err:" and a three-digit code (#N/A and #DIV/0! as Excel).
    constexpr std::string_view kErr = "Err:";
    return cell.size() == kErr.size() + 3 && cell.substr(0, kErr.size()) == kErr &&
           std::all_of(cell.begin() + kErr.size(), cell.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string spreadsheetErrorAdvice(const std::vector<std::string_view>& cells) {
    for (const auto cell : cells)
        if (isSpreadsheetError(cell))
            return " ('" + std::string(cell) +
                   "' is a spreadsheet's error value: a formula failed in the workbook the file "
                   "was saved from; correct it there and save the file again)";
    return {};
}

}  // namespace ppsynth::data::detail
