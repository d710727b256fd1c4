// Fuzz target: any bytes as a .npy file; a valid one must re-serialise.
#include "runtime/io/Npy.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto array = cutec::rt::parseNpy(std::span<const uint8_t>(data, size));
  if (array)
    (void)cutec::rt::serializeNpy(array.value());
  return 0;
}
