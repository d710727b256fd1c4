//===- IRGenAtomic.cpp - Atomic read-modify-write of one element ----------===//
//
// `atomic_add/max/min/and/or/xor/exch(elem, val)` and
// `atomic_cas(elem, cmp=c, val=v)` (CuTe DSL's cute.arch.atomic_*): `elem`
// is one element of a tensor in global or shared memory (`t[i]`, as a store
// takes it); the element is updated indivisibly and the call gives its old
// value. The value has the element's type: f32, i32 or u32, with the
// combinations PTX's atom has (max, min and the bitwise operations on
// integers only).
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

namespace cutec {

/// Whether the operation takes f32 elements besides i32 and u32 (PTX atom:
/// .add .f32/.s32/.u32 and .exch/.cas .b32; .min/.max .s32/.u32 and the
/// bitwise .b32 operations only on integers here).
static bool takesF32(llvm::StringRef op) { return op == "add" || op == "exch" || op == "cas"; }

SemaValue IRGenTensor::atomicUpdate(CallSite &site) {
  llvm::StringRef op = site.callee.drop_front(llvm::StringRef("atomic_").size());
  if (!requireBuilder(site.loc(), site.callee + "()"))
    return SemaValue::poison();
  const SemaValue &elem = site.bound[0];
  const ir::Type &type = elem.type();
  ir::MemorySpace space = type.memorySpace();
  if (space != ir::MemorySpace::Global && space != ir::MemorySpace::Shared)
    return error(
        site.argExpr(0),
        site.callee + " updates an element of a tensor in global or shared memory, not " +
            (space == ir::MemorySpace::Register ? "of a register fragment" : "of " + type.str()));
  if (size(type.tensorLayout()) != IntExpr(1))
    return error(site.argExpr(0),
                 site.callee + " updates one element: index it (t[i]), not the view " + type.str());
  ir::DataType element = type.element();
  if (element != ir::DataType::I32 && element != ir::DataType::U32 &&
      (element != ir::DataType::F32 || !takesF32(op)))
    return error(site.argExpr(0), site.callee + " is not defined on " + ir::name(element) +
                                      " elements; it takes " +
                                      (takesF32(op) ? "f32, i32 or u32" : "i32 or u32"));
  auto valueExpr = [&](size_t i) -> const ast::Expr & {
    return site.boundExpr(i, i + 1 == site.bound.size() ? "val" : "cmp");
  };
  llvm::SmallVector<ir::Value *, 3> operands{elem.irValue()};
  for (size_t i = 1; i < site.bound.size(); ++i) {
    const SemaValue &v = site.bound[i];
    if (v.is(SemaValue::Kind::RunTime) && v.type() != ir::Type::scalar(element))
      return error(valueExpr(i), site.callee + " on " + ir::name(element) + " elements needs " +
                                     ir::name(element) + " values, not " + v.describe() +
                                     "; convert it with .to(" + ir::name(element) + ")");
    ir::Value *value = toRunTime(v, valueExpr(i), element);
    if (!value)
      return SemaValue::poison();
    operands.push_back(value);
  }
  ir::Operation &atomic =
      ctx.builder->create(ir::OpKind::Atomic, site.loc(), operands, {ir::Type::scalar(element)});
  atomic.set(ir::attr::op, op.str());
  return SemaValue::runTime(atomic.result());
}

} // namespace cutec
