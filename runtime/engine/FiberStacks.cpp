// Guarded fiber stacks carved from one anonymous mapping.
#include "runtime/engine/FiberStacks.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace cutec::rt {

FiberStacks::~FiberStacks() {
  if (mapping)
    munmap(mapping, mappingBytes);
}

Status FiberStacks::reserve(size_t wantCount, size_t wantBytes) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  size_t stackBytes = (wantBytes + page - 1) / page * page;
  if (mapping && wantCount <= count && stackBytes + page <= stride)
    return ok();
  if (mapping)
    munmap(mapping, mappingBytes);
  mapping = nullptr;
  size_t newStride = stackBytes + page;
  size_t bytes = newStride * wantCount;
  void *map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED)
    return Error{"cannot map " + std::to_string(bytes) +
                 " bytes of fiber stacks: " + std::strerror(errno)};
  mapping = static_cast<std::byte *>(map);
  mappingBytes = bytes;
  count = wantCount;
  stride = newStride;
  guardBytes = page;
  for (size_t i = 0; i < count; ++i)
    if (mprotect(mapping + i * stride, guardBytes, PROT_NONE) != 0)
      return Error{std::string("cannot protect a fiber stack guard page: ") + std::strerror(errno)};
  return ok();
}

std::span<std::byte> FiberStacks::stack(size_t index) const {
  return {mapping + index * stride + guardBytes, stride - guardBytes};
}

} // namespace cutec::rt
