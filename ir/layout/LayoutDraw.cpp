//===- LayoutDraw.cpp - Draw a layout as a 2-D table of indices -----------===//
#include "ir/layout/LayoutDraw.h"
#include "ir/layout/LayoutDetail.h"

#include <fmt/format.h>

namespace cutec {

/// Mode 0 stays, the remaining modes become one; a rank-1 layout is a column.
static llvm::Expected<Layout> asRank2(const Layout &l) {
  if (l.shape.isLeaf() || l.rank() == 1)
    return makeLayout({l, Layout(1, 0)});
  if (l.rank() == 2)
    return l;
  return groupModes(l, 1, l.rank());
}

llvm::Expected<IndexTable> tabulate(const LayoutValue &value, int64_t maxCells) {
  const ComposedLayout *composed = value.get<ComposedLayout>();
  const Layout *plain = value.get<Layout>();
  if (!composed && !plain)
    return layoutError("only layouts can be drawn, not the " + value.kindName() + " " +
                       value.str());
  Layout layout = composed ? composed->layout : *plain;
  if (!layout.isStatic())
    return layoutError("cannot draw the dynamic layout " + layout.str() +
                       ": give the dynamic sizes values");
  CUTEC_TRY(table2d, asRank2(layout));
  IndexTable table;
  table.title = value.str();
  table.rows = size(table2d[0]).staticValue();
  table.cols = size(table2d[1]).staticValue();
  if (table.rows * table.cols > maxCells)
    return layoutError("the layout has " + llvm::Twine(table.rows * table.cols) +
                       " cells, too many to draw");
  for (int64_t m = 0; m < table.rows; ++m) {
    for (int64_t n = 0; n < table.cols; ++n) {
      IntTuple coord = tup(m, n);
      if (composed) {
        CUTEC_TRY(idx, crd2idx(coord, ComposedLayout{composed->swizzle, composed->offset,
                                                     table2d}));
        table.cells.push_back(idx);
      } else {
        CUTEC_TRY(idx, crd2idx(coord, table2d));
        table.cells.push_back(idx.staticValue());
      }
    }
  }
  return table;
}

std::string drawAsText(const IndexTable &t) {
  int64_t maxIdx = 0;
  for (int64_t v : t.cells)
    maxIdx = std::max(maxIdx, std::abs(v));
  // As print_layout: cells are as wide as the digits of the cosize.
  int width = static_cast<int>(fmt::format("{}", maxIdx + 1).size());
  std::string rule = "    ";
  for (int64_t n = 0; n < t.cols; ++n)
    rule += "+" + std::string(width + 2, '-');
  rule += "+\n";

  std::string out = t.title + "\n    ";
  for (int64_t n = 0; n < t.cols; ++n)
    out += fmt::format("  {:>{}} ", n, width);
  out += "\n";
  for (int64_t m = 0; m < t.rows; ++m) {
    out += rule + fmt::format("{:>2}  ", m);
    for (int64_t n = 0; n < t.cols; ++n)
      out += fmt::format("| {:>{}} ", t.cells[m * t.cols + n], width);
    out += "|\n";
  }
  return out + rule;
}

static std::string xmlEscape(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

std::string drawAsSvg(const IndexTable &t) {
  const int cell = 28, margin = 30;
  int64_t width = margin + t.cols * cell + 2, height = margin + t.rows * cell + 2;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"monospace\" font-size=\"10\" text-anchor=\"middle\">\n"
      "<title>{}</title>\n",
      width, height + 20, xmlEscape(t.title));
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"start\">{}</text>\n", 2, height + 14,
                     xmlEscape(t.title));
  for (int64_t n = 0; n < t.cols; ++n)
    svg += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", margin + n * cell + cell / 2,
                       margin - 8, n);
  for (int64_t m = 0; m < t.rows; ++m) {
    svg += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", margin / 2,
                       margin + m * cell + cell / 2 + 4, m);
    for (int64_t n = 0; n < t.cols; ++n) {
      int64_t idx = t.cells[m * t.cols + n];
      // Eight pastel hues cycling with the index, as CuTe's TikZ pictures do.
      static const char *colors[] = {"#cce5ff", "#d4f0d4", "#fff2cc", "#f8d7da",
                                     "#e2d9f3", "#d1ecf1", "#fde2c8", "#e9ecef"};
      int64_t x = margin + n * cell, y = margin + m * cell;
      svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
                         "stroke=\"#333\"/>\n",
                         x, y, cell, cell, colors[((idx % 8) + 8) % 8]);
      svg += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", x + cell / 2, y + cell / 2 + 4,
                         idx);
    }
  }
  return svg + "</svg>\n";
}

} // namespace cutec
