// The data-race detector's vector clocks and race cells (runtime/race/RaceClocks.h,
// runtime/race/RaceCell.h) by themselves: epochs, releases and acquires, warp
// meetings, read sets, atomics and the same-value warp-wide store.
#include "runtime/race/RaceCell.h"

#include <gtest/gtest.h>

namespace cutec::rt {
namespace {

// Two CTAs of 64 threads: dense threads 0-63 and 64-127.
RaceClocks clocks() {
  RaceClocks c;
  c.reset(2, 64);
  return c;
}

TEST(RaceClocks, ThreadsStartUnordered) {
  RaceClocks c = clocks();
  EXPECT_EQ(c.size(), 128u);
  EXPECT_EQ(c.now(5), 1u);
  EXPECT_TRUE(c.before(5, 1, 5));
  EXPECT_FALSE(c.before(5, 1, 6));
  EXPECT_EQ(c.clusterThreadId(70), 1u << 10 | 6);
  EXPECT_TRUE(c.sameWarp(32, 63));
  EXPECT_FALSE(c.sameWarp(31, 32));
  EXPECT_FALSE(c.sameWarp(0, 64));
}

TEST(RaceClocks, AResetForgetsWhatThePreviousClusterLearnt) {
  RaceClocks c = clocks();
  VectorClock bar;
  c.release(1, bar);
  c.acquire(2, bar);
  EXPECT_TRUE(c.before(1, 1, 2));
  c.reset(2, 64);
  EXPECT_FALSE(c.before(1, c.now(1), 2));
  EXPECT_GT(c.now(1), 2u); // above every clock of the previous cluster
}

TEST(RaceClocks, ReleaseThenAcquireOrdersWhatCameBefore) {
  RaceClocks c = clocks();
  uint32_t before = c.now(1);
  VectorClock bar;
  c.release(1, bar);
  uint32_t after = c.now(1);
  EXPECT_GT(after, before); // the release ticks
  c.acquire(2, bar);
  EXPECT_TRUE(c.before(1, before, 2));
  EXPECT_FALSE(c.before(1, after, 2));    // what 1 does after releasing is not covered
  EXPECT_FALSE(c.before(2, c.now(2), 1)); // one way only
}

TEST(RaceClocks, AWarpMeetingOrdersItsLanesBothWays) {
  RaceClocks c = clocks();
  uint32_t lanes[] = {0, 1, 2};
  uint32_t at0 = c.now(0), at2 = c.now(2);
  c.meet(lanes);
  EXPECT_TRUE(c.before(0, at0, 2));
  EXPECT_TRUE(c.before(2, at2, 0));
  EXPECT_FALSE(c.before(3, c.now(3), 0)); // not a member
  for (uint32_t l : lanes)
    c.tick(l);
  EXPECT_FALSE(c.before(0, c.now(0), 2));
  // The next meeting of the same lanes exchanges their new clocks.
  uint32_t again0 = c.now(0);
  c.meet(lanes);
  EXPECT_TRUE(c.before(0, again0, 2));
  // What one lane acquired in between reaches the others at the next one.
  VectorClock fromFive;
  uint32_t at5 = c.now(5);
  c.release(5, fromFive);
  c.acquire(1, fromFive);
  EXPECT_FALSE(c.before(5, at5, 2));
  c.meet(lanes);
  EXPECT_TRUE(c.before(5, at5, 2));
}

TEST(RaceCell, AnUnorderedReadAfterAWriteRaces) {
  RaceClocks c = clocks();
  RaceCell cell;
  EXPECT_FALSE(checkRace(cell, c, 3, RaceAccess::Write, "st", false));
  std::optional<RacePrior> p = checkRace(cell, c, 4, RaceAccess::Read, "ld", false);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->write);
  EXPECT_EQ(p->thread, 3u);
  EXPECT_STREQ(p->what, "st");
  // The writer itself reads without a race.
  EXPECT_FALSE(checkRace(cell, c, 3, RaceAccess::Read, "ld", false));
}

TEST(RaceCell, ABarrierOrdersTheWriteBeforeTheRead) {
  RaceClocks c = clocks();
  RaceCell cell;
  checkRace(cell, c, 3, RaceAccess::Write, "st", false);
  VectorClock bar;
  c.release(3, bar);
  c.release(4, bar);
  c.acquire(3, bar);
  c.acquire(4, bar);
  EXPECT_FALSE(checkRace(cell, c, 4, RaceAccess::Read, "ld", false));
}

TEST(RaceCell, AWriteRacesWithEachUnorderedReadOfAReadSet) {
  RaceClocks c = clocks();
  RaceCell cell;
  VectorClock bar;
  checkRace(cell, c, 0, RaceAccess::Write, "st", false);
  c.release(0, bar);
  for (uint32_t t : {1u, 2u})
    c.acquire(t, bar);
  EXPECT_FALSE(checkRace(cell, c, 1, RaceAccess::Read, "ld1", false));
  EXPECT_FALSE(checkRace(cell, c, 2, RaceAccess::Read, "ld2", false));
  EXPECT_EQ(cell.reader, RaceCell::kReadSet);
  // Thread 0 learns of thread 1's read only: thread 2's read still races.
  VectorClock one;
  c.release(1, one);
  c.acquire(0, one);
  std::optional<RacePrior> p = checkRace(cell, c, 0, RaceAccess::Write, "st", false);
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->write);
  EXPECT_TRUE(p->readSet);
  EXPECT_EQ(p->thread, 2u);
  // Once it learns of both, the write is ordered.
  VectorClock two;
  c.release(2, two);
  c.acquire(0, two);
  EXPECT_FALSE(checkRace(cell, c, 0, RaceAccess::Write, "st", false));
  EXPECT_EQ(cell.reader, 0u);
}

