// IRGenTensor: the IRGen domain (IRGen::tensors()) of tensors and register
// fragments: local_tile, slicing, load, store, extract, coordinate tensors,
// element-wise operations on fragments, and atomics on one element.
//
// Implemented in:
//   IRGenTensor.cpp   local_tile, slicing, load, store, extract, coordinate tensors
//   IRGenFragment.cpp register fragments: elements, element-wise operations, reduce
//   IRGenFragmentValues.cpp building fragments: frag[c] = v, where, full_like, fill
//   IRGenAtomic.cpp   atomic read-modify-write of one element
//   IRGenView.cpp     iterators, make_tensor, views under layout functions, recast_tensor
#ifndef CUTEC_FRONTEND_IRGEN_IRGENTENSOR_H
#define CUTEC_FRONTEND_IRGEN_IRGENTENSOR_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenTensor : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  static bool isFragment(const SemaValue &v);
  /// Element `index` (in the fragment's logical order) as a run-time scalar.
  SemaValue fragmentElement(const SemaValue &fragment, int64_t index, llvm::SMLoc loc);
  /// `scalar` applied to each element of the fragment operands (the other
  /// operands as they are), gathered into a fragment of their one shape.
  SemaValue elementwise(llvm::ArrayRef<SemaValue> operands, llvm::ArrayRef<const ast::Expr *> exprs,
                        llvm::SMLoc loc,
                        llvm::function_ref<SemaValue(llvm::ArrayRef<SemaValue>)> scalar);
  /// frag.reduce(ReductionOp.X, init, reduction_profile=0): one scalar, or
  /// per kept mode a fragment; in the elements' order.
  SemaValue fragmentReduce(const SemaValue &fragment, CallSite &site);
  /// The fragment of shape `shape` whose element i is `fragment`'s element
  /// indices[i].
  SemaValue gatherFragment(const SemaValue &fragment, llvm::ArrayRef<int64_t> indices,
                           const IntTuple &shape, llvm::SMLoc loc);
  /// What frag[coords] names: element indices in the fragment's logical
  /// order, and with `_` among the coordinates the shape they form.
  struct FragmentSelection {
    std::vector<int64_t> indices;
    std::optional<IntTuple> shape;
  };
  std::optional<FragmentSelection> selectElements(const SemaValue &fragment,
                                                  const ast::SubscriptExpr &subscript,
                                                  const std::vector<SemaValue> &coords);
  /// The variable `base` names, which takes a fragment whose elements
  /// change (frag[c] = v, frag.fill(v)); null, reported, when `base` is no
  /// variable or a helper's parameter (whose caller would not see it).
  const ast::NameExpr *fragmentVariable(const ast::Expr &base);
  /// frag.store(v): the fragment's variable takes `v`.
  SemaValue storeFragment(const SemaValue &fragment, CallSite &site);
  /// frag[coords] = value: the fragment with those elements replaced.
  SemaValue assignElements(const SemaValue &fragment, const ast::SubscriptExpr &subscript,
                           const std::vector<SemaValue> &coords, const SemaValue &value,
                           const ast::Expr &valueExpr);
  /// where(cond, a, b) and `a if cond else b` on fragments: a select per
  /// element (`exprs`: where cond, a and b are written).
  SemaValue select(const SemaValue &cond, const SemaValue &a, const SemaValue &b,
                   llvm::ArrayRef<const ast::Expr *> exprs, llvm::SMLoc loc);
  SemaValue where(CallSite &site);
  /// full_like(t, value, dtype=None), zeros_like and ones_like(t, dtype=None).
  SemaValue fullLike(CallSite &site);
  /// A fragment of `shape` whose every element is `value`.
  SemaValue filledFragment(const IntTuple &shape, ir::Value *value, llvm::SMLoc loc);
  /// frag.fill(value): the variable takes the filled fragment.
  SemaValue fill(const SemaValue &fragment, CallSite &site);
  /// atomic_add/max/min/and/or/xor/exch(elem, val), atomic_cas(elem, cmp=,
  /// val=): one cute.atomic giving the element's old value.
  SemaValue atomicUpdate(CallSite &site);
  SemaValue localTile(CallSite &site);
  /// The view of `tensor` that the slice `pattern` selects (`_`, static
  /// integers, `$i` for `operands[i]`).
  SemaValue sliceWith(const SemaValue &tensor, const IntTuple &pattern,
                      std::vector<ir::Value *> operands, llvm::SMLoc loc);
  /// make_identity_tensor(shape): a coordinate tensor, one `coord` tensor
  /// per mode; elem_less(coord, shape) compares coordinates.
  SemaValue makeIdentityTensor(CallSite &site);
  SemaValue elemLess(CallSite &site);
  /// The coordinate tensor of these `coord` tensors (one per mode).
  static SemaValue coordinateTensor(std::vector<SemaValue> modes);
  static bool isCoordinateTensor(const SemaValue &v);
  /// The coordinate tensor whose modes are `f` of `c`'s; poison when one is.
  SemaValue mapCoordinates(const SemaValue &c, llvm::function_ref<SemaValue(const SemaValue &)> f);
  /// c[...]: a coordinate tensor, or with every mode fixed the coordinate,
  /// a tuple of i32; `c[i]` with one compile-time index on a tensor of
  /// several modes is its i-th element in column-major order.
  SemaValue sliceCoordinates(const SemaValue &c, const ast::SubscriptExpr &subscript,
                             const std::vector<SemaValue> &coords);
  SemaValue sliceTensor(const SemaValue &tensor, const ast::SubscriptExpr &subscript,
                        const std::vector<SemaValue> &coords);
  /// Element `index` (compile-time or run-time) of a rank-1 tensor in memory.
  SemaValue elementView(const SemaValue &tensor, const SemaValue &index, llvm::SMLoc loc);
  SemaValue rearrangeFragment(const SemaValue &fragment, const Layout &arranged, llvm::SMLoc loc,
                              llvm::SMRange range);
  SemaValue extract(const SemaValue &fragment, const ast::SubscriptExpr &subscript,
                    const std::vector<SemaValue> &coords);
  SemaValue load(const SemaValue &view, const ast::Expr &expr);

  /// t.iterator: a `Pointer` object (the tensor and an element offset).
  static bool isPointer(const SemaValue &v);
  SemaValue iteratorOf(const SemaValue &tensor, const ast::Expr &expr);
  /// iterator + n, n + iterator, iterator - n.
  SemaValue pointerArithmetic(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs,
                              const BinarySite &site);
  /// make_ptr(dtype, address, mem_space, assumed_align=): global memory at a
  /// run-time address, as a `Pointer`.
  SemaValue makePtr(CallSite &site);
  SemaValue makeTensor(CallSite &site);
  SemaValue recastTensor(CallSite &site);
  /// Whether the layout function `name` of a tensor gives a tensor (a
  /// view of the same memory under the function's layout), as in CuTe.
  static bool givesView(llvm::StringRef name);
  SemaValue viewUnder(const SemaValue &tensor, const Layout &layout, llvm::SMLoc loc);
  void store(const SemaValue &value, const SemaValue &view, const ast::Expr &valueExpr,
             llvm::SMLoc loc);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENTENSOR_H
