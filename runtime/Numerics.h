// The numeric side of the runtime in one include: the formats and their exact
// codec, the PTX cvt forms on packed registers, and packed fp4 layout.
#pragma once

#include "runtime/FloatFormat.h"
#include "runtime/Fp4Packing.h"
#include "runtime/PtxCvt.h"
