//===- IntTuple.cpp - Nested tuples of integers (CuTe's IntTuple) ---------===//
#include "ir/layout/IntTuple.h"

#include "llvm/ADT/Twine.h"

namespace cutec {

IntTuple IntTuple::tuple(std::vector<IntTuple> elements) {
  IntTuple t;
  t.leafFlag = false;
  t.elems = std::move(elements);
  return t;
}

IntTuple IntTuple::underscore() {
  IntTuple t;
  t.underscoreFlag = true;
  return t;
}

bool IntTuple::operator==(const IntTuple &other) const {
  if (leafFlag != other.leafFlag || underscoreFlag != other.underscoreFlag)
    return false;
  return leafFlag ? leafValue == other.leafValue : elems == other.elems;
}

bool IntTuple::isStatic() const {
  if (leafFlag)
    return leafValue.isStatic();
  for (const IntTuple &e : elems)
    if (!e.isStatic())
      return false;
  return true;
}

std::string IntTuple::str() const {
  if (underscoreFlag)
    return "_";
  if (leafFlag)
    return leafValue.str();
  std::string s = "(";
  for (size_t i = 0; i < elems.size(); ++i)
    s += (i ? "," : "") + elems[i].str();
  return s + ")";
}

llvm::Error layoutError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

int depth(const IntTuple &t) {
  if (t.isLeaf())
    return 0;
  int d = 0;
  for (const IntTuple &e : t.elements())
    d = std::max(d, depth(e));
  return d + 1;
}

void flattenInto(const IntTuple &t, std::vector<IntTuple> &leaves) {
  if (t.isLeaf()) {
    leaves.push_back(t);
    return;
  }
  for (const IntTuple &e : t.elements())
    flattenInto(e, leaves);
}

IntTuple flatten(const IntTuple &t) {
  if (t.isLeaf())
    return t;
  std::vector<IntTuple> leaves;
  flattenInto(t, leaves);
  return IntTuple::tuple(std::move(leaves));
}

IntExpr product(const IntTuple &t) {
  if (t.isLeaf())
    return t.leaf();
  IntExpr p(1);
  for (const IntTuple &e : t.elements())
    p = p * product(e);
  return p;
}

IntTuple productEach(const IntTuple &t) {
  if (t.isLeaf())
    return t;
  std::vector<IntTuple> out;
  for (const IntTuple &e : t.elements())
    out.push_back(product(e));
  return IntTuple::tuple(std::move(out));
}

bool congruent(const IntTuple &a, const IntTuple &b) {
  if (a.isLeaf() || b.isLeaf())
    return a.isLeaf() && b.isLeaf();
  if (a.rank() != b.rank())
    return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!congruent(a[i], b[i]))
      return false;
  return true;
}

bool weaklyCongruent(const IntTuple &a, const IntTuple &b) {
  if (a.isLeaf())
    return true;
  if (b.isLeaf() || a.rank() != b.rank())
    return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!weaklyCongruent(a[i], b[i]))
      return false;
  return true;
}

IntTuple repeatLike(const IntTuple &like, const IntExpr &value) {
  if (like.isLeaf())
    return value;
  std::vector<IntTuple> out;
  for (const IntTuple &e : like.elements())
    out.push_back(repeatLike(e, value));
  return IntTuple::tuple(std::move(out));
}

IntTuple appendTo(const IntTuple &t, size_t n, const IntTuple &fill) {
  if (t.rank() >= n && !(t.isLeaf() && n > 1))
    return t;
  std::vector<IntTuple> out =
      t.isLeaf() ? std::vector<IntTuple>{t} : t.elements();
  while (out.size() < n)
    out.push_back(fill);
  return IntTuple::tuple(std::move(out));
}

IntTuple append(const IntTuple &t, const IntTuple &x) {
  std::vector<IntTuple> out = t.isLeaf() ? std::vector<IntTuple>{t} : t.elements();
  out.push_back(x);
  return IntTuple::tuple(std::move(out));
}

IntTuple prepend(const IntTuple &t, const IntTuple &x) {
  std::vector<IntTuple> out{x};
  if (t.isLeaf())
    out.push_back(t);
  else
    out.insert(out.end(), t.elements().begin(), t.elements().end());
  return IntTuple::tuple(std::move(out));
}

