// The data movement of a TMA tile load (cp.async.bulk.tensor ... .tile):
// which global elements a box covers, and the bytes it puts in shared memory.
//
// The box starts at the signed element coordinates `coords` and holds
// ceil(boxDim[d] / elementStride[d]) elements along dimension d, element k
// at coordinate coords[d] + k * elementStride[d] (dimension 0's stride is
// always 1). coords[0] * elementBytes must be a multiple of 16: the H100
// raises "illegal instruction" otherwise (checkTmaBoxStart). In shared
// memory each box row (dimension 0's elements) starts a new row of
// sharedRowPitch() bytes from the destination on: the row itself without
// swizzle, the swizzle span with one, even for a narrower row, whose tail
// is left untouched. Then the swizzle moves each 16-byte chunk by its
// absolute address bits (tmaSwizzleAddress). Elements outside
// [0, globalDim) in any dimension are filled with zeros, or for OOB fill
// NAN_REQUEST_ZERO_FMA with the 16-bit 0x7ff7 repeated (a NaN); they still
// count toward the transaction bytes, which are the box's element bytes
// (boxBytes(), without row padding).
#pragma once

#include "runtime/TensorMap.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cutec::rt {

class MemoryMap;

/// Where a box lands in shared memory: row r of the box's dense image
/// (rowBytes each, box order) starts at dst + r * rowPitch, and then the
/// swizzle moves each 16-byte chunk.
struct TmaSharedLayout {
  uint32_t rowBytes = 16, rowPitch = 16;
  TmaSwizzle swizzle = TmaSwizzle::None;

  static TmaSharedLayout of(const TensorMapInfo &info) {
    return {info.boxRowBytes(), info.sharedRowPitch(), info.swizzle};
  }
  /// Bytes that an image of `bytes` spans from the destination.
  uint32_t extent(uint32_t bytes) const { return bytes / rowBytes * rowPitch; }
  /// Calls visit(byte, address) for each 16-byte chunk of an image of
  /// `bytes` (whole rows) loaded to `dst`, in image order, with the shared
  /// address the chunk starting at image byte `byte` lands at.
  template <typename Visit> void forEachChunk(uint32_t dst, uint32_t bytes, Visit &&visit) const {
    for (uint32_t rowStart = 0; rowStart < bytes; rowStart += rowBytes, dst += rowPitch)
      for (uint32_t column = 0; column < rowBytes; column += 16)
        visit(rowStart + column, tmaSwizzleAddress(dst + column, swizzle));
  }
};

/// "" if the hardware accepts a box starting at `coords`, else why not:
/// dimension 0's start must lie on a 16-byte boundary of the row
/// (coords[0] * elementBytes a multiple of 16). Out-of-bounds starts are
/// fine; gatherTmaBox checks this first.
std::string checkTmaBoxStart(const TensorMapInfo &info, const int32_t *coords);

/// Reads the box at `coords` (the map's rank of them) into `image`, the box's
/// unswizzled bytes in box order (info.boxBytes() of them). The start must
/// pass checkTmaBoxStart, and every in-bounds element must lie in a buffer
/// of `globals`; otherwise returns why (and `image` is unspecified), else "".
std::string gatherTmaBox(const TensorMapInfo &info, const int32_t *coords,
                         const MemoryMap &globals, std::vector<std::byte> &image);

/// The alignment cp.async.bulk.tensor requires of a shared destination:
/// 128 bytes with every swizzle (an H100 reports "misaligned address" for
/// 16 and 64). A swizzled box need not start where its pattern does: the
/// swizzle takes the absolute address bits, as tmaSwizzleAddress does.
uint32_t tmaDestinationAlignment(TmaSwizzle swizzle);

} // namespace cutec::rt
