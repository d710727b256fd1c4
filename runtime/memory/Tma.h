// The data movement of a TMA tile copy (cp.async.bulk.tensor ... .tile):
// which global elements a box covers, and where its bytes lie in shared
// memory. A load fills shared memory from the box; a store (.global
// .shared::cta) reads the same image from shared memory and writes the
// box's in-bounds elements, leaving the rest of global memory alone.
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

#include "runtime/memory/TensorMap.h"

#include <algorithm>
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

/// One row of a box (dimension 0's elements): its image bytes start at
/// `imageOffset`; its elements [first, end) lie inside the tensor, element
/// `first` at global `address` (first == end: none do). `coord` holds the
/// row's global coordinates (coord[0] that of element 0).
struct TmaBoxRow {
  uint32_t imageOffset;
  int64_t first, end;
  uint64_t address;
  const int64_t *coord;
};

/// Calls visit(row) for each row of the box at `coords`, in image order,
/// until it returns false; returns whether every row was visited. The
/// start must pass checkTmaBoxStart.
template <typename Visit>
bool forEachTmaBoxRow(const TensorMapInfo &info, const int32_t *coords, Visit &&visit) {
  const uint32_t elementBytes = info.elementBytes();
  const uint32_t rank = info.rank;
  uint32_t count[5];
  for (uint32_t d = 0; d < 5; ++d)
    count[d] = d < rank ? info.boxElements(d) : 1;
  const uint32_t rowBytes = count[0] * elementBytes;
  // Dimension 0's in-bounds box elements: k0 in [first0, end0).
  int64_t c0 = coords[0];
  int64_t dim0 = int64_t(info.globalDim[0]);
  int64_t first0 = std::clamp<int64_t>(-c0, 0, count[0]);
  int64_t end0 = std::clamp<int64_t>(dim0 - c0, first0, count[0]);
  uint32_t row = 0;
  for (uint32_t k4 = 0; k4 < count[4]; ++k4)
    for (uint32_t k3 = 0; k3 < count[3]; ++k3)
      for (uint32_t k2 = 0; k2 < count[2]; ++k2)
        for (uint32_t k1 = 0; k1 < count[1]; ++k1, row += rowBytes) {
          const uint32_t k[5] = {0, k1, k2, k3, k4};
          int64_t coord[5] = {c0, 0, 0, 0, 0};
          bool inBounds = first0 < end0;
          uint64_t offset = 0;
          for (uint32_t d = 1; d < rank; ++d) {
            coord[d] = int64_t(coords[d]) + int64_t(k[d]) * info.elementStride[d];
            inBounds = inBounds && coord[d] >= 0 && coord[d] < int64_t(info.globalDim[d]);
            offset += uint64_t(coord[d]) * info.globalStride[d];
          }
          uint64_t address = info.globalAddress + offset + uint64_t(c0 + first0) * elementBytes;
          if (!visit(TmaBoxRow{row, inBounds ? first0 : 0, inBounds ? end0 : 0,
                               inBounds ? address : 0, coord}))
            return false;
        }
  return true;
}

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

/// Writes the in-bounds elements of the box at `coords` from `image` (the
/// box's unswizzled bytes in box order) to global memory: what a TMA store
/// does when it completes. The caller has checked the addresses
/// (gatherTmaBox's rule, through forEachTmaBoxRow).
void scatterTmaBox(const TensorMapInfo &info, const int32_t *coords, const std::byte *image);

/// The alignment cp.async.bulk.tensor requires of shared memory, a load's
/// destination or a store's source: 128 bytes with every swizzle (an H100
/// reports "misaligned address" for 16 and 64). A swizzled box need not
/// start where its pattern does: the swizzle takes the absolute address
/// bits, as tmaSwizzleAddress does.
uint32_t tmaSharedAlignment(TmaSwizzle swizzle);

} // namespace cutec::rt
