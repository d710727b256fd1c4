// Where a CTA's shared memory lies in the emulated `.shared::cta` window.
#pragma once

#include <cstdint>

namespace cutec::rt {

/// The `.shared::cta` window address where a CTA's shared memory starts:
/// static shared variables first, dynamic shared memory after them. Nonzero
/// so that address 0, the value of a forgotten register, is out of bounds.
inline constexpr uint32_t kSharedWindowBase = 0x400;

} // namespace cutec::rt
