// The data movement of a TMA tile load (cp.async.bulk.tensor ... .tile):
// which global elements a box covers, and the bytes it puts in shared memory.
//
// The box starts at the signed element coordinates `coords` and holds
// ceil(boxDim[d] / elementStride[d]) elements along dimension d, element k
// at coordinate coords[d] + k * elementStride[d] (dimension 0's stride is
// always 1). In shared memory the elements are packed in box order,
// dimension 0 fastest, from the destination address on; then the swizzle
// moves each 16-byte chunk (tmaSwizzleAddress). Elements outside
// [0, globalDim) in any dimension are filled with zeros, or with the
// canonical NaN of the type for OOB fill NAN_REQUEST_ZERO_FMA; they still
// count toward the transaction bytes, which are always the whole box.
#pragma once

#include "runtime/TensorMap.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cutec::rt {

class MemoryMap;

/// Reads the box at `coords` (the map's rank of them) into `image`, the box's
/// unswizzled bytes in box order (info.boxBytes() of them). Every in-bounds
/// element must lie in a buffer of `globals`; otherwise returns why (and
/// `image` is unspecified), else "".
std::string gatherTmaBox(const TensorMapInfo &info, const int32_t *coords,
                         const MemoryMap &globals, std::vector<std::byte> &image);

/// The alignment cp.async.bulk.tensor requires of a shared destination with
/// `swizzle`: 128 bytes, and the swizzle pattern's repeat (8 rows of its
/// span: 256, 512, 1024 bytes) so that the pattern starts at the box's start.
uint32_t tmaDestinationAlignment(TmaSwizzle swizzle);

} // namespace cutec::rt
