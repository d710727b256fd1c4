// The hardware check of the warp and block primitives and the atomics: the
// kernels of tests/lit/run/Inputs/shuffles.cute, warp_reduction.cute,
// block_reduction.cute and atomics.cute (which the emulation tests check
// against NumPy models of the PTX ISA) run on the GPU from their sm_90a PTX
// and in the emulator on the same random inputs. The shuffles and
// reductions are deterministic, so every output must be byte-identical.
// Atomics run in no fixed order: their final values are compared (the
// inputs keep the f32 sums exact, so they do not depend on the order, and
// include the subnormals atom.add.f32 flushes in global memory), and the old
// values of the histogram's increments must be 0, 1, ... per bucket on both.
//   warp_primitives_check shuffles.sm_90a.ptx warp_reduction.sm_90a.ptx
//                         block_reduction.sm_90a.ptx atomics.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "atomics_emu.h"
#include "atomics_launch.h"
#include "block_reduction_emu.h"
#include "block_reduction_launch.h"
#include "shuffles_emu.h"
#include "shuffles_launch.h"
#include "warp_reduction_emu.h"
#include "warp_reduction_launch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace {

/// Every tensor of these kernels has 4-byte elements (f32, i32 or u32).
using Words = std::vector<uint32_t>;

struct Tensor {
  const char *name;
  Words words;
  bool output; // compared GPU against emulation after the run
};

/// One kernel on one size: its tensors in parameter order, and how to launch
/// it on the GPU and in the emulator given the tensors' addresses.
struct Case {
  std::string title;
  std::vector<Tensor> tensors;
  std::function<CUresult(const std::vector<CUdeviceptr> &)> launch;
  std::function<cutec::rt::Status(const std::vector<uint64_t> &, cutec::rt::MemoryMap &)> emulate;
};

uint32_t bits(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

/// Full-range integers, or normal floats scaled by 2^-12 .. 2^11 (sums that
/// round at different places).
Words randomWords(size_t n, bool floats, std::mt19937 &rng) {
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<int> exponent(-12, 11);
  Words w(n);
  for (uint32_t &x : w)
    x = floats ? bits(std::ldexp(normal(rng), exponent(rng))) : uint32_t(rng());
  return w;
}

/// The shuffles and reductions: inputs x (f32) and k (i32), outputs f (f32,
/// fColumns per thread), n (i32, nColumns) and u (u32).
template <typename Params, typename Args>
Case primitive(const char *name, uint32_t n, size_t fColumns, size_t nColumns, CUfunction f,
               CUresult (*launch)(CUfunction, const Args &, CUstream),
               const cutec::rt::KernelDescriptor &kernel, cutec::rt::Dim3 grid,
               cutec::rt::Dim3 block, uint32_t shared) {
  std::mt19937 rng(n);
  Case c{std::string(name) + " N=" + std::to_string(n),
         {{"x", randomWords(n, true, rng), false},
          {"k", randomWords(n, false, rng), false},
          {"f", Words(n * fColumns), true},
          {"n", Words(n * nColumns), true},
          {"u", Words(n), true}},
         {},
         {}};
  c.launch = [=](const std::vector<CUdeviceptr> &d) {
    return launch(f, Args{d[0], d[1], d[2], d[3], d[4], n}, nullptr);
  };
  c.emulate = [=, &kernel](const std::vector<uint64_t> &a, cutec::rt::MemoryMap &map) {
    Params p{a[0], a[1], a[2], a[3], a[4], n};
    return cutec::rt::launch(kernel, cutec::hw::emulatedLaunch(grid, block, shared), &p, map);
  };
  return c;
}

/// atomics.cute on n threads: the inputs of tests/lit/run/Inputs/atomics_data.py.
Case atomics(uint32_t n, CUfunction f) {
  std::mt19937 rng(n);
  const float tiny = std::ldexp(1.0f, -126);
  Words x(n), v(n), m(2 * n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = rng() % (1u << 30);
    v[i] = bits(float(int(rng() % 2000) - 1000) / 16); // every partial sum exact
    m[2 * i] = 1u << (i % 32);
    m[2 * i + 1] = ~(1u << (i % 32));
  }
  Case c{"atomics N=" + std::to_string(n),
         {{"x", x, false},
          {"v", v, false},
          {"w", {bits(tiny / 4), bits(-tiny)}, false},
          {"m", m, false},
          {"hist", Words(16), true},
          {"fsum", {0, 0, bits(1.5f * tiny), bits(7.0f), bits(7.0f)}, true},
          {"ext", {0x80000000u, 0x7FFFFFFFu}, true},
          {"umin", {0xFFFFFFFFu}, true},
          {"bits", {0, 0xFFFFFFFFu, 0x12345678u}, true},
          {"slot", {bits(-1.0f)}, false},
          {"flag", {0}, false},
          {"old", Words(4 * n), false},
          {"fold", Words(2 * n), false},
          {"ctas", Words(n / 128), true}},
         {},
         {}};
  c.launch = [=](const std::vector<CUdeviceptr> &d) {
    return cutec_launch_atomics(
        f,
        {d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12], d[13], n},
        nullptr);
  };
  c.emulate = [=](const std::vector<uint64_t> &a, cutec::rt::MemoryMap &map) {
    atomics_Params p{a[0], a[1], a[2],  a[3],  a[4],  a[5],  a[6], a[7],
                     a[8], a[9], a[10], a[11], a[12], a[13], n};
    return cutec::rt::launch(
        cutec_kernel_atomics,
        cutec::hw::emulatedLaunch(atomics_grid(n), atomics_block(), atomics_shared_bytes), &p, map);
  };
  return c;
}

