// IRGenBase: diagnostics, the evaluation budget and nesting limit, value
// lookup, run-time values of compile-time numbers and sizes, and the arity
// check of built-ins that parse their own arguments.
#include "frontend/irgen/IRGen.h"

#include "frontend/Suggestions.h"
#include "ir/core/Materialize.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cutec {

/// `value` rounded to `semantics`, to nearest even.
static llvm::APFloat rounded(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat r(value);
  bool inexact;
  r.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &inexact);
  return r;
}

/// `value` as a float of `semantics` prints: the fewest digits that round
/// back to the same value there ("1e+39", "3.4028235e+38"), an integer
/// below 10^16 without an exponent ("65504").
static std::string shortestText(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat want = rounded(value, semantics);
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (rounded(std::strtod(text, nullptr), semantics).bitwiseIsEqual(want))
      break;
  }
  if (std::strchr(text, 'e') && value == std::trunc(value) && std::abs(value) < 1e16)
    std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

/// Why the finite compile-time number `value` cannot be a constant of
/// `type`: it rounds to infinity there; "" when it fits.
static std::string overflowText(double value, ir::DataType type) {
  const llvm::fltSemantics *semantics = type == ir::DataType::F32    ? &llvm::APFloat::IEEEsingle()
                                        : type == ir::DataType::F16  ? &llvm::APFloat::IEEEhalf()
                                        : type == ir::DataType::BF16 ? &llvm::APFloat::BFloat()
                                                                     : nullptr;
  if (!semantics || !std::isfinite(value) || !rounded(value, *semantics).isInfinity())
    return "";
  double largest = llvm::APFloat::getLargest(*semantics).convertToDouble();
  return shortestText(value, llvm::APFloat::IEEEdouble()) + " is out of range for " +
         ir::name(type).str() + ", whose largest finite value is " +
         shortestText(largest, *semantics) + "; write " + (value < 0 ? "-" : "") +
         "math.inf for an infinity";
}

IRGenBase::IRGenBase(IRGen &gen) : gen(gen), ctx(gen.context()) {}

SemaValue IRGenBase::error(llvm::SMLoc loc, const llvm::Twine &message,
                           llvm::ArrayRef<llvm::SMRange> ranges) {
  ++ctx.errorsMet;
  ctx.diags.error(loc, message, ranges);
  return SemaValue::poison();
}

SemaValue IRGenBase::error(const ast::Node &node, const llvm::Twine &message) {
  return error(node.getLoc(), message, {node.getRange()});
}

// A budget of evaluation steps (statements, calls, loop iterations) bounds
// compile-time loops and unrolling on any input.
static constexpr uint64_t kStepBudget = 2'000'000;

bool IRGenBase::step(llvm::SMLoc loc) {
  if (ctx.budgetSpent)
    return false;
  if (++ctx.steps <= kStepBudget)
    return true;
  ctx.budgetSpent = true;
  error(loc, "compile-time evaluation takes too long (more than " + llvm::Twine(kStepBudget) +
                 " steps): is a loop unrolled or a helper called too often?");
  return false;
}

static constexpr unsigned kMaxNesting = 2000;

IRGenBase::Nested::Nested(IRGenBase &base, llvm::SMLoc loc)
    : base(base), within(base.ctx.nesting < kMaxNesting) {
  ++base.ctx.nesting;
  // One report is enough: every level below the limit then fails silently.
  if (!within && !base.ctx.nestingReported) {
    base.ctx.nestingReported = true;
    base.error(loc, "nested too deeply through helper calls and regions (the limit is " +
                        llvm::Twine(kMaxNesting) + " levels)");
  }
}

std::optional<SemaValue> IRGenBase::lookup(llvm::StringRef name) {
  auto local = ctx.frame->locals->find(name);
  if (local != ctx.frame->locals->end())
    return local->second;
  auto global = ctx.globals.find(name);
  if (global != ctx.globals.end())
    return global->second;
  return lookupBuiltin(name);
}

std::optional<SemaValue> IRGenBase::lookupNamed(const ast::Expr &expr) {
  if (const auto *name = llvm::dyn_cast<ast::NameExpr>(&expr))
    return lookup(name->getName());
  if (llvm::isa<ast::AttributeExpr>(expr))
    return gen.exprs().eval(expr);
  return std::nullopt;
}

std::optional<SemaValue> IRGenBase::lookupBuiltin(llvm::StringRef name) {
  if (std::optional<ir::DataType> t = ir::parseDataType(name))
    return SemaValue::dtype(*t);
  if (std::optional<ir::DataType> t = cuteDslElementType(name))
    return SemaValue::dtype(*t);
  if (std::optional<llvm::StringRef> builtin = aliasedBuiltin(name))
    return SemaValue::builtin(*builtin);
  if (IRGenBuiltins::isBuiltinName(name))
    return SemaValue::builtin(name);
  return std::nullopt;
}

std::vector<llvm::StringRef> IRGenBase::builtinNames() {
  std::vector<llvm::StringRef> names = ir::dataTypeNames();
  llvm::append_range(names, cuteDslNames());
  for (const BuiltinInfo &row : builtinTable())
    if (!row.spelling.contains('.'))
      names.push_back(row.spelling);
  llvm::append_range(names, layoutFunctionNames());
  return names;
}

std::vector<llvm::StringRef> IRGenBase::visibleNames() const {
  std::vector<llvm::StringRef> names = builtinNames();
  for (const Scope *scope : {ctx.frame->locals, &ctx.globals})
    for (const auto &entry : *scope)
      names.push_back(entry.getKey());
  return names;
}

