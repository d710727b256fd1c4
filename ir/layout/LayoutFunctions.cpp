//===- LayoutFunctions.cpp - The layout function table --------------------===//
//
// Maps CuTe's function names onto the algebra in Layout.h, converting
// arguments the way CuTe does: an integer n where a layout is expected is
// n:1, a plain shape where a tiler is expected is a by-mode tiler.
//
//===----------------------------------------------------------------------===//
#include "ir/layout/LayoutDetail.h"
#include "ir/layout/LayoutValue.h"
#include "ir/layout/ScaleFactorLayouts.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>

namespace cutec {

std::string LayoutValue::kindName() const {
  static const char *names[] = {"tuple", "layout", "tiler", "swizzle", "swizzled layout"};
  if (const IntTuple *t = get<IntTuple>(); t && t->isLeaf())
    return t->isUnderscore() ? "`_`" : "integer";
  return names[value.index()];
}

std::string LayoutValue::str() const {
  return std::visit([](const auto &v) { return v.str(); }, value);
}

static bool stridesMatch(const IntTuple &shape, const IntTuple &a, const IntTuple &b) {
  if (shape.isLeaf())
    return shape.leaf().isConstant(1) || a == b;
  if (a.isLeaf() || b.isLeaf() || a.rank() != shape.rank() || b.rank() != shape.rank())
    return false;
  for (size_t i = 0; i < shape.rank(); ++i)
    if (!stridesMatch(shape[i], a[i], b[i]))
      return false;
  return true;
}

bool layoutValuesMatch(const LayoutValue &actual, const LayoutValue &expected) {
  const Layout *a = actual.get<Layout>(), *e = expected.get<Layout>();
  if (a && e)
    return a->shape == e->shape && stridesMatch(a->shape, a->stride, e->stride);
  const ComposedLayout *ca = actual.get<ComposedLayout>(), *ce = expected.get<ComposedLayout>();
  if (ca && ce)
    return ca->swizzle == ce->swizzle && ca->offset == ce->offset &&
           layoutValuesMatch(ca->layout, ce->layout);
  const IntTuple *ta = actual.get<IntTuple>(), *te = expected.get<IntTuple>();
  if (ta && te)
    return *ta == *te;
  return actual.str() == expected.str();
}

namespace {

using Args = llvm::ArrayRef<LayoutValue>;

llvm::Error argError(Args args, size_t i, llvm::StringRef wanted) {
  return layoutError("argument " + llvm::Twine(i + 1) + " must be " + wanted + ", not the " +
                     args[i].kindName() + " " + args[i].str());
}

/// Shapes have positive extents (dynamic ones are assumed to).
llvm::Error checkShape(const IntTuple &shape) {
  std::vector<IntTuple> leaves;
  flattenInto(shape, leaves);
  for (const IntTuple &leaf : leaves)
    if (leaf.isUnderscore() || (leaf.leaf().isStatic() && leaf.leaf().staticValue() <= 0))
      return layoutError("shape extents must be positive, found " + leaf.str() + " in " +
                         shape.str());
  return llvm::Error::success();
}

llvm::Expected<Layout> asLayout(Args args, size_t i) {
  if (const Layout *l = args[i].get<Layout>())
    return *l;
  if (const IntTuple *t = args[i].get<IntTuple>(); t && t->isLeaf() && !t->isUnderscore()) {
    if (llvm::Error e = checkShape(*t))
      return e;
    return makeLayout(*t);
  }
  return argError(args, i, "a layout");
}

llvm::Expected<IntTuple> asTuple(Args args, size_t i) {
  if (const IntTuple *t = args[i].get<IntTuple>())
    return *t;
  return argError(args, i, "an integer or a tuple");
}

llvm::Expected<IntTuple> asShape(Args args, size_t i) {
  CUTEC_TRY(t, asTuple(args, i));
  if (llvm::Error e = checkShape(t))
    return e;
  return t;
}

llvm::Expected<int64_t> asStaticInt(Args args, size_t i) {
  if (const IntTuple *t = args[i].get<IntTuple>();
      t && t->isLeaf() && !t->isUnderscore() && t->leaf().isStatic())
    return t->leaf().staticValue();
  return argError(args, i, "a static integer");
}

llvm::Expected<Tiler> asTiler(Args args, size_t i) {
  if (const Tiler *t = args[i].get<Tiler>())
    return *t;
  if (const Layout *l = args[i].get<Layout>())
    return Tiler::of(*l);
  if (const IntTuple *t = args[i].get<IntTuple>())
    return Tiler::fromShape(*t);
  return argError(args, i, "a tiler (a layout, a shape or [..])");
}

/// Size-like queries accept a layout, a swizzled layout or a shape.
llvm::Expected<Layout> asShaped(Args args, size_t i) {
  if (const ComposedLayout *c = args[i].get<ComposedLayout>())
    return c->layout;
  if (const IntTuple *t = args[i].get<IntTuple>(); t && !t->isUnderscore()) {
    if (llvm::Error e = checkShape(*t))
      return e;
    return makeLayout(*t);
  }
  return asLayout(args, i);
}

template <typename T> llvm::Expected<LayoutValue> wrap(llvm::Expected<T> v) {
  if (!v)
    return v.takeError();
  return LayoutValue(std::move(*v));
}

using Impl = std::function<llvm::Expected<LayoutValue>(Args)>;

struct Function {
  const char *name;
  size_t minArgs, maxArgs;
  const char *help;
  Impl impl;
};

template <typename F> Impl onLayout(F f) {
  return [f](Args a) -> llvm::Expected<LayoutValue> {
    CUTEC_TRY(l, asLayout(a, 0));
    return wrap(llvm::Expected<decltype(f(l))>(f(l)));
  };
}

template <typename F> Impl onLayoutTiler(F f) {
  return [f](Args a) -> llvm::Expected<LayoutValue> {
    CUTEC_TRY(l, asLayout(a, 0));
    CUTEC_TRY(t, asTiler(a, 1));
    return wrap(f(l, t));
  };
}

template <typename F> Impl onTwoLayouts(F f) {
  return [f](Args a) -> llvm::Expected<LayoutValue> {
    CUTEC_TRY(x, asLayout(a, 0));
    CUTEC_TRY(y, asLayout(a, 1));
    return wrap(f(x, y));
  };
}

llvm::Expected<LayoutValue> composeAny(Args a) {
  CUTEC_TRY(rhs, asTiler(a, 1));
  if (const Swizzle *s = a[0].get<Swizzle>()) {
    if (rhs.kind != Tiler::Kind::Layout)
      return argError(a, 1, "a layout");
    return LayoutValue(ComposedLayout{*s, IntExpr(0), rhs.layout});
  }
  if (const ComposedLayout *c = a[0].get<ComposedLayout>()) {
    CUTEC_TRY(inner, composition(c->layout, rhs));
    return LayoutValue(ComposedLayout{c->swizzle, c->offset, inner});
  }
  CUTEC_TRY(lhs, asLayout(a, 0));
  return wrap(composition(lhs, rhs));
}

llvm::Expected<LayoutValue> crd2idxAny(Args a) {
  CUTEC_TRY(coord, asTuple(a, 0));
  if (a.size() == 3) {
    CUTEC_TRY(shape, asTuple(a, 1));
    CUTEC_TRY(stride, asTuple(a, 2));
    if (!weaklyCongruent(coord, shape) && coord.isTuple())
      return layoutError("coordinate " + coord.str() + " does not match shape " + shape.str());
    return wrap(crd2idx(coord, shape, stride));
  }
  if (const ComposedLayout *c = a[1].get<ComposedLayout>()) {
    CUTEC_TRY(idx, crd2idx(coord, *c));
    return LayoutValue(IntTuple(idx));
  }
  CUTEC_TRY(l, asLayout(a, 1));
  return wrap(crd2idx(coord, l));
}

llvm::Expected<LayoutValue> makeLayoutAny(Args a) {
  if (a[0].get<Layout>()) {
    std::vector<Layout> modes;
    for (size_t i = 0; i < a.size(); ++i) {
      CUTEC_TRY(l, asLayout(a, i));
      modes.push_back(l);
    }
    return LayoutValue(makeLayout(modes));
  }
  CUTEC_TRY(shape, asShape(a, 0));
  if (a.size() == 1)
    return LayoutValue(makeLayout(shape));
  if (a.size() > 2)
    return layoutError("make_layout(shape, stride) takes two arguments");
  CUTEC_TRY(stride, asTuple(a, 1));
  return wrap(makeLayout(shape, stride));
}

llvm::Expected<LayoutValue> selectModes(Args a) {
  CUTEC_TRY(l, asLayout(a, 0));
  std::vector<int64_t> modes;
  for (size_t i = 1; i < a.size(); ++i) {
    CUTEC_TRY(m, asStaticInt(a, i));
    modes.push_back(m);
  }
  return wrap(select(l, modes));
}

llvm::Expected<LayoutValue> modeRange(Args a, bool group) {
  CUTEC_TRY(l, asLayout(a, 0));
  CUTEC_TRY(b, asStaticInt(a, 1));
  CUTEC_TRY(e, asStaticInt(a, 2));
  return wrap(group ? groupModes(l, b, e) : take(l, b, e));
}

llvm::Expected<LayoutValue> tileToShapeAny(Args a) {
  CUTEC_TRY(block, asLayout(a, 0));
  CUTEC_TRY(target, asShape(a, 1));
  std::optional<IntTuple> order;
  if (a.size() == 3) {
    CUTEC_TRY(o, asTuple(a, 2));
    order = o;
  }
  return wrap(tileToShape(block, target, order));
}

Impl localTileImpl(bool wantOffset) {
  return [wantOffset](Args a) -> llvm::Expected<LayoutValue> {
    CUTEC_TRY(l, asLayout(a, 0));
    CUTEC_TRY(t, asTiler(a, 1));
    CUTEC_TRY(coord, asTuple(a, 2));
    CUTEC_TRY(view, localTile(l, t, coord));
    return wantOffset ? LayoutValue(IntTuple(view.offset)) : LayoutValue(view.layout);
  };
}

Impl recastImpl(bool up) {
  return [up](Args a) -> llvm::Expected<LayoutValue> {
    CUTEC_TRY(l, asLayout(a, 0));
    CUTEC_TRY(n, asStaticInt(a, 1));
    return wrap(up ? upcast(l, n) : downcast(l, n));
  };
}

// recast(L, old_bits, new_bits): CuTe's recast_layout between element widths.
llvm::Expected<LayoutValue> recastAny(Args a) {
  CUTEC_TRY(l, asLayout(a, 0));
  CUTEC_TRY(oldBits, asStaticInt(a, 1));
  CUTEC_TRY(newBits, asStaticInt(a, 2));
  if (oldBits <= 0 || newBits <= 0)
    return layoutError("recast: element widths must be positive");
  if (newBits % oldBits == 0)
    return wrap(upcast(l, newBits / oldBits));
  if (oldBits % newBits == 0)
    return wrap(downcast(l, oldBits / newBits));
  return layoutError("recast: " + llvm::Twine(oldBits) + "-bit and " + llvm::Twine(newBits) +
                     "-bit elements do not divide each other");
}

llvm::Expected<LayoutValue> shapeArith(Args a, bool ceil) {
  CUTEC_TRY(x, asTuple(a, 0));
  CUTEC_TRY(y, asTuple(a, 1));
  if (y.isLeaf() && y.leaf().isConstant(0))
    return layoutError("division by zero");
  if (ceil)
    return LayoutValue(ceilDiv(x, y));
  return wrap(shapeDiv(x, y));
}

// min(a, b) on two integers (e.g. a grid of min(tiles, sm_count())).
llvm::Expected<LayoutValue> minOfInts(Args a) {
  CUTEC_TRY(x, asTuple(a, 0));
  CUTEC_TRY(y, asTuple(a, 1));
  if (!x.isLeaf() || !y.isLeaf())
    return layoutError("takes two integers, not " + x.str() + " and " + y.str());
  return LayoutValue(IntTuple(min(x.leaf(), y.leaf())));
}

llvm::Expected<LayoutValue> modeOf(Args a) {
  CUTEC_TRY(l, asLayout(a, 0));
  Layout cur = l;
  for (size_t i = 1; i < a.size(); ++i) {
    CUTEC_TRY(m, asStaticInt(a, i));
    if (m < 0 || m >= static_cast<int64_t>(cur.rank()))
      return layoutError("mode " + llvm::Twine(m) + " is out of range for " + cur.str());
    cur = cur[m];
  }
  return LayoutValue(cur);
}

llvm::Expected<LayoutValue> swizzleAny(Args a) {
  CUTEC_TRY(b, asStaticInt(a, 0));
  CUTEC_TRY(m, asStaticInt(a, 1));
  CUTEC_TRY(s, asStaticInt(a, 2));
  return wrap(Swizzle::make(b, m, s));
}

const std::vector<Function> &functions() {
  static const std::vector<Function> table = {
      {"size", 1, 1, "size(L): number of elements of a layout or shape",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asShaped(a, 0));
         return LayoutValue(IntTuple(size(l)));
       }},
      {"cosize", 1, 1, "cosize(L): one past the largest index",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asShaped(a, 0));
         return LayoutValue(IntTuple(cosize(l)));
       }},
      {"rank", 1, 1, "rank(L): number of top-level modes",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asShaped(a, 0));
         return LayoutValue(IntTuple(int64_t(l.rank())));
       }},
      {"depth", 1, 1, "depth(L): nesting depth (0 for an integer shape)",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asShaped(a, 0));
         return LayoutValue(IntTuple(int64_t(depth(l))));
       }},
      {"shape", 1, 1, "shape(L)", onLayout([](const Layout &l) { return LayoutValue(l.shape); })},
      {"stride", 1, 1, "stride(L)",
       onLayout([](const Layout &l) { return LayoutValue(l.stride); })},
      {"flatten", 1, 1, "flatten(L): all leaves as top-level modes",
       [](Args a) -> llvm::Expected<LayoutValue> {
         if (const IntTuple *t = a[0].get<IntTuple>())
           return LayoutValue(flatten(*t));
         CUTEC_TRY(l, asLayout(a, 0));
         return LayoutValue(flatten(l));
       }},
      {"product", 1, 1, "product(T): product of the leaves of a tuple",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(t, asTuple(a, 0));
         return LayoutValue(IntTuple(product(t)));
       }},
      {"crd2idx", 2, 3, "crd2idx(coord, shape, stride) or crd2idx(coord, L)", crd2idxAny},
      {"idx2crd", 2, 2, "idx2crd(idx, shape): the natural coordinate of an index",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(idx, asTuple(a, 0));
         CUTEC_TRY(shape, asShape(a, 1));
         if (!idx.isLeaf())
           return argError(a, 0, "an integer");
         return LayoutValue(idx2crd(idx.leaf(), shape));
       }},
      {"coalesce", 1, 2, "coalesce(L[, profile]): merge contiguous modes",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asLayout(a, 0));
         if (a.size() == 1)
           return LayoutValue(coalesce(l));
         CUTEC_TRY(profile, asTuple(a, 1));
         return LayoutValue(coalesce(l, profile));
       }},
      {"filter", 1, 1, "filter(L): drop stride-0 and size-1 modes, then coalesce",
       onLayout([](const Layout &l) { return filter(l); })},
      {"filter_zeros", 1, 1, "filter_zeros(L): stride-0 modes become size 1",
       onLayout([](const Layout &l) { return filterZeros(l); })},
      {"composition", 2, 2, "composition(A, B): A o B; B may be a tiler, A a swizzle",
       composeAny},
      {"complement", 1, 2, "complement(L[, cotarget])",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asLayout(a, 0));
         if (a.size() == 1)
           return wrap(complement(l));
         CUTEC_TRY(cotarget, asTuple(a, 1));
         return wrap(complement(l, cotarget));
       }},
      {"right_inverse", 1, 1, "right_inverse(L)",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asLayout(a, 0));
         return wrap(rightInverse(l));
       }},
      {"left_inverse", 1, 1, "left_inverse(L)",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asLayout(a, 0));
         return wrap(leftInverse(l));
       }},
      {"logical_divide", 2, 2, "logical_divide(L, tiler)", onLayoutTiler(logicalDivide)},
      {"zipped_divide", 2, 2, "zipped_divide(L, tiler)", onLayoutTiler(zippedDivide)},
      {"tiled_divide", 2, 2, "tiled_divide(L, tiler)", onLayoutTiler(tiledDivide)},
      {"flat_divide", 2, 2, "flat_divide(L, tiler)", onLayoutTiler(flatDivide)},
      {"logical_product", 2, 2, "logical_product(block, tiler)", onLayoutTiler(logicalProduct)},
      {"zipped_product", 2, 2, "zipped_product(block, tiler)", onLayoutTiler(zippedProduct)},
      {"tiled_product", 2, 2, "tiled_product(block, tiler)", onLayoutTiler(tiledProduct)},
      {"flat_product", 2, 2, "flat_product(block, tiler)", onLayoutTiler(flatProduct)},
      {"blocked_product", 2, 2, "blocked_product(block, L)", onTwoLayouts(blockedProduct)},
      {"raked_product", 2, 2, "raked_product(block, L)", onTwoLayouts(rakedProduct)},
      {"tile_to_shape", 2, 3, "tile_to_shape(block, target_shape[, mode_order])",
       tileToShapeAny},
      {"sf_smem_layout", 5, 5,
       "sf_smem_layout(mn, k, sf_vec, mma_k, stages): block-scaled MMA scale factors in shared "
       "memory (CuTe DSL's make_smem_layout_sfa/sfb)",
       [](Args a) -> llvm::Expected<LayoutValue> {
         int64_t v[5];
         for (size_t i = 0; i < 5; ++i) {
           CUTEC_TRY(x, asStaticInt(a, i));
           v[i] = x;
         }
         return wrap(scaleFactorSmemLayout(v[0], v[1], v[2], v[3], v[4]));
       }},
      {"sf_tmem_layout", 4, 4,
       "sf_tmem_layout(mn, k, sf_vec, mma_k): the same scale factors in tensor memory "
       "(make_tmem_layout_sfa/sfb)",
       [](Args a) -> llvm::Expected<LayoutValue> {
         int64_t v[4];
         for (size_t i = 0; i < 4; ++i) {
           CUTEC_TRY(x, asStaticInt(a, i));
           v[i] = x;
         }
         return wrap(scaleFactorTmemLayout(v[0], v[1], v[2], v[3]));
       }},
      {"make_ordered_layout", 2, 2, "make_ordered_layout(shape, order)",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(shape, asShape(a, 0));
         CUTEC_TRY(order, asTuple(a, 1));
         return wrap(makeOrderedLayout(shape, order));
       }},
      {"make_layout", 1, 16,
       "make_layout(shape[, stride]): compact column-major without a stride; "
       "make_layout(L0, L1, ...) concatenates modes",
       makeLayoutAny},
      {"slice", 2, 2,
       "slice(L, coord): the modes where coord has `_`, of a layout, a swizzled layout or a "
       "shape",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(c, asTuple(a, 1));
         // CuTe slices a shape as it slices its layout's shape.
         if (const IntTuple *shape = a[0].get<IntTuple>()) {
           CUTEC_TRY(l, slice(makeLayout(*shape), c));
           return LayoutValue(l.shape);
         }
         // A swizzled layout keeps its swizzle, its offset moving to the slice's.
         if (const ComposedLayout *s = a[0].get<ComposedLayout>()) {
           CUTEC_TRY(l, slice(s->layout, c));
           CUTEC_TRY(offset, sliceOffset(s->layout, c));
           return LayoutValue(ComposedLayout{s->swizzle, s->offset + offset, l});
         }
         CUTEC_TRY(l, asLayout(a, 0));
         return wrap(slice(l, c));
       }},
      {"slice_offset", 2, 2, "slice_offset(L, coord): the index of coord with `_` as 0",
       [](Args a) -> llvm::Expected<LayoutValue> {
         CUTEC_TRY(l, asLayout(a, 0));
         CUTEC_TRY(c, asTuple(a, 1));
         return wrap(sliceOffset(l, c));
       }},
      {"local_tile", 3, 3, "local_tile(L, tiler, coord): the tile view of a tensor of layout L",
       localTileImpl(false)},
      {"local_tile_offset", 3, 3, "local_tile_offset(L, tiler, coord): that tile's offset",
       localTileImpl(true)},
      {"upcast", 2, 2, "upcast(L, n): view as elements n times wider", recastImpl(true)},
      {"downcast", 2, 2, "downcast(L, n): view as elements n times narrower", recastImpl(false)},
      {"recast", 3, 3, "recast(L, old_bits, new_bits)", recastAny},
      {"append", 2, 2, "append(L, X): X as a new last mode",
       onTwoLayouts([](const Layout &l, const Layout &x) -> llvm::Expected<Layout> {
         return append(l, x);
       })},
      {"prepend", 2, 2, "prepend(L, X): X as a new first mode",
       onTwoLayouts([](const Layout &l, const Layout &x) -> llvm::Expected<Layout> {
         return prepend(l, x);
       })},
      {"select", 2, 16, "select(L, i, j, ...): the listed modes", selectModes},
      {"take", 3, 3, "take(L, begin, end): modes [begin, end)",
       [](Args a) { return modeRange(a, false); }},
      {"group_modes", 3, 3, "group_modes(L, begin, end): modes [begin, end) as one mode",
       [](Args a) { return modeRange(a, true); }},
      {"get", 2, 8, "get(L, i[, j...]): a (nested) mode", modeOf},
      {"ceil_div", 2, 2, "ceil_div(a, b): on integers and shapes",
       [](Args a) { return shapeArith(a, true); }},
      {"min", 2, 2, "min(a, b): the smaller of two integers", minOfInts},
      {"shape_div", 2, 2, "shape_div(a, b): CuTe's exact shape division",
       [](Args a) { return shapeArith(a, false); }},
      {"swizzle", 3, 3, "swizzle(B, M, S): also written S<B,M,S>", swizzleAny},
  };
  return table;
}

