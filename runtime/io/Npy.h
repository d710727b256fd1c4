// Reading and writing NumPy .npy files: how `cutec run` and users' tests pass
// arrays to and from the emulation.
//
// Supported: format versions 1.0, 2.0 and 3.0; C order; little-endian (or
// byte-order-free) dtypes |u1 |i1 |b1 <u2 <i2 <f2 <u4 <i4 <f4 <u8 <i8 <f8, with
// the '<', '|' and '=' markers NumPy writes. Everything else, and every
// malformed file, is an error with a message; untrusted sizes are checked
// against the file's size before anything is allocated from them.
#pragma once

#include "runtime/base/Result.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cutec::rt {

struct NpyArray {
  /// NumPy's dtype string in canonical form: '|' for 1-byte types, '<'
  /// otherwise ("<f4", "|u1", "|b1", ...).
  std::string dtype;
  /// Dimensions in C order; empty for a 0-d array (one element).
  std::vector<int64_t> shape;
  /// The elements, little-endian, C order.
  std::vector<uint8_t> bytes;
};

template <typename T> using NpyResult = Result<T>;

/// The size of one element of a dtype in canonical form, or nullopt if cutec
/// does not support the dtype.
std::optional<size_t> npyItemSize(std::string_view dtype);

NpyResult<NpyArray> parseNpy(std::span<const uint8_t> file);
NpyResult<NpyArray> readNpyFile(const std::string &path);

/// The .npy file (version 1.0, or 2.0 for headers over 64 KiB) holding
/// `array`, padded as NumPy pads it. Fails if the array is inconsistent.
NpyResult<std::vector<uint8_t>> serializeNpy(const NpyArray &array);
Status writeNpyFile(const std::string &path, const NpyArray &array);

} // namespace cutec::rt
