// tests/emulation/Inputs/tcgen05_forms.cute's emitted C++ on the runtime:
// tcgen05.ld and tcgen05.st in every shape put each register where the PTX
// ISA's fragment figures do, and a GEMM with an f16 accumulator equals a
// reference that rounds D to f16 after every tcgen05.mma (16 of K).
//
// The fragment reference is CUTLASS's thread-value layouts of the
// SM100_TMEM_LOAD_* atoms (cute/atom/copy_traits_sm100.hpp), evaluated
// here with their own shapes and strides: (thread, value) -> bit of the
// (lanes, row bits) image, values counted in bits, 32 to a register.
#include "GemmEmulated.h"
#include "tcgen05_forms_emu.h"

#include "runtime/numerics/FloatFormat.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace cutec {
namespace {

/// A flat CuTe layout: shape and stride per mode, column-major.
struct FlatLayout {
  std::vector<uint32_t> shape, stride;
  uint32_t operator()(uint32_t index) const {
    uint32_t offset = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
      offset += index % shape[i] * stride[i];
      index /= shape[i];
    }
    return offset;
  }
};

/// The DstLayout of an .xN atom: thread and value layouts, and the bits of
/// one TMEM lane of the image.
struct Atom {
  FlatLayout thread, value;
  uint32_t rowBits;
};

enum class Shape { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };

Atom atom(Shape s, uint32_t n) {
  switch (s) {
  case Shape::S32x32b:
    return {{{32}, {32 * n}}, {{32 * n}, {1}}, 32 * n};
  case Shape::S16x64b:
    return {{{2, 2, 8}, {512 * n, 32, 64 * n}}, {{32, n}, {1, 64}}, 64 * n};
  case Shape::S16x128b:
    return {{{4, 8}, {32, 128 * n}}, {{32, 2, n}, {1, 1024 * n, 128}}, 128 * n};
  case Shape::S16x256b:
    return {{{4, 8}, {64, 256 * n}}, {{64, 2, n}, {1, 2048 * n, 256}}, 256 * n};
  case Shape::S16x32bx2:
    return {{{16, 2}, {64 * n, 32 * n}}, {{32 * n}, {1}}, 64 * n};
  }
  return {};
}

/// The (lane, column) from the instruction's address that register `r` of
/// warp lane `l` holds.
std::pair<uint32_t, uint32_t> cellOf(Shape s, uint32_t n, uint32_t l, uint32_t r) {
  Atom a = atom(s, n);
  uint32_t bit = a.thread(l) + a.value(32 * r);
  return {bit / a.rowBits, bit % a.rowBits / 32};
}

/// Runs one of the copy kernels (mIn, mOut; one CTA of 128 threads).
template <typename Params, typename T>
rt::Status runCopyKernel(const rt::KernelDescriptor &kernel, uint32_t sharedBytes,
                         std::vector<T> &in, std::vector<T> &out) {
  rt::MemoryMap memory;
  for (auto *buffer : {&in, &out})
    if (rt::Status added = memory.add(buffer->data(), buffer->size() * sizeof(T),
                                      buffer == &in ? "mIn" : "mOut");
        !added)
      return added;
  Params params{};
  params.mIn = reinterpret_cast<uintptr_t>(in.data());
  params.mOut = reinterpret_cast<uintptr_t>(out.data());
  rt::LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {128, 1, 1};
  config.dynamicSharedBytes = sharedBytes;
  return rt::launch(kernel, config, &params, memory);
}

