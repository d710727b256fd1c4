//===- UmmaDescriptors.h - tcgen05.mma's descriptors from layouts ---------===//
//
// tcgen05.mma reads A and B from shared memory through 64-bit matrix
// descriptors and learns its shape and formats from a 32-bit instruction
// descriptor. lower-mma computes both at compile time from the operands'
// shared layouts and the MMA atom; this is that computation. The bits the
// fields go to are hardware/UmmaDescriptor.h's and hardware/GmmaDescriptor.h's,
// which the emulator decodes with.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_LOWERING_UMMADESCRIPTORS_H
#define CUTEC_PASSES_LOWERING_UMMADESCRIPTORS_H

#include "hardware/UmmaFormat.h"
#include "ir/core/DataType.h"
#include "ir/layout/Swizzle.h"

#include "llvm/Support/Error.h"

#include <optional>

namespace cutec::umma {

/// Which mode of an operand is contiguous in shared memory.
enum class Major { K = 0, MN = 1 };

/// tcgen05.mma kinds.
using Kind = hw::UmmaKind;

/// The matrix descriptor of one MMA operand, except its start address,
/// which is only known at run time: `constantBits() | ((address >> 4) &
/// 0x3FFF)` is the descriptor of an operand at shared-window `address`.
struct SmemDescriptor {
  /// Leading- and stride-dimension byte offsets, in 16-byte units.
  uint32_t leadingByteOffset = 0;
  uint32_t strideByteOffset = 0;
  /// A hw::UmmaLayout code.
  uint32_t layoutType = 0;

  uint64_t constantBits() const;
  /// The same fields in wgmma's (sm_90a) descriptor: no version bits, and
  /// the layout in bits [62,64) as 0 none, 1 128B, 2 64B, 3 32B. Null for
  /// the 128B layout with 32B atoms, which wgmma does not have.
  std::optional<uint64_t> wgmmaBits() const;
};

/// The descriptor of an operand tile of shape (MN, K) in elements of
/// `element`, laid out by `tile` (element offsets) under the byte swizzle
/// `swizzle` of its shared tensor: the tile must be one of the canonical
/// UMMA layouts for `major` (core matrices of 8 rows of 16 bytes; for
/// K-major, rows one swizzle span apart). Errors say which requirement fails.
llvm::Expected<SmemDescriptor> smemDescriptor(const Layout &tile, const Swizzle &swizzle,
                                              ir::DataType element, Major major);

/// The first `kBlock` columns of an (MN, K) operand tile: what one
/// instruction reads, the later K blocks being the same layout further on.
/// K may be nested (a K-major tile of several swizzle atoms).
llvm::Expected<Layout> firstKBlock(const Layout &tile, int64_t kBlock);

/// What the instruction descriptor encodes.
struct InstrDescriptorSpec {
  Kind kind = Kind::F16;
  ir::DataType a = ir::DataType::F16, b = ir::DataType::F16;
  /// The accumulator's type (dense kinds; block-scaled kinds accumulate f32).
  ir::DataType d = ir::DataType::F32;
  /// The scale factors' type (block-scaled kinds): ue8m0 or ue4m3.
  ir::DataType scale = ir::DataType::UE8M0;
  Major aMajor = Major::K, bMajor = Major::K;
  int64_t m = 128, n = 256;
  /// Block-scaled kinds: the byte of the SFA / SFB TMEM columns where this
  /// instruction's scale factors start (0 to 3).
  uint32_t aSfId = 0, bSfId = 0;
};

/// The 32-bit instruction descriptor; an error for a combination the kind
/// does not allow (formats, majorness, M and N).
llvm::Expected<uint32_t> instrDescriptor(const InstrDescriptorSpec &spec);

} // namespace cutec::umma

#endif
