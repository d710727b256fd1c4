// tcgen05 with cta_group::2 in the emulator: a pair of CTAs allocates TMEM
// together, the even CTA issues M = 256 MMAs (f16, and e4m3 block-scaled
// with each CTA's scale factors in its own TMEM) reading A's and B's halves
// from both CTAs' shared memory, and a multicast commit releases both CTAs'
// epilogues. The result is checked against a reference written here (f32
// products summed in k order); then the planted bugs: a peer reading D
// before waiting, the odd CTA issuing, M = 128, a pair collective without a
// pair, a peer that skips the pair dealloc.
#include "LaunchTestSupport.h"

#include "runtime/engine/Cluster.h"
#include "runtime/numerics/PtxCvt.h"
#include "runtime/tensorcore/UmmaDescriptors.h"

#include <cmath>
#include <cstring>
#include <random>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

constexpr uint32_t kInstructions = 2;
constexpr uint32_t kRowBytes = 32;         // one K-major row of one instruction
constexpr uint32_t kLbo = 128, kSbo = 256; // no swizzle: core matrices of 8 rows
constexpr uint32_t kStaticBytes = 32;      // TMEM address slot, two mbarriers
constexpr uint32_t kSfColumn = 128;        // SFA's 4 columns, then SFB's

struct alignas(16) Chunk16 {
  uint32_t w[4];
};

struct PairParams {
  uint64_t image, out;
  uint32_t imageBytes, n, idesc, mode, scaled;
  uint64_t aDesc[kInstructions], bDesc[kInstructions], sfaDesc, sfbDesc;
};

enum Mode : uint32_t { Normal, PeerSkipsWait, OddIssues, PeerSkipsDealloc, PeerRewritesLeaderSf };

/// Byte offset of 16-byte unit (row r, K unit c) in the K-major, unswizzled
/// canonical layout ((8,n),2):((1,SBO),LBO) (units of 16 bytes).
uint32_t unitOffset(uint32_t r, uint32_t c) { return (r % 8) * 16 + (r / 8) * kSbo + c * kLbo; }

uint32_t aOffset(uint32_t i) { return i * 128 * kRowBytes; }
uint32_t bOffset(uint32_t i, uint32_t n) {
  return kInstructions * 128 * kRowBytes + i * n / 2 * kRowBytes;
}
/// The two 512-byte scale-factor tiles (as tcgen05.cp 32x128b reads them).
uint32_t sfaOffset(uint32_t n) { return bOffset(kInstructions, n); }
uint32_t sfbOffset(uint32_t n) { return sfaOffset(n) + 512; }

