// TiledMma (frontend/TiledMma.h): the partitions are tiled_divide by the
// instruction tile, as a trivial tcgen05 tiled MMA (one atom, one CTA)
// partitions in CuTe.
#include "frontend/TiledMma.h"

namespace cutec {

static const char *majorName(bool mnMajor) { return mnMajor ? "MN-major" : "K-major"; }

std::string TiledMma::str() const {
  return (op + "(" + ir::name(a) + ", " + ir::name(b) + " -> " + ir::name(acc) + ", " +
          llvm::Twine(m) + "x" + llvm::Twine(n) + "x" + llvm::Twine(k) + ", A " +
          majorName(aMnMajor) + ", B " + majorName(bMnMajor) + (ctaGroup == 2 ? ", CTA pair" : "") +
          (aInTmem ? ", A in TMEM" : "") + (aInRmem ? ", A in registers" : "") +
          (satfinite ? ", satfinite" : "") + (warpgroup ? ", warpgroup" : "") + ")")
      .str();
}

bool TiledMma::operator==(const TiledMma &o) const {
  return op == o.op && a == o.a && b == o.b && acc == o.acc && m == o.m && n == o.n && k == o.k &&
         aMnMajor == o.aMnMajor && bMnMajor == o.bMnMajor && ctaGroup == o.ctaGroup &&
         aInTmem == o.aInTmem && aInRmem == o.aInRmem && satfinite == o.satfinite && isSlice == o.isSlice && warpgroup == o.warpgroup &&
         thread == o.thread;
}

std::pair<int64_t, int64_t> instructionTile(const TiledMma &mma, MmaOperand operand) {
  int64_t m = mma.m / mma.ctaGroup;
  switch (operand) {
  case MmaOperand::A:
    return {m, mma.k};
  case MmaOperand::B:
    return {mma.n / mma.ctaGroup, mma.k};
  case MmaOperand::C:
    break;
  }
  return {m, mma.n};
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

IntTuple ctaShare(const TiledMma &mma, const IntTuple &shape) {
  if (mma.ctaGroup == 1 || shape.isLeaf() || shape.rank() < 2 || !shape[0].isLeaf() ||
      !shape[0].leaf().isStatic() || shape[0].leaf().staticValue() % 2 != 0)
    return shape; // partitionLayout reports what does not divide
  std::vector<IntTuple> modes;
  for (size_t i = 0; i < shape.rank(); ++i)
    modes.push_back(i == 0 ? IntTuple(shape[0].leaf().staticValue() / 2) : shape[i]);
  return IntTuple::tuple(std::move(modes));
}

int64_t warpgroupElementsPerRegister(const TiledMma &mma, MmaOperand operand) {
  return operand == MmaOperand::C ? 2 : 32 / ir::bitWidth(mma.a);
}

llvm::Expected<IntTuple> warpgroupFragmentShape(const TiledMma &mma, MmaOperand operand,
                                                const IntTuple &shape) {
  llvm::Expected<Layout> tiles = partitionLayout(mma, operand, makeLayout(shape));
  if (!tiles)
    return tiles.takeError();
  const int64_t e = warpgroupElementsPerRegister(mma, operand);
  const int64_t width = operand == MmaOperand::C ? mma.n : mma.k;
  std::vector<IntTuple> modes{tup(e, 2, width / (4 * e))};
  for (size_t i = 1; i < tiles->shape.rank(); ++i)
    modes.push_back(tiles->shape[i]);
  return IntTuple::tuple(std::move(modes));
}

llvm::Expected<Layout> accumulatorLayout(const TiledMma &mma, const IntTuple &shape) {
  auto [m, n] = instructionTile(mma, MmaOperand::C);
  IntTuple parts = shape;
  if (shape.isLeaf() || !shape[0].isTuple()) {
    llvm::Expected<Layout> l =
        partitionLayout(mma, MmaOperand::C, makeLayout(ctaShare(mma, shape)));
    if (!l)
      return l.takeError();
    parts = l->shape;
  }
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the accumulator of " +
                                                                       mma.str() + " " + why +
                                                                       ", not " + parts.str());
  };
  if (parts.rank() < 3 || !(parts[0] == IntTuple::tuple({IntTuple(m), IntTuple(n)})))
    return fail("is ((" + llvm::Twine(m) + ", " + llvm::Twine(n) + "), MMA_M, MMA_N, ...)");
  // The instruction tile fills the lanes, so further tiles go to columns.
  if (!(parts[1] == IntTuple(1)))
    return fail("has one instruction tile in M (MMA_M = 1: it fills the lanes)");
  std::vector<IntTuple> strides{IntTuple::tuple({IntTuple(int64_t(1) << 16), IntTuple(1)}),
                                IntTuple(0)};
  int64_t columns = n;
  for (size_t i = 2; i < parts.rank(); ++i) {
    if (!parts[i].isLeaf() || !parts[i].leaf().isStatic())
      return fail("has static integer modes after the instruction tile");
    strides.push_back(IntTuple(columns));
    columns *= parts[i].leaf().staticValue();
  }
  if (columns > 512)
    return fail("takes " + llvm::Twine(columns) + " columns of tensor memory (at most 512)");
  return makeLayout(parts, IntTuple::tuple(std::move(strides)));
}

} // namespace cutec
