// The CTA's tcgen05 side: TMEM allocation and loads (warp-collectives),
// tcgen05.mma and tcgen05.cp (executed when issued, in issue order), and the
// completion rule that makes their results visible.
//
// Completion (deterministic): an mma or cp reads shared memory and TMEM and
// writes TMEM at the point where it is issued. The TMEM region it writes is
// then *pending*: a tcgen05.ld that touches it, or a dealloc of its columns,
// is an error, until some thread of the CTA has seen a tcgen05.commit of the
// issuing thread complete, i.e. until an mbarrier.try_wait succeeds on the
// mbarrier that commit arrived on, for the phase it arrived in (or a later
// one). The commit arrives when it is executed, since its operations are
// complete by then. Because the pipeline completes in order, observing one
// commit also completes every operation issued before its operations.
// Shared bytes that a TMA load in flight still writes are an error to read,
// as for ld.shared. Everything happens at fixed points of the fixed thread
// schedule, so results and messages do not depend on the worker count.
#include "runtime/CtaRunner.h"

#include "runtime/Cluster.h"
#include "runtime/DiagnosticText.h"

#include <algorithm>

namespace cutec::rt {
namespace {

constexpr uint32_t kFullWarp = ~0u;

/// One lane's operands of a warp-collective tcgen05 instruction.
struct TmemLaneOperands {
  uint32_t address = 0; // smem destination (alloc) or TMEM address
  uint32_t count = 0;   // columns (alloc/dealloc) or registers (ld)
  uint32_t *regs = nullptr;
};

std::string tmemAddressText(uint32_t address) {
  return hex(address) + " (lane " + std::to_string(address >> 16) + ", column " +
         std::to_string(address & 0xFFFF) + ")";
}

/// Index of the first member lane whose operands differ from lane `first`'s,
/// or 32.
uint32_t divergentLane(const WarpCollective &w, uint32_t &first) {
  first = 32;
  for (uint32_t l = 0; l < 32; ++l) {
    auto *lane = static_cast<TmemLaneOperands *>(w.laneData[l]);
    if (!lane)
      continue;
    if (first == 32) {
      first = l;
      continue;
    }
    auto *ref = static_cast<TmemLaneOperands *>(w.laneData[first]);
    if (lane->address != ref->address || lane->count != ref->count)
      return l;
  }
  return 32;
}

} // namespace

SharedView CtaRunner::sharedView() const {
  SharedView view;
  view.bytes = shared.data();
  view.size = uint32_t(shared.size());
  view.pendingOwner = pendingAsync != 0 ? asyncOwner.data() : nullptr;
  return view;
}

void CtaRunner::failTcgen05(Thread &t, const char *what, Tcgen05Problem &p) {
  std::string text = p.text;
  if (p.pendingCopy) {
    // The load may be the peer's when a cta_group::2 MMA reads its shared
    // memory; serials are unique in the cluster.
    for (uint32_t r = 0; r < cluster.size(); ++r) {
      const CtaRunner &owner = cluster.member(r);
      auto copy = std::find_if(owner.asyncCopies.begin(), owner.asyncCopies.end(),
                               [&](const AsyncCopy &c) { return c.serial == p.pendingCopy; });
      if (copy != owner.asyncCopies.end())
        text += owner.copyText(*copy) +
                "; wait on that mbarrier phase (mbarrier.try_wait.parity) before issuing";
    }
  }
  // The caller's frame is abandoned, not unwound: free its problem's text.
  std::string().swap(p.text);
  failIf(t, what, std::move(text));
  abandonRunning();
}

std::string CtaRunner::tcgen05WriteText(const TensorMemory::PendingWrite &p) const {
  std::string text = "'" + std::string(p.what ? p.what : "?") + "' (issued by " +
                     issuerText(p.issuer) + "; writes TMEM " + p.lanes.text() +
                     " columns [" + std::to_string(p.column) + "," +
                     std::to_string(p.column + p.columns) + "); ";
  if (p.committed)
    text += "committed to mbarrier " + hex(p.bar) + " in its phase " + std::to_string(p.phase) +
            ", which no thread has waited for yet)";
  else
    text += "no tcgen05.commit of that thread has followed it)";
  return text;
}

const void *CtaRunner::uniformLaneOperands(Thread &t, const WarpCollective &w, const char *what,
                                           const char *instruction) {
  uint32_t first;
  if (uint32_t l = divergentLane(w, first); l < 32)
    fail(t, what, [&] {
      return "lanes " + std::to_string(first) + " and " + std::to_string(l) + " of warp " +
             std::to_string(w.warpid) + " pass different operands to a .sync.aligned " +
             instruction;
    });
  return w.laneData[first];
}

void CtaRunner::failIf(Thread &t, const char *what, std::string problem) {
  if (problem.empty())
    return;
  recordFailure(t, what, problem);
  // The thread's stack is abandoned, not unwound: free the text first.
  std::string().swap(problem);
  abandonRunning();
}

void CtaRunner::tcgen05AllocWarp(Thread &t, const WarpCollective &w, const char *what) {
  const auto &op = *static_cast<const TmemLaneOperands *>(
      uniformLaneOperands(t, w, what, "tcgen05.alloc"));
  uint32_t column = 0;
  failIf(t, what, tmem.allocate(op.count, w.warpid, what, column));
  t.storeShared<uint32_t>(op.address, column, what);
}

void CtaRunner::tcgen05DeallocWarp(Thread &t, const WarpCollective &w, const char *what) {
  const auto &op = *static_cast<const TmemLaneOperands *>(
      uniformLaneOperands(t, w, what, "tcgen05.dealloc"));
  failIf(t, what, tmem.deallocate(op.address, op.count, w.warpid, what));
}

void CtaRunner::tcgen05RelinquishWarp(Thread &, const char *) { tmem.relinquish(); }

void CtaRunner::tcgen05LdWarp(Thread &t, const WarpCollective &w, const char *what) {
  const auto *op =
      static_cast<const TmemLaneOperands *>(uniformLaneOperands(t, w, what, "tcgen05.ld"));
  uint32_t lane = op->address >> 16, column = op->address & 0xFFFF, n = op->count;
  uint32_t quarter = w.warpid % 4;
  if (n == 0 || n > 128 || (n & (n - 1)))
    fail(t, what, [&] {
      return "tcgen05.ld.32x32b.x" + std::to_string(n) +
             ": .num must be a power of two from 1 to 128";
    });
  if (lane != 32 * quarter)
    fail(t, what, [&] {
      return "lane-quarter violation: warp " + std::to_string(w.warpid) + " (warp " +
             std::to_string(w.warpid) + " mod 4 = " + std::to_string(quarter) +
             ") may access TMEM lanes [" + std::to_string(32 * quarter) + "," +
             std::to_string(32 * quarter + 32) + ") only, but tcgen05.ld.32x32b at address " +
             tmemAddressText(op->address) + " reads lanes [" + std::to_string(lane) + "," +
             std::to_string(lane + 32) + ")";
    });
  {
    std::string problem = column + n > TensorMemory::kColumns
                              ? "the load's columns [" + std::to_string(column) + "," +
                                    std::to_string(column + n) + ") run past column 512"
                              : tmem.checkColumns(column, n, "the load");
    failIf(t, what,
           problem.empty() ? problem
                           : "tcgen05.ld at TMEM address " + tmemAddressText(op->address) + ": " +
                                 problem);
  }
  if (const TensorMemory::PendingWrite *p =
          tmem.pendingWrite(TmemLanes::range(lane, 32), column, n))
    fail(t, what, [&] {
      return "warp " + std::to_string(w.warpid) + " reads TMEM lanes [" + std::to_string(lane) +
             "," + std::to_string(lane + 32) + ") columns [" + std::to_string(column) + "," +
             std::to_string(column + n) + ") at address " + tmemAddressText(op->address) +
             ", which the asynchronous " + tcgen05WriteText(*p) +
             " may still be writing: commit it (tcgen05.commit), wait on that mbarrier phase "
             "and fence (tcgen05.fence::after_thread_sync) before tcgen05.ld";
    });
  for (uint32_t l = 0; l < 32; ++l) {
    auto *me = static_cast<TmemLaneOperands *>(w.laneData[l]);
    if (!me)
      continue;
    for (uint32_t i = 0; i < n; ++i)
      me->regs[i] = tmem.cell(lane + l, column + i);
  }
}

/// Issues an asynchronous tcgen05 operation: `execute(view, written)` does
/// its work on shared and tensor memory; the region it wrote stays pending
/// until a commit of it is waited for, and the shared bytes it read are noted.
template <typename Execute>
void CtaRunner::issueTcgen05(Thread &t, const char *what, Execute &&execute) {
  TmemRegion written;
  std::vector<uint32_t> units;
  {
    SharedView view = sharedView();
    view.unitsRead = &units;
    Tcgen05Problem problem = execute(view, written);
    if (problem) {
      std::vector<uint32_t>().swap(units); // frees it: the frame is abandoned
      failTcgen05(t, what, problem);
    }
  }
  uint32_t issuer = clusterThreadId(t);
  uint64_t serial =
      tmem.addPendingWrite(written.lanes, written.column, written.columns, what, issuer);
  noteTcgen05Reads(serial, std::move(units), what, issuer);
  ++t.effects;
}

void CtaRunner::tcgen05Mma(Thread &t, const MmaOperands &op, const char *what) {
  issueTcgen05(t, what, [&](const SharedView &view, TmemRegion &written) {
    return executeTcgen05Mma(op, view, tmem, written);
  });
}

void CtaRunner::tcgen05Cp(Thread &t, uint32_t taddr, uint64_t desc, Tcgen05CpShape shape,
                          const char *what) {
  issueTcgen05(t, what, [&](const SharedView &view, TmemRegion &written) {
    return executeTcgen05Cp(taddr, desc, shape, view, tmem, written);
  });
}

void CtaRunner::noteTcgen05Reads(uint64_t serial, std::vector<uint32_t> chunks, const char *what,
                                 uint32_t issuer) {
  std::sort(chunks.begin(), chunks.end());
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  if (tcgen05Reader.size() != shared.size())
    tcgen05Reader.assign(shared.size(), 0);
  tcgen05Reads.push_back({serial, std::move(chunks), what, issuer});
  auto mark = uint32_t(tcgen05Reads.size());
  for (uint32_t offset : tcgen05Reads.back().chunks)
    std::fill_n(tcgen05Reader.begin() + offset, 16, mark);
  updatePendingAsync();
}

void CtaRunner::forgetTcgen05Reads(uint64_t serial) {
  if (tcgen05Reads.empty())
    return;
  auto done = [&](const Tcgen05Read &r) { return serial == 0 || r.serial <= serial; };
  for (const Tcgen05Read &r : tcgen05Reads)
    if (done(r))
      for (uint32_t offset : r.chunks)
        std::fill_n(tcgen05Reader.begin() + offset, 16, 0u);
  std::erase_if(tcgen05Reads, done);
  // Re-mark what is left: indices moved, and a forgotten read may have
  // cleared bytes that a later one also reads.
  for (uint32_t i = 0; i < tcgen05Reads.size(); ++i)
    for (uint32_t offset : tcgen05Reads[i].chunks)
      std::fill_n(tcgen05Reader.begin() + offset, 16, i + 1);
  updatePendingAsync();
}

const CtaRunner::Tcgen05Read *CtaRunner::tcgen05ReaderOf(uint32_t offset) const {
  if (offset >= tcgen05Reader.size() || tcgen05Reader[offset] == 0)
    return nullptr;
  return &tcgen05Reads[tcgen05Reader[offset] - 1];
}

std::string CtaRunner::tcgen05ReadText(const Tcgen05Read &r) const {
  return "'" + std::string(r.what ? r.what : "?") + "' (issued by " + issuerText(r.issuer) + ")";
}

void CtaRunner::tcgen05Commit(Thread &t, uint32_t bar, const char *what) {
  t.sharedPointer(bar, 8, /*store=*/true, what);
  uint64_t phase = 0;
  {
    std::string problem = mbarriers.arrive(bar, 0, phase);
    if (!problem.empty()) {
      recordFailure(t, what, "tcgen05.commit: " + problem);
      problem = {};
      abandonRunning();
    }
  }
  tmem.commit(clusterThreadId(t), cluster.clusterAddress(*this, bar), phase);
  ++t.effects;
}

bool CtaRunner::reportTmemLeaks() {
  if (tmem.liveAllocations().empty())
    return false;
  std::string text = ctaName() + ": the CTA ended with TMEM columns allocated (every "
                                 "tcgen05.alloc needs a tcgen05.dealloc before the CTA exits):";
  for (const TensorMemory::Allocation &a : tmem.liveAllocations())
    text += "\n  columns " + TensorMemory::allocationText(a);
  launch.reportError(cta, std::move(text));
  failed = true;
  return true;
}

// Thread's entry points.

void Thread::tcgen05Alloc(uint32_t smemDst, uint32_t columns, const char *what) {
  TmemLaneOperands lane{smemDst, columns, nullptr};
  warpSync(kFullWarp, &lane, what,
           [this, what](const WarpCollective &w) { cta->tcgen05AllocWarp(*this, w, what); });
}

void Thread::tcgen05Dealloc(uint32_t taddr, uint32_t columns, const char *what) {
  TmemLaneOperands lane{taddr, columns, nullptr};
  warpSync(kFullWarp, &lane, what,
           [this, what](const WarpCollective &w) { cta->tcgen05DeallocWarp(*this, w, what); });
}

void Thread::tcgen05RelinquishAllocPermit(const char *what) {
  TmemLaneOperands lane;
  warpSync(kFullWarp, &lane, what,
           [this, what](const WarpCollective &) { cta->tcgen05RelinquishWarp(*this, what); });
}

void Thread::tcgen05Ld32x32b(uint32_t taddr, uint32_t *regs, uint32_t n, const char *what) {
  TmemLaneOperands lane{taddr, n, regs};
  warpSync(kFullWarp, &lane, what,
           [this, what](const WarpCollective &w) { cta->tcgen05LdWarp(*this, w, what); });
}

void Thread::tcgen05WaitLd(const char *) {}

void Thread::tcgen05Mma(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                        bool enableInputD, Tcgen05Kind kind, const char *what) {
  cta->tcgen05Mma(*this, mmaOperands(dTmem, aDesc, bDesc, idesc, enableInputD, kind), what);
}

void Thread::tcgen05MmaBlockScaled(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                                   uint32_t sfaTmem, uint32_t sfbTmem, bool enableInputD,
                                   Tcgen05Kind kind, Tcgen05ScaleVec vec, const char *what) {
  cta->tcgen05Mma(*this,
                  blockScaledMmaOperands(dTmem, aDesc, bDesc, idesc, sfaTmem, sfbTmem,
                                         enableInputD, kind, vec),
                  what);
}

void Thread::tcgen05Cp(uint32_t taddr, uint64_t smemDesc, Tcgen05CpShape shape, const char *what) {
  cta->tcgen05Cp(*this, taddr, smemDesc, shape, what);
}

void Thread::tcgen05Commit(uint32_t mbar, const char *what) {
  cta->tcgen05Commit(*this, mbar, what);
}

void Thread::tcgen05FenceBeforeThreadSync(const char *) {}

void Thread::tcgen05FenceAfterThreadSync(const char *) {}

} // namespace cutec::rt
