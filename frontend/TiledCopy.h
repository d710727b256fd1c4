// The layout algebra of CuTe's SIMT tiled copies (docs/language.md, "Tiled
// copies"): the thread-value layout make_layout_tv builds from a thread and
// a value layout, and the per-thread partition of a tile by it. Pure
// compile-time functions over layouts; IRGenCopy.cpp turns them into views.
#ifndef CUTEC_FRONTEND_TILEDCOPY_H
#define CUTEC_FRONTEND_TILEDCOPY_H

#include "ir/layout/Layout.h"

#include "llvm/Support/Error.h"

namespace cutec {

/// make_layout_tv(thr, val): the tile (tiler_mn, one extent per mode) that
/// `val` repeated over `thr` covers, and the layout (thread, value) -> the
/// tile's column-major index: raked_product(thr, val), inverted and shaped
/// (size(thr), size(val)). Both layouts must be compact.
struct ThreadValueLayout {
  IntTuple tiler;
  Layout tv;
};
llvm::Expected<ThreadValueLayout> makeLayoutTv(const Layout &thr, const Layout &val);

/// The layout of a tiled copy's partition of a tensor of layout `tensor`
/// (modes (TileM, TileN, ...) with a whole number of tiles in each):
/// (thread, value, RestM, RestN, ...), the tile divided by `tiler` and its
/// first mode composed with `tv`. Slicing the thread mode gives the thread's
/// (value, RestM, RestN, ...) view, CuTe's partition_S/D.
llvm::Expected<Layout> threadValuePartition(const ThreadValueLayout &copy, const Layout &tensor);

} // namespace cutec

#endif // CUTEC_FRONTEND_TILEDCOPY_H
