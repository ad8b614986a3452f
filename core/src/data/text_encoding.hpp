// Byte-level text encoding helpers for readers: UTF-8 validation and Latin-1 to UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace ppsynth::data::detail {

// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or code points
// beyond U+10FFFF).
bool isValidUtf8(std::string_view s);

// Every byte is one Latin-1 (ISO 8859-1) character; the result is its UTF-8 form.
std::string latin1ToUtf8(std::string_view s);

// Strips a leading UTF-8 byte order mark; true when there was one.
bool stripUtf8Bom(std::string_view& s);

}  // namespace ppsynth::data::detail
