//===- IRGenCuteDsl.cpp - CuTe DSL's modules and type attributes ----------===//
//
// What lets a CuTe DSL kernel keep its spellings (docs/porting.md): the
// members of its modules (`cute.size`, `cute.arch.thread_idx`,
// `cutlass.pipeline.PipelineTmaAsync`, `cutlass.Float32`) are the built-ins
// and element types of the same name, and an element type has CuTe DSL's
// class attributes (`Float32.inf`, `Int32.zero`, `Float16.width`).
// `const_expr` and `make_warp_uniform`, which change no value, are here too.
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

#include "frontend/Suggestions.h"

#include <cmath>

namespace cutec {

SemaValue IRGenExpr::moduleMember(const ast::AttributeExpr &attribute, llvm::StringRef module) {
  llvm::StringRef name = attribute.getName();
  std::string qualified = (module + "." + name).str();
  // A submodule, or a row of the module's own ("warpgroup.fence").
  if (const BuiltinInfo *row = findBuiltin(qualified))
    return SemaValue::builtin(row->spelling);
  if (std::optional<SemaValue> member = lookupBuiltin(name))
    return *member;
  return error(attribute.getNameRange().Start,
               "cutec has no counterpart of '" + qualified + "'" +
                   didYouMean(name, builtinNames()) +
                   " (docs/porting.md maps CuTe DSL's names to cutec's)",
               {attribute.getNameRange()});
}

namespace {

/// CuTe DSL's class attributes of an element type: which types have each,
/// and its value.
struct DtypeAttribute {
  llvm::StringLiteral name;
  bool (*applies)(ir::DataType);
  SemaValue (*value)(ir::DataType);
};

bool everyType(ir::DataType) { return true; }
bool isNumericType(ir::DataType t) { return ir::isFloat(t) || ir::isInteger(t); }

constexpr DtypeAttribute kDtypeAttributes[] = {
    {"width", everyType,
     [](ir::DataType t) { return SemaValue::integer(IntExpr(int64_t(ir::bitWidth(t)))); }},
    {"zero", isNumericType,
     [](ir::DataType t) {
       return ir::isFloat(t) ? SemaValue::floating(0.0) : SemaValue::integer(IntExpr(0));
     }},
    {"inf", ir::isFloat, [](ir::DataType) { return SemaValue::floating(INFINITY); }},
    {"nan", ir::isFloat, [](ir::DataType) { return SemaValue::floating(NAN); }},
};

} // namespace

std::optional<SemaValue> IRGenExpr::dtypeAttribute(ir::DataType type, llvm::StringRef name) {
  for (const DtypeAttribute &a : kDtypeAttributes)
    if (a.name == name && a.applies(type))
      return a.value(type);
  return std::nullopt;
}

std::vector<llvm::StringRef> IRGenExpr::dtypeAttributeNames(ir::DataType type) {
  std::vector<llvm::StringRef> names;
  for (const DtypeAttribute &a : kDtypeAttributes)
    if (a.applies(type))
      names.push_back(a.name);
  return names;
}

// const_expr(x): CuTe DSL's mark of a value its compiler must know, which
// in cutec every compile-time value already is; a run-time one is an error.
SemaValue IRGenBuiltins::constExpr(CallSite &site) {
  const SemaValue &value = site.bound[0];
  if (value.is(SemaValue::Kind::RunTime))
    return error(site.boundExpr(0, "value"),
                 "const_expr needs a value known at compile time, not " + value.describe());
  return value;
}

// make_warp_uniform(x): CuTe DSL's hint that an integer is the same in every
// lane of a warp. cutec works out which values are (verify-uniformity), so
// the hint is the value itself.
SemaValue IRGenBuiltins::makeWarpUniform(CallSite &site) {
  const SemaValue &value = site.bound[0];
  if (value.is(SemaValue::Kind::Int) ||
      (value.is(SemaValue::Kind::RunTime) && value.type().isScalar() &&
       ir::isInteger(value.type().element())))
    return value;
  return error(site.boundExpr(0, "value"),
               "make_warp_uniform takes an integer, not " + value.describe());
}

} // namespace cutec
