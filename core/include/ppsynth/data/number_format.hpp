// Locale-independent number parsing and shortest round-trip formatting (std::from_chars /
// std::to_chars), so files read and write the same on every machine.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ppsynth::data {

// Parses a whole decimal number, allowing surrounding spaces, a leading '+', and
// "inf"/"nan" never (they are not data). nullopt when the text is not a number.
std::optional<double> parseNumber(std::string_view text);

// The words data files write for values that are no finite number, in any letter case:
// "inf" and "infinity" with an optional sign ("-inf", "+Inf", "-Infinity"), and "nan"
// (also "-nan", as C's printf writes it). nullopt for anything else, spaces included.
std::optional<double> parseNonFinite(std::string_view text);

// Shortest text that parses back to exactly `v`; integers print without a decimal point.
std::string formatNumber(double v);

// `digits` significant digits (C's %g), whatever the process locale: for messages a person
// reads, where the files keep the exact value.
std::string formatSignificant(double v, int digits);

}  // namespace ppsynth::data
