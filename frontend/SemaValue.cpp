// SemaValue: constructors, conversion to layout-function arguments, messages.
#include "frontend/SemaValue.h"

namespace cutec {

SemaValue SemaValue::integer(IntExpr v) {
  SemaValue s(Kind::Int);
  s.integerValue = std::move(v);
  return s;
}

SemaValue SemaValue::floating(double v) {
  SemaValue s(Kind::Float);
  s.realValue = v;
  return s;
}

SemaValue SemaValue::boolean(bool v) {
  SemaValue s(Kind::Bool);
  s.flag = v;
  return s;
}

SemaValue SemaValue::tuple(std::vector<SemaValue> elements) {
  SemaValue s(Kind::Tuple);
  s.children = std::make_shared<const std::vector<SemaValue>>(std::move(elements));
  return s;
}

SemaValue SemaValue::fromIntTuple(const IntTuple &t) {
  if (t.isUnderscore())
    return underscore();
  if (t.isLeaf())
    return integer(t.leaf());
  std::vector<SemaValue> elements;
  for (const IntTuple &e : t.elements())
    elements.push_back(fromIntTuple(e));
  return tuple(std::move(elements));
}

SemaValue SemaValue::fromLayoutValue(LayoutValue v) {
  if (const IntTuple *t = v.get<IntTuple>())
    return fromIntTuple(*t);
  SemaValue s(Kind::Layout);
  s.layoutValue = std::make_shared<const LayoutValue>(std::move(v));
  return s;
}

SemaValue SemaValue::dtype(ir::DataType t) {
  SemaValue s(Kind::DType);
  s.elementType = t;
  return s;
}

SemaValue SemaValue::helper(const ast::FunctionDef &def) {
  SemaValue s(Kind::Helper);
  s.def = &def;
  s.label = def.getName();
  return s;
}

SemaValue SemaValue::kernel(const ast::FunctionDef &def) {
  SemaValue s(Kind::Kernel);
  s.def = &def;
  s.label = def.getName();
  return s;
}

SemaValue SemaValue::builtin(llvm::StringRef name) {
  SemaValue s(Kind::Builtin);
  s.label = name;
  return s;
}

SemaValue SemaValue::method(SemaValue receiver, llvm::StringRef name) {
  SemaValue s(Kind::Method);
  s.children = std::make_shared<const std::vector<SemaValue>>(1, std::move(receiver));
  s.label = name;
  return s;
}

SemaValue SemaValue::tiledMma(TiledMma mma) {
  SemaValue s(Kind::TiledMma);
  s.mmaValue = std::make_shared<const TiledMma>(std::move(mma));
  return s;
}

SemaValue SemaValue::object(llvm::StringRef className, std::vector<std::string> fieldNames,
                            std::vector<SemaValue> fieldValues) {
  SemaValue s(Kind::Object);
  s.label = className;
  s.names = std::make_shared<const std::vector<std::string>>(std::move(fieldNames));
  s.children = std::make_shared<const std::vector<SemaValue>>(std::move(fieldValues));
  return s;
}

const SemaValue *SemaValue::field(llvm::StringRef name) const {
  for (size_t i = 0; i < names->size(); ++i)
    if ((*names)[i] == name)
      return &(*children)[i];
  return nullptr;
}

SemaValue SemaValue::withField(llvm::StringRef name, SemaValue value) const {
  std::vector<SemaValue> values = *children;
  for (size_t i = 0; i < names->size(); ++i)
    if ((*names)[i] == name)
      values[i] = std::move(value);
  SemaValue s = *this;
  s.children = std::make_shared<const std::vector<SemaValue>>(std::move(values));
  return s;
}

SemaValue SemaValue::string(llvm::StringRef text) {
  SemaValue s(Kind::String);
  s.label = text;
  return s;
}

SemaValue SemaValue::runTime(ir::Value *v) {
  SemaValue s(Kind::RunTime);
  s.value = v;
  return s;
}

// Converts to an IntTuple where every leaf is an Int or `_`.
static std::optional<IntTuple> toIntTuple(const SemaValue &v) {
  switch (v.kind()) {
  case SemaValue::Kind::Int:
    return IntTuple(v.intValue());
  case SemaValue::Kind::Underscore:
  case SemaValue::Kind::None:
    return IntTuple::underscore();
  case SemaValue::Kind::Tuple: {
    std::vector<IntTuple> elements;
    for (const SemaValue &e : v.elements()) {
      std::optional<IntTuple> t = toIntTuple(e);
      if (!t)
        return std::nullopt;
      elements.push_back(std::move(*t));
    }
    return IntTuple::tuple(std::move(elements));
  }
  default:
    return std::nullopt;
  }
}

std::optional<LayoutValue> SemaValue::toLayoutValue() const {
  if (valueKind == Kind::Layout)
    return *layoutValue;
  // None is `_` inside a tuple ((None, 0)); alone it is no layout value.
  if (valueKind == Kind::None)
    return std::nullopt;
  if (std::optional<IntTuple> t = toIntTuple(*this))
    return LayoutValue(std::move(*t));
  return std::nullopt;
}

bool SemaValue::sameAs(const SemaValue &other) const {
  if (valueKind != other.valueKind)
    return false;
  switch (valueKind) {
  case Kind::Poison:
  case Kind::None:
  case Kind::Underscore:
    return true;
  case Kind::Int:
    return integerValue == other.integerValue;
  case Kind::Float:
    return realValue == other.realValue;
  case Kind::Bool:
    return flag == other.flag;
  case Kind::Tuple:
    if (children->size() != other.children->size())
      return false;
    for (size_t i = 0; i < children->size(); ++i)
      if (!(*children)[i].sameAs((*other.children)[i]))
        return false;
    return true;
  case Kind::Layout:
    return layoutValue->str() == other.layoutValue->str();
  case Kind::DType:
    return elementType == other.elementType;
  case Kind::Helper:
  case Kind::Kernel:
    return def == other.def;
  case Kind::Builtin:
  case Kind::String:
    return label == other.label;
  case Kind::Method:
    return label == other.label && receiver().sameAs(other.receiver());
  case Kind::RunTime:
    return value == other.value;
  case Kind::TiledMma:
    return *mmaValue == *other.mmaValue;
  case Kind::Object:
    if (label != other.label || children->size() != other.children->size())
      return false;
    for (size_t i = 0; i < children->size(); ++i)
      if (!(*children)[i].sameAs((*other.children)[i]))
        return false;
    return true;
  }
  return false;
}

std::string SemaValue::describe() const {
  switch (valueKind) {
  case Kind::Poison:
    return "an erroneous value";
  case Kind::None:
    return "nothing (None)";
  case Kind::Int:
    return (integerValue.isStatic() ? "the integer " : "the dynamic size ") + integerValue.str();
  case Kind::Float:
    return "a float";
  case Kind::Bool:
    return flag ? "True" : "False";
  case Kind::Underscore:
    return "`_`";
  case Kind::Tuple:
    return "a tuple";
  case Kind::Layout:
    return "the " + layoutValue->kindName() + " " + layoutValue->str();
  case Kind::DType:
    return "the type " + ir::name(elementType).str();
  case Kind::String:
    return "the string \"" + label.str() + "\"";
  case Kind::Helper:
    return "the function '" + label.str() + "'";
  case Kind::Kernel:
    return "the kernel '" + label.str() + "'";
  case Kind::Builtin:
    return "the built-in '" + label.str() + "'";
  case Kind::Method:
    return "the method '" + label.str() + "'";
  case Kind::RunTime:
    return value->type().isScalar() ? "a value of type " + value->type().str()
                                    : "a " + value->type().str();
  case Kind::TiledMma:
    return (mmaValue->isSlice ? "the MMA slice " : "the tiled MMA ") + mmaValue->str();
  case Kind::Object:
    return "a " + label.str();
  }
  return "a value";
}

} // namespace cutec
