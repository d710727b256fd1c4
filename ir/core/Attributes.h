//===- Attributes.h - Attribute values and typed attribute names ----------===//
//
// An operation's attributes are named values. Attributes.def lists every
// name with the kinds of value it may hold; each becomes a constant
// `attr::name` that Operation::get and Operation::set take, so that a
// misspelt name or a value of the wrong kind does not compile. Ops.def says
// which ops take which names, and the verifier checks it.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_ATTRIBUTES_H
#define CUTEC_IR_CORE_ATTRIBUTES_H

#include "ir/core/Type.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <type_traits>
#include <variant>

namespace cutec::ir {

/// Attribute values: integers, floats, strings, bools, types, IntTuples (also
/// used for symbolic expressions) and layouts.
using Attribute = std::variant<int64_t, double, bool, std::string, Type, IntTuple, Layout>;
std::string str(const Attribute &a);

template <typename T, typename... Alternatives>
constexpr unsigned kindBitIn(const std::variant<Alternatives...> *) {
  constexpr bool matches[] = {std::is_same_v<T, Alternatives>...};
  for (unsigned i = 0; i < sizeof...(Alternatives); ++i)
    if (matches[i])
      return 1u << i;
  return 0;
}
/// One bit per kind of attribute value: bit i for Attribute's alternative i.
template <typename T>
inline constexpr unsigned kindBit = kindBitIn<T>(static_cast<const Attribute *>(nullptr));

/// The kinds of `kinds` (kindBit bits) in words: "an int", "an int, float
/// or bool".
std::string describeKinds(unsigned kinds);

/// The name of an attribute that holds a value of one of `Kinds`.
template <typename... Kinds> struct AttrName {
  static_assert(((kindBit<Kinds> != 0) && ...), "an attribute kind is an Attribute alternative");
  static constexpr unsigned kinds = (kindBit<Kinds> | ...);
  llvm::StringLiteral spelling;
};

/// Every attribute name of Attributes.def: attr::dim, attr::ctaGroup, ...
namespace attr {
using Int = int64_t;
using Float = double;
using Bool = bool;
using String = std::string;
#define CUTEC_ATTR(Identifier, Spelling, ...)                                                      \
  inline constexpr AttrName<__VA_ARGS__> Identifier{Spelling};
#include "ir/core/Attributes.def"
} // namespace attr

} // namespace cutec::ir

#endif
