// tcgen05 with cta_group::2: the pair collectives (alloc, dealloc,
// relinquish_alloc_permit), the pair MMA and copy, and commits that arrive on
// the mbarriers of several CTAs.
//
// The pair MMA (M = 256) computes, for each CTA c of the pair, its 128 rows
// of D from its own rows of A and all N rows of B, half of which lie in each
// CTA's shared memory. The emulator performs it as four cta_group::1 MMAs
// of N/2 columns each (A from CTA c, B's half h from CTA h, D columns
// [h*N/2, (h+1)*N/2) of CTA c's TMEM): every element of D still adds its
// products in increasing k, so the numbers are those of one M = 256 MMA.
#include "runtime/engine/Cluster.h"

#include "runtime/base/DiagnosticText.h"
#include "runtime/tensorcore/UmmaDescriptors.h"
#include "hardware/ThreadHierarchy.h"

#include <algorithm>
#include <cstring>

namespace cutec::rt {
namespace {

/// The instruction descriptor with M and N replaced (bits 24-28: M >> 4,
/// bits 17-22: N >> 3).
uint32_t withShape(uint32_t idesc, uint32_t m, uint32_t n) {
  idesc &= ~((0x1Fu << 24) | (0x3Fu << 17));
  return idesc | (m >> 4) << 24 | (n >> 3) << 17;
}

} // namespace

void CtaRunner::tcgen05PairCollective(Thread &t, const PairOperands &evenOp, uint32_t evenWarp,
                                      CtaRunner &odd, const PairOperands &oddOp, uint32_t oddWarp,
                                      const char *what) {
  const std::string instruction = evenOp.instruction;
  if (instruction == "tcgen05.relinquish_alloc_permit.cta_group::2") {
    tmem.relinquish();
    odd.tmem.relinquish();
    return;
  }
  if (instruction == "tcgen05.dealloc.cta_group::2") {
    if (evenOp.address != oddOp.address)
      fail(t, what, [&] {
        return "the CTAs of the pair deallocate different TMEM addresses (" + hex(evenOp.address) +
               " and " + hex(oddOp.address) + ")";
      });
    failIf(t, what, tmem.deallocate(evenOp.address, evenOp.columns, evenWarp, what));
    failIf(t, what, odd.tmem.deallocate(oddOp.address, oddOp.columns, oddWarp, what));
    return;
  }
  // alloc: the same columns in both CTAs, as long as both allocate in pairs.
  uint32_t column = 0, oddColumn = 0;
  failIf(t, what, tmem.allocate(evenOp.columns, evenWarp, what, column));
  failIf(t, what, odd.tmem.allocate(oddOp.columns, oddWarp, what, oddColumn));
  if (column != oddColumn)
    fail(t, what, [&] {
      return "the pair's TMEM allocations diverge (column " + std::to_string(column) +
             " in the even CTA, " + std::to_string(oddColumn) +
             " in the odd one): mixing cta_group::1 and cta_group::2 allocations is not "
             "modelled";
    });
  uint32_t bytes = column;
  std::memcpy(clusterSharedPointer(t, cluster.clusterAddress(*this, evenOp.address), 4, true, what),
              &bytes, 4);
  std::memcpy(clusterSharedPointer(t, cluster.clusterAddress(odd, oddOp.address), 4, true, what),
              &bytes, 4);
}

void CtaRunner::tcgen05MmaPair(Thread &t, const MmaOperands &op, const char *what) {
  CtaRunner &peer = pairPeer(t, "tcgen05.mma.cta_group::2", what);
  if (rank % 2)
    fail(t, what, [&] {
      return "tcgen05.mma.cta_group::2 issued by CTA rank " + std::to_string(rank) +
             ", the odd CTA of its pair: the emulator models the MMA issued by the even CTA "
             "(rows 0-127 of D there)";
    });
  MmaInstrDescriptor d = decodeInstrDescriptor(op.idesc, op.blockScaled);
  if (d.m != 256)
    fail(t, what, [&] {
      return "tcgen05.mma.cta_group::2 with M=" + std::to_string(d.m) + " (" +
             describeInstrDescriptor(op.idesc, op.blockScaled) +
             "): the emulator models M=256 (M=128 with cta_group::2 is not modelled)";
    });
  if (d.n < 16 || d.n > 256 || d.n % 16)
    fail(t, what, [&] {
      return "tcgen05.mma.cta_group::2 with N=" + std::to_string(d.n) +
             ": M=256 takes N from 16 to 256 in steps of 16";
    });
  const uint32_t half = d.n / 2;
  if (op.blockScaled && half % 32)
    fail(t, what, [&] {
      return "block-scaled tcgen05.mma.cta_group::2 with N=" + std::to_string(d.n) +
             ": only N a multiple of 64 is modelled";
    });
  CtaRunner *pair[2] = {this, &peer};
  std::vector<uint32_t> units[2];
  SharedView views[2];
  for (int c = 0; c < 2; ++c) {
    views[c] = pair[c]->sharedView();
    views[c].unitsRead = &units[c];
  }
  for (int c = 0; c < 2; ++c)
    for (int h = 0; h < 2; ++h) {
      MmaOperands part = op;
      part.idesc = withShape(op.idesc, 128, half);
      part.dTmem = op.dTmem + h * half;
      part.sfbTmem = op.sfbTmem + h * half / 32;
      part.bShared = &views[h];
      TmemRegion written;
      MmaProblem problem = executeTcgen05Mma(part, launch.config.tcgen05Numerics, views[c],
                                             pair[c]->tmem, written);
      if (problem) {
        std::vector<uint32_t>().swap(units[0]); // the frame is abandoned
        std::vector<uint32_t>().swap(units[1]);
        problem.text = "CTA rank " + std::to_string(pair[c]->rank) + "'s half of D, B rows [" +
                       std::to_string(h * half) + "," + std::to_string(h * half + half) +
                       "): " + problem.text;
        failTcgen05(t, what, problem);
      }
    }
  for (int c = 0; c < 2; ++c)
    pair[c]->checkOperandsFenced(t, units[c], what, &units[c ^ 1]);
  for (int c = 0; c < 2; ++c)
    pair[c]->checkTmemLdSt(t, TmemLanes::range(0, 128), op.dTmem & 0xFFFF, d.n, /*write=*/true,
                           UINT32_MAX, "it writes", what, {&units[0], &units[1]});
  uint32_t issuer = clusterThreadId(t);
  for (int c = 0; c < 2; ++c) {
    uint64_t serial = pair[c]->tmem.addPendingWrite(TmemLanes::range(0, 128), op.dTmem & 0xFFFF,
                                                    d.n, what, issuer);
    pair[c]->noteTcgen05Reads(serial, std::move(units[c]), what, issuer);
  }
  ++t.effects;
}

void CtaRunner::forgetPeerReadsCompletedBy(uint32_t bar, uint64_t phasesDone) {
  // A pair's commit arrives on both CTAs' barriers once its operations,
  // which read both CTAs' shared memory, are done. A thread that sees it
  // complete may refill the buffers they read in the peer too (a multicast
  // TMA load does); the peer's TMEM writes stay pending until one of the
  // peer's threads waits.
  if ((rank ^ 1) >= cluster.size())
    return;
  CtaRunner &peer = cluster.member(rank ^ 1);
  if (peer.tcgen05Reads.empty())
    return;
  if (uint64_t last = peer.tmem.completedThrough(cluster.clusterAddress(*this, bar), phasesDone))
    peer.forgetTcgen05Reads(last);
}

void CtaRunner::tcgen05CpPair(Thread &t, uint32_t taddr, uint64_t desc, Tcgen05CpShape shape,
                              const char *what) {
  CtaRunner *pair[2] = {this, &pairPeer(t, "tcgen05.cp.cta_group::2", what)};
  uint32_t issuer = clusterThreadId(t);
  for (CtaRunner *cta : pair) {
    std::vector<uint32_t> units;
    TmemRegion written;
    {
      SharedView view = cta->sharedView();
      view.unitsRead = &units;
      MmaProblem problem = executeTcgen05Cp(taddr, desc, shape, view, cta->tmem, written);
      if (problem) {
        std::vector<uint32_t>().swap(units); // the frame is abandoned
        problem.text = "CTA rank " + std::to_string(cta->rank) + "'s copy: " + problem.text;
        failTcgen05(t, what, problem);
      }
    }
    cta->checkOperandsFenced(t, units, what);
    cta->checkTmemLdSt(t, written.lanes, written.column, written.columns, /*write=*/true,
                       UINT32_MAX, "it writes", what, {&units});
    uint64_t serial =
        cta->tmem.addPendingWrite(written.lanes, written.column, written.columns, what, issuer);
    cta->noteTcgen05Reads(serial, std::move(units), what, issuer);
  }
  ++t.effects;
}

void CtaRunner::tcgen05CommitMulticast(Thread &t, uint32_t bar, uint16_t ctaMask, bool pair,
                                       const char *what) {
  if (ctaMask == 0 || ctaMask >> cluster.size())
    fail(t, what, [&] {
      return "tcgen05.commit multicast mask " + hex(ctaMask) +
             " must name CTAs of the cluster "
             "(ranks 0-" +
             std::to_string(cluster.size() - 1) + ")";
    });
  // The operations a commit tracks: the issuer's, in its CTA's TMEM and, for
  // cta_group::2, in its peer's.
  // Each CTA of the mask gets its own arrival, which the schedule may
  // deliver at its own time.
  CtaRunner *peer = pair ? &pairPeer(t, "tcgen05.commit.cta_group::2", what) : nullptr;
  ClusterRunner::CommitTracks tracks[2] = {{this, tmem.lastSerial()},
                                           {peer, peer ? peer->tmem.lastSerial() : 0}};
  for (uint32_t r = 0; r < cluster.size(); ++r) {
    if (!(ctaMask >> r & 1))
      continue;
    CtaRunner &target = cluster.member(r);
    clusterSharedPointer(t, cluster.clusterAddress(target, bar), 8, /*store=*/true, what);
    cluster.sendArrival(t, {&target, bar, &t, what, {tracks[0], tracks[1]}, /*multicast=*/true});
    // The issuer's clock is released at issue; the arrival may land later.
    raceMbarrierArrive(t, target, bar);
  }
  ++t.effects;
}

// Thread's entry points.

void CtaRunner::pairArriveWarp(Thread &t, const WarpCollective &w, const char *what) {
  const PairOperands *first = nullptr;
  for (uint32_t l = 0; l < 32; ++l) {
    auto *lane = static_cast<const PairOperands *>(w.laneData[l]);
    if (!lane)
      continue;
    if (!first)
      first = lane;
    else if (lane->address != first->address || lane->columns != first->columns)
      fail(t, what, [&] {
        return "lanes of warp " + std::to_string(w.warpid) +
               " pass different operands to a .sync.aligned " + first->instruction;
      });
  }
  cluster.pairArrive(t, w.warpid, *first, what);
}

void Thread::pairWait(const PairOperands &op, const char *what) {
  ClusterRunner &c = cta->clusterRunner();
  cta->pairPeer(*this, op.instruction, what);
  // The pair's generation cannot move before this warp arrives.
  uint64_t seen = c.pairGeneration(cluster_ctarank);
  PairOperands lane = op;
  warpSync(hw::kFullWarpMask, &lane, what,
           [this, what](const WarpCollective &w) { cta->pairArriveWarp(*this, w, what); });
  while (c.pairGeneration(cluster_ctarank) == seen)
    yieldThread(what);
}

void Thread::tcgen05AllocPair(uint32_t smemDst, uint32_t columns, const char *what) {
  pairWait({"tcgen05.alloc.cta_group::2", smemDst, columns}, what);
}

void Thread::tcgen05DeallocPair(uint32_t taddr, uint32_t columns, const char *what) {
  pairWait({"tcgen05.dealloc.cta_group::2", taddr, columns}, what);
}

void Thread::tcgen05RelinquishAllocPermitPair(const char *what) {
  pairWait({"tcgen05.relinquish_alloc_permit.cta_group::2", 0, 0}, what);
}

void Thread::tcgen05MmaPair(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                            bool enableInputD, Tcgen05Kind kind, const char *what) {
  cta->tcgen05MmaPair(*this, mmaOperands(dTmem, aDesc, bDesc, idesc, enableInputD, kind), what);
  cta->schedulingPoint(*this);
}

void Thread::tcgen05MmaBlockScaledPair(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc,
                                       uint32_t idesc, uint32_t sfaTmem, uint32_t sfbTmem,
                                       bool enableInputD, Tcgen05Kind kind, Tcgen05ScaleVec vec,
                                       const char *what) {
  cta->tcgen05MmaPair(
      *this,
      blockScaledMmaOperands(dTmem, aDesc, bDesc, idesc, sfaTmem, sfbTmem, enableInputD, kind, vec),
      what);
  cta->schedulingPoint(*this);
}

void Thread::tcgen05CpPair(uint32_t taddr, uint64_t smemDesc, Tcgen05CpShape shape,
                           const char *what) {
  cta->tcgen05CpPair(*this, taddr, smemDesc, shape, what);
  cta->schedulingPoint(*this);
}

void Thread::tcgen05CommitMulticast(uint32_t bar, uint16_t ctaMask, bool pair, const char *what) {
  cta->tcgen05CommitMulticast(*this, bar, ctaMask, pair, what);
  cta->schedulingPoint(*this);
}

} // namespace cutec::rt
