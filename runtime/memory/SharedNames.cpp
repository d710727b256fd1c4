// Names for shared-memory addresses (runtime/memory/SharedNames.h).
#include "runtime/memory/SharedNames.h"

#include "runtime/base/DiagnosticText.h"

namespace cutec::rt {

void SharedNames::reset(const KernelDescriptor &kernel, uint32_t dynamicBase) {
  regions = kernel.sharedRegions;
  count = kernel.sharedRegionCount;
  base = dynamicBase;
}

std::string SharedNames::label(uint32_t address) const {
  std::string text = hex(address);
  for (uint32_t i = 0; i < count; ++i) {
    const SharedRegion &r = regions[i];
    if (address < base + r.offset || address >= base + r.offset + r.bytes)
      continue;
    uint32_t offset = address - base - r.offset;
    std::string where = std::string(r.name) + "[" + std::to_string(offset / r.elementBytes) + "]";
    if (offset % r.elementBytes)
      where += "+" + std::to_string(offset % r.elementBytes);
    return text + " (" + where + ")";
  }
  return text;
}

} // namespace cutec::rt
