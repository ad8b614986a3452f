#include "data/text_encoding.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ppsynth::data::detail {

namespace {
bool isContinuation(unsigned char c) {
    return (c & 0xC0U) == 0x80U;
}
}  // namespace

bool isValidUtf8(std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
        // ASCII fast path, eight bytes at a time.
        if (end - p >= 8) {
            std::uint64_t word = 0;
            std::memcpy(&word, p, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                p += 8;
                continue;
            }
        }
        const unsigned char c = *p;
        if (c < 0x80U) {
            ++p;
            continue;
        }
        std::size_t len = 0;
        std::uint32_t cp = 0;
        if (c >= 0xC2U && c <= 0xDFU) {
            len = 2;
            cp = c & 0x1FU;
        } else if (c >= 0xE0U && c <= 0xEFU) {
            len = 3;
            cp = c & 0x0FU;
        } else if (c >= 0xF0U && c <= 0xF4U) {
            len = 4;
            cp = c & 0x07U;
        } else {
            return false;  // continuation byte first, overlong C0/C1, or F5..FF
        }
        if (static_cast<std::size_t>(end - p) < len) return false;
        for (std::size_t i = 1; i < len; ++i) {
            if (!isContinuation(p[i])) return false;
            cp = (cp << 6U) | (p[i] & 0x3FU);
        }
        if ((len == 3 && cp < 0x800U) || (len == 4 && cp < 0x10000U)) return false;  // overlong
        if (cp >= 0xD800U && cp <= 0xDFFFU) return false;                            // surrogate
        if (cp > 0x10FFFFU) return false;
        p += len;
    }
    return true;
}

std::string withoutNulBytes(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s)
        if (c != '\0') out.push_back(c);
    return out;
}

std::string shownCell(std::string_view s, std::size_t longest) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    // Cut where a character starts, not inside a UTF-8 sequence.
    std::size_t cut = std::min(s.size(), longest);
    while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    std::string out;
    for (std::size_t i = 0; i < cut; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == 0) {
            out += "\\0";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7F) {
            out += "\\x";
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 15]);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    if (s.size() > longest) out += "... (" + std::to_string(s.size()) + " bytes)";
    return out;
}

std::string windows1252ToUtf8(std::string_view s) {
    // Code points of bytes 0x80..0x9F, where Windows-1252 puts the euro sign, curly
    // quotes and dashes; its five undefined bytes keep their Latin-1 code points.
    static constexpr char16_t kHigh[32] = {
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
        0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        const std::uint32_t cp = c >= 0x80U && c < 0xA0U ? kHigh[c - 0x80U] : c;
        if (cp < 0x80U) {
            out.push_back(ch);
        } else if (cp < 0x800U) {
            out.push_back(static_cast<char>(0xC0U | (cp >> 6U)));
            out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
        } else {
            out.push_back(static_cast<char>(0xE0U | (cp >> 12U)));
            out.push_back(static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU)));
            out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
        }
    }
    return out;
}

std::optional<std::string_view> unicodeBom(std::string_view s) {
    // UTF-32 first: its little-endian mark begins with UTF-16's.
    if (s.starts_with(std::string_view("\xFF\xFE\0\0", 4))) return "UTF-32";
    if (s.starts_with(std::string_view("\0\0\xFE\xFF", 4))) return "UTF-32";
    if (s.starts_with("\xFF\xFE") || s.starts_with("\xFE\xFF")) return "UTF-16";
    return std::nullopt;
}

std::optional<std::string_view> unicodeWithoutBom(std::string_view s) {
    // The first block is enough: a text file's first lines are its header and first rows.
    constexpr std::size_t kBlock = 4096;
    s = s.substr(0, std::min(s.size(), kBlock));
    const auto zero = [&](std::size_t i) { return s[i] == '\0'; };

    // UTF-32: a code point is at most 0x10FFFF, so its highest byte is always zero, and the
    // next is zero for every character below U+10000 (all ordinary text).
    const std::size_t units32 = s.size() / 4;
    if (units32 >= 2) {
        std::size_t le = 0, be = 0;
        for (std::size_t u = 0; u < units32; ++u) {
            const std::size_t b = 4 * u;
            le += zero(b + 3) && zero(b + 2) && !zero(b);
            be += zero(b) && zero(b + 1) && !zero(b + 3);
        }
        if (10 * le >= 9 * units32) return "UTF-32LE";
        if (10 * be >= 9 * units32) return "UTF-32BE";
    }

    // UTF-16: ASCII characters have a zero high byte, first (big-endian) or second
    // (little-endian). Most of a CSV file's characters are ASCII even when its text is not;
    // the other byte of the pair is almost never zero.
    const std::size_t units16 = s.size() / 2;
    if (units16 < 2) return std::nullopt;
    std::size_t zeroFirst = 0, zeroSecond = 0;
    for (std::size_t u = 0; u < units16; ++u) {
        zeroFirst += zero(2 * u);
        zeroSecond += zero(2 * u + 1);
    }
    // A few zeros do not make a pattern: a stray zero byte in a short file is no encoding.
    constexpr std::size_t kFewest = 4;
    const auto pattern = [&](std::size_t zeros, std::size_t others) {
        return zeros >= kFewest && 10 * zeros >= 3 * units16 && 10 * others <= zeros;
    };
    if (pattern(zeroSecond, zeroFirst)) return "UTF-16LE";
    if (pattern(zeroFirst, zeroSecond)) return "UTF-16BE";
    return std::nullopt;
}

bool stripUtf8Bom(std::string_view& s) {
    if (s.size() >= 3 && s.substr(0, 3) == "\xEF\xBB\xBF") {
        s.remove_prefix(3);
        return true;
    }
    return false;
}

}  // namespace ppsynth::data::detail
