// SHA-256 (FIPS 180-4) for release checksums. Our own small implementation: no library we
// already depend on offers one (OpenSSL is not a dependency; Qt's QCryptographicHash is
// off-limits in core), and the algorithm is short and fixed by NIST's test vectors.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "ppsynth/common/expected.hpp"

namespace ppsynth {

class Sha256 {
  public:
    using Digest = std::array<std::uint8_t, 32>;

    Sha256();
    void update(const void* data, std::size_t size);
    void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
    // The digest of everything fed so far; the object must not be updated afterwards.
    Digest finish();

  private:
    void compress(const std::uint8_t* block);

    std::array<std::uint32_t, 8> h_;
    std::array<std::uint8_t, 64> buffer_{};
    std::size_t buffered_ = 0;
    std::uint64_t totalBytes_ = 0;
};

// Lower-case hexadecimal, as sha256sum prints it.
std::string toHex(const Sha256::Digest& digest);
std::string sha256Hex(std::string_view bytes);
// Reads the file in blocks; the error names the file.
Expected<std::string> sha256FileHex(const std::string& path);

}  // namespace ppsynth
