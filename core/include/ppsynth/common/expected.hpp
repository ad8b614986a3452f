// Errors are values: a result or a message a person can act on. No exceptions cross
// ppsynth's API or a thread boundary (std::expected is C++23; this is the subset we use).
// Every error carries a kind besides its message: callers decide on the kind (stop quietly
// after a cancel, offer to overwrite what exists), never on the message text.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace ppsynth {

enum class ErrorKind {
    InvalidInput,   // the input or the settings: the message says what to change
    Cancelled,      // stopped on request; nothing half-written is left behind
    AlreadyExists,  // a file or folder is in the way; another name or overwriting helps
    Io,             // reading, writing, renaming or removing a file failed
    Encoding,       // a file's text does not convert (or the encoding named is unknown):
                    // reading it again with another encoding helps
    Internal,       // ppsynth's own fault: a state its code should never reach
};

// "invalid input", "cancelled", "already exists", "I/O", "encoding", "internal".
inline const char* toString(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::InvalidInput:
            return "invalid input";
        case ErrorKind::Cancelled:
            return "cancelled";
        case ErrorKind::AlreadyExists:
            return "already exists";
        case ErrorKind::Io:
            return "I/O";
        case ErrorKind::Encoding:
            return "encoding";
        case ErrorKind::Internal:
            return "internal";
    }
    return "internal";
}

struct Error {
    std::string message;
    // `Error{"..."}` means bad input: by far the most common error, and the kind that asks
    // the person to change something.
    ErrorKind kind = ErrorKind::InvalidInput;

    static Error invalidInput(std::string message) {
        return {std::move(message), ErrorKind::InvalidInput};
    }
    static Error cancelled(std::string message = "cancelled") {
        return {std::move(message), ErrorKind::Cancelled};
    }
    static Error alreadyExists(std::string message) {
        return {std::move(message), ErrorKind::AlreadyExists};
    }
    static Error io(std::string message) { return {std::move(message), ErrorKind::Io}; }
    static Error encoding(std::string message) { return {std::move(message), ErrorKind::Encoding}; }
    static Error internal(std::string message) { return {std::move(message), ErrorKind::Internal}; }

    // The same kind with more words in front ("synthesizer 'LW': " + message).
    Error prefixed(const std::string& prefix) const { return {prefix + message, kind}; }
};

// Status: success or an Error.
class [[nodiscard]] Status {
  public:
    Status() = default;
    Status(Error e) : error_(std::move(e)), ok_(false) {}  // NOLINT: implicit by design
    static Status ok() { return {}; }

    bool isOk() const { return ok_; }
    explicit operator bool() const { return ok_; }
    // Empty on success.
    const std::string& message() const { return error_.message; }
    ErrorKind kind() const {
        assert(!ok_);
        return error_.kind;
    }
    const Error& error() const {
        assert(!ok_);
        return error_;
    }

  private:
    Error error_;
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
    ErrorKind kind() const {
        assert(!hasValue());
        return std::get<1>(v_).kind;
    }
    Error error() const { return std::get<1>(v_); }
    Status status() const { return hasValue() ? Status{} : Status{std::get<1>(v_)}; }

  private:
    std::variant<T, Error> v_;
};

}  // namespace ppsynth
