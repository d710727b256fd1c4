//===- LayoutDraw.h - Draw a layout as a 2-D table of indices -------------===//
//
// The picture CuTe's print_layout gives: rows are mode 0, columns mode 1
// (modes 1.. grouped into one), each cell the index of that coordinate. Also
// as an SVG picture. Dynamic layouts cannot be drawn.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_LAYOUTDRAW_H
#define CUTEC_IR_LAYOUT_LAYOUTDRAW_H

#include "ir/layout/LayoutValue.h"

namespace cutec {

/// The indices of a layout or swizzled layout as rows x columns.
struct IndexTable {
  std::string title;
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> cells; // row-major
};

/// Fails for dynamic layouts and for tables above `maxCells` cells.
llvm::Expected<IndexTable> tabulate(const LayoutValue &value, int64_t maxCells = 1 << 20);
std::string drawAsText(const IndexTable &table);
std::string drawAsSvg(const IndexTable &table);

} // namespace cutec

#endif
