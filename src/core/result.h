// Result<T>: a value or an Error carrying a message a user can act on, and its kind.
// Errors are values in Switchyard's core; exceptions never cross a component boundary.
// The kind, not the message, decides what a caller does (the CLI's exit status): a
// message may be reworded freely.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace yard {

enum class ErrorKind {
  Invalid,      // bad input: the request can never succeed as given (exit 2)
  NotFound,     // it names something that does not exist
  Unavailable,  // a resource failed (store full or broken, daemon unreachable): retry later
  Conflict,     // the request clashes with the current state
  Internal,     // a bug
  // Valid, but the backend has nothing that could ever run it (more CPUs, GPUs or nodes
  // than it has): as sbatch, a failure (exit 1), not a parse error.
  Unsatisfiable,
  // The request went to a daemon that did not answer: it may have been carried out, or
  // not. Never "failed": a caller that retries blindly could run a job twice.
  OutcomeUnknown,
};

struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::Invalid;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}    // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  const std::string& error() const { return std::get<Error>(v_).message; }
  ErrorKind kind() const { return std::get<Error>(v_).kind; }
  const Error& failure() const { return std::get<Error>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Result<void> stand-in: success or an error message.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error e) : error_(std::move(e.message)), kind_(e.kind), failed_(true) {}  // NOLINT
  static Status Ok() { return {}; }
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const std::string& error() const { return error_; }
  ErrorKind kind() const { return kind_; }
  Error failure() const { return Error{error_, kind_}; }

 private:
  std::string error_;
  ErrorKind kind_ = ErrorKind::Invalid;
  bool failed_ = false;
};

// The kind as it travels in the daemon's replies ("invalid", "not_found", ...).
inline const char* error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::Invalid: return "invalid";
    case ErrorKind::NotFound: return "not_found";
    case ErrorKind::Unavailable: return "unavailable";
    case ErrorKind::Conflict: return "conflict";
    case ErrorKind::Internal: return "internal";
    case ErrorKind::Unsatisfiable: return "unsatisfiable";
    case ErrorKind::OutcomeUnknown: return "outcome_unknown";
  }
  return "internal";
}
inline ErrorKind error_kind_from_name(std::string_view name) {
  for (auto k : {ErrorKind::Invalid, ErrorKind::NotFound, ErrorKind::Unavailable, ErrorKind::Conflict,
                 ErrorKind::Unsatisfiable, ErrorKind::OutcomeUnknown})
    if (name == error_kind_name(k)) return k;
  return name.empty() ? ErrorKind::Invalid : ErrorKind::Internal;
}

inline Error err(std::string message) { return Error{std::move(message)}; }
inline Error unavailable(std::string message) { return Error{std::move(message), ErrorKind::Unavailable}; }

}  // namespace yard
