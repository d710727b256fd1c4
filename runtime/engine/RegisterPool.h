// The registers of a CTA as setmaxnreg moves them (PTX ISA "setmaxnreg").
//
// Every warp starts with the same count of registers per thread, the
// kernel's (KernelDescriptor::registersPerThread, its PTX .maxnreg).
// The CTA keeps a pool of the registers its warps have released:
// `setmaxnreg.dec n` lowers the warp's count to n and puts the difference,
// times 32 lanes, in the pool; `setmaxnreg.inc n` raises it to n and takes
// the difference from the pool, waiting until the pool holds enough. A .dec
// that would raise the count, or an .inc that would lower it, is an error
// (the ISA leaves it undefined).
//
// The instruction is `.aligned` at warpgroup level: every warp of a
// warpgroup (warps 4g to 4g+3, those the CTA has) executes the same
// setmaxnreg instruction with the same count, and none executes another one
// before all have executed this one (the ISA asks them to synchronise in
// between). A warpgroup's *round* is open from the first warp's setmaxnreg
// until the last warp's; a different setmaxnreg in an open round, a warp
// executing a second one, and a CTA ending with a round open are errors.
// Registers of exited warps do not return to the pool (the ISA does not say
// that they do), so an .inc that only they could satisfy waits forever and
// the CTA scheduler reports a deadlock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cutec::rt {

class RegisterPool {
public:
  /// Starts a CTA of `warps` warps, each with `registersPerThread` (0: the
  /// kernel says nothing, and a setmaxnreg is an error).
  void reset(uint32_t warps, uint32_t registersPerThread);

  /// Warp `warp` executes `setmaxnreg.inc` (inc) or `.dec` to `count`
  /// registers per thread at instruction `what`. A .dec returns registers to
  /// the pool at once; an .inc becomes the warp's request, which `grant`
  /// fulfils. Returns "" or what is wrong.
  std::string execute(uint32_t warp, bool inc, uint32_t count, const char *what);

  /// Fulfils warp `warp`'s request if the pool holds enough; true when the
  /// warp has no request left.
  bool grant(uint32_t warp);

  /// At the end of a CTA: "" or, when a warpgroup's round is still open
  /// (some of its warps never executed the setmaxnreg the others did), the
  /// error.
  std::string unfinishedRounds() const;

  /// Whether a deadlock report should describe the pool: a request waits or
  /// a round is open.
  bool busy() const;

  /// For deadlock reports: "register pool: 0 registers free; warps 4-11
  /// wait at '...' (.inc to 232) for 2048 registers each (168 per thread
  /// now); warpgroup 0: warps 0,1 executed '...' (.dec to 40), warps 2,3 not
  /// yet".
  std::string describe() const;

  /// The registers per thread warp `warp` has now.
  uint32_t count(uint32_t warp) const { return warps[warp].count; }

private:
  struct Warp {
    uint32_t count = 0;
    uint32_t requested = 0; // an .inc's count not yet granted, or 0
    const char *requestWhat = nullptr;
  };
  /// A warpgroup's setmaxnreg in progress: which warps have executed it.
  struct Round {
    const char *what = nullptr;
    bool inc = false;
    uint32_t count = 0;
    uint32_t executed = 0; // bit i: warp 4g+i
  };

  /// The warps (bit i: warp 4g+i) of warpgroup g that the CTA has.
  uint32_t warpgroupMembers(uint32_t g) const;
  /// "warps 4,5" / "warp 6" for the bits of warpgroup g.
  static std::string warpsText(uint32_t g, uint32_t bits);
  static std::string instructionText(const char *what, bool inc, uint32_t count);

  std::vector<Warp> warps;
  std::vector<Round> rounds; // per warpgroup
  uint64_t pool = 0;         // registers free, all lanes counted
};

} // namespace cutec::rt
