#include "ppsynth/data/number_format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace ppsynth::data {

std::optional<double> parseNumber(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    // from_chars accepts "inf" and "nan"; data files mean something else by them.
    const char c = s.front() == '-' && s.size() > 1 ? s[1] : s.front();
    if (!((c >= '0' && c <= '9') || c == '.')) return std::nullopt;
    double v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<double> parseNonFinite(std::string_view s) {
    bool negative = false;
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    const auto is = [&](std::string_view word) {
        return s.size() == word.size() &&
               std::equal(s.begin(), s.end(), word.begin(), [](char a, char b) {
                   return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
               });
    };
    if (is("inf") || is("infinity"))
        return negative ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
    if (is("nan")) return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
}

std::string formatSignificant(double v, int digits) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
    return std::string(buf, r.ptr);
}

std::string formatNumber(double v) {
    if (std::isnan(v)) return "NaN";
    char buf[64];
    // Whole numbers of ordinary size print in full ("1000000", not "1e+06"): survey files
    // hold IDs and dollar amounts that people read and other tools parse as integers.
    const bool whole = v == std::floor(v) && std::abs(v) < 1e16;
    auto [ptr, ec] = whole ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                           : std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, ptr);
}

}  // namespace ppsynth::data
