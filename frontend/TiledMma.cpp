// TiledMma (frontend/TiledMma.h): the partitions are tiled_divide by the
// instruction tile, as a trivial tcgen05 tiled MMA (one atom, one CTA)
// partitions in CuTe.
#include "frontend/TiledMma.h"

namespace cutec {

static const char *majorName(bool mnMajor) { return mnMajor ? "MN-major" : "K-major"; }

std::string TiledMma::str() const {
  return (op + "(" + ir::name(a) + ", " + ir::name(b) + " -> " + ir::name(acc) + ", " +
          llvm::Twine(m) + "x" + llvm::Twine(n) + "x" + llvm::Twine(k) + ", A " +
          majorName(aMnMajor) + ", B " + majorName(bMnMajor) + ")")
      .str();
}

bool TiledMma::operator==(const TiledMma &o) const {
  return op == o.op && a == o.a && b == o.b && acc == o.acc && m == o.m && n == o.n && k == o.k &&
         aMnMajor == o.aMnMajor && bMnMajor == o.bMnMajor && isSlice == o.isSlice;
}

std::pair<int64_t, int64_t> instructionTile(const TiledMma &mma, MmaOperand operand) {
  switch (operand) {
  case MmaOperand::A:
    return {mma.m, mma.k};
  case MmaOperand::B:
    return {mma.n, mma.k};
  case MmaOperand::C:
    break;
  }
  return {mma.m, mma.n};
}

llvm::Expected<Layout> partitionLayout(const TiledMma &mma, MmaOperand operand,
                                       const Layout &layout) {
  static const char *const names[] = {"(M, K)", "(N, K)", "(M, N)"};
  auto [x, y] = instructionTile(mma, operand);
  auto extent = [&](size_t i) -> std::optional<int64_t> {
    if (layout.shape.isLeaf() || layout.rank() <= i)
      return std::nullopt;
    return size(makeLayout(layout.shape[i])).getStatic();
  };
  std::optional<int64_t> ex = extent(0), ey = extent(1);
  if (!ex || !ey || *ex % x != 0 || *ey % y != 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the " + llvm::Twine(names[int(operand)]) + " instruction tile " + llvm::Twine(x) + "x" +
            llvm::Twine(y) + " of " + mma.op + " does not divide " + layout.shape.str() +
            " (its first two modes must be static multiples of it)");
  return tiledDivide(layout, Tiler::byMode({Tiler::of(makeLayout(IntTuple(x))),
                                            Tiler::of(makeLayout(IntTuple(y)))}));
}

} // namespace cutec
