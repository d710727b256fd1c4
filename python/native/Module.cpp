//===- Module.cpp - cutec._native: the compiler and the CUDA driver -------===//
//
// The Python package (python/cutec) compiles by running the `cutec` program
// and checks every argument itself, naming the parameter at fault; these
// entry points load, encode tensor maps for and launch a kernel through the
// CUDA driver (CudaDriver.h). A driver failure is a RuntimeError.
//
//===----------------------------------------------------------------------===//
#include "python/native/CudaDriver.h"
#include "python/native/Launcher.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>

namespace nb = nanobind;
using namespace cutec::py;

namespace {

/// Loads a cubin (or NUL-terminated PTX) on `device`, finds `name`, and
/// lets it have `sharedBytes` of dynamic shared memory (above 48 KiB a
/// kernel must opt in) and clusters of `clusterSize` CTAs (above 8, the
/// portable size, too).
uintptr_t loadFunction(nb::bytes image, const std::string &name, int device,
                       unsigned sharedBytes, unsigned clusterSize) {
  CudaDriver &driver = CudaDriver::get();
  driver.ensureContext(device);
  std::string copy(image.c_str(), image.size());
  CUmodule module = driver.loadModule(copy.c_str());
  CUfunction f = driver.function(module, name);
  if (sharedBytes > 48 * 1024)
    driver.setFunctionAttribute(f, CudaDriver::kMaxDynamicSharedBytes, int(sharedBytes));
  if (clusterSize > 8)
    driver.setFunctionAttribute(f, CudaDriver::kNonPortableClusterSizeAllowed, 1);
  return reinterpret_cast<uintptr_t>(f);
}

nb::bytes encodeTensorMap(unsigned dataType, uint64_t address, std::vector<uint64_t> dims,
                          std::vector<uint64_t> strides, std::vector<uint32_t> box,
                          unsigned swizzle) {
  TensorMap map{};
  CudaDriver::get().encodeTiled(map, dataType, unsigned(dims.size()), address, dims.data(),
                                strides.data(), box.data(), swizzle);
  return nb::bytes(reinterpret_cast<const char *>(&map), sizeof map);
}

/// Launches `function`: `kinds` has one letter per parameter, in order: p
/// (a 64-bit address), u (u32), i (i32), f (f32), m (a 128-byte tensor map).
void launch(uintptr_t function, std::array<unsigned, 3> grid, std::array<unsigned, 3> block,
            std::array<unsigned, 3> cluster, unsigned sharedBytes, uintptr_t stream, int device,
            const std::string &kinds, nb::tuple values) {
  if (kinds.size() != values.size())
    throw std::invalid_argument("launch: " + std::to_string(values.size()) + " values for " +
                                std::to_string(kinds.size()) + " parameters");
  std::vector<ParamSlot> slots(kinds.size());
  std::vector<void *> pointers(kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    writeParameter(kinds[i], values[i], slots[i]);
    pointers[i] = slots[i].bytes;
  }
  CudaDriver &driver = CudaDriver::get();
  driver.ensureContext(device);
  LaunchShape shape{{grid[0], grid[1], grid[2]},
                    {block[0], block[1], block[2]},
                    {cluster[0], cluster[1], cluster[2]},
                    sharedBytes};
  driver.launch(reinterpret_cast<CUfunction>(function), shape,
                reinterpret_cast<CUstream>(stream), pointers.data());
}

} // namespace

NB_MODULE(_native, m) {
  m.doc() = "cutec's compiler and CUDA driver entry points (use the cutec package)";
  m.def("cuda_available", &CudaDriver::available);
  m.def("current_device", [] { return CudaDriver::get().currentDevice(); });
  m.def("compute_capability", [](int device) {
    CudaDriver &d = CudaDriver::get();
    return std::make_tuple(d.attribute(CudaDriver::kComputeCapabilityMajor, device),
                           d.attribute(CudaDriver::kComputeCapabilityMinor, device));
  });
  m.def("sm_count",
        [](int device) { return CudaDriver::get().attribute(CudaDriver::kMultiprocessorCount, device); });
  m.def("pointer_device", [](uint64_t p) { return CudaDriver::get().deviceOfPointer(p); });
  m.def("load_function", &loadFunction, nb::arg("image"), nb::arg("name"), nb::arg("device"),
        nb::arg("shared_bytes"), nb::arg("cluster_size"));
  m.def("encode_tensor_map", &encodeTensorMap, nb::arg("data_type"), nb::arg("address"),
        nb::arg("dims"), nb::arg("strides"), nb::arg("box"), nb::arg("swizzle"));
  m.def("launch", &launch, nb::arg("function"), nb::arg("grid"), nb::arg("block"),
        nb::arg("cluster"), nb::arg("shared_bytes"), nb::arg("stream"), nb::arg("device"),
        nb::arg("kinds"), nb::arg("values"));
  bindLauncher(m);
}
