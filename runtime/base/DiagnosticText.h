// Small text helpers shared by the runtime's diagnostics, so that every
// message prints addresses, indices and lane sets the same way.
#pragma once

#include "runtime/base/Kernel.h"

#include <cstdint>
#include <string>

namespace cutec::rt {

/// "0x7f12a0" (lower-case hex, no padding).
std::string hex(uint64_t value);

/// "(3,0,1)"
std::string dim3Text(const Dim3 &d);

/// "'st.shared.b32 at k.cute:3:5'": an instruction's description, quoted
/// ("?" when there is none).
std::string quoted(const char *what);

/// Whether two instruction descriptions name the same instruction: the
/// same pointer, or the same text (a description may be built twice).
bool sameInstruction(const char *a, const char *b);

/// The lanes set in `mask`, as ranges: "0-15,20,22-31".
std::string laneRanges(uint32_t mask);

} // namespace cutec::rt
