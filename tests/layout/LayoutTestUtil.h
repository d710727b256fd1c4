// Helpers shared by the layout tests: evaluate an expression or fail the test.
#ifndef CUTEC_TESTS_LAYOUT_LAYOUTTESTUTIL_H
#define CUTEC_TESTS_LAYOUT_LAYOUTTESTUTIL_H

#include "ir/layout/LayoutExprParser.h"

#include <gtest/gtest.h>

namespace cutec::test {

/// The printed result of `expr`, or "error: MESSAGE".
inline std::string eval(llvm::StringRef expr) {
  LayoutExprResult r = evaluateLayoutExpr(expr);
  return r.value ? r.value->str() : "error: " + r.error;
}

/// The layout `expr` evaluates to; fails the test if it is not a layout.
inline Layout layoutOf(llvm::StringRef expr) {
  LayoutExprResult r = evaluateLayoutExpr(expr);
  EXPECT_TRUE(r.value) << expr.str() << ": " << r.error;
  if (r.value)
    if (const Layout *l = r.value->get<Layout>())
      return *l;
  ADD_FAILURE() << expr.str() << " is not a layout";
  return Layout();
}

} // namespace cutec::test

#endif