// Each CTA copies its image to shared memory; warp 0 of each allocates the
// pair's TMEM; in the scaled test the leader copies each CTA's scale factors
// to its TMEM (tcgen05.cp.cta_group::2); the leader issues the MMAs and a multicast commit; every
// warp reads its lanes of its CTA's half of D.
void pairBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const PairParams *>(raw);
  const uint32_t base = t.dynamicSharedBase(), tid = t.tid.x, warp = t.warpid;
  const uint32_t slot = t.staticSharedBase(), bar = slot + 8, cpBar = slot + 16;
  const uint32_t rank = t.cluster_ctarank;
  for (uint32_t i = tid * 16; i < p.imageBytes; i += 128 * 16)
    t.storeShared<Chunk16>(base + i,
                           t.loadGlobal<Chunk16>(p.image + rank * p.imageBytes + i, "ld.global.v4"),
                           "st.shared.v4");
  t.fenceProxyAsync("fence.proxy.async.shared::cta at pair.cute:4");
  if (warp == 0)
    t.tcgen05AllocPair(slot, 256, "tcgen05.alloc.cta_group::2 at pair.cute:5");
  if (tid == 0) {
    t.mbarrierInit(bar, 1, "mbarrier.init at pair.cute:6");
    t.mbarrierInit(cpBar, 1, "mbarrier.init at pair.cute:6");
  }
  t.tcgen05FenceBeforeThreadSync("tcgen05.fence::before_thread_sync");
  t.clusterArrive("barrier.cluster.arrive at pair.cute:8");
  t.clusterWait("barrier.cluster.wait at pair.cute:8");
  t.tcgen05FenceAfterThreadSync("tcgen05.fence::after_thread_sync");
  const uint32_t tmem = t.loadShared<uint32_t>(slot, "ld.shared at pair.cute:10");
  if (p.scaled) {
    // The leader copies both CTAs' scale factors (each from its own shared
    // memory); its multicast commit tells both that they are in.
    if (tid == 0 && rank == 0) {
      t.tcgen05CpPair(tmem + kSfColumn, p.sfaDesc, Tcgen05CpShape::S32x128bWarpx4,
                      "tcgen05.cp.cta_group::2 SFA");
      t.tcgen05CpPair(tmem + kSfColumn + 4, p.sfbDesc, Tcgen05CpShape::S32x128bWarpx4,
                      "tcgen05.cp.cta_group::2 SFB");
      t.tcgen05CommitMulticast(cpBar, 0b11, true, "tcgen05.commit of the copies");
    }
    // PeerRewritesLeaderSf: only the peer waits for the copies, then
    // rewrites (with the same bytes) the leader's SFA tile they read, as a
    // multicast TMA load refilling it would: its wait covers both CTAs.
    if (tid == 0 && !(p.mode == PeerRewritesLeaderSf && rank == 0))
      t.mbarrierWaitParity(cpBar, 0, "mbarrier.try_wait.parity of the copies");
    if (tid == 0 && p.mode == PeerRewritesLeaderSf && rank == 1) {
      uint32_t sf = t.mapaShared(base + sfaOffset(p.n), 0, "mapa of the leader's SFA");
      t.storeSharedCluster(sf, t.loadSharedCluster<Chunk16>(sf, "ld.shared::cluster"),
                           "st.shared::cluster into the leader's SFA");
    }
    t.clusterArrive("barrier.cluster.arrive at pair.cute:11");
    t.clusterWait("barrier.cluster.wait at pair.cute:11");
  }
  if (tid == 0 && rank == (p.mode == OddIssues ? 1u : 0u)) {
    for (uint32_t i = 0; i < kInstructions; ++i)
      if (p.scaled)
        t.tcgen05MmaBlockScaledPair(tmem, p.aDesc[i], p.bDesc[i], p.idesc, tmem + kSfColumn,
                                    tmem + kSfColumn + 4, i > 0, Tcgen05Kind::Mxf8f6f4,
                                    Tcgen05ScaleVec::X1,
                                    "tcgen05.mma.cta_group::2.block_scale at pair.cute:13");
      else
        t.tcgen05MmaPair(tmem, p.aDesc[i], p.bDesc[i], p.idesc, i > 0, Tcgen05Kind::F16,
                         "tcgen05.mma.cta_group::2 at pair.cute:13");
    t.tcgen05CommitMulticast(bar, 0b11, true,
                             "tcgen05.commit.cta_group::2.multicast at pair.cute:14");
  }
  if (!(p.mode == PeerSkipsWait && rank == 1))
    t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait.parity at pair.cute:16");
  t.tcgen05FenceAfterThreadSync("tcgen05.fence::after_thread_sync");
  for (uint32_t c = 0; c < p.n; c += 32) {
    uint32_t regs[32];
    warpSyncTcgen05Ld32x32b(t, tmem + ((32 * warp) << 16) + c, regs, 32,
                            "tcgen05.ld.32x32b at pair.cute:19");
    t.tcgen05WaitLd("tcgen05.wait::ld at pair.cute:19");
    uint64_t row = 128 * rank + tid;
    for (uint32_t j = 0; j < 32; ++j)
      t.storeGlobal<uint32_t>(p.out + 4 * (row * p.n + c + j), regs[j], "st.global");
  }
  t.tcgen05FenceBeforeThreadSync("tcgen05.fence::before_thread_sync");
  t.clusterArrive("barrier.cluster.arrive at pair.cute:22");
  t.clusterWait("barrier.cluster.wait at pair.cute:22");
  if (warp == 0 && !(p.mode == PeerSkipsDealloc && rank == 1))
    t.tcgen05DeallocPair(tmem, 256, "tcgen05.dealloc.cta_group::2 at pair.cute:24");
}
const KernelDescriptor pairKernel{"pair_mma", pairBody, sizeof(PairParams), true, kStaticBytes};

