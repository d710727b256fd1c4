// The registered global buffers of a launch and the words for a miss.
#include "runtime/memory/MemoryMap.h"

#include "runtime/base/DiagnosticText.h"

#include <algorithm>

namespace cutec::rt {
namespace {

std::string bufferText(const MemoryMap::Buffer &b) {
  return "buffer '" + b.name + "' (" + std::to_string(b.size) + " bytes at " + hex(b.base) + ")";
}

} // namespace

Status MemoryMap::add(const void *base, size_t size, std::string name) {
  uint64_t begin = reinterpret_cast<uintptr_t>(base);
  if (!base)
    return Error{"global buffer '" + name + "' has a null base address"};
  if (size > UINT64_MAX - begin)
    return Error{"global buffer '" + name + "' wraps around the address space"};
  Buffer added{begin, size, std::move(name)};
  auto at = std::upper_bound(sorted.begin(), sorted.end(), begin,
                             [](uint64_t a, const Buffer &b) { return a < b.base; });
  auto overlaps = [&](const Buffer &other) {
    return added.base < other.end() && other.base < added.end();
  };
  if (at != sorted.end() && overlaps(*at))
    return Error{"global buffer '" + added.name + "' overlaps " + bufferText(*at)};
  if (at != sorted.begin() && overlaps(*std::prev(at)))
    return Error{"global buffer '" + added.name + "' overlaps " + bufferText(*std::prev(at))};
  sorted.insert(at, std::move(added));
  return ok();
}

const MemoryMap::Buffer *MemoryMap::find(uint64_t address, uint64_t width) const {
  auto after = std::upper_bound(sorted.begin(), sorted.end(), address,
                                [](uint64_t a, const Buffer &b) { return a < b.base; });
  if (after == sorted.begin())
    return nullptr;
  const Buffer &b = *std::prev(after);
  uint64_t offset = address - b.base;
  return width <= b.size && offset <= b.size - width ? &b : nullptr;
}

std::string MemoryMap::describeMiss(uint64_t address, uint64_t width) const {
  if (sorted.empty())
    return "no global buffer is registered";
  auto after = std::upper_bound(sorted.begin(), sorted.end(), address,
                                [](uint64_t a, const Buffer &b) { return a < b.base; });
  const Buffer *below = after == sorted.begin() ? nullptr : &*std::prev(after);
  const Buffer *above = after == sorted.end() ? nullptr : &*after;
  uint64_t last = address + width; // one past the access
  // The distance from the access to each neighbour decides which one the
  // kernel most likely meant.
  uint64_t pastBelow = below ? (address >= below->end() ? address - below->end() : 0) : UINT64_MAX;
  uint64_t beforeAbove = above ? (last <= above->base ? above->base - last : 0) : UINT64_MAX;
  if (below && pastBelow <= beforeAbove) {
    if (address >= below->end())
      return "it starts " + std::to_string(pastBelow) + " bytes past the end of " +
             bufferText(*below);
    return "it starts at offset " + std::to_string(address - below->base) + " and runs " +
           std::to_string(last - below->end()) + " bytes past the end of " + bufferText(*below);
  }
  if (last <= above->base)
    return "it ends " + std::to_string(beforeAbove) + " bytes before the start of " +
           bufferText(*above);
  return "it starts " + std::to_string(above->base - address) + " bytes before the start of " +
         bufferText(*above);
}

} // namespace cutec::rt
