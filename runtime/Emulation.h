// The one include of emitted emulation C++: the kernel entry ABI, the thread
// interface its body is written against, launching, and the numerics its
// conversion instructions call.
#pragma once

#include "runtime/Kernel.h"
#include "runtime/Launch.h"
#include "runtime/MemoryMap.h"
#include "runtime/TensorMap.h"
#include "runtime/Numerics.h"
#include "runtime/PtxArith.h"
#include "runtime/PtxAtomic.h"
#include "runtime/Sfu.h"
#include "runtime/Tcgen05Collectives.h"
#include "runtime/Thread.h"
#include "runtime/WarpMatrix.h"
#include "runtime/WarpRoles.h"
#include "runtime/WarpShuffle.h"

#include <array>  // vector loads read std::array<uint32_t, N>
#include <cstdio> // launch checks format their messages
