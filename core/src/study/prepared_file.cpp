#include "study/prepared_file.hpp"

#include <bit>
#include <sstream>

#include "ppsynth/common/sha256.hpp"

namespace ppsynth::study::detail {

namespace {

constexpr std::string_view kMagic = "ppsynth prepared study\n";
constexpr std::string_view kChecksumKey = "sha256 ";
constexpr std::size_t kChecksumLine = 7 + 64 + 1;  // "sha256 " + hex + "\n"

class Writer {
  public:
    void u64(std::uint64_t v) {
        for (int b = 0; b < 8; ++b) out_.push_back(static_cast<char>((v >> (8 * b)) & 0xffu));
    }
    void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
    void text(const std::string& s) {
        u64(s.size());
        out_ += s;
    }
    void doubles(const double* v, std::size_t n) {
        u64(n);
        for (std::size_t i = 0; i < n; ++i) f64(v[i]);
    }
    void vector(const std::vector<double>& v) { doubles(v.data(), v.size()); }
    void vector(const Eigen::VectorXd& v) { doubles(v.data(), static_cast<std::size_t>(v.size())); }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

// Every read is bounds-checked; the first one past the end makes ok() false for good.
class Reader {
  public:
    explicit Reader(std::string_view in) : in_(in) {}
    bool ok() const { return ok_; }
    bool atEnd() const { return pos_ == in_.size(); }

    std::uint64_t u64() {
        if (!take(8)) return 0;
        std::uint64_t v = 0;
        for (int b = 0; b < 8; ++b)
            v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in_[pos_ - 8 + b]))
                 << (8 * b);
        return v;
    }
    std::uint8_t u8() {
        if (!take(1)) return 0;
        return static_cast<std::uint8_t>(in_[pos_ - 1]);
    }
    double f64() { return std::bit_cast<double>(u64()); }
    // A count of items of `each` bytes that must still fit in what is left.
    std::size_t count(std::size_t each) {
        const std::uint64_t n = u64();
        if (!ok_ || (each > 0 && n > (in_.size() - pos_) / each)) {
            ok_ = false;
            return 0;
        }
        return static_cast<std::size_t>(n);
    }
    std::string text() {
        const std::size_t n = count(1);
        if (!take(n)) return {};
        return std::string(in_.substr(pos_ - n, n));
    }
    std::vector<double> vector() {
        std::vector<double> v(count(8));
        for (double& x : v) x = f64();
        return v;
    }
    Eigen::VectorXd eigen() {
        Eigen::VectorXd v(static_cast<Eigen::Index>(count(8)));
        for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = f64();
        return v;
    }

  private:
    bool take(std::size_t n) {
        if (!ok_ || n > in_.size() - pos_) {
            ok_ = false;
            return false;
        }
        pos_ += n;
        return true;
    }
    std::string_view in_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

std::string payload(const SharedUnweighted& s) {
    Writer w;
    w.vector(s.f);
    w.f64(s.deltaX);
    w.u64(s.nonFinite.size());
    for (auto b : s.nonFinite) w.u8(b);
    w.u8(s.fAgreement ? 1 : 0);
    if (s.fAgreement) {
        w.f64(s.fAgreement->rankCorrelation);
        w.f64(s.fAgreement->medianRelativeDifference);
    }
    w.u64(s.warmStarts.size());
    for (const auto& c : s.warmStarts) {
        w.vector(c.q);
        w.f64(c.stepSize);
        w.vector(c.invMetric);
        w.u64(c.replicas.size());
        for (const auto& r : c.replicas) w.vector(r);
        w.vector(c.ladder);
        w.u8(c.rng ? 1 : 0);
        if (c.rng) {
            std::ostringstream state;
            state << *c.rng;  // Boost.Random's exact text form of the engine's state
            w.text(state.str());
        }
        w.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(c.swapParity)));
    }
    w.u64(s.synthetic.size());
    for (const auto& d : s.synthetic) w.vector(d);
    w.vector(s.ir);
    w.u64(s.parameters.size());
    for (const auto& p : s.parameters) {
        w.text(p.name);
        for (double v : {p.mean, p.sd, p.q05, p.median, p.q95}) w.f64(v);
    }
    return w.take();
}

