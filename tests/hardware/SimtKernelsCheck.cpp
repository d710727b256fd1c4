// The hardware check of the SIMT examples (examples/vector_add.cute,
// transpose.cute, rmsnorm.cute, softmax.cute and softmax_cluster.cute, whose
// kernels share a row over clusters of 8 and 16 CTAs): each one's sm_90a PTX
// runs on the GPU through cutec's host launcher and its emulation on the
// CPU, on the same inputs; the outputs must be byte-identical, and equal to
// the exact result (vector add, transpose) or within 1e-5 of a float64
// rms_norm or softmax. Then each kernel is timed on large and decode-sized
// shapes, and its bandwidth (the bytes it must read and write over the mean
// of 20 launches) printed next to cuMemcpyDtoD of the same bytes (half
// read, half written) in the same run. tests/hardware/torch_simt_peers.py
// prints PyTorch's on the same shapes.
//   simt_kernels_check vector_add.sm_90a.ptx transpose.sm_90a.ptx
//                      rmsnorm.sm_90a.ptx softmax.sm_90a.ptx softmax_cluster.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "rmsnorm_emu.h"
#include "rmsnorm_launch.h"
#include "softmax_cluster_emu.h"
#include "softmax_cluster_launch.h"
#include "softmax_emu.h"
#include "softmax_launch.h"
#include "transpose_emu.h"
#include "transpose_launch.h"
#include "vector_add_emu.h"
#include "vector_add_launch.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <vector>