/// f32 D, A and B f16 (dense) or e4m3 with ue8m0 scale factors (scaled).
uint32_t idesc(uint32_t m, uint32_t n, bool scaled) {
  uint32_t shape = (n >> 3) << 17 | (m >> 4) << 24;
  return scaled ? shape | 1u << 23 : shape | 1u << 4;
}

/// The reference's own decoders: f16 and e4m3 codes (finite), ue8m0.
double f16Value(uint32_t code) {
  uint32_t e = code >> 10 & 31, m = code & 1023;
  double v = e ? std::ldexp(1.0 + m / 1024.0, int(e) - 15) : std::ldexp(double(m), -24);
  return code & 0x8000 ? -v : v;
}
double e4m3Value(uint32_t code) {
  uint32_t e = code >> 3 & 15, m = code & 7;
  double v = e ? std::ldexp(1.0 + m / 8.0, int(e) - 7) : std::ldexp(double(m), -9);
  return code & 0x80 ? -v : v;
}

struct PairMma {
  uint32_t n;
  bool scaled;
  // Element codes, K contiguous: (256, K) and (n, K); K = 32 (f16) or 64
  // (e4m3) in two instructions. Scale factors (ue8m0) per row and column.
  std::vector<uint16_t> a, b;
  std::vector<uint8_t> sfa, sfb;
  std::vector<uint8_t> image; // both CTAs' shared-memory images
  std::vector<uint32_t> out;
  PairParams p{};
  MemoryMap map;
  LaunchConfig c = config({2, 1, 1}, {128, 1, 1}, 1);

  uint32_t elementBytes() const { return scaled ? 1 : 2; }
  uint32_t k() const { return kInstructions * kRowBytes / elementBytes(); }

