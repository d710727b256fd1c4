//===- Materialize.cpp - Symbolic sizes as IR arithmetic ------------------===//
#include "ir/core/Materialize.h"

namespace cutec::ir {
namespace {

class Materializer {
public:
  Materializer(Builder &builder, llvm::SMLoc loc,
               const std::function<Value *(llvm::StringRef)> &symbol)
      : builder(builder), loc(loc), symbol(symbol) {}

  Value *emit(const IntExpr &e) {
    if (e.isStatic())
      return constant(e.staticValue());
    const IntExpr::Node &n = *e.dynamicNode();
    switch (n.kind) {
    case IntExpr::Kind::Const: // constants are never nodes
      return constant(e.staticValue());
    case IntExpr::Kind::Symbol:
      return symbol(n.name);
    case IntExpr::Kind::Add:
      return fold(OpKind::Add, n.operands, n.coeff, 0);
    case IntExpr::Kind::Mul:
      return fold(OpKind::Mul, n.operands, n.coeff, 1);
    case IntExpr::Kind::Div:
      return binary(OpKind::Div, emit(n.operands[0]), emit(n.operands[1]));
    case IntExpr::Kind::Mod:
      return binary(OpKind::Rem, emit(n.operands[0]), emit(n.operands[1]));
    case IntExpr::Kind::CeilDiv: {
      // (a + (b - 1)) / b, with b - 1 folded when b is static.
      const IntExpr &b = n.operands[1];
      Value *a = emit(n.operands[0]);
      Value *divisor = emit(b);
      Value *bias =
          b.isStatic() ? constant(b.staticValue() - 1) : binary(OpKind::Sub, divisor, constant(1));
      return binary(OpKind::Div, binary(OpKind::Add, a, bias), divisor);
    }
    case IntExpr::Kind::Min: {
      Value *a = emit(n.operands[0]);
      Value *b = emit(n.operands[1]);
      if (!a || !b)
        return nullptr;
      Operation &cmp = builder.create(OpKind::Cmp, loc, {a, b}, {Type::scalar(DataType::Bool)});
      cmp.set(attr::predicate, std::string("lt"));
      return builder.createValue(OpKind::Select, loc, i32(), {cmp.result(), a, b});
    }
    }
    return nullptr;
  }

private:
  static Type i32() { return Type::scalar(DataType::I32); }

  Value *constant(int64_t v) { return builder.constantInt(loc, DataType::I32, v); }

  Value *binary(OpKind kind, Value *a, Value *b) {
    if (!a || !b)
      return nullptr;
    return builder.createValue(kind, loc, i32(), {a, b});
  }

  // A canonical sum or product: its dynamic operands, then the constant term
  // or factor unless it is the identity.
  Value *fold(OpKind kind, const std::vector<IntExpr> &operands, int64_t coeff, int64_t identity) {
    Value *acc = nullptr;
    for (const IntExpr &op : operands) {
      Value *v = emit(op);
      if (!v)
        return nullptr;
      acc = acc ? binary(kind, acc, v) : v;
    }
    if (coeff != identity)
      acc = acc ? binary(kind, acc, constant(coeff)) : constant(coeff);
    return acc;
  }

  Builder &builder;
  llvm::SMLoc loc;
  const std::function<Value *(llvm::StringRef)> &symbol;
};

} // namespace

Value *materialize(Builder &builder, llvm::SMLoc loc, const IntExpr &expr,
                   const std::function<Value *(llvm::StringRef symbol)> &symbol) {
  return Materializer(builder, loc, symbol).emit(expr);
}

} // namespace cutec::ir
