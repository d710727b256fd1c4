// Reading a TMA box from global memory: one contiguous segment per box row,
// checked against the launch's buffers, the rest filled.
#include "runtime/Tma.h"

#include "runtime/DiagnosticText.h"
#include "runtime/MemoryMap.h"

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

uint32_t tmaDestinationAlignment(TmaSwizzle) { return 128; }

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
  const uint32_t rank = info.rank;
  uint32_t count[5];
  for (uint32_t d = 0; d < 5; ++d)
    count[d] = d < rank ? info.boxElements(d) : 1;
  const uint32_t rowBytes = count[0] * elementBytes;
  image.resize(info.boxBytes());

  std::vector<std::byte> fill(elementBytes);
  fillValue(info, fill.data());
  auto fillElements = [&](std::byte *to, uint32_t elements) {
    for (uint32_t e = 0; e < elements; ++e)
      std::memcpy(to + size_t(e) * elementBytes, fill.data(), elementBytes);
  };

  // Dimension 0's in-bounds box elements: k0 in [first0, end0).
  int64_t c0 = coords[0];
  int64_t dim0 = int64_t(info.globalDim[0]);
  int64_t first0 = std::clamp<int64_t>(-c0, 0, count[0]);
  int64_t end0 = std::clamp<int64_t>(dim0 - c0, first0, count[0]);

  std::byte *row = image.data();
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
          if (!inBounds) {
            fillElements(row, count[0]);
            continue;
          }
          fillElements(row, uint32_t(first0));
          fillElements(row + end0 * elementBytes, uint32_t(count[0] - end0));
          uint64_t address = info.globalAddress + offset + uint64_t(c0 + first0) * elementBytes;
          uint64_t bytes = uint64_t(end0 - first0) * elementBytes;
          if (!globals.find(address, bytes)) {
            coord[0] = c0 + first0;
            return "the box's in-bounds elements from global coordinates " +
                   coordText(coord, rank) + ", " + std::to_string(bytes) + " bytes at " +
                   hex(address) + ", lie outside the launch's buffers: " +
                   globals.describeMiss(address, bytes);
          }
          std::memcpy(row + first0 * elementBytes, reinterpret_cast<const void *>(address), bytes);
        }
  return "";
}

} // namespace cutec::rt