TEST(RaceCell, AtomicsDoNotRaceWithEachOtherButWithPlainAccesses) {
  RaceClocks c = clocks();
  RaceCell cell;
  EXPECT_FALSE(checkRace(cell, c, 1, RaceAccess::Atomic, "atom", false));
  EXPECT_FALSE(checkRace(cell, c, 2, RaceAccess::Atomic, "atom", false));
  std::optional<RacePrior> p = checkRace(cell, c, 3, RaceAccess::Read, "ld", false);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->atomic);
  RaceCell plain;
  checkRace(plain, c, 1, RaceAccess::Write, "st", false);
  EXPECT_TRUE(checkRace(plain, c, 2, RaceAccess::Atomic, "atom", false));
  RaceCell read;
  checkRace(read, c, 1, RaceAccess::Read, "ld", false);
  EXPECT_TRUE(checkRace(read, c, 2, RaceAccess::Atomic, "atom", false));
}

TEST(RaceCell, AWarpWideStoreOfOneValueIsNotARace) {
  RaceClocks c = clocks();
  RaceCell cell;
  const char *st = "st.shared.f32 at k.cute:3:5";
  checkRace(cell, c, 32, RaceAccess::Write, st, false);
  // Another lane of warp 1, the same instruction and the same bytes.
  EXPECT_FALSE(checkRace(cell, c, 33, RaceAccess::Write, st, true));
  // A different value, another instruction or another warp race.
  EXPECT_TRUE(checkRace(cell, c, 34, RaceAccess::Write, st, false));
  RaceCell other;
  checkRace(other, c, 32, RaceAccess::Write, st, false);
  EXPECT_TRUE(checkRace(other, c, 33, RaceAccess::Write, "st.shared.f32 at k.cute:4:5", true));
  RaceCell warps;
  checkRace(warps, c, 32, RaceAccess::Write, st, false);
  EXPECT_TRUE(checkRace(warps, c, 0, RaceAccess::Write, st, true));
}

} // namespace
} // namespace cutec::rt