  explicit PairMma(uint32_t n, bool scaled = false, uint32_t seed = 7) : n(n), scaled(scaled) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    auto element = [&]() -> uint16_t {
      if (!scaled)
        return ptx::cvtF16F32(dist(rng));
      return uint16_t(rng() % 0x7F | (rng() % 2) << 7); // finite e4m3
    };
    for (uint32_t i = 0; i < 256 * k(); ++i)
      a.push_back(element());
    for (uint32_t i = 0; i < n * k(); ++i)
      b.push_back(element());
    for (uint32_t i = 0; i < 256; ++i)
      sfa.push_back(uint8_t(120 + rng() % 15));
    for (uint32_t i = 0; i < n; ++i)
      sfb.push_back(uint8_t(120 + rng() % 15));
    p.imageBytes = sfbOffset(n) + 512;
    image.assign(2 * size_t(p.imageBytes), 0);
    // CTA c holds A rows [128c, 128c+128), B rows [c n/2, (c+1) n/2), the
    // scale factors of its rows of A and those of all n columns of B.
    // Row `row` of `codes` as row `local` of an operand whose instruction
    // i part starts at `start(i)`.
    auto place = [&](uint32_t cta, auto start, const std::vector<uint16_t> &codes, uint32_t row,
                     uint32_t local) {
      for (uint32_t i = 0; i < kInstructions; ++i)
        for (uint32_t unit = 0; unit < 2; ++unit)
          for (uint32_t byte = 0; byte < 16; byte += elementBytes()) {
            uint32_t kk = (i * kRowBytes + unit * 16 + byte) / elementBytes();
            uint16_t code = codes[size_t(row) * k() + kk];
            std::memcpy(&image[cta * p.imageBytes + start(i) + unitOffset(local, unit) + byte],
                        &code, elementBytes());
          }
    };
    auto aStart = [](uint32_t i) { return aOffset(i); };
    auto bStart = [&](uint32_t i) { return bOffset(i, n); };
    for (uint32_t cta = 0; cta < 2; ++cta) {
      for (uint32_t r = 0; r < 128; ++r)
        place(cta, aStart, a, 128 * cta + r, r);
      for (uint32_t r = 0; r < n / 2; ++r)
        place(cta, bStart, b, n / 2 * cta + r, r);
      // SF tile row r, byte 4c: the scale factor of index 32c + r (one tile
      // holds 128; the scaled tests have n <= 128).
      if (!scaled)
        continue;
      for (uint32_t i = 0; i < 128; ++i)
        image[cta * p.imageBytes + sfaOffset(n) + (i % 32) * 16 + 4 * (i / 32)] =
            sfa[128 * cta + i];
      for (uint32_t i = 0; i < n; ++i)
        image[cta * p.imageBytes + sfbOffset(n) + (i % 32) * 16 + 4 * (i / 32)] = sfb[i];
    }
    out.assign(256 * size_t(n), 0xDEADBEEF);
    addBuffer(map, image, "image");
    addBuffer(map, out, "out");
    p.image = addressOf(image);
    p.out = addressOf(out);
    p.n = n;
    p.scaled = scaled;
    p.idesc = idesc(256, n, scaled);
    SmemMatrixDescriptor d;
    d.version = 1;
    d.leadingByteOffset = kLbo;
    d.strideByteOffset = kSbo;
    auto at = [&](uint32_t offset) {
      d.startAddress = kSharedWindowBase + kStaticBytes + offset;
      return encodeSmemDescriptor(d);
    };
    for (uint32_t i = 0; i < kInstructions; ++i) {
      p.aDesc[i] = at(aOffset(i));
      p.bDesc[i] = at(bOffset(i, n));
    }
    d.strideByteOffset = 128; // SF tiles: 32 rows of 16 bytes, packed
    p.sfaDesc = at(sfaOffset(n));
    p.sfbDesc = at(sfbOffset(n));
    c.cluster = {2, 1, 1};
    c.dynamicSharedBytes = p.imageBytes;
  }

  /// D = A B^T (with the scale factors) with each product rounded to f32 and
  /// summed in k order.
  std::vector<uint32_t> reference() const {
    std::vector<uint32_t> d(256 * size_t(n));
    auto value = [&](uint16_t code) { return scaled ? e4m3Value(code) : f16Value(code); };
    for (uint32_t m = 0; m < 256; ++m)
      for (uint32_t j = 0; j < n; ++j) {
        float acc = 0;
        double scale =
            scaled ? std::ldexp(1.0, int(sfa[m]) - 127) * std::ldexp(1.0, int(sfb[j]) - 127) : 1;
        for (uint32_t kk = 0; kk < k(); ++kk)
          acc += float(value(a[m * k() + kk]) * value(b[j * k() + kk]) * scale);
        std::memcpy(&d[m * size_t(n) + j], &acc, 4);
      }
    return d;
  }
};

TEST(ClusterTcgen05, APairMmaOfM256ComputesBothHalvesOfD) {
  for (uint32_t n : {64u, 256u}) {
    PairMma pair(n);
    Status s = launch(pairKernel, pair.c, &pair.p, pair.map);
    ASSERT_TRUE(bool(s)) << s.error();
    std::vector<uint32_t> want = pair.reference();
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(pair.out[i], want[i]) << "N=" << n << " row " << i / n << " column " << i % n;
  }
}

TEST(ClusterTcgen05, ABlockScaledPairMmaUsesEachCtasScaleFactors) {
  for (uint32_t n : {64u, 128u}) {
    PairMma pair(n, /*scaled=*/true);
    Status s = launch(pairKernel, pair.c, &pair.p, pair.map);
    ASSERT_TRUE(bool(s)) << s.error();
    std::vector<uint32_t> want = pair.reference();
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(pair.out[i], want[i]) << "N=" << n << " row " << i / n << " column " << i % n;
  }
}

