// The hardware check of the special-function unit's approximations: the
// kernel tests/lit/run/Inputs/fast_math.cute (exp2 and exp with
// fastmath=True, rsqrt with fastmath=True, rcp_approx) runs on the GPU from
// its sm_90a PTX
//   - on 65536 random bit patterns, and in the emulator on the same: the
//     outputs must be byte-identical;
//   - on every one of the 2^32 f32 bit patterns, each result compared with
//     the emulator's function (runtime/numerics/Sfu.h) on the CPU.
// With --tables DIR it instead writes what the GPU returns over each
// function's reduced domain (ex2.npy, rsqrt_1_2.npy, rsqrt_2_4.npy, rcp.npy),
// from which
// tools/gen-sfu-tables.py makes runtime/numerics/SfuTables.cpp.
//   sfu_check fast_math.sm_90a.ptx [--tables DIR]
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "fast_math_emu.h"
#include "fast_math_launch.h"

#include "runtime/io/Npy.h"
#include "runtime/numerics/PtxArith.h"
#include "runtime/numerics/Sfu.h"

#include <atomic>
#include <bit>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace {

using Words = std::vector<uint32_t>;
constexpr int kColumns = 4; // exp2, exp, rsqrt, rcp
const char *const kColumnNames[kColumns] = {"exp2(fastmath)", "exp(fastmath)", "rsqrt(fastmath)",
                                            "rcp_approx"};

/// The GPU's results (kColumns per input) for the inputs `x`.
bool runOnGpu(CUfunction f, const Words &x, Words &y, std::string &error) {
  CUdeviceptr dx, dy;
  CUTEC_CU(cuMemAlloc(&dx, x.size() * 4));
  CUTEC_CU(cuMemAlloc(&dy, x.size() * 4 * kColumns));
  CUTEC_CU(cuMemcpyHtoD(dx, x.data(), x.size() * 4));
  CUTEC_CU(cutec_launch_fast_math(f, {dx, dy, uint32_t(x.size())}, nullptr));
  y.resize(x.size() * kColumns);
  CUTEC_CU(cuMemcpyDtoH(y.data(), dy, y.size() * 4));
  CUTEC_CU(cuMemFree(dx));
  CUTEC_CU(cuMemFree(dy));
  return true;
}

cutec::rt::Status emulate(Words x, Words &y) {
  y.assign(x.size() * kColumns, 0);
  cutec::rt::MemoryMap map;
  if (auto added = map.add(x.data(), x.size() * 4, "x"); !added)
    return added;
  if (auto added = map.add(y.data(), y.size() * 4, "y"); !added)
    return added;
  fast_math_Params p{reinterpret_cast<uintptr_t>(x.data()), reinterpret_cast<uintptr_t>(y.data()),
                     uint32_t(x.size())};
  uint32_t n = uint32_t(x.size());
  return cutec::rt::launch(cutec_kernel_fast_math,
                           cutec::hw::emulatedLaunch(fast_math_grid(n), fast_math_block(), 0), &p,
                           map);
}

/// The emulator's function for column `c`, on the bits of x.
uint32_t expected(int c, uint32_t bits) {
  using namespace cutec::rt::ptx;
  float x = std::bit_cast<float>(bits);
  switch (c) {
  case 0:
    return std::bit_cast<uint32_t>(ex2ApproxFtzF32(x));
  case 1:
    return std::bit_cast<uint32_t>(ex2ApproxFtzF32(mulRnF32(x, 0x1.715476p+0f)));
  case 2:
    return std::bit_cast<uint32_t>(rsqrtApproxFtzF32(x));
  default:
    return std::bit_cast<uint32_t>(rcpApproxFtzF32(x));
  }
}

