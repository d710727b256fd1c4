//===- CudaDriver.cpp - The CUDA driver API, loaded when first needed -----===//
#include "python/native/CudaDriver.h"

#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <stdexcept>

namespace cutec::py {
namespace {

// cuda.h's launch configuration, for cuLaunchKernelEx.
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream stream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
constexpr int kLaunchAttributeClusterDimension = 4;
constexpr int kPointerAttributeDeviceOrdinal = 9;
constexpr CUresult kErrorInvalidContext = 201;

void *symbol(void *library, const char *name) {
  void *entry = dlsym(library, name);
  if (!entry)
    throw std::runtime_error(std::string("the CUDA driver (libcuda.so.1) has no ") + name);
  return entry;
}

} // namespace

struct CudaDriver::Api {
  CUresult (*init)(unsigned);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetAttribute)(int *, int, CUdevice);
  CUresult (*ctxGetCurrent)(CUcontext *);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*ctxGetDevice)(CUdevice *);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*moduleLoadData)(CUmodule *, const void *);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*funcSetAttribute)(CUfunction, int, int);
  CUresult (*pointerGetAttribute)(void *, int, uint64_t);
  CUresult (*tensorMapEncodeTiled)(TensorMap *, int, unsigned, void *, const uint64_t *,
                                   const uint64_t *, const uint32_t *, const uint32_t *, int, int,
                                   int, int);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, CUstream, void **, void **);
  CUresult (*launchKernelEx)(const LaunchConfig *, CUfunction, void **, void **);
  CUresult (*getErrorString)(CUresult, const char **);
};

static void *openDriver() { return dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL); }

bool CudaDriver::available() {
  try {
    get();
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

CudaDriver &CudaDriver::get() {
  static std::once_flag once;
  static CudaDriver *driver = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    try {
      driver = new CudaDriver();
    } catch (const std::exception &e) {
      failure = e.what();
    }
  });
  if (!driver)
    throw std::runtime_error(failure);
  return *driver;
}

CudaDriver::CudaDriver() : api(new Api) {
  void *library = openDriver();
  if (!library)
    throw std::runtime_error("no CUDA driver: libcuda.so.1 cannot be loaded (" +
                             std::string(dlerror()) + ")");
  auto load = [&](auto &entry, const char *name) {
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(symbol(library, name));
  };
  load(api->init, "cuInit");
  load(api->deviceGetCount, "cuDeviceGetCount");
  load(api->deviceGet, "cuDeviceGet");
  load(api->deviceGetAttribute, "cuDeviceGetAttribute");
  load(api->ctxGetCurrent, "cuCtxGetCurrent");
  load(api->ctxSetCurrent, "cuCtxSetCurrent");
  load(api->ctxGetDevice, "cuCtxGetDevice");
  load(api->primaryCtxRetain, "cuDevicePrimaryCtxRetain");
  load(api->moduleLoadData, "cuModuleLoadData");
  load(api->moduleGetFunction, "cuModuleGetFunction");
  load(api->funcSetAttribute, "cuFuncSetAttribute");
  load(api->pointerGetAttribute, "cuPointerGetAttribute");
  load(api->tensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  load(api->launchKernel, "cuLaunchKernel");
  load(api->launchKernelEx, "cuLaunchKernelEx");
  load(api->getErrorString, "cuGetErrorString");
  check(api->init(0), "cuInit");
  int count = 0;
  check(api->deviceGetCount(&count), "cuDeviceGetCount");
  if (count == 0)
    throw std::runtime_error("the CUDA driver reports no device");
}

void CudaDriver::check(CUresult result, const char *call) {
  if (result == 0)
    return;
  const char *text = nullptr;
  api->getErrorString(result, &text);
  throw std::runtime_error(std::string(call) + " failed: " + (text ? text : "unknown error") +
                           " (CUresult " + std::to_string(result) + ")");
}

CUcontext CudaDriver::ensureContext(int device) {
  CUcontext context = nullptr;
  check(api->ctxGetCurrent(&context), "cuCtxGetCurrent");
  if (context)
    return context;
  CUdevice handle;
  check(api->deviceGet(&handle, device), "cuDeviceGet");
  check(api->primaryCtxRetain(&context, handle), "cuDevicePrimaryCtxRetain");
  check(api->ctxSetCurrent(context), "cuCtxSetCurrent");
  return context;
}

int CudaDriver::currentDevice() {
  CUdevice device = 0;
  CUresult result = api->ctxGetDevice(&device);
  if (result == kErrorInvalidContext)
    return 0;
  check(result, "cuCtxGetDevice");
  return device;
}

int CudaDriver::attribute(int attr, int device) {
  CUdevice handle;
  check(api->deviceGet(&handle, device), "cuDeviceGet");
  int value = 0;
  check(api->deviceGetAttribute(&value, attr, handle), "cuDeviceGetAttribute");
  return value;
}

CUmodule CudaDriver::loadModule(const void *image) {
  CUmodule module = nullptr;
  check(api->moduleLoadData(&module, image), "cuModuleLoadData");
  return module;
}

CUfunction CudaDriver::function(CUmodule module, const std::string &name) {
  CUfunction f = nullptr;
  check(api->moduleGetFunction(&f, module, name.c_str()), "cuModuleGetFunction");
  return f;
}

void CudaDriver::setFunctionAttribute(CUfunction f, int attr, int value) {
  check(api->funcSetAttribute(f, attr, value), "cuFuncSetAttribute");
}

int CudaDriver::deviceOfPointer(uint64_t pointer) {
  int ordinal = -1;
  if (api->pointerGetAttribute(&ordinal, kPointerAttributeDeviceOrdinal, pointer) != 0)
    return -1;
  return ordinal;
}

void CudaDriver::encodeTiled(TensorMap &map, unsigned dataType, unsigned rank, uint64_t address,
                             const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
                             unsigned swizzle) {
  const uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  // No interleave, no L2 promotion, out-of-bounds elements read as zero.
  check(api->tensorMapEncodeTiled(&map, int(dataType), rank, reinterpret_cast<void *>(address),
                                  dims, strides, box, elementStrides, 0, int(swizzle), 0, 0),
        "cuTensorMapEncodeTiled");
}

void CudaDriver::launch(CUfunction f, const LaunchShape &shape, CUstream stream, void **params) {
  // A launch without a cluster takes the plain entry point, which the driver
  // serves with less work than cuLaunchKernelEx's attribute list.
  if (shape.cluster[0] == 0) {
    check(api->launchKernel(f, shape.grid[0], shape.grid[1], shape.grid[2], shape.block[0],
                            shape.block[1], shape.block[2], shape.sharedBytes, stream, params,
                            nullptr),
          "cuLaunchKernel");
    return;
  }
  LaunchAttribute cluster{};
  cluster.id = kLaunchAttributeClusterDimension;
  cluster.value.clusterDim = {shape.cluster[0], shape.cluster[1], shape.cluster[2]};
  LaunchConfig config{shape.grid[0],  shape.grid[1],  shape.grid[2],     shape.block[0],
                      shape.block[1], shape.block[2], shape.sharedBytes, stream,
                      &cluster,       1u};
  check(api->launchKernelEx(&config, f, params, nullptr), "cuLaunchKernelEx");
}

} // namespace cutec::py