/// Whether the histogram's old values (column 0 of `old`) are 0, 1, ... in
/// each bucket: the increments of one bucket happened one after another.
bool serialIncrements(const Case &c, const std::vector<Words> &out) {
  const Words &x = c.tensors[0].words, &old = out[11];
  std::vector<std::vector<uint32_t>> buckets(16);
  for (size_t i = 0; i < x.size(); ++i)
    buckets[int32_t(x[i]) % 16].push_back(old[4 * i]);
  for (std::vector<uint32_t> &b : buckets) {
    std::sort(b.begin(), b.end());
    for (size_t j = 0; j < b.size(); ++j)
      if (b[j] != j)
        return false;
  }
  return true;
}

bool runOnGpu(const Case &c, std::vector<Words> &out, std::string &error) {
  std::vector<CUdeviceptr> d(c.tensors.size());
  for (size_t i = 0; i < d.size(); ++i) {
    CUTEC_CU(cuMemAlloc(&d[i], c.tensors[i].words.size() * 4));
    CUTEC_CU(cuMemcpyHtoD(d[i], c.tensors[i].words.data(), c.tensors[i].words.size() * 4));
  }
  CUTEC_CU(c.launch(d));
  CUTEC_CU(cuCtxSynchronize());
  out.clear();
  for (size_t i = 0; i < d.size(); ++i) {
    out.emplace_back(c.tensors[i].words.size());
    CUTEC_CU(cuMemcpyDtoH(out.back().data(), d[i], out.back().size() * 4));
    CUTEC_CU(cuMemFree(d[i]));
  }
  return true;
}

cutec::rt::Status emulate(const Case &c, std::vector<Words> &out) {
  out.clear();
  cutec::rt::MemoryMap map;
  std::vector<uint64_t> addresses;
  for (const Tensor &t : c.tensors)
    out.push_back(t.words);
  for (size_t i = 0; i < out.size(); ++i) {
    if (cutec::rt::Status added = map.add(out[i].data(), out[i].size() * 4, c.tensors[i].name);
        !added)
      return added;
    addresses.push_back(reinterpret_cast<uintptr_t>(out[i].data()));
  }
  return c.emulate(addresses, map);
}

/// Runs `c` on both and compares its outputs. False on a failure to run.
bool check(const Case &c, bool atomic, int &passed, int &failed) {
  std::vector<Words> gpu, emu;
  std::string error;
  if (!runOnGpu(c, gpu, error)) {
    std::fprintf(stderr, "warp_primitives_check: %s: %s\n", c.title.c_str(), error.c_str());
    return false;
  }
  if (cutec::rt::Status status = emulate(c, emu); !status) {
    std::fprintf(stderr, "warp_primitives_check: %s: emulation failed: %s\n", c.title.c_str(),
                 status.error().c_str());
    return false;
  }
  bool same = true;
  std::printf("%s:", c.title.c_str());
  for (size_t i = 0; i < c.tensors.size(); ++i) {
    if (!c.tensors[i].output)
      continue;
    size_t differ = 0;
    for (size_t j = 0; j < gpu[i].size(); ++j)
      differ += gpu[i][j] != emu[i][j];
    std::printf(" %s %s (%zu of %zu differ);", c.tensors[i].name,
                differ ? "DIFFERENT" : "byte-identical", differ, gpu[i].size());
    same &= differ == 0;
  }
  if (atomic) {
    bool serial = serialIncrements(c, gpu) && serialIncrements(c, emu);
    std::printf(" histogram old values serial: %s;", serial ? "yes" : "NO");
    same &= serial;
  }
  std::printf("\n");
  (same ? passed : failed)++;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: warp_primitives_check shuffles.sm_90a.ptx "
                         "warp_reduction.sm_90a.ptx block_reduction.sm_90a.ptx "
                         "atomics.sm_90a.ptx\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("warp_primitives_check", context))
    return *status;
  CUfunction functions[4];
  if (!cutec::hw::loadKernels("warp_primitives_check", argv + 1,
                              {cutec_load_shuffles, cutec_load_warp_reduction,
                               cutec_load_block_reduction, cutec_load_atomics},
                              functions))
    return 1;
  int passed = 0, failed = 0;
  for (uint32_t n : {256u, 4096u, 65536u}) {
    const Case cases[] = {
        primitive<shuffles_Params, shuffles_LaunchArgs>(
            "shuffles", n, 4, 4, functions[0], cutec_launch_shuffles, cutec_kernel_shuffles,
            shuffles_grid(n), shuffles_block(), 0),
        primitive<warp_reduction_Params, warp_reduction_LaunchArgs>(
            "warp_reduction", n, 4, 3, functions[1], cutec_launch_warp_reduction,
            cutec_kernel_warp_reduction, warp_reduction_grid(n), warp_reduction_block(), 0),
        primitive<block_reduction_Params, block_reduction_LaunchArgs>(
            "block_reduction", n / 96 * 96, 2, 1, functions[2], cutec_launch_block_reduction,
            cutec_kernel_block_reduction, block_reduction_grid(n / 96 * 96),
            block_reduction_block(), block_reduction_shared_bytes)};
    for (const Case &c : cases)
      if (!check(c, false, passed, failed))
        return 1;
    if (!check(atomics(n, functions[3]), true, passed, failed))
      return 1;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
