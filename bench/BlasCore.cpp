#include "BlasCore.h"

#include <cblas.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace cutec::bench {

namespace {

/// OpenBLAS's choice for a CPU model its table does not name.
constexpr std::string_view kFallbackCore = "Prescott";

constexpr const char *kCoreVariable = "OPENBLAS_CORETYPE";

} // namespace

CpuVectorFeatures cpuVectorFeatures() {
  __builtin_cpu_init();
  CpuVectorFeatures f;
  f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  f.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  f.avx = __builtin_cpu_supports("avx");
  return f;
}

std::string_view betterBlasCore(std::string_view loaded, CpuVectorFeatures features) {
  if (loaded != kFallbackCore)
    return {};
  if (features.avx512)
    return "SkylakeX";
  if (features.avx2)
    return "Haswell";
  if (features.avx)
    return "Sandybridge";
  return {};
}

void useBestBlasCore(char **argv) {
  const char *forced = std::getenv(kCoreVariable);
  std::string loaded = openblas_get_corename();
  if (!forced) {
    std::string_view better = betterBlasCore(loaded, cpuVectorFeatures());
    if (!better.empty()) {
      std::printf("OpenBLAS fell back to its %s core on this CPU; running again with %s=%s\n",
                  loaded.c_str(), kCoreVariable, std::string(better).c_str());
      std::fflush(stdout);
      setenv(kCoreVariable, std::string(better).c_str(), 1);
      execv("/proc/self/exe", argv);
      std::fprintf(stderr, "could not run again (%s); OpenBLAS keeps its %s core\n",
                   std::strerror(errno), loaded.c_str());
    }
  }
  std::printf("OpenBLAS core: %s%s%s\n", loaded.c_str(), forced ? ", forced by " : "",
              forced ? kCoreVariable : "");
}

} // namespace cutec::bench
