// The kernel entry ABI between the emitted emulation C++ and the runtime: what
// a compiled kernel hands to `launch` (runtime/engine/Launch.h).
//
// The code generator emits, per kernel:
//
//   struct vadd_Params { uint64_t a, b, c; uint32_t n; };   // PTX .param order
//   void vadd_body(cutec::rt::Thread &t, const void *params) {
//     auto &p = *static_cast<const vadd_Params *>(params);
//     uint32_t r1 = t.tid.x;                                 // one statement
//     ...                                                    // per PTX instr.
//   }
//   extern const cutec::rt::KernelDescriptor vadd_kernel = {
//       "vadd", vadd_body, sizeof(vadd_Params), /*usesBarriers=*/false,
//       /*staticSharedBytes=*/0};
//
// The body runs once per thread of the grid. It may return at any point (PTX
// `ret`/`exit`); it must not throw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cutec::rt {

class Thread;

/// A grid or block extent, or a thread/CTA index, as PTX's .x/.y/.z registers.
struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;

  uint64_t volume() const { return uint64_t(x) * y * z; }
  friend bool operator==(const Dim3 &, const Dim3 &) = default;
};

/// A named part of a CTA's dynamic shared memory (a shared_tensor variable,
/// a pipeline's barriers), so that diagnostics can say "ab.full[2]" where
/// they would say 0x1408.
struct SharedRegion {
  uint32_t offset, bytes, elementBytes;
  const char *name;
};

/// The per-thread body of a kernel; `params` points to its parameter struct.
using KernelBody = void (*)(Thread &t, const void *params);

struct KernelDescriptor {
  const char *name;
  KernelBody body;
  /// sizeof the parameter struct; `launch` rejects a null `params` when > 0.
  size_t paramSize;
  /// True when any thread may block or poll: bar.sync/bar.arrive, a
  /// warp-collective (`Thread::warpSync`) or a polling loop
  /// (`Thread::yieldThread`). Such kernels run their threads as fibers; the
  /// others run each thread to completion in turn, which is much cheaper. A
  /// kernel that says false and still blocks is stopped with an error.
  bool usesBarriers;
  /// Bytes of `.shared` variables the kernel declares; they occupy the start
  /// of the CTA's shared window, dynamic shared memory follows them.
  uint32_t staticSharedBytes;
  /// The dynamic shared memory the kernel uses; a launch that gives less is
  /// refused.
  uint32_t minDynamicSharedBytes = 0;
  /// Fills the parameters a launch derives from the others, as the host
  /// launcher does on the GPU (TMA tensor maps from the tensor addresses and
  /// sizes), in a copy of the caller's struct. Returns "" or what is wrong.
  /// Null when the kernel has none.
  std::string (*deriveParams)(void *params) = nullptr;
  /// What the kernel's code relies on about its arguments (tensor base
  /// addresses aligned, `assume` facts about the sizes): false, with a
  /// message written to `message` (`size` bytes), when `params` break one;
  /// `launch` then refuses. Null: nothing to check.
  bool (*checkParams)(const void *params, char *message, size_t size) = nullptr;
  /// The cluster shape the kernel was compiled for (PTX .reqnctapercluster);
  /// {1, 1, 1} when it names none. A launch runs its CTAs in clusters of
  /// this shape (see LaunchConfig::cluster).
  Dim3 cluster = {1, 1, 1};
  /// The registers per thread every warp starts with (the PTX .maxnreg of a
  /// kernel with setmaxnreg), from which setmaxnreg moves registers
  /// (runtime/engine/RegisterPool.h); 0 when the kernel has no setmaxnreg.
  uint32_t registersPerThread = 0;
  /// The kernel's named shared regions, in offset order (none: null).
  const SharedRegion *sharedRegions = nullptr;
  uint32_t sharedRegionCount = 0;
};

} // namespace cutec::rt
