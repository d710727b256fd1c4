// The dictionary at the head of an .npy file, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// read by a small parser of exactly the Python literals NumPy writes there,
// and written the way NumPy writes it.
#pragma once

#include "runtime/base/Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cutec::rt {

struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// Parses the header text (everything after the length field). Accepts the
/// whitespace, padding and trailing commas NumPy emits, both quote styles,
/// and the `3L` integers of Python 2 era files; rejects anything else,
/// missing, repeated or unknown keys, and negative or >64-bit dimensions.
Result<NpyHeader> parseNpyHeader(std::string_view text);

/// A shape as Python writes a tuple: "()", "(3,)", "(2, 3)".
std::string formatNpyShape(const std::vector<int64_t> &shape);

/// The dict text as NumPy's `repr`-based writer spells it, without padding.
std::string formatNpyHeader(const NpyHeader &header);

} // namespace cutec::rt
