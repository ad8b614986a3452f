// Byte-level text encoding helpers for readers: UTF-8 validation, Windows-1252 to UTF-8,
// byte order marks.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ppsynth::data::detail {

// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or code points
// beyond U+10FFFF).
bool isValidUtf8(std::string_view s);

// Every byte is one Windows-1252 character (Latin-1 with printable characters in place of
// the C1 controls 0x80..0x9F, as Excel writes); the result is its UTF-8 form.
std::string windows1252ToUtf8(std::string_view s);

// "UTF-16" or "UTF-32" when `s` starts with that encoding's byte order mark.
std::optional<std::string_view> unicodeBom(std::string_view s);

// Strips a leading UTF-8 byte order mark; true when there was one.
bool stripUtf8Bom(std::string_view& s);

}  // namespace ppsynth::data::detail
