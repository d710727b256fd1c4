// The mbarrier state machine of runtime/memory/Mbarrier.h.
#include "runtime/memory/Mbarrier.h"


namespace cutec::rt {

Mbarriers::State *Mbarriers::find(uint32_t address) {
  for (State &s : barriers)
    if (s.address == address)
      return &s;
  return nullptr;
}

const Mbarriers::State *Mbarriers::find(uint32_t address) const {
  return const_cast<Mbarriers *>(this)->find(address);
}

std::string Mbarriers::uninitialised(const char *operation, uint32_t address) const {
  std::string text = std::string(operation) + " on shared address " + label(address) +
                     ", where no mbarrier.init initialised an mbarrier";
  if (!barriers.empty()) {
    text += " (mbarriers of this CTA:";
    for (const State &s : barriers)
      text += " " + label(s.address);
    text += ")";
  }
  return text;
}

std::string Mbarriers::init(uint32_t address, uint32_t expectedArrivals) {
  if (expectedArrivals == 0 || expectedArrivals > kMaxArrivals)
    return "mbarrier.init with expected arrival count " + std::to_string(expectedArrivals) +
           " outside [1, 2^20-1]";
  if (const State *s = find(address))
    return "mbarrier.init on the mbarrier at " + label(address) +
           ", which is initialised already (in phase " + std::to_string(s->phase) +
           "); re-initialising a live mbarrier is undefined";
  State s;
  s.address = address;
  s.expectedArrivals = s.pendingArrivals = expectedArrivals;
  barriers.push_back(s);
  return "";
}

std::string Mbarriers::addTx(State &s, int64_t delta) const {
  int64_t next = s.txCount + delta;
  if (next > kMaxTxCount || next < -kMaxTxCount)
    return "the tx-count of the mbarrier at " + label(s.address) + " would become " +
           std::to_string(next) + " (it was " + std::to_string(s.txCount) + " in phase " +
           std::to_string(s.phase) + "), outside the range [-(2^20-1), 2^20-1]";
  s.txCount = next;
  return "";
}

void Mbarriers::completeIfDone(State &s) {
  if (s.pendingArrivals != 0 || s.txCount != 0)
    return;
  ++s.phase;
  s.pendingArrivals = s.expectedArrivals;
}

std::string Mbarriers::arrive(uint32_t address, uint32_t txBytes, uint64_t &token) {
  State *s = find(address);
  if (!s)
    return uninitialised(txBytes ? "mbarrier.arrive.expect_tx" : "mbarrier.arrive", address);
  if (s->pendingArrivals == 0)
    return "too many arrivals at the mbarrier at " + label(address) + ": all " +
           std::to_string(s->expectedArrivals) + " expected arrivals of phase " +
           std::to_string(s->phase) + " have arrived (it waits for " +
           std::to_string(s->txCount) + " transaction bytes)";
  if (txBytes) {
    std::string problem = addTx(*s, txBytes);
    if (!problem.empty())
      return problem;
  }
  token = s->phase;
  --s->pendingArrivals;
  completeIfDone(*s);
  return "";
}

std::string Mbarriers::expectTx(uint32_t address, uint32_t txBytes) {
  State *s = find(address);
  if (!s)
    return uninitialised("mbarrier.expect_tx", address);
  return addTx(*s, txBytes);
}

std::string Mbarriers::completeTx(uint32_t address, uint32_t txBytes) {
  State *s = find(address);
  if (!s)
    return uninitialised("complete_tx", address);
  std::string problem = addTx(*s, -int64_t(txBytes));
  if (problem.empty())
    completeIfDone(*s);
  return problem;
}

std::string Mbarriers::describe(uint32_t address) const {
  const State *s = find(address);
  if (!s)
    return "mbarrier " + label(address) + ": never initialised";
  return "mbarrier " + label(address) + ": phase " + std::to_string(s->phase) + " (parity " +
         std::to_string(s->parity()) + "), " + std::to_string(s->pendingArrivals) + " of " +
         std::to_string(s->expectedArrivals) + " arrivals pending, " +
         std::to_string(s->txCount) + " transaction bytes pending";
}

} // namespace cutec::rt
