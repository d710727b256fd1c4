// The pass manager: order, --print-after, verification between passes, and
// stopping at the first user error.
#include "IRTestUtil.h"

#include "passes/PassManager.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using namespace ir;

/// Replaces every arith.add by arith.sub (something visible in the IR).
class AddToSub : public Pass {
public:
  llvm::StringRef name() const override { return "add-to-sub"; }
  void run(Operation &kernel, PassContext &) override {
    walk(kernel, [this](Operation &op) {
      if (op.kind() == OpKind::Add) {
        Builder b;
        b.setInsertionPoint(op);
        Value *sub = b.createValue(OpKind::Sub, op.loc(), op.result()->type(),
                                   {op.operand(0), op.operand(1)});
        replaceAllUsesWith(*op.parentBlock()->parent()->parent(), op.result(), sub);
        pending.push_back(&op);
      }
    });
    for (Operation *op : pending)
      erase(*op);
    pending.clear();
  }
  std::vector<Operation *> pending;
};

/// Breaks the IR: drops the kernel's terminator.
class DropReturn : public Pass {
public:
  llvm::StringRef name() const override { return "drop-return"; }
  void run(Operation &kernel, PassContext &) override {
    erase(*kernel.regions()[0]->front().terminator());
  }
};

class ReportError : public Pass {
public:
  llvm::StringRef name() const override { return "report-error"; }
  void run(Operation &kernel, PassContext &context) override {
    context.error(kernel.loc(), "this kernel does not fit");
  }
};

struct Harness {
  std::vector<std::string> errors;
  PassContext context{[this](llvm::SMLoc, const llvm::Twine &m) { errors.push_back(m.str()); }};
  Module module;
  Harness() { module.kernels().push_back(test::makeSumKernel()); }
};

TEST(PassManager, RunsPassesAndPrintsAfterTheNamedOne) {
  Harness h;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  PassManagerOptions options;
  options.printAfter.insert("add-to-sub");
  options.printStream = &os;
  PassManager pm(std::move(options));
  pm.add(std::make_unique<AddToSub>());
  EXPECT_TRUE(pm.run(h.module, h.context));
  EXPECT_TRUE(h.errors.empty());
  EXPECT_NE(printed.find("// -----// IR after add-to-sub //----- //"), std::string::npos);
  EXPECT_NE(printed.find("arith.sub %acc, %i : i32"), std::string::npos);
  EXPECT_EQ(printed.find("arith.add"), std::string::npos);
}

TEST(PassManager, ABrokenPassIsAnInternalErrorNamingThePass) {
  Harness h;
  PassManager pm;
  pm.add(std::make_unique<DropReturn>());
  pm.add(std::make_unique<AddToSub>());
  EXPECT_FALSE(pm.run(h.module, h.context));
  ASSERT_EQ(h.errors.size(), 1u);
  EXPECT_EQ(h.errors[0], "internal error: the IR does not verify after 'drop-return': "
                         "'kernel': region must end with 'return'");
}

TEST(PassManager, StopsAtTheFirstUserError) {
  Harness h;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  PassManagerOptions options;
  options.printAfterAll = true;
  options.printStream = &os;
  PassManager pm(std::move(options));
  pm.add(std::make_unique<ReportError>());
  pm.add(std::make_unique<AddToSub>());
  EXPECT_FALSE(pm.run(h.module, h.context));
  EXPECT_EQ(h.errors, std::vector<std::string>{"this kernel does not fit"});
  EXPECT_EQ(printed, "");
}

} // namespace
} // namespace cutec
