// README.txt of a release bundle: plain language for the people who analyse the data.
#pragma once

#include <string>

#include "ppsynth/release/manifest.hpp"

namespace ppsynth::release::detail {

// `facts.files` decides which reader the R and Stata examples use.
std::string readmeText(const Manifest& manifest, const ManifestFacts& facts);

// A number for people: `digits` significant digits, locale-free ("0.1234", "2.5e-05").
std::string roundedNumber(double v, int digits = 4);

}  // namespace ppsynth::release::detail
