// Fuzz target: any bytes as a `cutec layout` expression, evaluated and, when
// it is a layout, drawn.
#include "ir/layout/LayoutDraw.h"
#include "ir/layout/LayoutExprParser.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  cutec::LayoutExprResult result = cutec::evaluateLayoutExpr(text);
  if (result.value) {
    auto table = cutec::tabulate(*result.value, /*maxCells=*/4096);
    if (table)
      cutec::drawAsSvg(*table);
    else
      llvm::consumeError(table.takeError());
  }
  return 0;
}