ir::Builder *IRGenBase::requireBuilder(llvm::SMLoc loc, const llvm::Twine &what) {
  if (ctx.builder)
    return ctx.builder;
  error(loc, what + " is only available inside a kernel");
  return nullptr;
}

ir::Value *IRGenBase::materialize(const IntExpr &e, llvm::SMLoc loc) {
  ir::Value *v = ir::materialize(*ctx.builder, loc, e, [&](llvm::StringRef name) -> ir::Value * {
    for (const llvm::StringMap<ir::Value *> *names : {&ctx.dynamicSizeArgs, &ctx.runTimeExtents})
      if (auto it = names->find(name); it != names->end())
        return it->second;
    return nullptr;
  });
  if (!v)
    error(loc, "internal error: '" + e.str() + "' names a size that is not of this kernel");
  return v;
}

SemaValue IRGenBase::withRunTimeExtents(const SemaValue &v, llvm::SMLoc loc) {
  if (v.is(SemaValue::Kind::Tuple)) {
    std::vector<SemaValue> elements;
    for (const SemaValue &e : v.elements())
      elements.push_back(withRunTimeExtents(e, loc));
    return SemaValue::tuple(std::move(elements));
  }
  if (!v.is(SemaValue::Kind::RunTime) || v.type() != ir::Type::scalar(ir::DataType::I32) ||
      !ctx.builder)
    return v;
  // One symbol per value, so that the layout algebra sees equal extents
  // as equal (a row-major (m, k):(k, 1) has k twice).
  for (const auto &entry : ctx.runTimeExtents)
    if (entry.getValue() == v.irValue())
      return SemaValue::integer(IntExpr::symbol(entry.getKey()));
  std::string symbol = "?" + std::to_string(ctx.runTimeExtents.size());
  ir::Operation &bind = ctx.builder->create(ir::OpKind::RuntimeExtent, loc, {v.irValue()}, {});
  bind.set(ir::attr::symbol, symbol);
  ctx.runTimeExtents[symbol] = v.irValue();
  return SemaValue::integer(IntExpr::symbol(symbol));
}

ir::Value *IRGenBase::toRunTime(const SemaValue &v, llvm::SMLoc loc, llvm::SMRange range,
                                std::optional<ir::DataType> want) {
  switch (v.kind()) {
  case SemaValue::Kind::Poison:
    return nullptr;
  case SemaValue::Kind::RunTime:
    return v.irValue();
  case SemaValue::Kind::Int:
  case SemaValue::Kind::Float:
  case SemaValue::Kind::Bool:
    break;
  default:
    error(loc, "expected a number, found " + v.describe(), {range});
    return nullptr;
  }
  ir::Builder *b = requireBuilder(loc, "a run-time value");
  if (!b)
    return nullptr;
  if (v.is(SemaValue::Kind::Bool)) {
    if (want && *want != ir::DataType::Bool) {
      error(loc, "a bool cannot be used as " + ir::name(*want), {range});
      return nullptr;
    }
    ir::Operation &op =
        b->create(ir::OpKind::Constant, loc, {}, {ir::Type::scalar(ir::DataType::Bool)});
    op.set(ir::attr::value, v.boolValue());
    return op.result();
  }
  bool isInt = v.is(SemaValue::Kind::Int);
  ir::DataType type = want.value_or(isInt ? ir::DataType::I32 : ir::DataType::F32);
  if (type == ir::DataType::Bool || (!isInt && !ir::isFloat(type))) {
    error(loc, v.describe() + " cannot be used as " + ir::name(type), {range});
    return nullptr;
  }
  const IntExpr *i = isInt ? &v.intValue() : nullptr;
  if (!isInt || (i->isStatic() && ir::isFloat(type))) {
    double value = isInt ? double(i->staticValue()) : v.floatValue();
    if (std::string overflow = overflowText(value, type); !overflow.empty()) {
      error(loc, overflow, {range});
      return nullptr;
    }
    return b->constantFloat(loc, type, value);
  }
  if (i->isStatic())
    return b->constantInt(loc, type, i->staticValue());
  // A size is an i32 at run time; as another type it converts, as a static
  // integer would (`f32(N)`, `x * N` on an f32 `x`).
  ir::Value *size = materialize(*i, loc);
  if (!size || type == ir::DataType::I32)
    return size;
  return b->createValue(ir::OpKind::Convert, loc, ir::Type::scalar(type), {size});
}

ir::Value *IRGenBase::toIndex(const SemaValue &v, const ast::Expr &expr, llvm::StringRef what) {
  if (v.is(SemaValue::Kind::Int))
    return toRunTime(v, expr, ir::DataType::I32);
  if (v.is(SemaValue::Kind::RunTime) && v.type() == ir::Type::scalar(ir::DataType::I32))
    return v.irValue();
  if (!v.isPoison())
    error(expr, what + " must be an integer, not " + v.describe());
  return nullptr;
}

bool IRGenBase::checkArity(CallSite &site, llvm::StringRef name, size_t min, size_t max,
                           llvm::ArrayRef<llvm::StringRef> keywords) {
  size_t n = site.args.size();
  if (n < min || n > max) {
    std::string expected =
        min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max);
    error(site.loc(),
          "wrong number of arguments: '" + name + "' takes " + expected +
              (max == 1 ? " argument" : " arguments") + ", got " + llvm::Twine(n),
          {site.range()});
    return false;
  }
  for (const CallSite::Keyword &kw : site.keywords)
    if (!llvm::is_contained(keywords, kw.name)) {
      error(kw.nameRange.Start,
            "'" + name + "' has no argument named '" + kw.name + "'" +
                didYouMean(kw.name, keywords),
            {kw.nameRange});
      return false;
    }
  return true;
}

} // namespace cutec