namespace {

using Buffers = std::vector<std::vector<float>>;
constexpr float kEps = 1e-6f;
constexpr int kTimedLaunches = 20;

/// One run of a kernel on one shape: its tensors (the inputs, then the
/// output, whose size is what matters), how to launch it on the GPU and in
/// the emulator, how to check the output, and the bytes it must move.
struct Case {
  std::string title;
  Buffers buffers;
  std::vector<const char *> names;
  std::function<CUresult(const std::vector<CUdeviceptr> &)> launch;
  std::function<cutec::rt::Status(Buffers &, cutec::rt::MemoryMap &)> emulate;
  /// The largest error of the output (0 when it is exact), and its bound.
  std::function<double(const Buffers &, const std::vector<float> &)> error;
  double bound = 0;
  double bytes = 0;
};

Case start(std::string title, Buffers buffers, std::vector<const char *> names) {
  Case c;
  c.title = std::move(title);
  c.buffers = std::move(buffers);
  c.names = std::move(names);
  return c;
}

uintptr_t address(std::vector<float> &v) { return reinterpret_cast<uintptr_t>(v.data()); }

std::vector<float> random(size_t count, float scale, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> v(count);
  for (float &x : v)
    x = normal(rng);
  return v;
}

/// The number of elements of `out` that differ from `expected` in their bits.
double mismatches(const std::vector<float> &out, const std::vector<float> &expected) {
  double bad = 0;
  for (size_t i = 0; i < out.size(); ++i)
    bad += std::memcmp(&out[i], &expected[i], 4) != 0;
  return bad;
}

/// The largest relative error of the rows of `out` against `row(r, y)`,
/// which writes row r of the float64 result into y.
double rowError(const std::vector<float> &out, uint32_t m, uint32_t n,
                const std::function<void(uint32_t, std::vector<double> &)> &row) {
  double worst = 0;
  std::vector<double> y(n);
  for (uint32_t r = 0; r < m; ++r) {
    row(r, y);
    for (uint32_t c = 0; c < n; ++c) {
      double got = out[size_t(r) * n + c];
      double e = std::abs(got - y[c]) / std::max(std::abs(y[c]), 1e-30);
      worst = std::isnan(got) ? INFINITY : std::max(worst, e);
    }
  }
  return worst;
}

/// The length-n vector add (one row).
Case vectorAdd(uint32_t, uint32_t n, CUfunction f) {
  Case c = start("vector_add N=" + std::to_string(n),
                 {random(n, 1e3f, n), random(n, 1e-2f, n + 1), std::vector<float>(n)},
                 {"mA", "mB", "mC"});
  c.launch = [=](const std::vector<CUdeviceptr> &d) {
    return cutec_launch_vector_add(f, {d[0], d[1], d[2], n}, nullptr);
  };
  c.emulate = [=](Buffers &b, cutec::rt::MemoryMap &map) {
    vector_add_Params p{address(b[0]), address(b[1]), address(b[2]), n};
    return cutec::rt::launch(
        cutec_kernel_vector_add,
        cutec::hw::emulatedLaunch(vector_add_grid(n), vector_add_block(), /*sharedBytes=*/0), &p,
        map);
  };
  c.error = [](const Buffers &b, const std::vector<float> &out) {
    std::vector<float> sum(out.size());
    for (size_t i = 0; i < sum.size(); ++i)
      sum[i] = b[0][i] + b[1][i];
    return mismatches(out, sum);
  };
  c.bound = 0;
  c.bytes = 12.0 * n;
  return c;
}

Case transpose(uint32_t m, uint32_t n, CUfunction f) {
  Case c = start("transpose M=" + std::to_string(m) + " N=" + std::to_string(n),
                 {random(size_t(m) * n, 1.0f, m + n), std::vector<float>(size_t(m) * n)},
                 {"mIn", "mOut"});
  c.launch = [=](const std::vector<CUdeviceptr> &d) {
    return cutec_launch_transpose(f, {d[0], d[1], m, n}, nullptr);
  };
  c.emulate = [=](Buffers &b, cutec::rt::MemoryMap &map) {
    transpose_Params p{address(b[0]), address(b[1]), m, n};
    return cutec::rt::launch(
        cutec_kernel_transpose,
        cutec::hw::emulatedLaunch(transpose_grid(m, n), transpose_block(), transpose_shared_bytes),
        &p, map);
  };
  c.error = [=](const Buffers &b, const std::vector<float> &out) {
    std::vector<float> t(out.size());
    for (size_t r = 0; r < m; ++r)
      for (size_t col = 0; col < n; ++col)
        t[col * m + r] = b[0][r * n + col];
    return mismatches(out, t);
  };
  c.bound = 0;
  c.bytes = 8.0 * m * n;
  return c;
}

Case rmsnorm(uint32_t m, uint32_t n, CUfunction f) {
  Case c = start(
      "rmsnorm M=" + std::to_string(m) + " N=" + std::to_string(n),
      {random(size_t(m) * n, 4.0f, m + n), random(n, 1.0f, n), std::vector<float>(size_t(m) * n)},
      {"mX", "mW", "mY"});
  c.launch = [=](const std::vector<CUdeviceptr> &d) {
    return cutec_launch_rmsnorm(f, {d[0], d[1], d[2], kEps, m, n}, nullptr);
  };
  c.emulate = [=](Buffers &b, cutec::rt::MemoryMap &map) {
    rmsnorm_Params p{address(b[0]), address(b[1]), address(b[2]), kEps, m, n};
    return cutec::rt::launch(
        cutec_kernel_rmsnorm,
        cutec::hw::emulatedLaunch(rmsnorm_grid(m, n), rmsnorm_block(), rmsnorm_shared_bytes), &p,
        map);
  };
  c.error = [=](const Buffers &b, const std::vector<float> &out) {
    return rowError(out, m, n, [&](uint32_t r, std::vector<double> &y) {
      const float *x = &b[0][size_t(r) * n];
      double squares = 0;
      for (uint32_t i = 0; i < n; ++i)
        squares += double(x[i]) * x[i];
      double scale = 1 / std::sqrt(squares / n + kEps);
      for (uint32_t i = 0; i < n; ++i)
        y[i] = x[i] * scale * b[1][i];
    });
  };
  c.bound = 1e-5;
  c.bytes = 8.0 * m * n + 4.0 * n;
  return c;
}

/// A softmax kernel's rows (examples/softmax.cute and softmax_cluster.cute's
/// kernels take the same parameters); `kernel` names its generated symbols.
template <typename Params, typename LaunchArgs>
Case softmaxRows(const char *name, uint32_t m, uint32_t n, CUfunction f,
                 CUresult (*launch)(CUfunction, const LaunchArgs &, CUstream),
                 const cutec::rt::KernelDescriptor &kernel,
                 cutec::rt::Dim3 (*grid)(uint32_t, uint32_t), cutec::rt::Dim3 block,
                 uint32_t sharedBytes) {
  Case c =
      start(std::string(name) + " M=" + std::to_string(m) + " N=" + std::to_string(n),
            {random(size_t(m) * n, 4.0f, m + n), std::vector<float>(size_t(m) * n)}, {"mX", "mY"});
  c.launch = [=](const std::vector<CUdeviceptr> &d) {
    return launch(f, {d[0], d[1], m, n}, nullptr);
  };
  c.emulate = [=, &kernel](Buffers &b, cutec::rt::MemoryMap &map) {
    Params p{address(b[0]), address(b[1]), m, n};
    return cutec::rt::launch(kernel, cutec::hw::emulatedLaunch(grid(m, n), block, sharedBytes), &p,
                             map);
  };
  c.error = [=](const Buffers &b, const std::vector<float> &out) {
    return rowError(out, m, n, [&](uint32_t r, std::vector<double> &y) {
      const float *x = &b[0][size_t(r) * n];
      double top = -INFINITY, sum = 0;
      for (uint32_t i = 0; i < n; ++i)
        top = std::max(top, double(x[i]));
      for (uint32_t i = 0; i < n; ++i)
        sum += y[i] = std::exp(x[i] - top);
      for (double &v : y)
        v /= sum;
    });
  };
  c.bound = 1e-5;
  c.bytes = 8.0 * m * n;
  return c;
}

Case softmax(uint32_t m, uint32_t n, CUfunction f) {
  return softmaxRows<softmax_Params>("softmax", m, n, f, cutec_launch_softmax, cutec_kernel_softmax,
                                     softmax_grid, softmax_block(), softmax_shared_bytes);
}

Case softmaxCluster8(uint32_t m, uint32_t n, CUfunction f) {
  return softmaxRows<softmax_cluster8_Params>(
      "softmax_cluster8", m, n, f, cutec_launch_softmax_cluster8, cutec_kernel_softmax_cluster8,
      softmax_cluster8_grid, softmax_cluster8_block(), softmax_cluster8_shared_bytes);
}

Case softmaxCluster16(uint32_t m, uint32_t n, CUfunction f) {
  return softmaxRows<softmax_cluster16_Params>(
      "softmax_cluster16", m, n, f, cutec_launch_softmax_cluster16, cutec_kernel_softmax_cluster16,
      softmax_cluster16_grid, softmax_cluster16_block(), softmax_cluster16_shared_bytes);
}

/// Runs `c` on the GPU: `out` gets the output; `ms` the mean time of
/// kTimedLaunches launches when `timed` (else 0).
bool runOnGpu(const Case &c, bool timed, std::vector<float> &out, float &ms, std::string &error) {
  std::vector<CUdeviceptr> d(c.buffers.size());
  for (size_t i = 0; i < d.size(); ++i) {
    CUTEC_CU(cuMemAlloc(&d[i], c.buffers[i].size() * 4));
    CUTEC_CU(cuMemcpyHtoD(d[i], c.buffers[i].data(), c.buffers[i].size() * 4));
  }
  CUTEC_CU(cuMemsetD8(d.back(), 0xFF, out.size() * 4));
  CUTEC_CU(c.launch(d));
  CUTEC_CU(cuCtxSynchronize());
  CUTEC_CU(cuMemcpyDtoH(out.data(), d.back(), out.size() * 4));
  ms = 0;
  if (timed && !cutec::hw::timeLaunches([&] { return c.launch(d); }, kTimedLaunches, ms, error))
    return false;
  for (CUdeviceptr p : d)
    CUTEC_CU(cuMemFree(p));
  return true;
}

/// Runs the emulation of `c`; `out` gets the output.
cutec::rt::Status emulate(const Case &c, std::vector<float> &out) {
  Buffers b = c.buffers;
  std::fill(b.back().begin(), b.back().end(), NAN);
  cutec::rt::MemoryMap map;
  for (size_t i = 0; i < b.size(); ++i)
    if (cutec::rt::Status added = map.add(b[i].data(), b[i].size() * 4, c.names[i]); !added)
      return added;
  cutec::rt::Status status = c.emulate(b, map);
  out = b.back();
  return status;
}

/// Checks `c` (GPU against emulation when `emulated`, and against its
/// reference) and times it when `timed`. False on a failure to run.
bool check(const Case &c, bool emulated, bool timed, int &passed, int &failed) {
  std::vector<float> gpu(c.buffers.back().size()), emu;
  float ms = 0;
  std::string error;
  if (!runOnGpu(c, timed, gpu, ms, error)) {
    std::fprintf(stderr, "simt_kernels_check: %s: %s\n", c.title.c_str(), error.c_str());
    return false;
  }
  bool same = true;
  std::printf("%s:", c.title.c_str());
  if (emulated) {
    if (cutec::rt::Status status = emulate(c, emu); !status) {
      std::fprintf(stderr, "\nsimt_kernels_check: %s: emulation failed: %s\n", c.title.c_str(),
                   status.error().c_str());
      return false;
    }
    same = std::memcmp(gpu.data(), emu.data(), gpu.size() * 4) == 0;
    std::printf(" GPU vs emulation %s,", same ? "byte-identical" : "DIFFERENT");
  }
  double e = c.error(c.buffers, gpu);
  bool right = e <= c.bound;
  if (c.bound == 0)
    std::printf(" GPU vs exact result %s", right ? "byte-identical" : "DIFFERENT");
  else
    std::printf(" GPU vs float64: max relative error %.2e (bound %.0e)", e, c.bound);
  if (timed) {
    double copy = 0;
    if (!cutec::hw::copyBandwidth(size_t(c.bytes / 2), kTimedLaunches, copy, error)) {
      std::fprintf(stderr, "\nsimt_kernels_check: %s\n", error.c_str());
      return false;
    }
    double gb = c.bytes / (ms * 1e6);
    std::printf("; %.4f ms, %.1f GB/s = %.1f%% of cuMemcpyDtoD of the same bytes (%.1f GB/s)", ms,
                gb, 100 * gb / copy, copy);
  }
  std::printf("\n");
  (same && right ? passed : failed)++;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: simt_kernels_check vector_add.sm_90a.ptx transpose.sm_90a.ptx "
                         "rmsnorm.sm_90a.ptx softmax.sm_90a.ptx softmax_cluster.sm_90a.ptx\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("simt_kernels_check", context))
    return *status;
  // softmax_cluster.sm_90a.ptx holds both cluster kernels: it is loaded once
  // for each.
  char *paths[] = {argv[1], argv[2], argv[3], argv[4], argv[5], argv[5]};
  CUfunction functions[6];
  if (!cutec::hw::loadKernels("simt_kernels_check", paths,
                              {cutec_load_vector_add, cutec_load_transpose, cutec_load_rmsnorm,
                               cutec_load_softmax, cutec_load_softmax_cluster8,
                               cutec_load_softmax_cluster16},
                              functions))
    return 1;
  const CUfunction add = functions[0], trans = functions[1], rms = functions[2],
                   soft = functions[3], soft8 = functions[4], soft16 = functions[5];
  // Ragged and small shapes against the emulation; large and decode-sized
  // shapes timed (the smaller of them emulated too).
  struct Run {
    Case (*make)(uint32_t m, uint32_t n, CUfunction f);
    CUfunction f;
    uint32_t m, n;
    bool emulated, timed;
  };
  const Run runs[] = {
      {vectorAdd, add, 1, 1, true, false},
      {vectorAdd, add, 1, 4099, true, false},
      {vectorAdd, add, 1, 1000003, true, true},
      {vectorAdd, add, 1, 1u << 20, true, true},
      {vectorAdd, add, 1, (1u << 28) + 3, false, true},
      {transpose, trans, 1, 1, true, false},
      {transpose, trans, 100, 37, true, false},
      {transpose, trans, 1000, 1000, true, false},
      {transpose, trans, 1001, 77, true, false},
      {transpose, trans, 256, 4096, true, true},
      {transpose, trans, 8192, 8192, false, true},
      {transpose, trans, 12289, 4097, false, true},
      {transpose, trans, 4097, 12289, false, true},
      {rmsnorm, rms, 3, 4100, true, false},
      {rmsnorm, rms, 33, 200, true, false},
      {rmsnorm, rms, 1, 8192, true, true},
      {rmsnorm, rms, 8, 8192, true, true},
      {rmsnorm, rms, 4096, 4096, true, true},
      {rmsnorm, rms, 16384, 8192, false, true},
      {softmax, soft, 3, 4100, true, false},
      {softmax, soft, 33, 200, true, false},
      {softmax, soft, 1, 32000, true, true},
      {softmax, soft, 8, 128000, true, true},
      {softmax, soft, 32, 65536, false, true},
      {softmax, soft, 4096, 32000, false, true},
      {softmax, soft, 16384, 8192, false, true},
      // A row over a cluster: rows that leave CTAs without vectors (N=200),
      // ragged rows (not a multiple of the cluster's 4 * 1024 * C elements)
      // against the emulation, and the few-long-rows shapes timed.
      {softmaxCluster8, soft8, 3, 4100, true, false},
      {softmaxCluster8, soft8, 33, 200, true, false},
      {softmaxCluster8, soft8, 2, 65540, true, false},
      {softmaxCluster8, soft8, 1, 32000, true, true},
      {softmaxCluster8, soft8, 8, 128000, true, true},
      {softmaxCluster8, soft8, 32, 65536, false, true},
      {softmaxCluster8, soft8, 4096, 32000, false, true},
      {softmaxCluster16, soft16, 3, 4100, true, false},
      {softmaxCluster16, soft16, 33, 200, true, false},
      {softmaxCluster16, soft16, 2, 65540, true, false},
      {softmaxCluster16, soft16, 1, 32000, true, true},
      {softmaxCluster16, soft16, 8, 128000, true, true},
      {softmaxCluster16, soft16, 32, 65536, false, true},
      {softmaxCluster16, soft16, 4096, 32000, false, true},
  };
  int passed = 0, failed = 0;
  for (const Run &r : runs)
    if (!check(r.make(r.m, r.n, r.f), r.emulated, r.timed, passed, failed))
      return 1;
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
