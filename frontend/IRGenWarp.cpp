//===- IRGenWarp.cpp - Warp collectives -----------------------------------===//
//
// `shuffle_sync_bfly(value, offset)` (CuTe DSL's cute.arch.shuffle_sync_bfly):
// every lane of the warp gets the value of lane (lane ^ offset). All 32 lanes
// must take part, from the same statement; the result has value's type.
//
//===----------------------------------------------------------------------===//
#include "frontend/IRGen.h"

namespace cutec {

SemaValue IRGen::callShuffleBfly(CallSite &site) {
  if (!checkArity(site, "shuffle_sync_bfly", 2, 2))
    return SemaValue::poison();
  const SemaValue &offset = site.args[1];
  if (!offset.is(SemaValue::Kind::Int) || !offset.intValue().isStatic() ||
      offset.intValue().staticValue() < 1 || offset.intValue().staticValue() > 31)
    return error(site.argExpr(1),
                 "the lane offset of shuffle_sync_bfly must be a compile-time integer from 1 to "
                 "31, not " +
                     offset.describe());
  ir::Builder *b = requireBuilder(site.loc(), "shuffle_sync_bfly()");
  if (!b)
    return SemaValue::poison();
  ir::Value *value = toRunTime(site.args[0], site.argExpr(0));
  if (!value)
    return SemaValue::poison();
  ir::DataType type = value->type().element();
  if (!value->type().isScalar() ||
      (type != ir::DataType::F32 && type != ir::DataType::I32 && type != ir::DataType::U32))
    return error(site.argExpr(0), "shuffle_sync_bfly moves 32-bit scalars (f32, i32, u32), not " +
                                      value->type().str());
  ir::Operation &op = b->create(ir::OpKind::ShuffleBfly, site.loc(), {value}, {value->type()});
  op.setAttr("offset", offset.intValue().staticValue());
  return SemaValue::runTime(op.result());
}

} // namespace cutec
