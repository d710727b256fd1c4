// Parsing of the built-in table's signatures (frontend/BuiltinSignature.h).
#include "frontend/BuiltinSignature.h"

#include "llvm/ADT/StringSwitch.h"

namespace cutec {

size_t BuiltinSignature::positionalCount() const {
  size_t n = 0;
  for (const BuiltinParam &p : params)
    n += !p.keywordOnly;
  return n;
}

size_t BuiltinSignature::requiredCount() const {
  size_t n = 0;
  for (const BuiltinParam &p : params)
    n += !p.keywordOnly && !p.optional;
  return n;
}

int BuiltinSignature::find(llvm::StringRef name) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name)
      return int(i);
  return -1;
}

llvm::StringRef describeArgKind(ArgKind kind) {
  switch (kind) {
  case ArgKind::I32:
    return "an integer";
  case ArgKind::Bool:
    return "a bool";
  case ArgKind::Int:
    return "a compile-time integer";
  case ArgKind::Flag:
    return "True or False";
  case ArgKind::Mbarrier:
    return "one u64 element of a shared tensor (an mbarrier, e.g. bars[0])";
  case ArgKind::ClcResponse:
    return "one u128 element of a shared tensor (a try_cancel response, e.g. response[0])";
  case ArgKind::Smem:
    return "a shared tensor";
  case ArgKind::Gmem:
    return "a tensor in global memory";
  case ArgKind::Tensor:
    return "a tensor";
  case ArgKind::String:
    return "a string";
  case ArgKind::Any:
    return "a value";
  }
  return "a value";
}

static std::optional<int64_t> parseInteger(llvm::StringRef text) {
  int64_t v;
  if (text.trim().getAsInteger(0, v))
    return std::nullopt;
  return v;
}

// "int[24..256 step 8]" → Int with its range.
static bool parseKind(llvm::StringRef text, BuiltinParam &param) {
  text = text.trim();
  llvm::StringRef base = text.take_until([](char c) { return c == '['; }).trim();
  std::optional<ArgKind> kind = llvm::StringSwitch<std::optional<ArgKind>>(base)
                                    .Case("i32", ArgKind::I32)
                                    .Case("bool", ArgKind::Bool)
                                    .Case("int", ArgKind::Int)
                                    .Case("flag", ArgKind::Flag)
                                    .Case("mbarrier", ArgKind::Mbarrier)
                                    .Case("clc_response", ArgKind::ClcResponse)
                                    .Case("smem", ArgKind::Smem)
                                    .Case("gmem", ArgKind::Gmem)
                                    .Case("tensor", ArgKind::Tensor)
                                    .Case("str", ArgKind::String)
                                    .Case("any", ArgKind::Any)
                                    .Default(std::nullopt);
  if (!kind)
    return false;
  param.kind = *kind;
  llvm::StringRef range = text.drop_front(base.size()).trim();
  if (range.empty())
    return true;
  if (*kind != ArgKind::Int || !range.consume_front("[") || !range.consume_back("]"))
    return false;
  auto [bounds, step] = range.split(" step ");
  auto [lo, hi] = bounds.split("..");
  param.lo = parseInteger(lo);
  param.hi = parseInteger(hi);
  if (!step.empty()) {
    std::optional<int64_t> k = parseInteger(step);
    if (!k || *k <= 0)
      return false;
    param.step = *k;
  }
  return param.lo && param.hi;
}

std::optional<BuiltinSignature> parseBuiltinSignature(llvm::StringRef text, std::string &error) {
  BuiltinSignature sig;
  text = text.trim();
  if (text == "...") {
    sig.unchecked = true;
    return sig;
  }
  auto [params, result] = text.split("->");
  if (!result.empty()) {
    sig.result = ir::parseDataType(result.trim());
    if (!sig.result) {
      error = "unknown result type '" + result.trim().str() + "'";
      return std::nullopt;
    }
  }
  bool keywordOnly = false;
  llvm::SmallVector<llvm::StringRef, 8> items;
  params.split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    item = item.trim();
    if (item.empty())
      continue;
    if (item == "*") {
      keywordOnly = true;
      continue;
    }
    BuiltinParam param;
    param.keywordOnly = keywordOnly;
    auto [decl, def] = item.split('=');
    auto [name, kind] = decl.split(':');
    param.name = name.trim().str();
    if (param.name.empty() || kind.empty() || !parseKind(kind, param)) {
      error = "malformed parameter '" + item.str() + "'";
      return std::nullopt;
    }
    if (!def.empty()) {
      def = def.trim();
      param.optional = true;
      param.defaultValue = def == "True" ? std::optional<int64_t>(1)
                           : def == "False" ? std::optional<int64_t>(0)
                                            : parseInteger(def);
      if (!param.defaultValue && def != "None") {
        error = "malformed default in '" + item.str() + "'";
        return std::nullopt;
      }
    }
    sig.params.push_back(std::move(param));
  }
  return sig;
}

} // namespace cutec
