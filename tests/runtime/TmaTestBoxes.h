// The boxes and global tensors of the TMA tests (TmaTest, TmaStoreTest):
// a box of a tensor in a byte buffer with padded rows, and the
// element-by-element walk over a box that their reference formulations of
// TMA's images share.
#pragma once

#include "runtime/memory/TensorMap.h"

#include <cstdint>
#include <vector>

namespace cutec::rt::test {

struct Box {
  TmaDataType type;
  uint32_t rank;
  uint64_t dim[5];
  uint32_t box[5];
  uint32_t estride[5];
  TmaSwizzle swizzle;
  int32_t coord[5];
  TmaOobFill oob = TmaOobFill::None;
};

struct Global {
  std::vector<uint8_t> bytes;
  uint64_t stride[5]; // bytes, per dimension
};

/// A tensor of `b`'s extents with rows padded past 16-byte multiples,
/// filled with a pattern.
inline Global makeGlobal(const Box &b) {
  Global g;
  uint32_t e = tmaElementBytes(b.type);
  g.stride[0] = e;
  uint64_t pitch = (b.dim[0] * e + 15) / 16 * 16 + 32; // padded rows
  uint64_t size = pitch;
  for (uint32_t d = 1; d < 5; ++d) {
    g.stride[d] = d < b.rank ? size : 0;
    if (d < b.rank)
      size *= b.dim[d];
  }
  g.bytes.resize(size);
  for (size_t i = 0; i < size; ++i)
    g.bytes[i] = uint8_t(i * 131 + (i >> 8) * 7 + 1);
  return g;
}

/// Bytes from one box row to the next in shared memory: the row itself
/// without swizzle, the swizzle span with one (narrower rows are padded).
inline uint32_t rowPitch(const Box &b) {
  return b.swizzle == TmaSwizzle::None ? b.box[0] * tmaElementBytes(b.type)
                                       : 16u << uint32_t(b.swizzle);
}

/// Bytes of the box's elements (element strides taken into account).
inline uint32_t boxBytes(const Box &b) {
  uint32_t bytes = tmaElementBytes(b.type);
  for (uint32_t d = 0; d < b.rank; ++d)
    bytes *= d == 0 ? b.box[0] : (b.box[d] + b.estride[d] - 1) / b.estride[d];
  return bytes;
}

/// Bytes the box spans in shared memory: its rows at rowPitch.
inline uint32_t sharedExtent(const Box &b) {
  return boxBytes(b) / (b.box[0] * tmaElementBytes(b.type)) * rowPitch(b);
}

/// A rank-2 box of `rows` rows of `inner` elements at (c0, c1) in a tensor
/// a little over three boxes wide and 45 rows high.
inline Box box2d(TmaDataType type, TmaSwizzle swizzle, uint32_t inner, uint32_t rows, int32_t c0,
                 int32_t c1) {
  Box b{};
  b.type = type;
  b.rank = 2;
  b.dim[0] = inner * 3 + 5;
  b.dim[1] = 45;
  b.box[0] = inner;
  b.box[1] = rows;
  for (uint32_t &s : b.estride)
    s = 1;
  b.swizzle = swizzle;
  b.coord[0] = c0;
  b.coord[1] = c1;
  return b;
}

/// Elements the box holds along each dimension (1 past the rank).
inline void boxCounts(const Box &b, uint32_t (&n)[5]) {
  for (uint32_t d = 0; d < 5; ++d)
    n[d] = d >= b.rank ? 1 : d == 0 ? b.box[0] : (b.box[d] + b.estride[d] - 1) / b.estride[d];
}

/// Calls visit(idx, linear, inside, offset) for each element of the box in
/// box order: its index per dimension, its position in that order, whether
/// it lies inside the tensor, and its byte offset in `g` when it does.
template <typename Visit> void forEachBoxElement(const Box &b, const Global &g, Visit &&visit) {
  uint32_t n[5];
  boxCounts(b, n);
  uint32_t linear = 0;
  for (uint32_t i4 = 0; i4 < n[4]; ++i4)
    for (uint32_t i3 = 0; i3 < n[3]; ++i3)
      for (uint32_t i2 = 0; i2 < n[2]; ++i2)
        for (uint32_t i1 = 0; i1 < n[1]; ++i1)
          for (uint32_t i0 = 0; i0 < n[0]; ++i0, ++linear) {
            const uint32_t idx[5] = {i0, i1, i2, i3, i4};
            bool inside = true;
            uint64_t offset = 0;
            for (uint32_t d = 0; d < b.rank; ++d) {
              int64_t step = d == 0 ? 1 : b.estride[d];
              int64_t c = int64_t(b.coord[d]) + int64_t(idx[d]) * step;
              inside = inside && c >= 0 && c < int64_t(b.dim[d]);
              offset += uint64_t(c) * g.stride[d];
            }
            visit(idx, linear, inside, offset);
          }
}

/// Where the byte at `address` of an unswizzled box image lands with the
/// swizzle (tmaSwizzleAddress, written out again).
inline uint32_t swizzled(uint32_t address, TmaSwizzle swizzle) {
  uint32_t bits = uint32_t(swizzle);
  return bits ? address ^ (((address >> 7) & ((1u << bits) - 1)) << 4) : address;
}

} // namespace cutec::rt::test
