// Errors are values: a result or a message a person can act on. No exceptions cross
// ppsynth's API or a thread boundary (std::expected is C++23; this is the subset we use).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace ppsynth {

struct Error {
    std::string message;
};

// Status: success or an Error.
class [[nodiscard]] Status {
  public:
    Status() = default;
    Status(Error e) : error_(std::move(e.message)), ok_(false) {}  // NOLINT: implicit by design
    static Status ok() { return {}; }

    bool isOk() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const std::string& message() const { return error_; }

  private:
    std::string error_;
    bool ok_ = true;
};

template <typename T>
class [[nodiscard]] Expected {
  public:
    Expected(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
    Expected(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

    bool hasValue() const { return v_.index() == 0; }
    explicit operator bool() const { return hasValue(); }

    T& value() & {
        assert(hasValue());
        return std::get<0>(v_);
    }
    const T& value() const& {
        assert(hasValue());
        return std::get<0>(v_);
    }
    // On a temporary, return by value: `for (auto v : *f())` must not dangle.
    T value() && {
        assert(hasValue());
        return std::get<0>(std::move(v_));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T operator*() && { return std::move(*this).value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const std::string& message() const {
        assert(!hasValue());
        return std::get<1>(v_).message;
    }
    Error error() const { return std::get<1>(v_); }
    Status status() const { return hasValue() ? Status{} : Status{std::get<1>(v_)}; }

  private:
    std::variant<T, Error> v_;
};

}  // namespace ppsynth
