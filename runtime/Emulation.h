// The one include of emitted emulation C++: the kernel entry ABI, the thread
// interface its body is written against, launching, and the numerics its
// conversion instructions call.
#pragma once

#include "runtime/base/Kernel.h"
#include "runtime/engine/Launch.h"
#include "runtime/memory/MemoryMap.h"
#include "runtime/memory/TensorMap.h"
#include "runtime/numerics/Numerics.h"
#include "runtime/numerics/PtxArith.h"
#include "runtime/numerics/PtxAtomic.h"
#include "runtime/numerics/Sfu.h"
#include "runtime/engine/Tcgen05Collectives.h"
#include "runtime/engine/Thread.h"
#include "runtime/engine/WarpMatrix.h"
#include "runtime/engine/WarpRoles.h"
#include "runtime/engine/WarpShuffle.h"

#include <array>  // vector loads read std::array<uint32_t, N>
#include <cstdio> // launch checks format their messages
