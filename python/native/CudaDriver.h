//===- CudaDriver.h - The CUDA driver API, loaded when first needed -------===//
//
// The Python package imports on machines without a GPU (it compiles and
// emulates there), so it does not link libcuda: the entry points it launches
// with are looked up in libcuda.so.1 the first time a kernel runs. The few
// types and constants used are declared here as cuda.h defines them.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PYTHON_CUDADRIVER_H
#define CUTEC_PYTHON_CUDADRIVER_H

#include <cstdint>
#include <string>

namespace cutec::py {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;

/// An encoded TMA descriptor (CUtensorMap).
struct alignas(64) TensorMap {
  uint64_t opaque[16];
};

struct LaunchShape {
  unsigned grid[3];
  unsigned block[3];
  unsigned cluster[3]; // all 0: not a cluster launch
  unsigned sharedBytes;
};

/// The loaded driver; every call throws std::runtime_error naming the
/// driver call and its error on failure.
class CudaDriver {
public:
  /// The process's driver, loaded on first use; throws when libcuda.so.1 is
  /// missing or has no usable device.
  static CudaDriver &get();
  /// Whether libcuda.so.1 loads and reports at least one device.
  static bool available();

  /// Makes a context current on this thread: the current one, else
  /// `device`'s primary context. Returns it.
  CUcontext ensureContext(int device);
  int currentDevice();
  int attribute(int attr, int device);
  CUmodule loadModule(const void *image);
  CUfunction function(CUmodule module, const std::string &name);
  void setFunctionAttribute(CUfunction f, int attr, int value);
  /// The device ordinal of the device memory `pointer` points into; -1 when
  /// it is not device memory the driver knows (host memory, a bad pointer).
  int deviceOfPointer(uint64_t pointer);
  void encodeTiled(TensorMap &map, unsigned dataType, unsigned rank, uint64_t address,
                   const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
                   unsigned swizzle);
  void launch(CUfunction f, const LaunchShape &shape, CUstream stream, void **params);

  static constexpr int kMultiprocessorCount = 16;
  static constexpr int kComputeCapabilityMajor = 75;
  static constexpr int kComputeCapabilityMinor = 76;
  static constexpr int kMaxDynamicSharedBytes = 8;
  static constexpr int kNonPortableClusterSizeAllowed = 14;

private:
  CudaDriver();
  void check(CUresult result, const char *call);
  struct Api;
  Api *api;
};

} // namespace cutec::py

#endif
