// examples/persistent_scale.cute's emitted C++ on the runtime: persistent
// CTAs walk every tile of the matrix once, and B = 2 * A exactly, on GPUs
// of few SMs (fewer CTAs at once than tiles) and for any number of workers:
// with the static scheduler on a grid of sm_count() CTAs, and with cluster
// launch control on a CTA per tile.
#include "persistent_scale_emu.h"

#include <gtest/gtest.h>

#include <vector>

namespace cutec {
namespace {

struct Problem {
  uint32_t m, n, l;
  std::vector<float> a, b;
  std::vector<int32_t> visits;
  Problem(uint32_t m, uint32_t n, uint32_t l)
      : m(m), n(n), l(l), a(size_t(m) * n * l), b(a.size(), -1.0f),
        visits(size_t(m / 32) * (n / 4) * l, 0) {
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = float(i % 1000) - 250.5f;
  }
  rt::MemoryMap memory() {
    rt::MemoryMap map;
    EXPECT_TRUE(map.add(a.data(), a.size() * 4, "mA"));
    EXPECT_TRUE(map.add(b.data(), b.size() * 4, "mB"));
    EXPECT_TRUE(map.add(visits.data(), visits.size() * 4, "visits"));
    return map;
  }
  void expectEveryTileOnceAndScaled() const {
    for (size_t i = 0; i < a.size(); ++i)
      ASSERT_EQ(b[i], 2 * a[i]) << "element " << i;
    EXPECT_EQ(visits, std::vector<int32_t>(visits.size(), 1));
  }
};

/// Runs one of the example's kernels on `p` on a GPU of `multiprocessors`
/// SMs; both kernels take the same parameters.
template <class Params>
rt::Status runScale(const rt::KernelDescriptor &kernel, rt::Dim3 grid, rt::Dim3 block,
                    uint32_t sharedBytes, Problem &p, uint32_t multiprocessors,
                    unsigned workers) {
  Params params{};
  params.mA = reinterpret_cast<uintptr_t>(p.a.data());
  params.mB = reinterpret_cast<uintptr_t>(p.b.data());
  params.visits = reinterpret_cast<uintptr_t>(p.visits.data());
  params.M = p.m;
  params.N = p.n;
  params.L = p.l;
  rt::LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.dynamicSharedBytes = sharedBytes;
  c.workerThreads = workers;
  c.multiprocessors = multiprocessors;
  return rt::launch(kernel, c, &params, p.memory());
}

rt::Status runClcScale(Problem &p, uint32_t multiprocessors, unsigned workers) {
  return runScale<clc_scale_Params>(cutec_kernel_clc_scale, clc_scale_grid(p.m, p.n, p.l),
                                    clc_scale_block(), clc_scale_shared_bytes, p,
                                    multiprocessors, workers);
}

rt::Status runStaticScale(Problem &p, uint32_t multiprocessors, unsigned workers) {
  return runScale<static_scale_Params>(
      cutec_kernel_static_scale, static_scale_grid(p.m, p.n, p.l, multiprocessors),
      static_scale_block(), 0, p, multiprocessors, workers);
}

TEST(PersistentScaleLinked, StaticSchedulerWalksEveryTileOnceOnAGridOfSmCount) {
  for (uint32_t sms : {1u, 3u, 7u, 148u})
    for (unsigned workers : {1u, 3u}) {
      SCOPED_TRACE(testing::Message() << sms << " SMs, " << workers << " workers");
      Problem p(96, 20, 2); // 3 x 5 x 2 tiles: 30 CTAs on 148 SMs, 10 tiles each on 3
      rt::Status s = runStaticScale(p, sms, workers);
      ASSERT_TRUE(s) << s.error();
      p.expectEveryTileOnceAndScaled();
    }
}

TEST(PersistentScaleLinked, ClusterLaunchControlWalksEveryTileOnceOnFewSms) {
  for (uint32_t sms : {1u, 3u, 148u})
    for (unsigned workers : {1u, 3u}) {
      SCOPED_TRACE(testing::Message() << sms << " SMs, " << workers << " workers");
      Problem p(96, 20, 2); // 3 x 5 x 2 tiles
      rt::Status s = runClcScale(p, sms, workers);
      ASSERT_TRUE(s) << s.error();
      p.expectEveryTileOnceAndScaled();
    }
}

} // namespace
} // namespace cutec