const Function *findFunction(llvm::StringRef name) {
  for (const Function &f : functions())
    if (name == f.name)
      return &f;
  return nullptr;
}

} // namespace

bool isLayoutFunction(llvm::StringRef name) { return findFunction(name) != nullptr; }

std::vector<llvm::StringRef> layoutFunctionNames() {
  std::vector<llvm::StringRef> names;
  for (const Function &f : functions())
    names.push_back(f.name);
  return names;
}

llvm::Expected<LayoutValue> callLayoutFunction(llvm::StringRef name, Args args) {
  const Function *f = findFunction(name);
  if (!f)
    return layoutError("unknown layout function '" + name + "'");
  if (args.size() < f->minArgs || args.size() > f->maxArgs)
    return layoutError(name + " takes " +
                       (f->minArgs == f->maxArgs
                            ? llvm::Twine(f->minArgs)
                            : llvm::Twine(f->minArgs) + " to " + llvm::Twine(f->maxArgs)) +
                       " arguments, got " + llvm::Twine(args.size()) + ": " + f->help);
  IntExpr::clearOverflow();
  auto result = f->impl(args);
  if (result && IntExpr::overflowed()) {
    llvm::consumeError(result.takeError());
    return layoutError(name + ": integer overflow: a size, stride or index exceeds 64 bits");
  }
  if (!result) {
    std::string message = llvm::toString(result.takeError());
    if (!llvm::StringRef(message).starts_with(name))
      message = name.str() + ": " + message;
    return layoutError(message);
  }
  return result;
}

} // namespace cutec
