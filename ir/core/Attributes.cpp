//===- Attributes.cpp - Attribute values and typed attribute names --------===//
#include "ir/core/Attributes.h"

#include <cstdio>
#include <vector>

namespace cutec::ir {

std::string str(const Attribute &a) {
  struct Printer {
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g", v);
      std::string s = buf;
      return s.find_first_of(".eEn") == std::string::npos ? s + ".0" : s;
    }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string &v) const { return "\"" + v + "\""; }
    std::string operator()(const Type &v) const { return v.str(); }
    std::string operator()(const IntTuple &v) const { return v.str(); }
    std::string operator()(const Layout &v) const { return v.str(); }
  };
  return std::visit(Printer{}, a);
}

std::string describeKinds(unsigned kinds) {
  // In the order of Attribute's alternatives.
  static constexpr llvm::StringLiteral names[] = {"int",  "float",     "bool",  "string",
                                                  "type", "int tuple", "layout"};
  std::vector<llvm::StringRef> listed;
  for (unsigned i = 0; i < std::size(names); ++i)
    if (kinds & (1u << i))
      listed.push_back(names[i]);
  if (listed.empty())
    return "nothing";
  std::string text = listed.front().starts_with("i") ? "an " : "a ";
  for (size_t i = 0; i < listed.size(); ++i)
    text += (i == 0 ? "" : i + 1 == listed.size() ? " or " : ", ") + listed[i].str();
  return text;
}

} // namespace cutec::ir