TEST(Tcgen05FormsLinked, LoadsOfEveryShapeReadTheirFragments) {
  std::vector<uint32_t> in(128 * 64), out(128 * 88, 0xDEADBEEF);
  for (uint32_t lane = 0; lane < 128; ++lane)
    for (uint32_t c = 0; c < 64; ++c)
      in[lane * 64 + c] = lane << 16 | c;
  rt::Status status = runCopyKernel<tmem_load_shapes_Params>(
      cutec_kernel_tmem_load_shapes, tmem_load_shapes_shared_bytes, in, out);
  ASSERT_TRUE(status) << status.error();
  struct Load {
    Shape shape;
    uint32_t num, registers, lane, column, first;
  };
  const Load loads[] = {{Shape::S32x32b, 32, 32, 0, 0, 0},
                        {Shape::S16x64b, 16, 16, 16, 0, 32},
                        {Shape::S16x128b, 8, 16, 0, 0, 48},
                        {Shape::S16x256b, 4, 16, 16, 32, 64},
                        {Shape::S16x32bx2, 8, 8, 0, 8, 80}};
  for (const Load &load : loads)
    for (uint32_t tid = 0; tid < 128; ++tid)
      for (uint32_t r = 0; r < load.registers; ++r) {
        auto [row, column] = cellOf(load.shape, load.num, tid % 32, r);
        uint32_t lane = 32 * (tid / 32) + load.lane + row;
        uint32_t want = lane << 16 | (load.column + column);
        ASSERT_EQ(out[tid * 88 + load.first + r], want)
            << "shape " << int(load.shape) << " thread " << tid << " register " << r;
      }
}

