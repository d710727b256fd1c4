// Names for shared-memory addresses in diagnostics: the kernel's named
// regions (KernelDescriptor::sharedRegions: shared_tensor variables,
// pipeline barriers) turn 0x1408 into "0x1408 (ab.full[2])", so that a
// report about a pipeline says which pipeline and which stage.
#pragma once

#include "runtime/base/Kernel.h"

#include <cstdint>
#include <string>

namespace cutec::rt {

class SharedNames {
public:
  /// The regions of `kernel`, whose dynamic shared memory starts at the
  /// window address `dynamicBase`.
  void reset(const KernelDescriptor &kernel, uint32_t dynamicBase);

  /// The address in hex, followed by the region and element it falls in
  /// ("name[i]" for element i, "name+b" for a byte inside an element).
  std::string label(uint32_t address) const;

private:
  const SharedRegion *regions = nullptr;
  uint32_t count = 0;
  uint32_t base = 0;
};

} // namespace cutec::rt
