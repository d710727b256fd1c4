// The mbarriers of a CTA, as the PTX ISA's "mbarrier" section describes
// them: an 8-byte object in shared memory holding the expected arrival
// count, the arrivals still pending in the current phase, the pending
// transaction count (tx-count) and the phase.
//
//   init(count)       expected = pending = count (1 .. 2^20-1), tx 0, phase 0
//   expect_tx(bytes)  tx += bytes
//   complete_tx(b)    tx -= b            (what a TMA copy does when it lands)
//   arrive            pending -= 1
// The current phase completes when pending arrivals and tx are both 0: the
// phase number grows by one (its parity flips) and pending arrivals reset to
// the expected count. `try_wait.parity P` succeeds when the phase with parity
// P has completed, i.e. when the current phase's parity is not P.
//
// The emulator keeps this state beside shared memory, keyed by the object's
// address, rather than in the 8 bytes themselves, so that every misuse is
// found: using an address no mbarrier.init initialised, initialising twice,
// more arrivals than expected, a tx-count outside the ISA's range
// [-(2^20-1), 2^20-1].
#pragma once

#include "runtime/base/DiagnosticText.h"
#include "runtime/memory/SharedNames.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cutec::rt {

class Mbarriers {
public:
  static constexpr uint32_t kMaxArrivals = (1u << 20) - 1;
  static constexpr int64_t kMaxTxCount = (1 << 20) - 1;

  struct State {
    uint32_t address = 0;
    uint32_t expectedArrivals = 0;
    uint32_t pendingArrivals = 0;
    int64_t txCount = 0;
    /// Phases completed so far; the current phase's parity is phase & 1.
    uint64_t phase = 0;

    uint32_t parity() const { return uint32_t(phase & 1); }
  };

  /// Forgets every mbarrier (a new CTA starts); messages name addresses
  /// with `names`.
  void reset(const SharedNames *sharedNames = nullptr) {
    barriers.clear();
    names = sharedNames;
  }

  /// The mbarrier at `address`, or null if none was initialised there.
  State *find(uint32_t address);
  const State *find(uint32_t address) const;

  // Each operation returns "" or the problem, for the caller's diagnostic.
  std::string init(uint32_t address, uint32_t expectedArrivals);
  /// `mbarrier.arrive` (after `expect_tx(txBytes)` for arrive.expect_tx);
  /// `token` receives the state token: the phase number arrived in.
  std::string arrive(uint32_t address, uint32_t txBytes, uint64_t &token);
  std::string expectTx(uint32_t address, uint32_t txBytes);
  std::string completeTx(uint32_t address, uint32_t txBytes);

  /// Whether an mbarrier's 8 bytes overlap [begin, end).
  bool anyOverlaps(uint32_t begin, uint32_t end) const {
    for (const State &s : barriers)
      if (s.address < end && s.address + 8 > begin)
        return true;
    return false;
  }

  /// Whether the phase with parity `parity` of the (initialised) mbarrier at
  /// `address` has completed.
  bool phaseDone(uint32_t address, uint32_t parity) const {
    const State *s = find(address);
    return s && s->parity() != (parity & 1);
  }

  /// "mbarrier 0x1400: phase 3 (parity 1), 1 of 2 arrivals pending, 4096
  /// transaction bytes pending".
  std::string describe(uint32_t address) const;

private:
  std::string uninitialised(const char *operation, uint32_t address) const;
  std::string addTx(State &s, int64_t delta) const;
  std::string label(uint32_t address) const { return names ? names->label(address) : hex(address); }
  static void completeIfDone(State &s);

  /// Few per CTA: a vector searched linearly.
  std::vector<State> barriers;
  const SharedNames *names = nullptr;
};

} // namespace cutec::rt
