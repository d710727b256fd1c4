//===- Launcher.h - The per-call path of Kernel.__call__ ------------------===//
//
// A call with PyTorch tensors whose dtypes, shapes, strides and device were
// seen before needs none of the Python checks again: they depend on nothing
// else, except the addresses' alignment, which is checked here. So the first
// call of each such signature goes through Python (cutec/_binding.py checks
// everything and makes a plan of the launch), and every later one through
// this class: read the tensors, find the plan, re-encode a tensor map only
// when its tensor moved, pack the parameters and launch. Anything else
// (keywords, objects that are not PyTorch tensors, a
// misaligned address) answers "not handled" and Python takes the call.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PYTHON_LAUNCHER_H
#define CUTEC_PYTHON_LAUNCHER_H

#include "python/native/CudaDriver.h"

#include <nanobind/nanobind.h>

#include <cstdint>
#include <map>
#include <vector>

namespace cutec::py {

/// One kernel parameter's bytes, as the driver's launch call reads them.
struct alignas(64) ParamSlot {
  char bytes[sizeof(TensorMap)];
};

/// Writes `value` into `slot` as parameter kind `kind`: p (a 64-bit
/// address), u (u32), i (i32), f (f32) or m (a 128-byte tensor map as
/// bytes). Throws std::invalid_argument for another kind or a wrong map.
void writeParameter(char kind, nanobind::handle value, ParamSlot &slot);

class Launcher {
public:
  /// `kinds` has one letter per kernel parameter (p tensor, m tensor map,
  /// u size, i/u/f scalar as in launch()); `arguments` maps each positional
  /// argument to its parameter index.
  Launcher(uintptr_t function, int device, unsigned alignment, std::vector<int> arguments,
           std::string kinds);

  /// Launches on `stream` (None: PyTorch's current stream; an int handle;
  /// or a stream object with `cuda_stream`) if the call is one this path
  /// handles; returns whether it did.
  bool call(nanobind::tuple args, nanobind::handle stream);

  /// Remembers the plan Python made for the call `args`: grid, block,
  /// cluster, shared bytes, each size parameter's value (by parameter
  /// index), and each tensor map's encoding arguments (parameter index ->
  /// (source argument, data type, dims, byte strides, box, swizzle)).
  void remember(nanobind::tuple args, std::array<unsigned, 3> grid,
                std::array<unsigned, 3> block, std::array<unsigned, 3> cluster,
                unsigned sharedBytes, std::map<int, uint32_t> sizes,
                std::map<int, nanobind::tuple> maps);

private:
  struct TensorMapRecipe {
    int source; // the argument whose address the map describes
    unsigned dataType, swizzle;
    std::vector<uint64_t> dims, strides;
    std::vector<uint32_t> box;
    uint64_t encodedFor = 0;
    TensorMap map{};
  };
  struct Plan {
    LaunchShape shape;
    std::map<int, uint32_t> sizes;
    std::map<int, TensorMapRecipe> maps;
  };

  /// The plan key of `args` and each tensor argument's address; false when
  /// an argument is not one this path reads.
  bool describe(nanobind::tuple args, std::vector<int64_t> &key, std::vector<uint64_t> &pointers);

  uintptr_t function;
  int device;
  unsigned alignment;
  std::vector<int> arguments;
  std::string kinds;
  std::map<std::vector<int64_t>, Plan> plans;
  // Reused by every call: each parameter's bytes and the pointers to them,
  // the plan key and the tensors' addresses.
  std::vector<ParamSlot> slots;
  std::vector<void *> params;
  std::vector<int64_t> key;
  std::vector<uint64_t> pointers;
};

/// Registers Launcher with the module.
void bindLauncher(nanobind::module_ &m);

} // namespace cutec::py

#endif
