//===- IntTuple.h - Nested tuples of integers (CuTe's IntTuple) -----------===//
//
// An IntTuple is a leaf (an IntExpr) or a tuple of IntTuples, nested freely:
// 12, (4,2), ((32,4),(16,4)). A rank-1 tuple (4) is not the leaf 4. Shapes,
// strides and coordinates of layouts are IntTuples. The free functions below
// are CuTe's tuple algorithms with CuTe's names.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_INTTUPLE_H
#define CUTEC_IR_LAYOUT_INTTUPLE_H

#include "ir/layout/IntExpr.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cutec {

class IntTuple {
public:
  IntTuple(IntExpr leaf = IntExpr(0)) : leafValue(std::move(leaf)), leafFlag(true) {}
  IntTuple(int64_t value) : IntTuple(IntExpr(value)) {}
  IntTuple(int value) : IntTuple(IntExpr(value)) {}
  static IntTuple tuple(std::vector<IntTuple> elements);
  /// The slicing wildcard `_` (only meaningful in coordinates).
  static IntTuple underscore();

  bool isLeaf() const { return leafFlag; }
  bool isUnderscore() const { return underscoreFlag; }
  bool isTuple() const { return !leafFlag; }
  const IntExpr &leaf() const { return leafValue; }
  /// The number of top-level modes; a leaf has rank 1.
  size_t rank() const { return leafFlag ? 1 : elems.size(); }
  /// Mode i; a leaf is its own mode 0 (as CuTe's get<0> of an integer).
  const IntTuple &operator[](size_t i) const { return leafFlag ? *this : elems[i]; }
  const std::vector<IntTuple> &elements() const { return elems; }

  bool operator==(const IntTuple &other) const;
  bool operator!=(const IntTuple &other) const { return !(*this == other); }
  /// True when every leaf is static.
  bool isStatic() const;

  std::string str() const;

private:
  IntExpr leafValue;
  std::vector<IntTuple> elems;
  bool leafFlag;
  bool underscoreFlag = false;
};

/// A convenience for building tuples: tup(4, tup(8, 2)).
template <typename... Ts> IntTuple tup(Ts &&...elements) {
  return IntTuple::tuple({IntTuple(std::forward<Ts>(elements))...});
}

/// The error type of every fallible layout operation.
llvm::Error layoutError(const llvm::Twine &message);

// --- Structure -------------------------------------------------------------
int depth(const IntTuple &t);
/// All leaves, in order, as a tuple of depth <= 1 (a leaf stays a leaf).
IntTuple flatten(const IntTuple &t);
void flattenInto(const IntTuple &t, std::vector<IntTuple> &leaves);
/// The product of all leaves.
IntExpr product(const IntTuple &t);
/// The tuple of the products of each top-level mode.
IntTuple productEach(const IntTuple &t);
/// Same nesting structure.
bool congruent(const IntTuple &a, const IntTuple &b);
/// `a` is a leaf, or a tuple of the same rank whose modes are weakly
/// congruent to b's: a profile that b refines.
bool weaklyCongruent(const IntTuple &a, const IntTuple &b);
/// A tuple shaped like `like` with every leaf replaced by `value`.
IntTuple repeatLike(const IntTuple &like, const IntExpr &value);
/// Gives `t` the rank `n` by wrapping a leaf and appending `fill`; no-op if
/// rank(t) >= n.
IntTuple appendTo(const IntTuple &t, size_t n, const IntTuple &fill);
IntTuple append(const IntTuple &t, const IntTuple &x);
IntTuple prepend(const IntTuple &t, const IntTuple &x);
/// Rebuilds nesting: `flat` has as many leaves as `profile`.
IntTuple unflatten(const IntTuple &flat, const IntTuple &profile);
/// Drops one level of a rank-1 tuple: ((4)) -> (4), (4) -> 4.
IntTuple unwrap(const IntTuple &t);

// --- Arithmetic on shapes ---------------------------------------------------
/// CuTe's shape_div: a/b when b divides a, 1 when a divides b (a tuple `a` is
/// divided mode by mode from the left). Statics that divide neither way are an
/// error, as in CuTe.
llvm::Expected<IntTuple> shapeDiv(const IntTuple &a, const IntTuple &b);
llvm::Expected<IntExpr> shapeDiv(const IntExpr &a, const IntExpr &b);
/// CuTe's ceil_div, tuple-aware like shape_div.
IntTuple ceilDiv(const IntTuple &a, const IntTuple &b);
/// CuTe's shape_min for leaves: 1 if either is 1, else the minimum.
IntExpr shapeMin(const IntExpr &a, const IntExpr &b);
/// Mode-wise product; `b` may be a leaf to scale every leaf of `a`.
IntTuple elemScale(const IntTuple &a, const IntTuple &b);
/// Merges adjacent leaves that are both static or both dynamic (CuTe's
/// coalesce of a shape).
IntTuple coalesceShape(const IntTuple &shape);

// --- Strides and coordinates ------------------------------------------------
/// Column-major (LayoutLeft) compact strides for `shape`, starting at `start`.
IntTuple compactColMajor(const IntTuple &shape, const IntExpr &start = IntExpr(1));
/// The index of `coord` in (shape, stride). A leaf coordinate into a tuple
/// shape is a colexicographic index; the last mode absorbs the remainder.
llvm::Expected<IntExpr> crd2idx(const IntTuple &coord, const IntTuple &shape,
                                const IntTuple &stride);
/// Replaces the named dynamic leaves by their values; leaves naming unbound
/// symbols stay symbolic.
IntTuple substitute(const IntTuple &t, const llvm::StringMap<int64_t> &values);

/// The natural coordinate of index `idx` in `shape` (colexicographic).
IntTuple idx2crd(const IntExpr &idx, const IntTuple &shape);

} // namespace cutec

#endif