TEST(Tcgen05FormsLinked, StoresOfEveryShapeWriteTheirFragments) {
  std::vector<uint32_t> in(128 * 32), out(128 * 32, 0xDEADBEEF);
  for (uint32_t i = 0; i < in.size(); ++i)
    in[i] = 0x10000 + i;
  rt::Status status = runCopyKernel<tmem_store_shapes_Params>(
      cutec_kernel_tmem_store_shapes, tmem_store_shapes_shared_bytes, in, out);
  ASSERT_TRUE(status) << status.error();
  std::vector<uint32_t> want(128 * 32, 0);
  std::vector<bool> written(128 * 32, false);
  for (uint32_t tid = 0; tid < 128; ++tid)
    for (uint32_t half = 0; half < 2; ++half)
      for (uint32_t r = 0; r < 16; ++r) {
        auto [row, column] = half == 0 ? cellOf(Shape::S16x256b, 4, tid % 32, r)
                                       : cellOf(Shape::S16x128b, 8, tid % 32, r);
        uint32_t lane = 32 * (tid / 32) + 16 * half + row;
        ASSERT_FALSE(written[lane * 32 + column]) << "two registers store one cell";
        written[lane * 32 + column] = true;
        want[lane * 32 + column] = in[tid * 32 + 16 * half + r];
      }
  for (uint32_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(out[i], want[i]) << "TMEM lane " << i / 32 << " column " << i % 32;
}

// f16 elements one per cell: the packed store writes element 2r of its
// register r's cell pair to the first cell's low half, 2r + 1 to the second's;
// the packed load gives the low halves back; the high halves stay out.
TEST(Tcgen05FormsLinked, F16ElementsStoreAndLoadTwoToARegister) {
  std::vector<uint16_t> in(128 * 32), out(128 * 64, 0);
  for (uint32_t i = 0; i < in.size(); ++i)
    in[i] = uint16_t(0x3C00 + i); // distinct finite f16 codes
  rt::Status status = runCopyKernel<tmem_f16_round_trip_Params>(
      cutec_kernel_tmem_f16_round_trip, tmem_f16_round_trip_shared_bytes, in, out);
  ASSERT_TRUE(status) << status.error();
  std::vector<uint16_t> want(128 * 64, 0xFFFF); // unwritten cells: 0xFFFFFFFF
  for (uint32_t tid = 0; tid < 128; ++tid)
    for (uint32_t r = 0; r < 16; ++r) {
      auto [row, column] = cellOf(Shape::S16x128b, 8, tid % 32, r);
      uint32_t lane = 32 * (tid / 32) + row;
      want[lane * 64 + 2 * column] = in[tid * 32 + 2 * r];
      want[lane * 64 + 2 * column + 1] = in[tid * 32 + 2 * r + 1];
    }
  for (uint32_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(out[i], want[i]) << "TMEM lane " << i / 64 << " column " << i % 64;
}

/// The f16 code nearest `v` (round to nearest even).
uint16_t toF16(float v) { return uint16_t(rt::encode(rt::kF16, v)); }

TEST(Tcgen05FormsLinked, GemmWithAnF16AccumulatorRoundsAfterEveryMma) {
  const uint32_t m = 128, n = 256, k = 128;
  std::mt19937 random(7);
  std::vector<uint16_t> a(m * k), b(n * k), c(m * n, 0xFFFF);
  std::vector<float> av(m * k), bv(n * k);
  auto fill = [&](std::vector<uint16_t> &codes, std::vector<float> &values) {
    for (size_t i = 0; i < codes.size(); ++i) {
      values[i] = float(int(random() % 129) - 64) / 16; // exact in f16
      codes[i] = toF16(values[i]);
    }
  };
  fill(a, av);
  fill(b, bv);
  rt::Status status = test::runEmulatedGemm<gemm_f16_acc_Params>(
      cutec_kernel_gemm_f16_acc, {m / 128, n / 128, 1}, {128, 1, 1}, gemm_f16_acc_shared_bytes,
      a.data(), a.size() * 2, b.data(), b.size() * 2, c.data(), c.size() * 2, m, n, k);
  ASSERT_TRUE(status) << status.error();
  size_t mismatches = 0;
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      float acc = 0;
      for (uint32_t kb = 0; kb < k; kb += 16) {
        for (uint32_t kk = kb; kk < kb + 16; ++kk)
          acc += av[i * k + kk] * bv[j * k + kk];
        acc = rt::decode(rt::kF16, toF16(acc)); // D is f16 between instructions
      }
      uint16_t want = toF16(acc), got = c[i * n + j];
      if (got != want && mismatches++ < 5)
        ADD_FAILURE() << "C[" << i << ", " << j << "] = 0x" << std::hex << got << ", expected 0x"
                      << want;
    }
  EXPECT_EQ(mismatches, 0u);
}

// A from tensor memory: packed f16 pairs, read by the MMA as row m of A in
// lane m, k = 2c and 2c + 1 in column c's low and high halves.
TEST(Tcgen05FormsLinked, GemmWithAInTensorMemoryMatchesTheReference) {
  const uint32_t m = 256, n = 128, k = 192;
  std::mt19937 random(11);
  std::vector<uint32_t> a(m * k / 2);
  std::vector<uint16_t> b(n * k);
  std::vector<float> av(m * k), bv(n * k), c(m * n, -1.0f);
  for (uint32_t i = 0; i < m * k; ++i) {
    av[i] = float(int(random() % 129) - 64) / 16;
    a[i / 2] |= uint32_t(toF16(av[i])) << (16 * (i % 2));
  }
  for (uint32_t i = 0; i < n * k; ++i) {
    bv[i] = float(int(random() % 129) - 64) / 16;
    b[i] = toF16(bv[i]);
  }
  rt::MemoryMap memory;
  ASSERT_TRUE(memory.add(a.data(), a.size() * 4, "mA"));
  ASSERT_TRUE(memory.add(b.data(), b.size() * 2, "mB"));
  ASSERT_TRUE(memory.add(c.data(), c.size() * 4, "mC"));
  gemm_a_tmem_Params params{};
  params.mA = reinterpret_cast<uintptr_t>(a.data());
  params.mB = reinterpret_cast<uintptr_t>(b.data());
  params.mC = reinterpret_cast<uintptr_t>(c.data());
  params.M = m;
  params.N = n;
  params.K = k;
  params.KC = k / 2;
  rt::LaunchConfig config;
  config.grid = {m / 128, n / 128, 1};
  config.block = {128, 1, 1};
  config.dynamicSharedBytes = gemm_a_tmem_shared_bytes;
  rt::Status status = rt::launch(cutec_kernel_gemm_a_tmem, config, &params, memory);
  ASSERT_TRUE(status) << status.error();
  size_t mismatches = 0;
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      float want = 0;
      for (uint32_t kk = 0; kk < k; ++kk)
        want += av[i * k + kk] * bv[j * k + kk];
      float got = c[i * n + j];
      if (std::memcmp(&got, &want, 4) != 0 && mismatches++ < 5)
        ADD_FAILURE() << "C[" << i << ", " << j << "] = " << got << ", expected " << want;
    }
  EXPECT_EQ(mismatches, 0u);
}

} // namespace
} // namespace cutec
