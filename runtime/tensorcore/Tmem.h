// A CTA's tensor memory (TMEM) as the PTX ISA "Tensor Memory" section
// describes it: 128 lanes x 512 columns of 32-bit cells, addressed as
// lane << 16 | column, allocated in power-of-two column blocks.
//
// The emulator also remembers, per region, which asynchronous tcgen05
// operation (mma, cp) wrote it and whether a thread has since observed that
// operation's completion (a tcgen05.commit to an mbarrier, then a successful
// wait on the phase it arrived in). A tcgen05.ld of a region whose writer is
// not observed complete is a race on the GPU and an error here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cutec::rt {

/// A set of TMEM lanes (an M=64 accumulator occupies four 16-lane pieces).
struct TmemLanes {
  uint64_t mask[2] = {0, 0};

  static TmemLanes range(uint32_t first, uint32_t count) {
    TmemLanes l;
    for (uint32_t lane = first; lane < first + count && lane < 128; ++lane)
      l.add(lane);
    return l;
  }
  void add(uint32_t lane) { mask[lane / 64] |= uint64_t(1) << (lane % 64); }
  bool has(uint32_t lane) const { return mask[lane / 64] >> (lane % 64) & 1; }
  bool overlaps(const TmemLanes &o) const { return (mask[0] & o.mask[0]) || (mask[1] & o.mask[1]); }
  /// "lanes [0,128)" for one range, else "lanes 0-15,32-47,...".
  std::string text() const;
};

class TensorMemory {
public:
  static constexpr uint32_t kLanes = 128;
  static constexpr uint32_t kColumns = 512;
  /// What a cell holds before anything writes it: NaN as f32, -1 as s32.
  static constexpr uint32_t kUnwritten = 0xFFFFFFFFu;

  struct Allocation {
    uint32_t column = 0, columns = 0;
    uint32_t warp = 0;
    const char *what = nullptr; // the tcgen05.alloc
    uint32_t freedByWarp = 0;
    const char *freedWhat = nullptr; // the tcgen05.dealloc, for freed ones
  };

  /// A region written (or, for an MMA's A operand, read) by an asynchronous
  /// operation whose completion no thread has observed yet.
  struct PendingWrite {
    uint64_t serial = 0; // issue order in the CTA
    TmemLanes lanes;
    uint32_t column = 0, columns = 0;
    const char *what = nullptr;
    bool readOnly = false; // the operation only reads the region
    uint32_t issuer = 0; // thread index
    bool committed = false;
    uint32_t bar = 0;   // the first commit's mbarrier
    uint64_t phase = 0; // the mbarrier phase that commit arrived in
    /// Every commit issued after the write by its thread, (bar, phase): a
    /// commit tracks all the thread's earlier operations, so observing any
    /// of them completes the write.
    std::vector<std::pair<uint32_t, uint64_t>> commits;
  };

  /// A new CTA: nothing allocated or pending. The cells keep their bits
  /// until an allocation refills them with kUnwritten.
  void reset();

  uint32_t &cell(uint32_t lane, uint32_t column) { return cells[lane * kColumns + column]; }

  // Allocation. Each returns "" or the problem.
  /// Finds the lowest free block of `columns` columns aligned to its size.
  std::string allocate(uint32_t columns, uint32_t warp, const char *what, uint32_t &column);
  std::string deallocate(uint32_t taddr, uint32_t columns, uint32_t warp, const char *what);
  std::string relinquish();
  /// "" if columns [column, column + count) lie in one live allocation, else
  /// why not, naming `operand` ("the accumulator D").
  std::string checkColumns(uint32_t column, uint32_t count, const std::string &operand) const;
  const std::vector<Allocation> &liveAllocations() const { return live; }
  /// "[0,256) by warp 0 at 'what'"
  static std::string allocationText(const Allocation &a);

  // Pending writes of asynchronous operations.
  /// Returns the write's serial.
  uint64_t addPendingWrite(const TmemLanes &lanes, uint32_t column, uint32_t columns,
                           const char *what, uint32_t issuer, bool readOnly = false);
  /// Attaches the issuer's pending writes up to serial `through` (those
  /// issued before the commit) to a commit that arrived on mbarrier `bar`
  /// in phase `phase` (the earlier commits stay attached).
  void commit(uint32_t issuer, uint32_t bar, uint64_t phase, uint64_t through);
  /// The serial of the latest write added (0: none yet).
  uint64_t lastSerial() const { return nextSerial - 1; }
  /// A thread saw mbarrier `bar` complete its phases before `phasesDone`:
  /// the writes committed there, and every write issued before them (the
  /// tcgen05 pipeline completes in order), are observed complete. Returns
  /// the serial of the last write that completed (0: none).
  uint64_t observeCompletion(uint32_t bar, uint64_t phasesDone);
  /// The serial observeCompletion would return, leaving the writes pending.
  uint64_t completedThrough(uint32_t bar, uint64_t phasesDone) const;
  /// The first pending write overlapping the region, or null; with
  /// `orRead`, a pending read counts too (for an access that writes).
  const PendingWrite *pendingWrite(const TmemLanes &lanes, uint32_t column, uint32_t columns,
                                   bool orRead = false) const;
  const std::vector<PendingWrite> &pendingWrites() const { return pending; }
  bool used() const { return !cells.empty(); }

private:
  std::vector<uint32_t> cells; // allocated at the first use
  std::vector<Allocation> live, freed;
  std::vector<PendingWrite> pending;
  uint64_t nextSerial = 1;
  bool relinquished = false;
};

} // namespace cutec::rt