std::optional<SharedUnweighted> parsePayload(std::string_view bytes) {
    Reader r(bytes);
    SharedUnweighted s;
    s.f = r.eigen();
    s.deltaX = r.f64();
    s.nonFinite.resize(r.count(1));
    for (auto& b : s.nonFinite) b = r.u8();
    if (r.u8() == 1) {
        privacy::FAgreement a;
        a.rankCorrelation = r.f64();
        a.medianRelativeDifference = r.f64();
        s.fAgreement = a;
    }
    s.warmStarts.resize(r.count(8));
    for (auto& c : s.warmStarts) {
        c.q = r.eigen();
        c.stepSize = r.f64();
        c.invMetric = r.eigen();
        c.replicas.resize(r.count(8));
        for (auto& v : c.replicas) v = r.eigen();
        c.ladder = r.vector();
        if (r.u8() == 1) {
            const std::string text = r.text();
            std::istringstream state(text);
            Rng rng;
            state >> rng;  // sets failbit at the end of the text even when it read it all
            std::ostringstream back;
            back << rng;
            if (back.str() != text) return std::nullopt;
            c.rng = rng;
        }
        c.swapParity = static_cast<int>(static_cast<std::int64_t>(r.u64()));
    }
    s.synthetic.resize(r.count(8));
    for (auto& d : s.synthetic) d = r.vector();
    s.ir = r.vector();
    s.parameters.resize(r.count(8));
    for (auto& p : s.parameters) {
        p.name = r.text();
        for (double* v : {&p.mean, &p.sd, &p.q05, &p.median, &p.q95}) *v = r.f64();
    }
    if (!r.ok() || !r.atEnd()) return std::nullopt;
    return s;
}

// The next header line ("key value\n") starting at pos; false when there is none.
bool headerLine(std::string_view bytes, std::size_t& pos, std::string_view key,
                std::string& value) {
    if (bytes.substr(pos, key.size()) != key) return false;
    const std::size_t end = bytes.find('\n', pos);
    if (end == std::string_view::npos) return false;
    value = std::string(bytes.substr(pos + key.size(), end - pos - key.size()));
    pos = end + 1;
    return true;
}

}  // namespace

std::string encodeShared(const SharedUnweighted& shared, const std::string& configSha256) {
    const std::string body = payload(shared);
    std::string out(kMagic);
    out += "format " + std::to_string(kPreparedFormat) + "\n";
    out += "config-sha256 " + configSha256 + "\n";
    out += "payload-bytes " + std::to_string(body.size()) + "\n";
    out += body;
    out += std::string(kChecksumKey) + sha256Hex(out) + "\n";
    return out;
}

Expected<SharedUnweighted> decodeShared(std::string_view bytes, const std::string& configSha256,
                                        const std::string& path) {
    const std::string again =
        ": remove it and compute the sweep's item 0 again (`--item 0`), which writes it";
    if (bytes.substr(0, kMagic.size()) != kMagic)
        return Error{"'" + path + "' is not a prepared sweep state of ppsynth" + again};
    std::size_t pos = kMagic.size();
    std::string format;
    if (!headerLine(bytes, pos, "format ", format))
        return Error{"'" + path + "' is damaged (no format line)" + again};
    if (format != std::to_string(kPreparedFormat))
        return Error{"'" + path + "' was written in format " + format +
                     " of another ppsynth version (this one reads format " +
                     std::to_string(kPreparedFormat) + ")" + again};
    // The checksum before anything else is believed: a truncated or altered file stops here.
    if (bytes.size() < pos + kChecksumLine ||
        bytes.substr(bytes.size() - kChecksumLine, kChecksumKey.size()) != kChecksumKey ||
        bytes.back() != '\n')
        return Error{"'" + path + "' is damaged (truncated: its checksum line is missing)" + again};
    const std::string_view signedPart = bytes.substr(0, bytes.size() - kChecksumLine);
    const std::string_view saved =
        bytes.substr(bytes.size() - kChecksumLine + kChecksumKey.size(), 64);
    if (sha256Hex(signedPart) != saved)
        return Error{"'" + path +
                     "' is damaged (its SHA-256 does not match its contents: truncated or "
                     "altered)" +
                     again};
    std::string config, length;
    if (!headerLine(signedPart, pos, "config-sha256 ", config) ||
        !headerLine(signedPart, pos, "payload-bytes ", length))
        return Error{"'" + path + "' is damaged (its header is incomplete)" + again};
    if (config != configSha256)
        return Error{"'" + path + "' was prepared for another configuration or data file (its " +
                     "configuration's SHA-256 " + config + ", this folder's config.json's " +
                     configSha256 + ")" + again};
    if (length != std::to_string(signedPart.size() - pos))
        return Error{"'" + path + "' is damaged (payload of " +
                     std::to_string(signedPart.size() - pos) + " bytes, its header says " + length +
                     ")" + again};
    auto s = parsePayload(signedPart.substr(pos));
    if (!s) return Error{"'" + path + "' is damaged (its contents do not parse)" + again};
    return std::move(*s);
}

}  // namespace ppsynth::study::detail
