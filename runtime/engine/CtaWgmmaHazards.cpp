// What a wgmma.mma_async uses until the wgmma.wait_group that retires it,
// and the accesses the PTX ISA forbids before then (docs/emulator.md,
// "Warpgroup MMA", "Asynchrony"):
//
// - Registers. The compiler numbers the register sets wgmma.mma_async use
//   ("webs": its accumulators, its A registers; codegen/emu/WgmmaRegisterWebs.h).
//   After each wgmma.mma_async the emitted code says which webs it uses, and
//   before any other instruction that touches a web's registers it asks
//   whether the latest wgmma.mma_async using them is retired. Kernels without
//   wgmma have no webs and no checks.
// - Shared memory. The 16-byte units a wgmma.mma_async reads through its
//   descriptors count as read until it retires: a store to them, or a TMA
//   load over them, in between is reported. The emulator computes the result
//   when the warpgroup issues the instruction; the GPU may read the operands
//   at any time before the retirement, so any write in between is a race,
//   whenever the emulator's schedule happens to put it.
//
// wgmma.mma_async of a warpgroup are numbered in issue order; wait_group
// retires the oldest groups, so the retired ones are always a prefix.
#include "runtime/engine/CtaRunner.h"

#include "runtime/base/DiagnosticText.h"
#include "hardware/ThreadHierarchy.h"

#include <algorithm>

namespace cutec::rt {
void CtaRunner::wgmmaRegistersInUse(Thread &t, uint32_t web, const char *what) {
  Warpgroup &g = warpgroups[t.warpid / hw::kWarpsPerWarpgroup];
  if (g.webs.size() <= web)
    g.webs.resize(web + 1);
  g.webs[web] = {g.issued, what};
}

void CtaRunner::wgmmaRegisterAccess(Thread &t, uint32_t web, bool write, const char *what) {
  const uint32_t index = t.warpid / hw::kWarpsPerWarpgroup;
  if (index >= warpgroups.size() || web >= warpgroups[index].webs.size())
    return;
  const Warpgroup &g = warpgroups[index];
  auto [serial, user] = g.webs[web];
  if (serial <= g.retired)
    return;
  fail(t, what, [&] {
    return std::string(write ? "writes" : "reads") + " registers that " +
           wgmmaText(index, serial, user) +
           " still uses: until a wgmma.wait_group retires it, the PTX ISA leaves any other "
           "access to its accumulator (and A) registers undefined";
  });
}

std::string CtaRunner::wgmmaText(uint32_t index, uint64_t serial, const char *what) const {
  const Warpgroup &g = warpgroups[index];
  std::string text =
      quoted(what) + " (issued by warpgroup " + std::to_string(index) + rankText() + "; ";
  if (serial > g.issued - g.uncommitted)
    return text + "no wgmma.commit_group has followed it)";
  // Its group, counted from the most recent.
  uint64_t after = g.issued - g.uncommitted;
  size_t later = 0;
  for (auto it = g.committed.rbegin(); it != g.committed.rend(); ++it, ++later) {
    if (serial > after - it->count)
      break;
    after -= it->count;
  }
  return text + "its wgmma-group is pending, with " + std::to_string(later) +
         " wgmma-group(s) committed after it: wgmma.wait_group " + std::to_string(later) +
         " (or a lower N) retires it)";
}

void CtaRunner::noteWgmmaReads(Warpgroup &g, std::vector<uint32_t> units, const char *what) {
  if (wgmmaReaders.size() != sharedUnits())
    wgmmaReaders.assign(sharedUnits(), 0);
  for (uint32_t &unit : units)
    unit /= 16; // from the shared offset
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  for (uint32_t unit : units)
    ++wgmmaReaders[unit];
  g.reads.push_back({g.issued, std::move(units), what});
  noteWgmmaLastReaders(uint32_t(&g - warpgroups.data()), g.reads.back());
  ++pendingWgmmaReads;
  updatePendingAsync();
}

void CtaRunner::retireWgmmaReads(Warpgroup &g) {
  size_t done = 0;
  for (; done < g.reads.size() && g.reads[done].serial <= g.retired; ++done)
    for (uint32_t unit : g.reads[done].units)
      --wgmmaReaders[unit];
  if (done == 0)
    return;
  g.reads.erase(g.reads.begin(), g.reads.begin() + std::ptrdiff_t(done));
  pendingWgmmaReads -= uint32_t(done);
  updatePendingAsync();
}

void CtaRunner::dropWgmmaReads() {
  std::fill(wgmmaReaders.begin(), wgmmaReaders.end(), 0);
  pendingWgmmaReads = 0;
  resetWgmmaOrder();
  updatePendingAsync();
}

const CtaRunner::WgmmaRead *CtaRunner::wgmmaReaderOf(uint32_t offset, uint32_t width,
                                                     uint32_t &warpgroup) const {
  for (uint32_t unit = offset / 16; unit <= (offset + width - 1) / 16; ++unit) {
    if (wgmmaReaders[unit] == 0)
      continue;
    for (warpgroup = 0; warpgroup < warpgroups.size(); ++warpgroup)
      for (const WgmmaRead &r : warpgroups[warpgroup].reads)
        if (std::binary_search(r.units.begin(), r.units.end(), unit))
          return &r;
  }
  return nullptr;
}

std::string CtaRunner::wgmmaReaderText(uint32_t warpgroup, const WgmmaRead &r) const {
  return wgmmaText(warpgroup, r.serial, r.what) +
         " reads as an operand and may still be reading: retire it (wgmma.wait_group) before "
         "the buffer is released or reused";
}

// Thread's entry points.

void Thread::wgmmaRegistersInUse(uint32_t web, const char *what) {
  cta->wgmmaRegistersInUse(*this, web, what);
}

void Thread::wgmmaRegisterAccess(uint32_t web, bool write, const char *what) {
  cta->wgmmaRegisterAccess(*this, web, write, what);
}

} // namespace cutec::rt
