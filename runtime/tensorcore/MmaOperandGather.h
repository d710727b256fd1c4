// The operands of the tensor-core MMAs that read shared memory through
// matrix descriptors (tcgen05.mma and tcgen05.cp, wgmma.mma_async): element
// formats and their values, 16-byte chunks read with the checks every such
// read needs (inside the CTA's shared memory, not still being written by a
// TMA load), and a whole operand gathered from a canonical layout
// (runtime/tensorcore/UmmaDescriptors.h) into f32 values.
#pragma once

#include "runtime/base/DiagnosticText.h"
#include "runtime/numerics/FloatFormat.h"
#include "runtime/memory/SharedWindow.h"
#include "runtime/tensorcore/UmmaDescriptors.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace cutec::rt {

/// The CTA's shared memory as the tensor core reads it.
struct SharedView {
  const std::byte *bytes = nullptr; // window address kSharedWindowBase is bytes[0]
  uint32_t size = 0;
  /// Per 16-byte unit of shared memory (offset / 16), the serial of the TMA
  /// load still writing it (0: none); null when no load is in flight.
  const uint32_t *pendingOwner = nullptr;
  /// Receives the shared offset of every 16-byte unit read (may repeat).
  std::vector<uint32_t> *unitsRead = nullptr;
};

/// What went wrong, if anything. `pendingCopy` is the serial of the TMA load
/// (or try_cancel response) whose bytes the instruction would read (0 if
/// that is not the problem); the text then ends with "by the ", for the
/// caller to name it.
struct MmaProblem {
  std::string text;
  uint32_t pendingCopy = 0;
  explicit operator bool() const { return !text.empty(); }
};

enum class MmaElement : uint8_t { F16, BF16, TF32, E4M3, E5M2, E2M3, E3M2, E2M1, U8, S8 };

struct MmaElementFormat {
  MmaElement element;
  uint32_t bits;     // bits of one element's code
  uint32_t perChunk; // elements per 16-byte chunk
  const char *name;
};

/// decode() of every code of `format` (and of every byte, for the formats
/// narrower than 8 bits a byte may hold): an MMA decodes thousands of
/// elements, so callers make these once.
std::vector<float> mmaDecodeTable(const FloatFormat &format);

/// The values of all codes of a floating-point element format; null for
/// the integer ones and tf32.
const float *mmaValueTable(MmaElement e);

/// The value of one element code (below 2^bits); every format's values are
/// f32 values (tf32: the top 19 bits of the container). `table` is
/// mmaValueTable(e).
float mmaElementValue(MmaElement e, const float *table, uint32_t code);

/// Reads the 16 bytes at shared window address `address` into `out`, or
/// says why it cannot (outside the window, or a TMA load still writes them);
/// `role()` names what the bytes are, and is called only on a problem.
template <typename Role>
MmaProblem readSharedChunk(const SharedView &shared, uint32_t address, std::byte *out,
                           Role &&role) {
  uint32_t offset = address - kSharedWindowBase;
  if (address < kSharedWindowBase || shared.size < 16 || offset > shared.size - 16)
    return {role() + " lies at shared address " + hex(address) +
            ", outside the CTA's shared memory [" + hex(kSharedWindowBase) + ", " +
            hex(kSharedWindowBase + shared.size) + ")"};
  if (shared.pendingOwner)
    for (uint32_t unit = offset / 16; unit <= (offset + 15) / 16; ++unit)
      if (uint32_t owner = shared.pendingOwner[unit]) {
        uint32_t first = std::max(offset, 16 * unit); // the first byte it writes
        MmaProblem p{role() + " at shared address " + hex(kSharedWindowBase + first) +
                     " is still being written by the "};
        p.pendingCopy = owner;
        return p;
      }
  std::memcpy(out, shared.bytes + offset, 16);
  if (shared.unitsRead && (shared.unitsRead->empty() || shared.unitsRead->back() != offset))
    shared.unitsRead->push_back(offset);
  return {};
}

/// One operand (A: rows = M, B: rows = N), K elements per row, decoded, and
/// whether any is NaN. Element (r, k) is values[r*K + k], or values[k*rows +
/// r] when `transposed` (B, as the vectorised loop reads it).
struct GatheredOperand {
  std::vector<float> values;
  uint32_t rowStride = 0, kStride = 0;
  bool hasNaN = false;
  float at(uint32_t r, uint32_t k) const {
    return values[size_t(r) * rowStride + size_t(k) * kStride];
  }
};

/// Gathers an operand of `rows` x `k` elements through a decoded (and
/// checked) descriptor, K-major or MN-major, reading each 16-byte chunk once
/// and decoding all its elements. Chunks are visited in the order the
/// elements (r, k) are, so the first problem found names the same element
/// an element-by-element walk would: the first of its chunk. `name` ("A",
/// "B") and `descriptor` (the raw bits) word the problems.
MmaProblem gatherSharedOperand(const SharedView &shared, const SmemMatrixDescriptor &d,
                               bool mnMajor, const MmaElementFormat &f, uint32_t rows, uint32_t k,
                               bool transposed, const char *name, GatheredOperand &operand);

} // namespace cutec::rt