static IntTuple unflattenFrom(const std::vector<IntTuple> &leaves, size_t &next,
                              const IntTuple &profile) {
  if (profile.isLeaf())
    return leaves[next++];
  std::vector<IntTuple> out;
  for (const IntTuple &p : profile.elements())
    out.push_back(unflattenFrom(leaves, next, p));
  return IntTuple::tuple(std::move(out));
}

IntTuple unflatten(const IntTuple &flat, const IntTuple &profile) {
  std::vector<IntTuple> leaves;
  flattenInto(flat, leaves);
  size_t next = 0;
  return unflattenFrom(leaves, next, profile);
}

IntTuple unwrap(const IntTuple &t) {
  if (t.isTuple() && t.rank() == 1)
    return unwrap(t[0]);
  return t;
}

static int64_t signum(int64_t v) { return (v > 0) - (v < 0); }

llvm::Expected<IntExpr> shapeDiv(const IntExpr &a, const IntExpr &b) {
  if (b.isConstant(0))
    return layoutError("shape_div: division of " + a.str() + " by zero");
  if (a.isStatic() && b.isStatic()) {
    int64_t x = a.staticValue(), y = b.staticValue();
    if (x % y == 0 || y % x == 0)
      return IntExpr(x / y != 0 ? x / y : signum(x) * signum(y));
    // Neither divides the other: the quotient rounds up, so that a partial
    // tile still counts as one (the reference CuTe's behaviour).
    return IntExpr((x + y - 1) / y);
  }
  IntExpr q = a / b;
  if (q.kind() != IntExpr::Kind::Div)
    return q;
  // b is a multiple of a: the quotient rounds away from zero to 1.
  if ((b % a).isConstant(0))
    return IntExpr(1);
  return q;
}

llvm::Expected<IntTuple> shapeDiv(const IntTuple &a, const IntTuple &b) {
  if (a.isTuple() && b.isTuple()) {
    if (a.rank() != b.rank())
      return layoutError("shape_div: rank mismatch between " + a.str() + " and " + b.str());
    std::vector<IntTuple> out;
    for (size_t i = 0; i < a.rank(); ++i) {
      auto q = shapeDiv(a[i], b[i]);
      if (!q)
        return q.takeError();
      out.push_back(*q);
    }
    return IntTuple::tuple(std::move(out));
  }
  if (a.isTuple()) {
    // Divide from the left, carrying what each mode could not absorb.
    std::vector<IntTuple> out;
    IntExpr rest = b.leaf();
    for (const IntTuple &ai : a.elements()) {
      auto q = shapeDiv(ai, IntTuple(rest));
      if (!q)
        return q.takeError();
      out.push_back(*q);
      auto r = shapeDiv(rest, product(ai));
      if (!r)
        return r.takeError();
      rest = *r;
    }
    return IntTuple::tuple(std::move(out));
  }
  auto q = shapeDiv(a.leaf(), product(b));
  if (!q)
    return q.takeError();
  return IntTuple(*q);
}

IntTuple ceilDiv(const IntTuple &a, const IntTuple &b) {
  if (a.isTuple() && b.isTuple()) {
    std::vector<IntTuple> out;
    for (size_t i = 0; i < a.rank(); ++i)
      out.push_back(i < b.rank() ? ceilDiv(a[i], b[i]) : a[i]);
    return IntTuple::tuple(std::move(out));
  }
  if (a.isTuple()) {
    std::vector<IntTuple> out;
    IntExpr rest = b.leaf();
    for (const IntTuple &ai : a.elements()) {
      out.push_back(ceilDiv(ai, IntTuple(rest)));
      rest = ceilDiv(rest, product(ai));
    }
    return IntTuple::tuple(std::move(out));
  }
  return ceilDiv(a.leaf(), product(b));
}

IntExpr shapeMin(const IntExpr &a, const IntExpr &b) {
  if (a.isConstant(1) || b.isConstant(1))
    return IntExpr(1);
  return min(a, b);
}

