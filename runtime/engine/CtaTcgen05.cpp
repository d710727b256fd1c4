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
// one). Under the fixed schedule the commit arrives when it is executed,
// since its operations are complete by then; another schedule may deliver
// it later (runtime/engine/AsyncArrivals.cpp). Because the pipeline completes in
// order, observing one commit also completes every operation issued before
// its operations.
// Shared bytes that a TMA load in flight still writes are an error to read,
// as for ld.shared. Everything happens at fixed points of the fixed thread
// schedule, so results and messages do not depend on the worker count.
#include "runtime/engine/CtaRunner.h"

#include "runtime/engine/Cluster.h"
#include "runtime/base/DiagnosticText.h"
#include "hardware/ThreadHierarchy.h"

#include <algorithm>
#include <utility>

namespace cutec::rt {
namespace {

/// One lane's operands of a warp-collective tcgen05 instruction.
struct TmemLaneOperands {
  uint32_t address = 0; // smem destination (alloc) or TMEM address
  uint32_t count = 0;   // columns (alloc/dealloc) or registers (ld/st)
  uint32_t *regs = nullptr;
  TmemFragmentForm form; // ld/st
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
    if (lane->address != ref->address || lane->count != ref->count || lane->form != ref->form)
      return l;
  }
  return 32;
}

} // namespace

SharedView CtaRunner::sharedView() const {
  SharedView view;
  view.bytes = shared.data();
  view.size = uint32_t(shared.size());
  view.pendingOwner = pendingAsync != 0 && !asyncOwner.empty() ? asyncOwner.data() : nullptr;
  return view;
}

