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

// "UTF-16LE", "UTF-16BE", "UTF-32LE" or "UTF-32BE" when `s` (the start of a file without a
// byte order mark) has the zero bytes of that encoding: text whose characters are mostly
// ASCII, as a CSV file's delimiters, digits and line ends are, has a zero in every other
// byte (UTF-16) or in three bytes of four (UTF-32), at positions that tell the byte order.
// UTF-8 and the 8-bit code pages have no zero bytes in text.
std::optional<std::string_view> unicodeWithoutBom(std::string_view s);

// Strips a leading UTF-8 byte order mark; true when there was one.
bool stripUtf8Bom(std::string_view& s);

// `s` without its NUL bytes (character 0), which no text a person writes holds and which
// would cut the text short in every C string and many programs reading what ppsynth writes.
std::string withoutNulBytes(std::string_view s);

// `s` as a message shows a cell: control characters as \0, \t, \xNN; longer than `longest`
// bytes, its start, "..." and its length ("1234567890... (10485760 bytes)").
std::string shownCell(std::string_view s, std::size_t longest = 40);

}  // namespace ppsynth::data::detail
