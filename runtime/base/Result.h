// Result<T>: the value of a fallible runtime function or the message saying
// why it failed. The runtime uses no exceptions and no LLVM, so this plays the
// part llvm::Expected plays in the compiler.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace cutec::rt {

struct Error {
  std::string message;
};

template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : state(std::move(value)) {}
  Result(Error error) : state(std::move(error)) {}

  explicit operator bool() const { return std::holds_alternative<T>(state); }

  T &value() {
    assert(*this && "value() of a failed Result");
    return std::get<T>(state);
  }
  const T &value() const {
    assert(*this && "value() of a failed Result");
    return std::get<T>(state);
  }
  const std::string &error() const {
    assert(!*this && "error() of a successful Result");
    return std::get<Error>(state).message;
  }

private:
  std::variant<T, Error> state;
};

/// The result of a fallible function that returns nothing.
using Status = Result<std::monostate>;

inline Status ok() { return std::monostate{}; }

} // namespace cutec::rt