IntTuple elemScale(const IntTuple &a, const IntTuple &b) {
  if (a.isLeaf())
    return a.leaf() * product(b);
  std::vector<IntTuple> out;
  for (size_t i = 0; i < a.rank(); ++i)
    out.push_back(elemScale(a[i], b.isLeaf() ? b : b[i]));
  return IntTuple::tuple(std::move(out));
}

IntTuple coalesceShape(const IntTuple &shape) {
  std::vector<IntTuple> leaves, out;
  flattenInto(shape, leaves);
  for (const IntTuple &l : leaves) {
    if (!out.empty() && out.back().leaf().isStatic() == l.leaf().isStatic())
      out.back() = out.back().leaf() * l.leaf();
    else
      out.push_back(l);
  }
  return out.size() == 1 ? out.front() : IntTuple::tuple(std::move(out));
}

/// Column-major strides of `shape` from `current`, which ends past the last.
static IntTuple compactColMajorFrom(const IntTuple &shape, IntExpr &current) {
  if (shape.isLeaf()) {
    // CuTe gives a static size-1 mode the stride 0.
    IntTuple stride = shape.leaf().isConstant(1) ? IntTuple(0) : IntTuple(current);
    current = current * shape.leaf();
    return stride;
  }
  std::vector<IntTuple> out;
  for (size_t i = 0; i < shape.rank(); ++i)
    out.push_back(compactColMajorFrom(shape[i], current));
  return IntTuple::tuple(std::move(out));
}

IntTuple compactColMajor(const IntTuple &shape, const IntExpr &start) {
  IntExpr current = start;
  return compactColMajorFrom(shape, current);
}

llvm::Expected<IntExpr> crd2idx(const IntTuple &coord, const IntTuple &shape,
                                const IntTuple &stride) {
  if (shape.isTuple() != stride.isTuple() || shape.rank() != stride.rank())
    return layoutError("shape " + shape.str() + " and stride " + stride.str() +
                       " are not congruent");
  if (coord.isUnderscore())
    return IntExpr(0);
  if (coord.isTuple()) {
    if (shape.isLeaf() || coord.rank() != shape.rank())
      return layoutError("coordinate " + coord.str() + " does not match shape " + shape.str());
    IntExpr sum(0);
    for (size_t i = 0; i < coord.rank(); ++i) {
      auto idx = crd2idx(coord[i], shape[i], stride[i]);
      if (!idx)
        return idx.takeError();
      sum = sum + *idx;
    }
    return sum;
  }
  if (shape.isLeaf())
    return coord.leaf() * stride.leaf();
  // An integer into a tuple shape: split it colexicographically.
  IntExpr rest = coord.leaf(), sum(0);
  for (size_t i = 0; i < shape.rank(); ++i) {
    bool last = i + 1 == shape.rank();
    IntExpr size = product(shape[i]);
    auto idx = crd2idx(IntTuple(last ? rest : rest % size), shape[i], stride[i]);
    if (!idx)
      return idx.takeError();
    sum = sum + *idx;
    rest = rest / size;
  }
  return sum;
}

IntTuple substitute(const IntTuple &t, const llvm::StringMap<int64_t> &values) {
  if (t.isUnderscore())
    return t;
  if (t.isLeaf()) {
    auto v = t.leaf().evaluate(values);
    return v ? IntTuple(*v) : t;
  }
  std::vector<IntTuple> out;
  for (const IntTuple &e : t.elements())
    out.push_back(substitute(e, values));
  return IntTuple::tuple(std::move(out));
}

static IntTuple idx2crdImpl(const IntExpr &idx, const IntTuple &shape, const IntTuple &stride) {
  if (shape.isLeaf())
    return shape.leaf().isConstant(1) ? IntExpr(0) : (idx / stride.leaf()) % shape.leaf();
  std::vector<IntTuple> out;
  for (size_t i = 0; i < shape.rank(); ++i)
    out.push_back(idx2crdImpl(idx, shape[i], stride[i]));
  return IntTuple::tuple(std::move(out));
}

IntTuple idx2crd(const IntExpr &idx, const IntTuple &shape) {
  return idx2crdImpl(idx, shape, compactColMajor(shape));
}

} // namespace cutec