/// Every f32 bit pattern, 2^26 at a time, on the GPU against the emulator's
/// functions on all CPU threads.
bool exhaustive(CUfunction f) {
  constexpr uint64_t kChunk = uint64_t(1) << 26;
  std::atomic<uint64_t> mismatches[kColumns] = {};
  std::atomic<uint32_t> someMismatch[kColumns];
  for (auto &m : someMismatch)
    m = 0;
  Words x(kChunk), y;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (uint64_t start = 0; start < (uint64_t(1) << 32); start += kChunk) {
    for (uint64_t i = 0; i < kChunk; ++i)
      x[i] = uint32_t(start + i);
    std::string error;
    if (!runOnGpu(f, x, y, error)) {
      std::fprintf(stderr, "sfu_check: %s\n", error.c_str());
      return false;
    }
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (uint64_t i = t; i < kChunk; i += threads)
          for (int c = 0; c < kColumns; ++c)
            if (y[i * kColumns + c] != expected(c, x[i]) && mismatches[c]++ == 0)
              someMismatch[c] = x[i];
      });
    for (std::thread &t : pool)
      t.join();
  }
  bool same = true;
  for (int c = 0; c < kColumns; ++c) {
    std::printf("all 2^32 inputs: %s: %s", kColumnNames[c],
                mismatches[c] ? "DIFFERENT" : "byte-identical");
    if (mismatches[c])
      std::printf(" (%llu differ, e.g. for x = 0x%08x)",
                  (unsigned long long)mismatches[c].load(), someMismatch[c].load());
    std::printf("\n");
    same &= mismatches[c] == 0;
  }
  return same;
}

bool randomInputs(CUfunction f) {
  std::mt19937 rng(1);
  Words x(65536), gpu, emu;
  for (uint32_t &w : x)
    w = rng();
  std::string error;
  if (!runOnGpu(f, x, gpu, error)) {
    std::fprintf(stderr, "sfu_check: %s\n", error.c_str());
    return false;
  }
  if (cutec::rt::Status status = emulate(x, emu); !status) {
    std::fprintf(stderr, "sfu_check: emulation failed: %s\n", status.error().c_str());
    return false;
  }
  size_t differ = 0;
  for (size_t i = 0; i < gpu.size(); ++i)
    differ += gpu[i] != emu[i];
  std::printf("65536 random inputs, GPU vs emulated kernel: %s (%zu of %zu differ)\n",
              differ ? "DIFFERENT" : "byte-identical", differ, gpu.size());
  return differ == 0;
}

/// One column of the GPU's results over `count` inputs first + i * step,
/// as a u32 .npy file.
bool writeTable(CUfunction f, const std::string &path, int column, float first, float step,
                uint32_t count) {
  Words x(count), y;
  for (uint32_t i = 0; i < count; ++i)
    x[i] = std::bit_cast<uint32_t>(first + step * float(i)); // exact: both are short
  std::string error;
  if (!runOnGpu(f, x, y, error)) {
    std::fprintf(stderr, "sfu_check: %s\n", error.c_str());
    return false;
  }
  cutec::rt::NpyArray array{"<u4", {int64_t(count)}, std::vector<uint8_t>(size_t(count) * 4)};
  for (uint32_t i = 0; i < count; ++i)
    std::memcpy(&array.bytes[size_t(i) * 4], &y[size_t(i) * kColumns + column], 4);
  if (cutec::rt::Status written = cutec::rt::writeNpyFile(path, array); !written) {
    std::fprintf(stderr, "sfu_check: %s\n", written.error().c_str());
    return false;
  }
  std::printf("wrote %s\n", path.c_str());
  return true;
}

bool writeTables(CUfunction f, const std::string &dir) {
  const float ulp = 0x1p-23f;
  constexpr uint32_t kBinade = 1u << 23;
  if (!writeTable(f, dir + "/ex2.npy", 0, 0.0f, ulp, kBinade) ||
      !writeTable(f, dir + "/rcp.npy", 3, 1.0f, ulp, kBinade) ||
      !writeTable(f, dir + "/rsqrt_1_2.npy", 2, 1.0f, ulp, kBinade) ||
      !writeTable(f, dir + "/rsqrt_2_4.npy", 2, 2.0f, 2 * ulp, kBinade))
    return false;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  bool tables = argc == 4 && std::strcmp(argv[2], "--tables") == 0;
  if (argc != 2 && !tables) {
    std::fprintf(stderr, "usage: sfu_check fast_math.sm_90a.ptx [--tables DIR]\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("sfu_check", context))
    return *status;
  CUfunction f;
  if (!cutec::hw::loadKernels("sfu_check", argv + 1, {cutec_load_fast_math}, &f))
    return 1;
  if (tables)
    return writeTables(f, argv[3]) ? 0 : 1;
  bool same = randomInputs(f);
  same &= exhaustive(f);
  std::printf("%s\n", same ? "passed" : "FAILED");
  return same ? 0 : 1;
}
