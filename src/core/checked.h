// Arithmetic on numbers that users give (tasks, CPUs per task, memory, nodes, array
// sizes): an overflow is reported, never wrapped. Signed overflow is undefined
// behaviour, and a wrapped total (-c 2147483647 -n 2 gave -2 CPUs) slips under every
// "does it fit" check. Totals are computed in 64 bits and checked here.
#pragma once

#include <limits>
#include <optional>
#include <type_traits>

namespace yard {

template <typename T>
std::optional<T> checked_mul(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T r{};
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

template <typename T>
std::optional<T> checked_add(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T r{};
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// a / b rounded up, for unsigned a and b > 0, without the a + b - 1 that wraps near
// the top (a --mem of 2^64 - 1 bytes became 0M).
template <typename T>
T ceil_div(T a, T b) {
  static_assert(std::is_unsigned_v<T>);
  return a / b + (a % b != 0 ? 1 : 0);
}

// For totals whose overflow validation refuses: an overflowing total is "more than any
// machine has", never less.
template <typename T>
T saturate(std::optional<T> v) {
  return v ? *v : std::numeric_limits<T>::max();
}

}  // namespace yard