TEST(ClusterTcgen05, APeerThatSawThePairCommitMayRewriteTheLeadersSharedOperands) {
  PairMma pair(64, /*scaled=*/true);
  pair.p.mode = PeerRewritesLeaderSf;
  Status s = launch(pairKernel, pair.c, &pair.p, pair.map);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(pair.out, pair.reference());
}

TEST(ClusterTcgen05, ABlockScaledPairMmaOfNNotAMultipleOf64IsRefused) {
  PairMma pair(32, /*scaled=*/true);
  std::string error = launchError(pairKernel, pair.c, &pair.p, pair.map);
  EXPECT_NE(error.find("block-scaled tcgen05.mma.cta_group::2 with N=32: only N a multiple of "
                       "64 is modelled"),
            std::string::npos)
      << error;
}

// The peer's warps read D without waiting: under the fixed schedule they
// load before the leader issues the MMA, whose writes then meet the loads
// still in flight (no warp of the peer has all its lanes at its wait::ld).
TEST(ClusterTcgen05, APeerReadingDBeforeTheCommitIsReported) {
  PairMma pair(64);
  pair.p.mode = PeerSkipsWait;
  std::string error = launchError(pairKernel, pair.c, &pair.p, pair.map);
  EXPECT_NE(error.find("kernel 'pair_mma', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): "
                       "tcgen05.mma.cta_group::2 at pair.cute:13: it writes TMEM lanes [0,128) "
                       "columns [0,64), which 'tcgen05.ld.32x32b at pair.cute:19' (CTA rank 1 "
                       "warp 1; reads TMEM lanes [32,64) columns [0,32)) may still be reading: "
                       "warp 1 has not executed tcgen05.wait::ld since"),
            std::string::npos)
      << error;
}

TEST(ClusterTcgen05, TheOddCtaIssuingIsReported) {
  PairMma pair(64);
  pair.p.mode = OddIssues;
  EXPECT_EQ(launchError(pairKernel, pair.c, &pair.p, pair.map),
            "kernel 'pair_mma', CTA (1,0,0), thread (0,0,0) (warp 0, lane 0): "
            "tcgen05.mma.cta_group::2 at pair.cute:13: tcgen05.mma.cta_group::2 issued by CTA "
            "rank 1, the odd CTA of its pair: the emulator models the MMA issued by the even "
            "CTA (rows 0-127 of D there)");
}

TEST(ClusterTcgen05, M128WithAPairIsRefused) {
  PairMma pair(64);
  pair.p.idesc = idesc(128, 64, false);
  std::string error = launchError(pairKernel, pair.c, &pair.p, pair.map);
  EXPECT_NE(error.find("tcgen05.mma.cta_group::2 with M=128 ("), std::string::npos) << error;
  EXPECT_NE(error.find("): the emulator models M=256 (M=128 with cta_group::2 is not modelled)"),
            std::string::npos)
      << error;
}

TEST(ClusterTcgen05, APairCollectiveWithoutAPairIsReported) {
  PairMma pair(64);
  pair.c.cluster = {1, 1, 1};
  EXPECT_EQ(launchError(pairKernel, pair.c, &pair.p, pair.map),
            "kernel 'pair_mma', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): "
            "tcgen05.alloc.cta_group::2 at pair.cute:5: tcgen05.alloc.cta_group::2 needs a pair "
            "of CTAs (ranks 2i and 2i+1 of a cluster), but CTA rank 0's cluster (1,1,1) has no "
            "rank 1");
}

TEST(ClusterTcgen05, APeerThatSkipsThePairDeallocLeaksItsColumns) {
  PairMma pair(64);
  pair.p.mode = PeerSkipsDealloc;
  EXPECT_EQ(launchError(pairKernel, pair.c, &pair.p, pair.map),
            "kernel 'pair_mma', CTA (1,0,0): the CTA ended with TMEM columns allocated (every "
            "tcgen05.alloc needs a tcgen05.dealloc before the CTA exits):\n"
            "  columns [0,256) by warp 0 at 'tcgen05.alloc.cta_group::2 at pair.cute:5'");
}

} // namespace
} // namespace cutec::rt
