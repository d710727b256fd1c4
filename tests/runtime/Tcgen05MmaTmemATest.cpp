// tcgen05.mma with A from tensor memory (the [a-tmem] form), executed
// directly on a TensorMemory and a shared-memory image: row m of A is TMEM
// lane m, 32 bits of K per column, the element of the lower k in the lower
// bits. The products and sums are the reference's own (k order, f32 adds),
// and the refusals name what is wrong.
#include "runtime/tensorcore/Tcgen05Mma.h"
#include "runtime/engine/Thread.h"
#include "runtime/tensorcore/UmmaDescriptors.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace cutec::rt {
namespace {

constexpr uint32_t kM = 128, kN = 16, kK = 16; // one kind::f16 instruction
constexpr uint32_t kAColumn = 128, kDColumn = 0;

/// kind::f16, f16 A and B K-major, f32 D, M=128, N=16 (PTX "Instruction
/// descriptor": D format bits 4-5, N>>3 at 17, M>>4 at 24).
uint32_t idesc(bool transposeA = false) {
  return 1u << 4 | (kN >> 3) << 17 | (kM >> 4) << 24 | uint32_t(transposeA) << 15;
}

/// f16 codes of small integers over 8: exact, and their products too.
uint16_t f16Code(int eighths) {
  if (eighths == 0)
    return 0;
  float v = float(eighths) / 8;
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  uint32_t exponent = ((bits >> 23) & 0xFF) - 127 + 15;
  return uint16_t((bits >> 16 & 0x8000) | exponent << 10 | (bits >> 13 & 0x3FF));
}

struct Fixture {
  TensorMemory tmem;
  std::vector<std::byte> shared = std::vector<std::byte>(4096);
  std::vector<int> a = std::vector<int>(kM * kK), b = std::vector<int>(kN * kK);
  uint64_t bDesc = 0;

  Fixture() {
    uint32_t column = 0;
    EXPECT_EQ(tmem.allocate(256, 0, "alloc", column), "");
    std::mt19937 random(3);
    for (int &v : a)
      v = int(random() % 33) - 16;
    for (int &v : b)
      v = int(random() % 33) - 16;
    // A: lane m, column kAColumn + k/2, halves in k order.
    for (uint32_t m = 0; m < kM; ++m)
      for (uint32_t k = 0; k < kK; k += 2)
        tmem.cell(m, kAColumn + k / 2) =
            uint32_t(f16Code(a[m * kK + k])) | uint32_t(f16Code(a[m * kK + k + 1])) << 16;
    // B: K-major without swizzle, 8-row core matrices of 16 bytes: row n,
    // chunk j at (n % 8) * 16 + (n / 8) * SBO + j * LBO.
    const uint32_t lbo = 128, sbo = 256;
    for (uint32_t n = 0; n < kN; ++n)
      for (uint32_t k = 0; k < kK; ++k) {
        uint16_t code = f16Code(b[n * kK + k]);
        uint32_t at = (n % 8) * 16 + (n / 8) * sbo + (k / 8) * lbo + (k % 8) * 2;
        std::memcpy(&shared[at], &code, 2);
      }
    SmemMatrixDescriptor d;
    d.startAddress = kSharedWindowBase;
    d.leadingByteOffset = lbo;
    d.strideByteOffset = sbo;
    d.version = 1;
    bDesc = encodeSmemDescriptor(d);
  }

  MmaProblem run(uint32_t aTmem, uint32_t instr, Tcgen05Kind kind = Tcgen05Kind::F16) {
    MmaOperands op = mmaOperands(kDColumn, 0, bDesc, instr, false, kind);
    op.aFromTmem = true;
    op.aTmem = aTmem;
    SharedView view;
    view.bytes = shared.data();
    view.size = uint32_t(shared.size());
    TmemRegion written;
    return executeTcgen05Mma(op, Tcgen05Numerics::F32Steps, view, tmem, written);
  }
};

TEST(Tcgen05MmaTmemA, ReadsARowsFromLanesAndKFromPackedColumns) {
  Fixture f;
  MmaProblem p = f.run(kAColumn, idesc());
  ASSERT_FALSE(p) << p.text;
  for (uint32_t m = 0; m < kM; ++m)
    for (uint32_t n = 0; n < kN; ++n) {
      float want = 0;
      for (uint32_t k = 0; k < kK; ++k)
        want += float(f.a[m * kK + k] * f.b[n * kK + k]) / 64;
      float got;
      std::memcpy(&got, &f.tmem.cell(m, kDColumn + n), 4);
      ASSERT_EQ(got, want) << "D[" << m << ", " << n << "]";
    }
}

TEST(Tcgen05MmaTmemA, AStartsAtLane0) {
  Fixture f;
  MmaProblem p = f.run(32u << 16 | kAColumn, idesc());
  EXPECT_NE(p.text.find("the A address 0x200080 (lane 32) must start at lane 0"),
            std::string::npos)
      << p.text;
}

TEST(Tcgen05MmaTmemA, AFromTensorMemoryIsKMajor) {
  Fixture f;
  MmaProblem p = f.run(kAColumn, idesc(/*transposeA=*/true));
  EXPECT_NE(p.text.find("A from tensor memory is K-major: the transpose-A bit (15) must be 0"),
            std::string::npos)
      << p.text;
}

TEST(Tcgen05MmaTmemA, AMustLieInAnAllocation) {
  Fixture f;
  MmaProblem p = f.run(252, idesc()); // columns [252, 260) cross the allocation's end
  EXPECT_NE(p.text.find("A occupies TMEM columns [252,260), which do not lie in one live "
                        "allocation"),
            std::string::npos)
      << p.text;
}

TEST(Tcgen05MmaTmemA, OnlyM128AndByteOrWiderElementsAreModelled) {
  Fixture f;
  uint32_t m64 = (idesc() & ~(0x1Fu << 24)) | (64 >> 4) << 24;
  EXPECT_NE(f.run(kAColumn, m64).text.find("A from tensor memory is modelled for M=128 only"),
            std::string::npos);
  // kind::f8f6f4 with e2m3 A and B (format 3): 6-bit codes in byte containers.
  uint32_t e2m3 = idesc() | 3u << 7 | 3u << 10;
  EXPECT_NE(f.run(kAColumn, e2m3, Tcgen05Kind::F8f6f4)
                .text.find("A from tensor memory with e2m3 elements (in padded byte containers) "
                           "is not modelled"),
            std::string::npos);
}

} // namespace
} // namespace cutec::rt
