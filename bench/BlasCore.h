// The benchmarks' OpenBLAS peer at its best. OpenBLAS built for several
// CPUs (DYNAMIC_ARCH) picks its kernels from the CPU's model when it is
// loaded; on a model its table does not name it falls back to its SSE3
// kernels ("Prescott"), several times slower than the ones the CPU's
// vector units can run. useBestBlasCore, called first in main, then runs the
// benchmark again with OPENBLAS_CORETYPE naming the core the CPU's features
// allow (read by OpenBLAS only at load time, hence the second process), and
// prints the core in use.
#pragma once

#include <string_view>

namespace cutec::bench {

/// The x86 vector features that decide which OpenBLAS kernels a CPU runs.
struct CpuVectorFeatures {
  bool avx512 = false; ///< AVX-512 F, BW, DQ and VL, with the OS saving their state
  bool avx2 = false;   ///< AVX2 with FMA3
  bool avx = false;
};

/// This CPU's features.
CpuVectorFeatures cpuVectorFeatures();

/// The OpenBLAS core to force when OpenBLAS chose `loaded` on a CPU with
/// `features`: the best one the features allow when `loaded` is OpenBLAS's
/// fallback for CPUs it does not know, else empty (OpenBLAS's own choice
/// stands).
std::string_view betterBlasCore(std::string_view loaded, CpuVectorFeatures features);

/// Call first in main, before any OpenBLAS call. Unless OPENBLAS_CORETYPE
/// is set, re-executes this program (`argv` as given) with it set to
/// betterBlasCore's choice when there is one; then prints the core in use.
void useBestBlasCore(char **argv);

} // namespace cutec::bench
