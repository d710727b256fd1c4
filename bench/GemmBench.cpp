// The tcgen05 GEMM example (examples/fp16_gemm.cute, C = A B^T, f16 in, f32
// accumulate, f16 out) through its emitted emulation, next to OpenBLAS's
// cblas_sgemm on the same matrices converted to f32, in the same run: prints
// both GFLOP/s (2 M N K / seconds) and their ratio, and checks the emulated C
// against OpenBLAS's within f16 rounding (a sanity check: the two sum in
// different orders). A figure, not a timed test. All emulations run before
// the first OpenBLAS call.
//   build/bin/gemm_bench              2048x2048x2048, then 512x768x384
//   build/bin/gemm_bench M N K        one shape (multiples of 128, 256, 64)
#include "BlasCore.h"
#include "Fp16GemmEmulated.h"

#include <cblas.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

namespace {

struct Shape {
  uint32_t m, n, k;
  double flops() const { return 2.0 * m * n * k; }
};

double secondsOf(auto &&work) {
  auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

float f16Value(uint16_t bits) {
  _Float16 v;
  std::memcpy(&v, &bits, 2);
  return float(v);
}

/// One shape's inputs and its emulated result.
struct Run {
  Shape s;
  std::vector<_Float16> a, b;
  std::vector<uint16_t> c;
  double emulated = 0;
};

/// Makes the shape's inputs and runs the emulation; false if it fails.
bool emulate(Run &run) {
  const Shape s = run.s;
  std::mt19937 random(s.m * 31 + s.n * 7 + s.k);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  run.a.resize(size_t(s.m) * s.k);
  run.b.resize(size_t(s.n) * s.k);
  for (_Float16 &v : run.a)
    v = _Float16(uniform(random));
  for (_Float16 &v : run.b)
    v = _Float16(uniform(random));
  run.c.resize(size_t(s.m) * s.n);
  cutec::rt::Status status = cutec::rt::ok();
  run.emulated = secondsOf(
      [&] { status = cutec::test::runEmulatedFp16Gemm(run.a, run.b, run.c, s.m, s.n, s.k); });
  if (!status)
    std::fprintf(stderr, "emulation failed: %s\n", status.error().c_str());
  return bool(status);
}

/// Runs OpenBLAS on the shape's inputs and prints both figures; false if
/// the emulated result disagrees with OpenBLAS's.
bool compare(const Run &run) {
  const Shape s = run.s;
  std::vector<float> a32(run.a.begin(), run.a.end()), b32(run.b.begin(), run.b.end());
  // OpenBLAS: the best of three runs (the first also warms its threads up).
  std::vector<float> reference(size_t(s.m) * s.n);
  double blas = 1e30;
  for (int rep = 0; rep < 3; ++rep)
    blas = std::min(blas, secondsOf([&] {
                      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(s.m), int(s.n),
                                  int(s.k), 1.0f, a32.data(), int(s.k), b32.data(), int(s.k), 0.0f,
                                  reference.data(), int(s.n));
                    }));

  // Within f16 rounding of OpenBLAS's f32 result (|inputs| <= 1, so the two
  // f32 summation orders differ by far less than an f16 ulp).
  size_t bad = 0;
  for (size_t i = 0; i < run.c.size(); ++i) {
    float want = reference[i], got = f16Value(run.c[i]);
    if (!(std::fabs(got - want) <= std::fabs(want) * 0x1p-10f + 0x1p-12f) && bad++ < 5)
      std::fprintf(stderr, "C[%zu, %zu] = %g, OpenBLAS %g\n", i / s.n, i % s.n, got, want);
  }

  double emuRate = s.flops() / run.emulated / 1e9, blasRate = s.flops() / blas / 1e9;
  std::printf("%ux%ux%u: emulated %.3f s, %.2f GFLOP/s; OpenBLAS sgemm %.4f s, %.2f GFLOP/s; "
              "emulated/OpenBLAS %.1f%%; %s\n",
              s.m, s.n, s.k, run.emulated, emuRate, blas, blasRate, 100 * emuRate / blasRate,
              bad ? "results DIFFER" : "results agree within f16 rounding");
  return bad == 0;
}

} // namespace

int main(int argc, char **argv) {
  cutec::bench::useBestBlasCore(argv);
  std::vector<Shape> shapes = {{2048, 2048, 2048}, {512, 768, 384}};
  if (argc == 4)
    shapes = {
        {uint32_t(std::atoi(argv[1])), uint32_t(std::atoi(argv[2])), uint32_t(std::atoi(argv[3]))}};
  else if (argc != 1) {
    std::fprintf(stderr, "usage: gemm_bench [M N K]\n");
    return 2;
  }
  std::printf("fp16_gemm emulation vs OpenBLAS, %u hardware threads (both use all)\n",
              std::thread::hardware_concurrency());
  // Every emulation before any OpenBLAS call: OpenBLAS's threads keep
  // spinning (sched_yield) for a while after a call and would slow an
  // emulation that followed it.
  std::vector<Run> runs;
  for (Shape s : shapes) {
    runs.push_back({s, {}, {}, {}, 0});
    if (!emulate(runs.back()))
      return 1;
  }
  bool ok = true;
  for (const Run &run : runs)
    ok = compare(run) && ok;
  return ok ? 0 : 1;
}
