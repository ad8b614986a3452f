// Typed reading of one JSON object of a configuration (private to core/study): every
// configuration parser (runs, sweeps, simulations) reports errors alike, with the key path,
// and refuses unknown keys.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ppsynth::study::detail {

using nlohmann::json;

// Parses a configuration's text (comments allowed) into `out`. Returns why it cannot be read,
// or empty: text that is not JSON, or an object that gives a key twice (JSON parsers keep one
// of the two silently), named by its path with `root` for the outermost object.
std::string parseConfigJson(const std::string& text, json& out,
                            const std::string& root = "configuration");

// Reads typed keys from one JSON object, collecting the first error with its key path.
// Unknown keys are errors (a typo would otherwise be ignored silently), except "comment"
// and keys starting with '_', which are free for notes.
class Reader {
  public:
    Reader(const json& obj, std::string path, std::string& error)
        : obj_(obj), path_(std::move(path)), error_(error) {
        if (!obj_.is_object()) fail("must be an object");
    }
    ~Reader() {
        if (!error_.empty() || !obj_.is_object()) return;
        for (const auto& [key, value] : obj_.items()) {
            if (key == "comment" || key.starts_with('_') || seen_.count(key)) continue;
            std::string known;
            for (const auto& k : seen_) known += (known.empty() ? "" : ", ") + k;
            error_ = path_ + ": unknown key '" + key + "' (known keys: " + known + ")";
            return;
        }
    }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    bool has(const std::string& key) {
        seen_.insert(key);
        return obj_.is_object() && obj_.contains(key);
    }
    template <typename T>
    void get(const std::string& key, T& out) {
        if (!has(key) || !error_.empty()) return;
        const json& v = obj_.at(key);
        if constexpr (std::is_same_v<T, std::string>) {
            if (!v.is_string()) return fail("'" + key + "' must be a string");
        } else if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean()) return fail("'" + key + "' must be true or false");
        } else if constexpr (std::is_integral_v<T>) {
            if (!v.is_number_integer()) return fail("'" + key + "' must be a whole number");
            if (auto range = outOfRange<T>(v); !range.empty())
                return fail("'" + key + "' " + range);
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!v.is_number()) return fail("'" + key + "' must be a number");
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            if (!v.is_array() ||
                !std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_string(); }))
                return fail("'" + key + "' must be a list of column names");
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
            if (!v.is_array() ||
                !std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_number(); }))
                return fail("'" + key + "' must be a list of numbers");
        } else if constexpr (std::is_same_v<T, std::vector<std::size_t>>) {
            if (!v.is_array() || !std::all_of(v.begin(), v.end(), [](const json& e) {
                    return e.is_number_unsigned() && outOfRange<std::size_t>(e).empty();
                }))
                return fail("'" + key + "' must be a list of whole numbers");
        } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
            if (!v.is_object() ||
                !std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_string(); }))
                return fail("'" + key + "' must map names to strings");
        } else if constexpr (std::is_same_v<T, std::map<std::string, double>>) {
            if (!v.is_object() ||
                !std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_number(); }))
                return fail("'" + key + "' must map names to numbers");
        }
        out = v.get<T>();
    }
    template <typename T>
    void getOptional(const std::string& key, std::optional<T>& out) {
        T v{};
        if (!has(key)) return;
        get(key, v);
        out = v;
    }
    const json& raw(const std::string& key) {
        seen_.insert(key);
        return obj_.at(key);
    }
    void fail(const std::string& what) {
        if (error_.empty()) error_ = path_ + ": " + what;
    }
    const std::string& path() const { return path_; }

  private:
    // Why the whole number `v` does not fit T, or empty. nlohmann keeps non-negative whole
    // numbers as unsigned, so a seed up to 2^64 - 1 (which toJson writes) reads back whole.
    template <typename T>
    static std::string outOfRange(const json& v) {
        using Limits = std::numeric_limits<T>;
        const std::string tooLarge = "must be at most " + std::to_string(Limits::max());
        if (v.is_number_unsigned()) return std::in_range<T>(v.get<std::uint64_t>()) ? "" : tooLarge;
        const auto value = v.get<std::int64_t>();
        if (std::in_range<T>(value)) return "";
        if (value >= 0) return tooLarge;
        if constexpr (std::is_unsigned_v<T>)
            return "must not be negative";
        else
            return "must be at least " + std::to_string(Limits::min());
    }

    const json& obj_;
    std::string path_;
    std::string& error_;
    std::set<std::string> seen_;
};

// A whole-number key, its value and the range allowed.
struct IntRange {
    const char* key;
    long long value;
    long long least;
    long long most = std::numeric_limits<long long>::max();
};

// The first key out of its range, with the value given and what is allowed ("'chains' is 0
// but must be at least 1"), or empty when every key is in range.
inline std::string rangeProblem(std::initializer_list<IntRange> keys) {
    for (const auto& k : keys) {
        if (k.value >= k.least && k.value <= k.most) continue;
        const std::string allowed =
            k.most != std::numeric_limits<long long>::max()
                ? "between " + std::to_string(k.least) + " and " + std::to_string(k.most)
            : k.least == 0 ? std::string("0 or more")
                           : "at least " + std::to_string(k.least);
        return "'" + std::string(k.key) + "' is " + std::to_string(k.value) + " but must be " +
               allowed;
    }
    return {};
}

// Fails `r` naming the first key out of its range.
inline void checkRanges(Reader& r, std::initializer_list<IntRange> keys) {
    if (std::string problem = rangeProblem(keys); !problem.empty()) r.fail(problem);
}

}  // namespace ppsynth::study::detail
