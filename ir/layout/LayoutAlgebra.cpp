//===- LayoutAlgebra.cpp - composition, complement, inverses --------------===//
//
// The three primitives the rest of the algebra is built from, following
// CuTe's definitions (include/cute/layout.hpp) step by step so that results,
// including the exact nesting of shapes, are CuTe's.
//
//===----------------------------------------------------------------------===//
#include "ir/layout/Layout.h"
#include "ir/layout/LayoutDetail.h"

namespace cutec {

using detail::coalesceBackwards;

static std::vector<IntTuple> leavesOf(const IntTuple &t) {
  std::vector<IntTuple> leaves;
  flattenInto(t, leaves);
  return leaves;
}

// lhs is flat (depth <= 1, from coalesce_x); rhs is one mode of the right
// operand, distributed over when it is a tuple.
static llvm::Expected<Layout> compose(const IntTuple &lhsShape, const IntTuple &lhsStride,
                                      const IntTuple &rhsShape, const IntTuple &rhsStride) {
  if (rhsShape.isTuple()) {
    std::vector<Layout> modes;
    for (size_t i = 0; i < rhsShape.rank(); ++i) {
      CUTEC_TRY(mode, compose(lhsShape, lhsStride, rhsShape[i], rhsStride[i]));
      modes.push_back(mode);
    }
    return makeLayout(modes);
  }
  const IntExpr &rs = rhsShape.leaf(), &rd = rhsStride.leaf();
  if (rd.isConstant(0))
    return Layout(rhsShape, rhsStride);
  if (lhsShape.isLeaf())
    return Layout(rs, rd * lhsStride.leaf());

  std::vector<IntTuple> shapes = leavesOf(lhsShape), strides = leavesOf(lhsStride);
  size_t r = shapes.size();
  std::vector<IntTuple> resultShape, resultStride(strides.begin(), strides.end() - 1);
  IntExpr restStride(1);
  if (rd.isConstant(1)) {
    resultShape.assign(shapes.begin(), shapes.end() - 1);
  } else {
    // Divide the rhs stride out of the lhs shape, from the left.
    restStride = rd;
    for (size_t i = 0; i + 1 < r; ++i) {
      CUTEC_TRY(q, shapeDiv(shapes[i].leaf(), restStride));
      resultShape.push_back(q);
      CUTEC_TRY(rest, shapeDiv(restStride, shapes[i].leaf()));
      restStride = rest;
    }
    // Modes whose shape was divided see their stride scaled by the divisor.
    for (size_t i = 0; i + 1 < r; ++i) {
      CUTEC_TRY(scale, shapeDiv(shapes[i].leaf(), resultShape[i].leaf()));
      resultStride[i] = strides[i].leaf() * scale;
    }
  }
  // Take the rhs shape out of what is left of the lhs shape.
  IntExpr restShape = rs;
  for (size_t i = 0; i + 1 < r; ++i) {
    IntExpr s = resultShape[i].leaf();
    resultShape[i] = shapeMin(s, restShape);
    CUTEC_TRY(rest, shapeDiv(restShape, s));
    restShape = rest;
  }
  return coalesceBackwards(resultShape, resultStride, r - 1, restShape,
                           restStride * strides[r - 1].leaf());
}

llvm::Expected<Layout> composition(const Layout &a, const Layout &b) {
  Layout flat = detail::coalesceKeepingTail(a);
  auto result = compose(flat.shape, flat.stride, b.shape, b.stride);
  if (!result)
    return layoutError("composition(" + a.str() + ", " + b.str() +
                       "): " + llvm::toString(result.takeError()));
  return result;
}

llvm::Expected<Layout> composition(const Layout &a, const Tiler &b) {
  switch (b.kind) {
  case Tiler::Kind::Underscore:
    return a;
  case Tiler::Kind::Layout:
    return composition(a, b.layout);
  case Tiler::Kind::ByMode:
    break;
  }
  if (b.modes.size() > a.rank())
    return layoutError("composition: tiler " + b.str() + " has more modes than " + a.str());
  std::vector<Layout> modes;
  for (size_t i = 0; i < b.modes.size(); ++i) {
    CUTEC_TRY(mode, composition(a[i], b.modes[i]));
    modes.push_back(mode);
  }
  for (size_t i = b.modes.size(); i < a.rank(); ++i)
    modes.push_back(a[i]);
  return makeLayout(modes);
}

// @pre (shape, stride) is filtered: flat, no stride-0 or size-1 modes.
static llvm::Expected<Layout> complementFiltered(const Layout &filtered,
                                                 const IntTuple &cotarget) {
  if (filtered.stride.isLeaf() && filtered.stride.leaf().isConstant(0))
    return makeLayout(coalesceShape(cotarget));

  std::vector<IntTuple> shapes = leavesOf(filtered.shape), strides = leavesOf(filtered.stride);
  if (shapes.size() > 1 && !filtered.stride.isStatic())
    return layoutError("complement: dynamic strides are supported for rank-1 layouts only");
  auto nonInjective = [&] {
    return layoutError("complement: " + filtered.str() + " is not injective");
  };

  // Visit the modes by increasing stride; each gap between the reach of the
  // previous modes and the next stride becomes a mode of the complement.
  std::vector<IntTuple> resultShape, resultStride{IntTuple(1)};
  while (shapes.size() > 1) {
    size_t minIdx = 0;
    for (size_t i = 1; i < strides.size(); ++i)
      if (strides[i].leaf().staticValue() < strides[minIdx].leaf().staticValue())
        minIdx = i;
    IntExpr minStride = strides[minIdx].leaf();
    IntExpr newShape = minStride / resultStride.back().leaf();
    if (newShape.isConstant(0))
      return nonInjective();
    resultShape.push_back(newShape);
    resultStride.push_back(minStride * shapes[minIdx].leaf());
    shapes.erase(shapes.begin() + minIdx);
    strides.erase(strides.begin() + minIdx);
  }
  IntExpr lastShape = strides[0].leaf() / resultStride.back().leaf();
  if (lastShape.isConstant(0))
    return nonInjective();
  resultShape.push_back(lastShape);

  IntExpr reach = strides[0].leaf() * shapes[0].leaf();
  IntTuple restShape = coalesceShape(ceilDiv(cotarget, IntTuple(reach)));
  IntTuple restStride = compactColMajor(restShape, reach);
  Layout full(tup(IntTuple::tuple(resultShape), restShape),
              tup(IntTuple::tuple(resultStride), restStride));
  return coalesce(full);
}

llvm::Expected<Layout> complement(const Layout &l, const IntTuple &cotarget) {
  return complementFiltered(filter(l), cotarget);
}

llvm::Expected<Layout> complement(const Layout &l) {
  Layout filtered = filter(l);
  return complementFiltered(filtered, cosize(filtered));
}

llvm::Expected<Layout> rightInverse(const Layout &l) {
  Layout flat = coalesce(l);
  std::vector<IntTuple> shapes = leavesOf(flat.shape), strides = leavesOf(flat.stride);
  IntTuple compact = compactColMajor(flat.shape);
  std::vector<IntTuple> compactStrides = leavesOf(compact);

  // Follow the chain of static strides 1, s0*d0, ... through the modes.
  std::vector<IntTuple> invShape, invStride;
  int64_t next = 1;
  while (true) {
    size_t i = 0;
    while (i < strides.size() &&
           !(strides[i].leaf().isStatic() && std::abs(strides[i].leaf().staticValue()) == next))
      ++i;
    if (i == strides.size())
      break;
    int64_t d = strides[i].leaf().staticValue();
    invShape.push_back(shapes[i]);
    invStride.push_back(d < 0 ? IntExpr(-1) * compactStrides[i].leaf() : compactStrides[i].leaf());
    IntExpr reach = shapes[i].leaf() * IntExpr(std::abs(d));
    if (!reach.isStatic() || reach.staticValue() == next)
      break;
    next = reach.staticValue();
  }
  if (invShape.empty())
    return Layout(1, 0);
  return Layout(unwrap(IntTuple::tuple(invShape)), unwrap(IntTuple::tuple(invStride)));
}

// Visits the modes by increasing stride: each mode's inverse covers the gap up
// to the next stride (the holes map to the mode below them), the last mode its
// own extent, and indices below the smallest stride map to 0.
llvm::Expected<Layout> leftInverse(const Layout &l) {
  Layout flat = coalesce(l);
  if (!flat.isStatic())
    return layoutError("left_inverse: " + l.str() + " has dynamic parts");
  std::vector<IntTuple> shapes = leavesOf(flat.shape), strides = leavesOf(flat.stride);
  std::vector<IntTuple> domainStrides = leavesOf(compactColMajor(flat.shape));
  if (shapes.size() == 1 && shapes[0].leaf().isConstant(1))
    return Layout(1, 0);

  std::vector<size_t> order(shapes.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto absStride = [&](size_t i) { return std::abs(strides[i].leaf().staticValue()); };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return absStride(x) < absStride(y); });

  std::vector<IntTuple> invShape, invStride;
  if (absStride(order[0]) == 0)
    return layoutError("left_inverse: " + l.str() + " is not injective");
  if (absStride(order[0]) > 1) {
    invShape.push_back(absStride(order[0]));
    invStride.push_back(0);
  }
  for (size_t k = 0; k < order.size(); ++k) {
    size_t i = order[k];
    int64_t extent = shapes[i].leaf().staticValue();
    if (k + 1 < order.size()) {
      int64_t reach = absStride(i) * extent, next = absStride(order[k + 1]);
      if (next < reach || next % absStride(i) != 0)
        return layoutError("left_inverse: " + l.str() + " is not injective");
      extent = next / absStride(i);
    }
    int64_t d = domainStrides[i].leaf().staticValue();
    invShape.push_back(extent);
    invStride.push_back(strides[i].leaf().staticValue() < 0 ? -d : d);
  }
  return coalesce(Layout(IntTuple::tuple(invShape), IntTuple::tuple(invStride)));
}

} // namespace cutec
