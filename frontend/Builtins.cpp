// The built-in table: frontend/Builtins.def's rows, their signatures parsed
// once.
#include "frontend/Builtins.h"

#include "frontend/irgen/IRGen.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ErrorHandling.h"

namespace cutec {

static BuiltinInfo makeRow(llvm::StringRef spelling, llvm::StringRef signature,
                           BuiltinHandler handler, ir::OpKind op) {
  BuiltinInfo info;
  info.spelling = spelling;
  info.signatureText = signature;
  std::string error;
  // A malformed row is a bug in the table, which BuiltinTableTest reports
  // with the row; here it leaves an unchecked signature.
  if (std::optional<BuiltinSignature> parsed = parseBuiltinSignature(signature, error))
    info.signature = std::move(*parsed);
  info.handler = handler;
  info.op = op;
  return info;
}

llvm::ArrayRef<BuiltinInfo> builtinTable() {
  static const std::vector<BuiltinInfo> table = [] {
    std::vector<BuiltinInfo> rows;
#define HANDLER(domain, handler)                                                                   \
  [](IRGen &gen, CallSite &site) { return gen.domain().handler(site); }
#define BUILTIN(spelling, signature, domain, handler)                                              \
  rows.push_back(makeRow(spelling, signature, HANDLER(domain, handler), ir::OpKind::Kernel));
#define INTRINSIC(spelling, signature, op)                                                         \
  rows.push_back(makeRow(spelling, signature, nullptr, ir::OpKind::op));
#define UPDATING_METHOD(spelling, signature, domain, handler)                                      \
  BUILTIN(spelling, signature, domain, handler)                                                    \
  rows.back().updatesSelf = true;
#define NOT_CALLABLE(spelling)                                                                     \
  BUILTIN(spelling, "...", builtins, notAFunction)                                                 \
  rows.back().notCallable = true;
#define MODULE(spelling)                                                                           \
  NOT_CALLABLE(spelling)                                                                           \
  rows.back().isModule = true;
#include "frontend/Builtins.def"
#undef HANDLER
    return rows;
  }();
  return table;
}

bool isUpdatingMethodName(llvm::StringRef member) {
  static const llvm::StringSet<> members = [] {
    llvm::StringSet<> set;
    for (const BuiltinInfo &row : builtinTable())
      if (row.updatesSelf)
        set.insert(row.spelling.rsplit('.').second);
    return set;
  }();
  return members.contains(member);
}

std::optional<llvm::StringRef> aliasedBuiltin(llvm::StringRef spelling) {
  static const std::pair<llvm::StringRef, llvm::StringRef> aliases[] = {
#define ALIAS(spelling, builtin) {spelling, builtin},
#include "frontend/Builtins.def"
  };
  for (const auto &[alias, builtin] : aliases)
    if (alias == spelling)
      return builtin;
  return std::nullopt;
}

std::optional<ir::DataType> cuteDslElementType(llvm::StringRef spelling) {
  static const std::pair<llvm::StringRef, ir::DataType> types[] = {
#define ELEMENT_TYPE(spelling, type) {spelling, ir::DataType::type},
#include "frontend/Builtins.def"
  };
  for (const auto &[name, type] : types)
    if (name == spelling)
      return type;
  return std::nullopt;
}

std::vector<llvm::StringRef> cuteDslNames() {
  return {
#define ALIAS(spelling, builtin) spelling,
#define ELEMENT_TYPE(spelling, type) spelling,
#include "frontend/Builtins.def"
  };
}

const BuiltinInfo *findBuiltin(llvm::StringRef spelling) {
  static const llvm::StringMap<const BuiltinInfo *> index = [] {
    llvm::StringMap<const BuiltinInfo *> map;
    for (const BuiltinInfo &row : builtinTable())
      map[row.spelling] = &row;
    return map;
  }();
  auto it = index.find(spelling);
  return it == index.end() ? nullptr : it->second;
}

std::optional<std::string> builtinCalledAt(llvm::SMLoc loc) {
  const char *begin = loc.getPointer();
  if (!begin)
    return std::nullopt;
  // A dotted name (the buffer ends in a NUL), then the call's parenthesis.
  const char *end = begin;
  while (llvm::isAlnum(*end) || *end == '_' || *end == '.')
    ++end;
  llvm::StringRef name(begin, end - begin);
  if (*end != '(' || !findBuiltin(name))
    return std::nullopt;
  return (name + "()").str();
}

} // namespace cutec
