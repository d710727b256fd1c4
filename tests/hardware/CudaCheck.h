// What the hardware checks share: a CUDA driver call that records its error
// text and makes the calling function return false, opening the first
// device (or saying there is none, which is not a failure: CI has no GPU),
// loading cutec's PTX through its host launchers, the emulator's launch
// configuration, and timing launches and device-to-device copies with
// CUDA events.
#ifndef CUTEC_TESTS_HARDWARE_CUDACHECK_H
#define CUTEC_TESTS_HARDWARE_CUDACHECK_H

#include "runtime/engine/Launch.h"

#include <cuda.h>

#include <cstdio>
#include <fstream>
#include <initializer_list>
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

/// The exit status of a check that did nothing because the machine has no
/// CUDA device; ctest reports it as skipped (SKIP_RETURN_CODE), not passed.
inline constexpr int kSkippedNoDevice = 77;

/// Creates a context on device 0 and prints its name. When the check cannot
/// go on, returns its exit status after saying why: kSkippedNoDevice when the
/// machine has no CUDA device, 1 when the device does not work.
inline std::optional<int> openDevice(const char *tool, CUcontext &context) {
  int devices = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0) {
    std::printf("%s: skipped: no CUDA device on this machine\n", tool);
    return kSkippedNoDevice;
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

/// What a host launcher's cutec_load_<kernel> is.
using LoadKernel = CUresult (*)(const char *ptx, CUmodule *module, CUfunction *function);

/// Loads the PTX file paths[i] with loads[i] into functions[i]; false after
/// saying which one failed.
inline bool loadKernels(const char *tool, char *const *paths,
                        std::initializer_list<LoadKernel> loads, CUfunction *functions) {
  for (LoadKernel load : loads) {
    std::string ptx = readFile(*paths);
    CUmodule module;
    if (CUresult loaded = load(ptx.c_str(), &module, functions); loaded != CUDA_SUCCESS) {
      std::fprintf(stderr, "%s: cannot load %s (CUresult %d)\n", tool, *paths, int(loaded));
      return false;
    }
    ++paths;
    ++functions;
  }
  return true;
}

/// The emulator's launch of `grid` CTAs of `block` threads with `shared`
/// bytes of dynamic shared memory.
inline cutec::rt::LaunchConfig emulatedLaunch(cutec::rt::Dim3 grid, cutec::rt::Dim3 block,
                                              uint32_t shared) {
  cutec::rt::LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.dynamicSharedBytes = shared;
  return c;
}

} // namespace cutec::hw

/// Evaluates a driver call; on an error, records it in the local `error` and
/// returns false from the enclosing function.
#define CUTEC_CU(call)                                                                             \
  do {                                                                                             \
    if (!cutec::hw::succeeded((call), #call, error))                                               \
      return false;                                                                                \
  } while (0)

namespace cutec::hw {

/// The mean time in ms of `launches` calls of `launch` (a callable returning
/// the CUresult of enqueuing work on the default stream), after a warm-up.
template <typename Launch>
bool timeLaunches(Launch &&launch, int launches, float &ms, std::string &error) {
  CUTEC_CU(launch());
  CUevent start, stop;
  CUTEC_CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CUTEC_CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CUTEC_CU(cuEventRecord(start, nullptr));
  for (int i = 0; i < launches; ++i)
    CUTEC_CU(launch());
  CUTEC_CU(cuEventRecord(stop, nullptr));
  CUTEC_CU(cuEventSynchronize(stop));
  CUTEC_CU(cuEventElapsedTime(&ms, start, stop));
  ms /= float(launches);
  CUTEC_CU(cuEventDestroy(start));
  CUTEC_CU(cuEventDestroy(stop));
  return true;
}

/// Device-to-device copy bandwidth: the bytes read plus the bytes written
/// per second (in GB/s) of cuMemcpyDtoD of `bytes`, over `copies` copies.
inline bool copyBandwidth(size_t bytes, int copies, double &gbPerSecond, std::string &error) {
  CUdeviceptr from, to;
  CUTEC_CU(cuMemAlloc(&from, bytes));
  CUTEC_CU(cuMemAlloc(&to, bytes));
  CUTEC_CU(cuMemsetD8(from, 1, bytes));
  float ms = 0;
  if (!timeLaunches([&] { return cuMemcpyDtoD(to, from, bytes); }, copies, ms, error))
    return false;
  gbPerSecond = 2.0 * double(bytes) / (ms * 1e6);
  CUTEC_CU(cuMemFree(from));
  CUTEC_CU(cuMemFree(to));
  return true;
}

} // namespace cutec::hw

#endif