void CtaRunner::failTcgen05(Thread &t, const char *what, MmaProblem &p) {
  std::string text = p.text;
  if (p.pendingCopy) {
    // The load may be the peer's when a cta_group::2 MMA reads its shared
    // memory; serials are unique in the cluster.
    for (uint32_t r = 0; r < cluster.size(); ++r) {
      const CtaRunner &owner = cluster.member(r);
      auto copy = std::find_if(owner.asyncCopies.begin(), owner.asyncCopies.end(),
                               [&](const AsyncCopy &c) { return c.serial == p.pendingCopy; });
      if (copy != owner.asyncCopies.end())
        text += std::string(writerName(copy->writer)) + " " + owner.copyText(*copy) +
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
                     issuerText(p.issuer) + (p.readOnly ? "; reads" : "; writes") + " TMEM " +
                     p.lanes.text() +
                     " columns [" + std::to_string(p.column) + "," +
                     std::to_string(p.column + p.columns) + "); ";
  if (p.committed)
    text += "committed to mbarrier " + sharedNames.label(p.bar) + " in its phase " + std::to_string(p.phase) +
            ", which no thread has waited for yet)";
  else if (const ClusterRunner::Arrival *a = cluster.commitInFlight(*this, p.issuer, p.serial))
    text += "its tcgen05.commit to mbarrier " + a->target->sharedNames.label(a->bar) +
            " has not arrived yet: it arrives once the operation completes)";
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
  checkTmemLdSt(t, TmemLanes::range(0, TensorMemory::kLanes), op.address & 0xFFFF, op.count,
                /*write=*/true, UINT32_MAX, "tcgen05.dealloc frees", what);
  failIf(t, what, tmem.deallocate(op.address, op.count, w.warpid, what));
}

void CtaRunner::tcgen05RelinquishWarp(Thread &, const char *) { tmem.relinquish(); }

void CtaRunner::tcgen05LdStWarp(Thread &t, const WarpCollective &w, bool store,
                                const char *what) {
  const auto *op = static_cast<const TmemLaneOperands *>(
      uniformLaneOperands(t, w, what, store ? "tcgen05.st" : "tcgen05.ld"));
  const TmemFragmentForm &form = op->form;
  // Texts are built only when reported: a failure abandons this fiber's
  // frame, and any string alive on it would never be freed.
  auto instruction = [&] {
    return std::string(store ? "tcgen05.st." : "tcgen05.ld.") + form.name(store);
  };
  uint32_t lane = op->address >> 16, column = op->address & 0xFFFF;
  uint32_t quarter = w.warpid % 4, lanes = form.lanes(), span = form.columnSpan();
  if (!form.check().empty())
    fail(t, what, [&] { return instruction() + ": " + form.check(); });
  // A warp reaches its lane quarter only; a 16-lane shape either half of it.
  if (lane != 32 * quarter && !(lanes == 16 && lane == 32 * quarter + 16))
    fail(t, what, [&] {
      return "lane-quarter violation: warp " + std::to_string(w.warpid) + " (warp " +
             std::to_string(w.warpid) + " mod 4 = " + std::to_string(quarter) +
             ") may access TMEM lanes [" + std::to_string(32 * quarter) + "," +
             std::to_string(32 * quarter + 32) + ") only, but " + instruction() + " at address " +
             tmemAddressText(op->address) + (store ? " writes" : " reads") + " lanes [" +
             std::to_string(lane) + "," + std::to_string(lane + lanes) + ")" +
             (lanes == 16 ? " (a 16-lane shape starts at the quarter's lane 0 or 16)" : "");
    });
  auto columnProblem = [&] {
    return column + span > TensorMemory::kColumns
               ? "the columns [" + std::to_string(column) + "," + std::to_string(column + span) +
                     ") run past column 512"
               : tmem.checkColumns(column, span, store ? "the store" : "the load");
  };
  if (!columnProblem().empty())
    fail(t, what, [&] {
      return instruction() + " at TMEM address " + tmemAddressText(op->address) + ": " +
             columnProblem();
    });
  // A load races with pending writes; a store with pending reads too (an
  // MMA's A operand).
  if (const TensorMemory::PendingWrite *p =
          tmem.pendingWrite(TmemLanes::range(lane, lanes), column, span, /*orRead=*/store))
    fail(t, what, [&] {
      return "warp " + std::to_string(w.warpid) + (store ? " writes" : " reads") +
             " TMEM lanes [" + std::to_string(lane) + "," + std::to_string(lane + lanes) +
             ") columns [" + std::to_string(column) + "," + std::to_string(column + span) +
             ") at address " + tmemAddressText(op->address) + ", which the asynchronous " +
             tcgen05WriteText(*p) +
             (p->readOnly ? " may still be reading" : " may still be writing") +
             ": commit it (tcgen05.commit), wait on that mbarrier phase "
             "and fence (tcgen05.fence::after_thread_sync) before " +
             (store ? "tcgen05.st" : "tcgen05.ld");
    });
  // Another warp's load or store of the region may not have completed.
  checkTmemLdSt(t, TmemLanes::range(lane, lanes), column, span, store, w.warpid,
                store ? "the store writes" : "the load reads", what);
  noteTmemLdSt(t, store, TmemLanes::range(lane, lanes), column, span, what);
  for (uint32_t l = 0; l < 32; ++l) {
    auto *me = static_cast<TmemLaneOperands *>(w.laneData[l]);
    if (!me)
      continue;
    for (uint32_t r = 0; r < form.registers(); ++r) {
      TmemCellOffset c = tmemFragmentCell(form, l, r);
      uint32_t &first = tmem.cell(lane + c.lane, column + c.column);
      if (!form.pack16) {
        if (store)
          first = me->regs[r];
        else
          me->regs[r] = first;
        continue;
      }
      // Two 16-bit halves, each in the low half of its cell (a store
      // clears the high halves).
      uint32_t &second = tmem.cell(lane + c.lane, column + c.column + 1);
      if (store) {
        first = me->regs[r] & 0xFFFF;
        second = me->regs[r] >> 16;
      } else {
        me->regs[r] = (first & 0xFFFF) | second << 16;
      }
    }
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
    MmaProblem problem = execute(view, written);
    if (problem) {
      std::vector<uint32_t>().swap(units); // frees it: the frame is abandoned
      failTcgen05(t, what, problem);
    }
  }
  checkOperandsFenced(t, units, what);
  checkTmemLdSt(t, written.lanes, written.column, written.columns, /*write=*/true, UINT32_MAX,
                "it writes", what, {&units});
  uint32_t issuer = clusterThreadId(t);
  uint64_t serial =
      tmem.addPendingWrite(written.lanes, written.column, written.columns, what, issuer);
  noteTcgen05Reads(serial, std::move(units), what, issuer);
  ++t.effects;
}

void CtaRunner::tcgen05Mma(Thread &t, const MmaOperands &op, const char *what) {
  issueTcgen05(t, what, [&](const SharedView &view, TmemRegion &written) {
    return executeTcgen05Mma(op, launch.config.tcgen05Numerics, view, tmem, written);
  });
  // An A in TMEM (M = 128, 8 columns) must have been stored (wait::st), and
  // must not be overwritten before the MMA is seen complete.
  if (op.aFromTmem)
    checkTmemLdSt(t, TmemLanes::range(0, 128), op.aTmem & 0xFFFF, 8, /*write=*/false, UINT32_MAX,
                  "it reads A in", what);
  if (op.aFromTmem)
    tmem.addPendingWrite(TmemLanes::range(0, 128), op.aTmem & 0xFFFF, 8, what, clusterThreadId(t),
                         /*readOnly=*/true);
}

void CtaRunner::tcgen05Cp(Thread &t, uint32_t taddr, uint64_t desc, Tcgen05CpShape shape,
                          const char *what) {
  issueTcgen05(t, what, [&](const SharedView &view, TmemRegion &written) {
    return executeTcgen05Cp(taddr, desc, shape, view, tmem, written);
  });
}

void CtaRunner::noteTcgen05Reads(uint64_t serial, std::vector<uint32_t> chunks, const char *what,
                                 uint32_t issuer) {
  if (tcgen05Reader.size() != sharedUnits())
    tcgen05Reader.assign(sharedUnits(), 0);
  const uint32_t mark = firstReadMark + uint32_t(tcgen05Reads.size());
  // Marks the units, keeping each once: a unit already marked with this
  // operation's mark is a repeat.
  std::erase_if(chunks, [&](uint32_t offset) {
    return std::exchange(tcgen05Reader[offset / 16], mark) == mark;
  });
  tcgen05Reads.push_back({serial, std::move(chunks), what, issuer});
  updatePendingAsync();
}

void CtaRunner::forgetTcgen05Reads(uint64_t serial) {
  // The completed operations are a prefix: serials grow in issue order.
  size_t done = 0;
  for (; done < tcgen05Reads.size() && (serial == 0 || tcgen05Reads[done].serial <= serial); ++done)
    for (uint32_t offset : tcgen05Reads[done].chunks)
      if (tcgen05Reader[offset / 16] == firstReadMark + done) // no later reader marked it
        tcgen05Reader[offset / 16] = 0;
  if (done == 0)
    return;
  tcgen05Reads.erase(tcgen05Reads.begin(), tcgen05Reads.begin() + std::ptrdiff_t(done));
  // With none left, no unit holds a mark: the numbering starts afresh.
  firstReadMark = tcgen05Reads.empty() ? 1 : firstReadMark + uint32_t(done);
  updatePendingAsync();
}

const CtaRunner::Tcgen05Read *CtaRunner::tcgen05ReaderOf(uint32_t offset) const {
  if (offset / 16 >= tcgen05Reader.size() || tcgen05Reader[offset / 16] == 0)
    return nullptr;
  return &tcgen05Reads[tcgen05Reader[offset / 16] - firstReadMark];
}

std::string CtaRunner::tcgen05ReadText(const Tcgen05Read &r) const {
  return "'" + std::string(r.what ? r.what : "?") + "' (issued by " + issuerText(r.issuer) + ")";
}

void CtaRunner::tcgen05Commit(Thread &t, uint32_t bar, const char *what) {
  t.sharedPointer(bar, 8, /*store=*/true, what);
  ClusterRunner::Arrival arrival{this, bar, &t, what, {{this, tmem.lastSerial()}, {}}};
  cluster.sendArrival(t, arrival);
  // The issuer's clock is released at issue; the arrival may land later.
  raceMbarrierArrive(t, *this, bar);
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
  TmemLaneOperands lane{smemDst, columns, nullptr, {}};
  warpSync(hw::kFullWarpMask, &lane, what,
           [this, what](const WarpCollective &w) { cta->tcgen05AllocWarp(*this, w, what); });
}

void Thread::tcgen05Dealloc(uint32_t taddr, uint32_t columns, const char *what) {
  TmemLaneOperands lane{taddr, columns, nullptr, {}};
  warpSync(hw::kFullWarpMask, &lane, what,
           [this, what](const WarpCollective &w) { cta->tcgen05DeallocWarp(*this, w, what); });
}

void Thread::tcgen05RelinquishAllocPermit(const char *what) {
  TmemLaneOperands lane;
  warpSync(hw::kFullWarpMask, &lane, what,
           [this, what](const WarpCollective &) { cta->tcgen05RelinquishWarp(*this, what); });
}

void Thread::tcgen05Ld32x32b(uint32_t taddr, uint32_t *regs, uint32_t n, const char *what) {
  tcgen05Ld(taddr, regs, {TmemLdStShape::S32x32b, n, false, 0}, what);
}

void Thread::tcgen05Ld(uint32_t taddr, uint32_t *regs, const TmemFragmentForm &form,
                       const char *what) {
  TmemLaneOperands lane{taddr, form.registers(), regs, form};
  warpSync(hw::kFullWarpMask, &lane, what, [this, what](const WarpCollective &w) {
    cta->tcgen05LdStWarp(*this, w, /*store=*/false, what);
  });
  cta->schedulingPoint(*this);
}

void Thread::tcgen05St(uint32_t taddr, const uint32_t *regs, const TmemFragmentForm &form,
                       const char *what) {
  // The collective only reads a store's registers.
  TmemLaneOperands lane{taddr, form.registers(), const_cast<uint32_t *>(regs), form};
  warpSync(hw::kFullWarpMask, &lane, what, [this, what](const WarpCollective &w) {
    cta->tcgen05LdStWarp(*this, w, /*store=*/true, what);
  });
  cta->schedulingPoint(*this);
}

void Thread::tcgen05WaitSt(const char *) { cta->tcgen05WaitLdSt(*this, /*store=*/true); }

void Thread::tcgen05WaitLd(const char *) { cta->tcgen05WaitLdSt(*this, /*store=*/false); }

void Thread::tcgen05Mma(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                        bool enableInputD, Tcgen05Kind kind, const char *what) {
  cta->tcgen05Mma(*this, mmaOperands(dTmem, aDesc, bDesc, idesc, enableInputD, kind), what);
  cta->schedulingPoint(*this);
}

void Thread::tcgen05MmaTmemA(uint32_t dTmem, uint32_t aTmem, uint64_t bDesc, uint32_t idesc,
                             bool enableInputD, Tcgen05Kind kind, const char *what) {
  MmaOperands op = mmaOperands(dTmem, 0, bDesc, idesc, enableInputD, kind);
  op.aFromTmem = true;
  op.aTmem = aTmem;
  cta->tcgen05Mma(*this, op, what);
  cta->schedulingPoint(*this);
}

void Thread::tcgen05MmaBlockScaled(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                                   uint32_t sfaTmem, uint32_t sfbTmem, bool enableInputD,
                                   Tcgen05Kind kind, Tcgen05ScaleVec vec, const char *what) {
  cta->tcgen05Mma(*this,
                  blockScaledMmaOperands(dTmem, aDesc, bDesc, idesc, sfaTmem, sfbTmem,
                                         enableInputD, kind, vec),
                  what);
  cta->schedulingPoint(*this);
}

void Thread::tcgen05Cp(uint32_t taddr, uint64_t smemDesc, Tcgen05CpShape shape, const char *what) {
  cta->tcgen05Cp(*this, taddr, smemDesc, shape, what);
  cta->schedulingPoint(*this);
}

void Thread::tcgen05Commit(uint32_t mbar, const char *what) {
  cta->tcgen05Commit(*this, mbar, what);
  cta->schedulingPoint(*this);
}

void Thread::tcgen05FenceBeforeThreadSync(const char *) {}

void Thread::tcgen05FenceAfterThreadSync(const char *) {}

} // namespace cutec::rt
