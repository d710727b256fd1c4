// Launching barrier-free kernels: a vector add over a grid whose last CTA is
// partial, the special registers of every thread, identical results for any
// number of workers, and launch configurations that must be refused. The
// kernel bodies are written the way the code generator emits them: a params
// struct, one statement per PTX instruction, a descriptor.
#include "LaunchTestSupport.h"

#include <numeric>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

struct VaddParams {
  uint64_t a, b, c;
  uint32_t n;
};

void vaddBody(Thread &t, const void *params) {
  auto &p = *static_cast<const VaddParams *>(params);
  uint32_t r1 = t.ctaid.x;
  uint32_t r2 = t.ntid.x;
  uint32_t r3 = t.tid.x;
  uint32_t r4 = r1 * r2 + r3;
  if (r4 >= p.n)
    return;
  uint64_t rd1 = uint64_t(r4) * 4;
  float f1 = t.loadGlobal<float>(p.a + rd1, "ld.global.f32 at vadd.cute:5");
  float f2 = t.loadGlobal<float>(p.b + rd1, "ld.global.f32 at vadd.cute:5");
  float f3 = f1 + f2;
  t.storeGlobal<float>(p.c + rd1, f3, "st.global.f32 at vadd.cute:5");
}
const KernelDescriptor vaddKernel{"vadd", vaddBody, sizeof(VaddParams), false, 0};

TEST(Launch, VectorAddWithPartialLastCta) {
  const uint32_t n = 1000; // 7 full CTAs of 128 and one of 104
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = float(i) * 0.5f;
    b[i] = 1000.0f - float(i);
  }
  MemoryMap map;
  addBuffer(map, a, "a");
  addBuffer(map, b, "b");
  addBuffer(map, c, "c");
  VaddParams params{addressOf(a), addressOf(b), addressOf(c), n};
  Status status = launch(vaddKernel, config({8, 1, 1}, {128, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
}

// Each thread writes its special registers to out[its global linear index].
constexpr uint32_t kSpecials = 14;
struct SpecialsParams {
  uint64_t out;
};

void specialsBody(Thread &t, const void *params) {
  auto &p = *static_cast<const SpecialsParams *>(params);
  uint32_t values[kSpecials] = {t.tid.x,    t.tid.y,    t.tid.z,   t.ntid.x,  t.ntid.y,
                                t.ntid.z,   t.ctaid.x,  t.ctaid.y, t.ctaid.z, t.nctaid.x,
                                t.nctaid.y, t.nctaid.z, t.laneid,  t.warpid};
  uint32_t cta = (t.ctaid.z * t.nctaid.y + t.ctaid.y) * t.nctaid.x + t.ctaid.x;
  uint32_t thread = (t.tid.z * t.ntid.y + t.tid.y) * t.ntid.x + t.tid.x;
  uint32_t global = cta * t.ntid.x * t.ntid.y * t.ntid.z + thread;
  for (uint32_t i = 0; i < kSpecials; ++i)
    t.storeGlobal<uint32_t>(p.out + (uint64_t(global) * kSpecials + i) * 4, values[i],
                            "st.global.u32 at specials.cute:3");
}
const KernelDescriptor specialsKernel{"specials", specialsBody, sizeof(SpecialsParams), false, 0};

std::vector<uint32_t> runSpecials(Dim3 grid, Dim3 block, unsigned workers) {
  std::vector<uint32_t> out(grid.volume() * block.volume() * kSpecials, 0xDEADBEEF);
  MemoryMap map;
  addBuffer(map, out, "out");
  SpecialsParams params{addressOf(out)};
  Status status = launch(specialsKernel, config(grid, block, workers), &params, map);
  EXPECT_TRUE(bool(status)) << status.error();
  return out;
}

TEST(Launch, SpecialRegistersOfEveryThread) {
  Dim3 grid{3, 2, 2}, block{10, 4, 1}; // 40 threads: warp 1 has 8 lanes
  std::vector<uint32_t> out = runSpecials(grid, block, 0);
  uint32_t global = 0;
  for (uint32_t cz = 0; cz < grid.z; ++cz)
    for (uint32_t cy = 0; cy < grid.y; ++cy)
      for (uint32_t cx = 0; cx < grid.x; ++cx)
        for (uint32_t linear = 0; linear < block.volume(); ++linear, ++global) {
          uint32_t tx = linear % block.x, ty = linear / block.x % block.y,
                   tz = linear / (block.x * block.y);
          std::vector<uint32_t> expected = {tx,      ty,     tz,          block.x,    block.y,
                                            block.z, cx,     cy,          cz,         grid.x,
                                            grid.y,  grid.z, linear % 32, linear / 32};
          std::vector<uint32_t> got(out.begin() + global * kSpecials,
                                    out.begin() + (global + 1) * kSpecials);
          ASSERT_EQ(got, expected)
              << "CTA (" << cx << "," << cy << "," << cz << ") thread " << linear;
        }
}

TEST(Launch, ResultsDoNotDependOnWorkerCount) {
  Dim3 grid{5, 3, 2}, block{7, 3, 3};
  std::vector<uint32_t> one = runSpecials(grid, block, 1);
  EXPECT_EQ(runSpecials(grid, block, 2), one);
  EXPECT_EQ(runSpecials(grid, block, 8), one);
}

TEST(Launch, RefusesBadConfigurations) {
  MemoryMap map;
  SpecialsParams params{0};
  EXPECT_NE(launchError(specialsKernel, config({1, 1, 1}, {1025, 1, 1}), &params, map)
                .find("exceeds 1024 threads"),
            std::string::npos);
  EXPECT_NE(launchError(specialsKernel, config({0, 1, 1}, {32, 1, 1}), &params, map)
                .find("empty grid (0,1,1)"),
            std::string::npos);
  EXPECT_NE(launchError(specialsKernel, config({1, 1, 1}, {32, 1, 1}), nullptr, map)
                .find("takes 8 bytes of parameters but none were given"),
            std::string::npos);
  LaunchConfig tooMuchShared = config({1, 1, 1}, {32, 1, 1});
  tooMuchShared.dynamicSharedBytes = 300 * 1024;
  EXPECT_NE(launchError(specialsKernel, tooMuchShared, &params, map).find("bytes of shared memory"),
            std::string::npos);
}

void trapBody(Thread &t, const void *) {
  if (t.tid.x == 3)
    t.fail("trap executed", "trap at trap.cute:2");
}
const KernelDescriptor trapKernel{"trapper", trapBody, 0, false, 0};

TEST(Launch, TrapStopsTheLaunch) {
  MemoryMap map;
  EXPECT_EQ(launchError(trapKernel, config({2, 1, 1}, {8, 1, 1}), nullptr, map),
            "kernel 'trapper', CTA (0,0,0), thread (3,0,0) (warp 0, lane 3): trap at "
            "trap.cute:2: trap executed");
}

} // namespace
} // namespace cutec::rt
