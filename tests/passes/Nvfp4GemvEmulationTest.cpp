// The lowered NVFP4 GEMV, run: its emulation (printed from the same machine
// IR as its PTX) is compiled in-process and launched, and every output must
// equal, bit for bit, a reference that dequantises and accumulates in the
// kernel's order. This checks partition's offsets, lower-indexing's nibble
// and scale-factor addressing and isel's conversions numerically.
#include "GemvKernelIR.h"

#include "codegen/emu/EmuPrinter.h"
#include "codegen/jit/EmulationJit.h"
#include "runtime/Emulation.h"
#include "runtime/numerics/PtxCvt.h"

#include <random>

namespace cutec {
namespace {

using namespace test;

struct GemvParams {
  uint64_t mA, mB, mSFA, mSFB, mC;
  uint32_t M, K, L;
};

/// The layout of kernel argument `i` with the sizes bound.
Layout boundLayout(const ir::Module &m, unsigned i, const llvm::StringMap<int64_t> &sizes) {
  const Layout &l = m.kernels()[0]->regions()[0]->front().argument(i)->type().tensorLayout();
  return Layout(substitute(l.shape, sizes), substitute(l.stride, sizes));
}

int64_t indexOf(const Layout &l, int64_t x, int64_t y, int64_t z) {
  llvm::Expected<IntExpr> idx = crd2idx(tup(x, y, z), l);
  EXPECT_TRUE(idx && idx->isStatic());
  return idx ? idx->staticValue() : 0;
}

TEST(Nvfp4GemvEmulation, MatchesTheReferenceBitForBit) {
  std::unique_ptr<ir::Module> module = gemvKernelIR();
  ASSERT_TRUE(module);
  ASSERT_EQ(runPasses(*module, loweringPipeline()), "");
  std::string cpp;
  llvm::raw_string_ostream os(cpp);
  ASSERT_FALSE(bool(emu::printEmulation(*module, {}, os)));

  auto jit = EmulationJit::create();
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  llvm::Error loaded = (*jit)->addSource(cpp, "nvfp4_gemv_emu.cpp");
  ASSERT_FALSE(bool(loaded)) << llvm::toString(std::move(loaded));
  auto descriptor = (*jit)->lookup("cutec_kernel_nvfp4_gemv");
  ASSERT_TRUE(bool(descriptor)) << llvm::toString(descriptor.takeError());
  const auto &kernel = *static_cast<const rt::KernelDescriptor *>(*descriptor);

  // An M that is not a multiple of the 128-row tile is out of bounds in
  // this kernel (it has no predication), so M is; K spans 3 k tiles.
  const int64_t M = 256, K = 192, L = 2;
  llvm::StringMap<int64_t> sizes{{"M", M}, {"K", K}, {"L", L}};
  Layout sfaLayout = boundLayout(*module, 2, sizes), sfbLayout = boundLayout(*module, 3, sizes);
  std::mt19937 rng(4);
  auto codes = [&](size_t n, int lo, int hi) {
    std::vector<uint8_t> v(n);
    std::uniform_int_distribution<int> dist(lo, hi);
    for (uint8_t &b : v)
      b = uint8_t(dist(rng));
    return v;
  };
  std::vector<uint8_t> a = codes(M * K * L / 2, 0, 255), b = codes(128 * K * L / 2, 0, 255);
  std::vector<uint8_t> sfa = codes(cosize(sfaLayout).staticValue(), 0x30, 0x40);
  std::vector<uint8_t> sfb = codes(cosize(sfbLayout).staticValue(), 0x30, 0x40);
  std::vector<uint16_t> c(M * L, 0xFFFF);

  rt::MemoryMap globals;
  for (auto [data, bytes, name] : {std::tuple{(void *)a.data(), a.size(), "a"},
                                   {b.data(), b.size(), "b"},
                                   {sfa.data(), sfa.size(), "sfa"},
                                   {sfb.data(), sfb.size(), "sfb"},
                                   {c.data(), c.size() * 2, "c"}})
    ASSERT_TRUE(bool(globals.add(data, bytes, name)));
  auto address = [](const auto &v) { return uint64_t(reinterpret_cast<uintptr_t>(v.data())); };
  GemvParams params{address(a), address(b), address(sfa), address(sfb), address(c), M, K, L};
  rt::LaunchConfig config;
  config.grid = {uint32_t(M / 128), 1, uint32_t(L)};
  config.block = {128, 1, 1};
  rt::Status status = rt::launch(kernel, config, &params, globals);
  ASSERT_TRUE(bool(status)) << status.error();

  auto fp4 = [](const std::vector<uint8_t> &v, int64_t i) {
    return rt::decode(rt::kE2M1, (v[i / 2] >> (i % 2 * 4)) & 0xF);
  };
  auto ue4m3 = [](uint8_t code) { return rt::decode(rt::kUE4M3, code); };
  for (int64_t l = 0; l < L; ++l)
    for (int64_t m = 0; m < M; ++m) {
      float res = 0.0f;
      for (int64_t k = 0; k < K; ++k) {
        float product = fp4(a, m * K + k + l * M * K) * ue4m3(sfa[indexOf(sfaLayout, m, k, l)]);
        product = product * fp4(b, k + l * 128 * K);
        product = product * ue4m3(sfb[indexOf(sfbLayout, 0, k, l)]);
        res = res + product;
      }
      ASSERT_EQ(c[m + l * M], rt::ptx::cvtF16F32(res)) << "m=" << m << " l=" << l;
    }
}

} // namespace
} // namespace cutec
