// The typed attribute names of Attributes.def and Operation's get/set/has.
#include "ir/core/IR.h"

#include <gtest/gtest.h>

namespace cutec::ir {
namespace {

TEST(Attributes, NamesCarryTheirSpellingAndKinds) {
  EXPECT_EQ(attr::ctaGroup.spelling, "cta_group");
  EXPECT_EQ(attr::ctaGroup.kinds, kindBit<int64_t>);
  EXPECT_EQ(attr::value.kinds, kindBit<int64_t> | kindBit<double> | kindBit<bool>);
  EXPECT_EQ(attr::tiler.kinds, kindBit<IntTuple> | kindBit<Layout>);
}

TEST(Attributes, DescribesKinds) {
  EXPECT_EQ(describeKinds(attr::dim.kinds), "an int");
  EXPECT_EQ(describeKinds(attr::to.kinds), "a type");
  EXPECT_EQ(describeKinds(attr::value.kinds), "an int, float or bool");
  EXPECT_EQ(describeKinds(attr::tiler.kinds), "an int tuple or layout");
}

TEST(Attributes, TypedAccessorsUseTheSpelling) {
  Operation op(OpKind::Cmp, {});
  EXPECT_FALSE(op.has(attr::predicate));
  EXPECT_EQ(op.get(attr::predicate), nullptr);
  op.set(attr::predicate, "lt");
  ASSERT_NE(op.get(attr::predicate), nullptr);
  EXPECT_EQ(*op.get(attr::predicate), "lt");
  EXPECT_EQ(*op.get(ir::attr::predicate), "lt");

  // A name of several kinds: get<T> is the value when it holds a T.
  Operation constant(OpKind::Constant, {});
  constant.set(attr::value, 2.5);
  EXPECT_EQ(constant.get<int64_t>(attr::value), nullptr);
  ASSERT_NE(constant.get<double>(attr::value), nullptr);
  EXPECT_EQ(*constant.get<double>(attr::value), 2.5);
  constant.set(attr::value, int64_t(7));
  EXPECT_EQ(*constant.get<int64_t>(attr::value), 7);
  EXPECT_EQ(str(*constant.attr("value")), "7");
}

} // namespace
} // namespace cutec::ir
