// stmatrix and ldmatrix (runtime/engine/WarpMatrix.h) against a reference written
// from the PTX ISA's fragment figure the other way round: for each lane and
// each of its registers, which matrix element it holds and which lane's
// address names that element's row. The rows are scattered through shared
// memory in a shuffled order, so that each must be found through its own
// lane; lanes past 8 * num give unusable addresses, which must be ignored.
#include "LaunchTestSupport.h"

#include "runtime/engine/WarpMatrix.h"

#include <numeric>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

constexpr uint32_t kSharedBytes = 64 * 16;

struct Params {
  uint64_t shared; // kSharedBytes: the shared memory before and after
  uint64_t lanes;  // 32 x 4 words: stmatrix's source, ldmatrix's result
  uint32_t num;
  uint32_t trans;
  uint32_t store;
};

/// Where lane `lane`'s row lives: slot row[lane] of 16 bytes (a
/// permutation of 64 slots); lanes past 8 * num point one byte in.
uint32_t rowSlot(uint32_t lane) { return (lane * 37 + 11) % 64; }

uint32_t rowAddress(const Thread &t, uint32_t lane, uint32_t num) {
  uint32_t address = t.dynamicSharedBase() + 16 * rowSlot(lane);
  return lane < 8 * num ? address : address + 1;
}

void matrixBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const Params *>(raw);
  uint32_t address = rowAddress(t, t.laneid, p.num);
  uint64_t mine = p.lanes + 16 * t.laneid;
  for (uint32_t i = 4 * t.laneid; i < kSharedBytes; i += 4 * 32)
    t.storeShared<uint32_t>(t.dynamicSharedBase() + i,
                            t.loadGlobal<uint32_t>(p.shared + i, "ld.global"), "st.shared");
  t.barrierSync(0, 0, "bar.sync");
  if (p.store) {
    auto words = t.loadGlobal<std::array<uint32_t, 4>>(mine, "ld.global.v4");
    warpSyncStmatrix(t, address, words, p.num, p.trans != 0, "stmatrix at m.cute:1");
    t.barrierSync(0, 0, "bar.sync");
    for (uint32_t i = 4 * t.laneid; i < kSharedBytes; i += 4 * 32)
      t.storeGlobal<uint32_t>(p.shared + i,
                              t.loadShared<uint32_t>(t.dynamicSharedBase() + i, "ld.shared"),
                              "st.global");
    return;
  }
  t.storeGlobal(mine, warpSyncLdmatrix(t, address, p.num, p.trans != 0, "ldmatrix at m.cute:1"),
                "st.global.v4");
}
const KernelDescriptor matrixKernel{"matrix", matrixBody, sizeof(Params), true, 0, kSharedBytes};

/// The byte in shared memory (offset from its start) of register `reg`,
/// half `k`, of lane `lane`: element (lane / 4, 2 (lane % 4) + k) of matrix
/// `reg`, in the row that lane 8 reg + (its row) addresses, or with `trans`
/// in the row of its column, at its row's position.
uint32_t elementByte(uint32_t lane, uint32_t reg, uint32_t k, bool trans) {
  uint32_t row = lane / 4, column = 2 * (lane % 4) + k;
  uint32_t memoryRow = trans ? column : row, position = trans ? row : column;
  return 16 * rowSlot(8 * reg + memoryRow) + 2 * position;
}

