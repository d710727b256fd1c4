// What the hardware checks share: a CUDA driver call that records its error
// text and makes the calling function return false, and opening the first
// device (or saying there is none, which is not a failure: CI has no GPU).
#ifndef CUTEC_TESTS_HARDWARE_CUDACHECK_H
#define CUTEC_TESTS_HARDWARE_CUDACHECK_H

#include <cuda.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace cutec::hw {

/// Whether `rc` is success; if not, `error` says which call failed and why.
inline bool succeeded(CUresult rc, const char *call, std::string &error) {
  if (rc == CUDA_SUCCESS)
    return true;
  const char *text = nullptr;
  cuGetErrorString(rc, &text);
  error = std::string(call) + " failed: " + (text ? text : "?");
  return false;
}

/// Creates a context on device 0 and prints its name. When the check cannot
/// go on, returns its exit status after saying why: 0 when the machine has
/// no CUDA device (skipped), 1 when the device does not work.
inline std::optional<int> openDevice(const char *tool, CUcontext &context) {
  int devices = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0) {
    std::printf("%s: skipped: no CUDA device on this machine\n", tool);
    return 0;
  }
  CUdevice device;
  char name[128] = {};
  if (cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&context, nullptr, 0, device) != CUDA_SUCCESS ||
      cuDeviceGetName(name, sizeof name, device) != CUDA_SUCCESS) {
    std::fprintf(stderr, "%s: cannot create a context\n", tool);
    return 1;
  }
  std::printf("device: %s\n", name);
  return std::nullopt;
}

/// The whole of a text file ("" if it cannot be read).
inline std::string readFile(const char *path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

} // namespace cutec::hw

/// Evaluates a driver call; on an error, records it in the local `error` and
/// returns false from the enclosing function.
#define CUTEC_CU(call)                                                                             \
  do {                                                                                             \
    if (!cutec::hw::succeeded((call), #call, error))                                               \
      return false;                                                                                \
  } while (0)

#endif
