// The numeric side of the runtime in one include: the formats and their exact
// codec, the PTX cvt forms on packed registers, and packed fp4 layout.
#pragma once

#include "runtime/numerics/FloatFormat.h"
#include "runtime/numerics/Fp4Packing.h"
#include "runtime/numerics/PtxCvt.h"