/// One warp: stmatrix of `lanes` into the shared memory filled from
/// `shared` and back into `shared`, or ldmatrix of `shared` into `lanes`.
void runMatrixKernel(std::vector<uint8_t> &shared, std::vector<uint32_t> &lanes, uint32_t num,
                     bool trans, bool store) {
  MemoryMap map;
  addBuffer(map, shared, "shared");
  addBuffer(map, lanes, "lanes");
  Params params{addressOf(shared), addressOf(lanes), num, trans, store};
  LaunchConfig c = config({1, 1, 1}, {32, 1, 1});
  c.dynamicSharedBytes = kSharedBytes;
  Status status = launch(matrixKernel, c, &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
}

struct Case {
  uint32_t num;
  bool trans;
};

class WarpMatrix : public ::testing::TestWithParam<Case> {};

TEST_P(WarpMatrix, StmatrixPutsEachHalfWhereTheFragmentFigureSays) {
  auto [num, trans] = GetParam();
  std::vector<uint8_t> shared(kSharedBytes, 0xEE);
  std::vector<uint32_t> lanes(32 * 4);
  for (uint32_t i = 0; i < lanes.size(); ++i)
    lanes[i] = 0x9E3779B9u * (i + 1);
  runMatrixKernel(shared, lanes, num, trans, /*store=*/true);
  std::vector<uint8_t> expected(kSharedBytes);
  std::vector<bool> written(kSharedBytes, false);
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t reg = 0; reg < num; ++reg)
      for (uint32_t k = 0; k < 2; ++k) {
        uint32_t at = elementByte(lane, reg, k, trans);
        uint16_t value = uint16_t(lanes[4 * lane + reg] >> (16 * k));
        expected[at] = uint8_t(value);
        expected[at + 1] = uint8_t(value >> 8);
        written[at] = written[at + 1] = true;
      }
  // Bytes that no row covers keep their fill.
  for (uint32_t i = 0; i < kSharedBytes; ++i)
    ASSERT_EQ(shared[i], written[i] ? expected[i] : 0xEE) << "byte " << i;
}

TEST_P(WarpMatrix, LdmatrixGivesEachLaneTheHalvesTheFragmentFigureSays) {
  auto [num, trans] = GetParam();
  std::vector<uint8_t> shared(kSharedBytes);
  for (uint32_t i = 0; i < kSharedBytes; ++i)
    shared[i] = uint8_t(i * 7 + 3);
  std::vector<uint32_t> lanes(32 * 4, 0xDEADBEEF);
  runMatrixKernel(shared, lanes, num, trans, /*store=*/false);
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t reg = 0; reg < num; ++reg) {
      uint32_t lo = elementByte(lane, reg, 0, trans), hi = elementByte(lane, reg, 1, trans);
      uint32_t expected = uint32_t(shared[lo]) | uint32_t(shared[lo + 1]) << 8 |
                          uint32_t(shared[hi]) << 16 | uint32_t(shared[hi + 1]) << 24;
      ASSERT_EQ(lanes[4 * lane + reg], expected) << "lane " << lane << " register " << reg;
    }
}

INSTANTIATE_TEST_SUITE_P(Forms, WarpMatrix,
                         ::testing::Values(Case{1, false}, Case{2, false}, Case{4, false},
                                           Case{1, true}, Case{2, true}, Case{4, true}),
                         [](const auto &info) {
                           return "x" + std::to_string(info.param.num) +
                                  (info.param.trans ? "Trans" : "");
                         });

// A used row address off its 16-byte grid is reported with its lane.
void misalignedBody(Thread &t, const void *) {
  uint32_t address = t.dynamicSharedBase() + (t.laneid == 5 ? 8 : 16 * t.laneid);
  warpSyncStmatrix(t, address, {}, 1, false, "stmatrix at m.cute:2");
}
const KernelDescriptor misalignedKernel{"misaligned", misalignedBody, 0, true, 0, kSharedBytes};

TEST(WarpMatrixErrors, AMisalignedRowAddressIsReportedWithItsLane) {
  LaunchConfig c = config({1, 1, 1}, {32, 1, 1});
  c.dynamicSharedBytes = kSharedBytes;
  MemoryMap map;
  std::string error = launchError(misalignedKernel, c, nullptr, map);
  EXPECT_NE(error.find("stmatrix at m.cute:2: lane 5 gives the row address 0x"), std::string::npos)
      << error;
  EXPECT_NE(error.find("not 16-byte aligned"), std::string::npos) << error;
}

} // namespace
} // namespace cutec::rt
