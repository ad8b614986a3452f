#include "ppsynth/common/safe_name.hpp"

#include <cstdio>

namespace ppsynth {

namespace {

// The name as it can be shown in a message: bytes that would not print become \xNN.
std::string shown(std::string_view name) {
    std::string out;
    for (unsigned char c : name.substr(0, 2 * kMaxNameBytes)) {
        if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (name.size() > 2 * kMaxNameBytes) out += "...";
    return "'" + out + "'";
}

// Length of the UTF-8 sequence starting at s[i], or 0 when it is not one (overlong forms,
// surrogates and code points above U+10FFFF included).
std::size_t utf8Length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) return 1;
    std::size_t len;
    unsigned cp;
    if ((c & 0xE0) == 0xC0) {
        len = 2;
        cp = c & 0x1Fu;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        cp = c & 0x0Fu;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if (i + len > s.size()) return 0;
    for (std::size_t k = 1; k < len; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3Fu);
    }
    const unsigned minimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < minimum[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    // C1 control characters (U+0080..U+009F) are as invisible as C0 ones.
    if (cp >= 0x80 && cp <= 0x9F) return 0;
    return len;
}

}  // namespace

std::string safeNameRule() {
    return "a name becomes part of file names, so it may hold letters, digits, spaces and "
           "punctuation but no '/', '\\' or control characters, may not be '.' or '..' or start "
           "with '.' or '-', and may be at most " +
           std::to_string(kMaxNameBytes) + " bytes long";
}

Status checkSafeName(std::string_view name) {
    auto refuse = [&](const std::string& why) -> Status {
        return Error{"the name " + shown(name) + " " + why + " (" + safeNameRule() + ")"};
    };
    if (name.empty()) return Error{"the name is empty; give it a name (" + safeNameRule() + ")"};
    if (name.size() > kMaxNameBytes)
        return refuse("is " + std::to_string(name.size()) + " bytes long");
    if (name == "." || name == "..") return refuse("is a folder reference, not a name");
    if (name.front() == '.') return refuse("starts with '.'");
    if (name.front() == '-') return refuse("starts with '-'");
    for (std::size_t i = 0; i < name.size();) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        if (c == '/' || c == '\\') return refuse(std::string("contains '") + char(c) + "'");
        if (c == 0) return refuse("contains a NUL byte");
        if (c < 0x20 || c == 0x7F) return refuse("contains a control character");
        const std::size_t len = utf8Length(name, i);
        if (len == 0) return refuse("is not valid UTF-8 or contains a control character");
        i += len;
    }
    return {};
}

}  // namespace ppsynth
