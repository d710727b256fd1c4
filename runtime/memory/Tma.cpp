// Reading a TMA box from global memory (one contiguous segment per box row,
// checked against the launch's buffers, the rest filled) and writing one
// back (the in-bounds segments only).
#include "runtime/memory/Tma.h"

#include "runtime/base/DiagnosticText.h"
#include "runtime/memory/MemoryMap.h"

#include <algorithm>
#include <cstring>

namespace cutec::rt {
namespace {

/// The bytes an out-of-bounds element reads as.
void fillValue(const TensorMapInfo &info, std::byte *element) {
  uint32_t bytes = info.elementBytes();
  std::memset(element, 0, bytes);
  if (info.oobFill != TmaOobFill::NanRequestZeroFma)
    return;
  // What an H100 writes for f16, bf16 and f32 alike: the 16-bit 0x7ff7
  // repeated (f32 0x7ff77ff7), a NaN in each of those formats.
  for (uint32_t b = 0; b < bytes; b += 2) {
    element[b] = std::byte{0xF7};
    element[b + 1] = std::byte{0x7F};
  }
}

std::string coordText(const int64_t *coord, uint32_t rank) {
  std::string text = "(";
  for (uint32_t d = 0; d < rank; ++d)
    text += (d ? "," : "") + std::to_string(coord[d]);
  return text + ")";
}

} // namespace

uint32_t tmaSharedAlignment(TmaSwizzle) { return 128; }

std::string checkTmaBoxStart(const TensorMapInfo &info, const int32_t *coords) {
  int64_t startByte = int64_t(coords[0]) * info.elementBytes();
  if (startByte % 16 == 0)
    return "";
  return "the box starts at element " + std::to_string(coords[0]) + " of dimension 0, byte " +
         std::to_string(startByte) + " of the row, not on a 16-byte boundary: coords[0] * " +
         std::to_string(info.elementBytes()) +
         " must be a multiple of 16 (the GPU raises an illegal instruction)";
}

std::string gatherTmaBox(const TensorMapInfo &info, const int32_t *coords,
                         const MemoryMap &globals, std::vector<std::byte> &image) {
  if (std::string problem = checkTmaBoxStart(info, coords); !problem.empty())
    return problem;
  const uint32_t elementBytes = info.elementBytes();
  const int64_t count0 = info.boxElements(0);
  image.resize(info.boxBytes());

  std::vector<std::byte> fill(elementBytes);
  fillValue(info, fill.data());
  auto fillElements = [&](std::byte *to, int64_t elements) {
    for (int64_t e = 0; e < elements; ++e)
      std::memcpy(to + size_t(e) * elementBytes, fill.data(), elementBytes);
  };
  std::string problem;
  forEachTmaBoxRow(info, coords, [&](const TmaBoxRow &r) {
    std::byte *row = image.data() + r.imageOffset;
    fillElements(row, r.first);
    fillElements(row + r.end * elementBytes, count0 - r.end);
    if (r.first == r.end)
      return true;
    uint64_t bytes = uint64_t(r.end - r.first) * elementBytes;
    if (!globals.find(r.address, bytes)) {
      int64_t coord[5];
      std::copy(r.coord, r.coord + 5, coord);
      coord[0] += r.first;
      problem = "the box's in-bounds elements from global coordinates " +
                coordText(coord, info.rank) + ", " + std::to_string(bytes) + " bytes at " +
                hex(r.address) + ", lie outside the launch's buffers: " +
                globals.describeMiss(r.address, bytes);
      return false;
    }
    std::memcpy(row + r.first * elementBytes, reinterpret_cast<const void *>(r.address), bytes);
    return true;
  });
  return problem;
}

void scatterTmaBox(const TensorMapInfo &info, const int32_t *coords, const std::byte *image) {
  const uint32_t elementBytes = info.elementBytes();
  forEachTmaBoxRow(info, coords, [&](const TmaBoxRow &r) {
    if (r.first < r.end)
      std::memcpy(reinterpret_cast<void *>(r.address),
                  image + r.imageOffset + r.first * elementBytes,
                  size_t(r.end - r.first) * elementBytes);
    return true;
  });
}

} // namespace cutec::rt
