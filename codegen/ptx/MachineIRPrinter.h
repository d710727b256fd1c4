//===- MachineIRPrinter.h - What the PTX and emulation printers share -----===//
//
// Both back ends print the same machine IR: `ptx.inst`, `for`, `if`,
// `while`, `condition`, `yield` and `return`. This base walks it, names registers (one per SSA
// value, per register class, numbered in order of definition so the output is deterministic) and
// collects the text; a printer supplies the syntax.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_PTX_MACHINEIRPRINTER_H
#define CUTEC_CODEGEN_PTX_MACHINEIRPRINTER_H

#include "codegen/ptx/RegisterHandOver.h"
#include "target/ptx/MachineTypes.h"
#include "ir/core/IR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

namespace cutec::ptx {

class MachineIRPrinter {
public:
  virtual ~MachineIRPrinter() = default;

protected:
  /// `registerPrefix` gives each class's name prefix: "%r" in PTX, "r" in C++.
  MachineIRPrinter(const ir::Operation &kernel,
                   std::function<std::string(RegisterClass)> registerPrefix)
      : handOver(kernel), registerPrefix(std::move(registerPrefix)) {}

  /// The loop's induction variable and carried values (its block arguments).
  struct LoopParts {
    const ir::Value *inductionVariable;
    std::vector<const ir::Value *> carried;
  };
  static LoopParts loopParts(const ir::Operation &loop);
  /// A block's arguments.
  static std::vector<const ir::Value *> arguments(const ir::Block &block);
  /// A loop's initial values (`values`) and the values they start
  /// (`targets`): those that hand their registers over (RegisterHandOver)
  /// give them to their targets here; the pairs left to copy are returned.
  struct Copies {
    std::vector<ir::Value *> from;
    std::vector<const ir::Value *> to;
  };
  Copies takeInitialRegisters(const ir::Operation &loop, llvm::ArrayRef<ir::Value *> values,
                              llvm::ArrayRef<const ir::Value *> targets);
  /// After a loop: its results are `registers` (its carried values).
  void aliasResults(const ir::Operation &loop, llvm::ArrayRef<const ir::Value *> registers);
  /// Gives `value` the register of `as` unless it has one already; whether
  /// it has that register now.
  bool alias(const ir::Value *value, const ir::Value *as);
  /// An `if`'s results, given their registers before either branch assigns.
  std::vector<const ir::Value *> branchResults(const ir::Operation &branch);

  std::string reg(const ir::Value *v);
  /// A register of class `rc` that belongs to no value (a scratch).
  std::string freshRegister(RegisterClass rc);
  unsigned registerCount(RegisterClass rc) const { return counts[unsigned(rc)]; }

  void emit(unsigned indent, const std::string &line, const char *indentUnit);

  llvm::Error printBlock(const ir::Block &block, unsigned indent);
  llvm::Error printOp(const ir::Operation &op, unsigned indent);
  /// Prints a loop or branch body; its `yield` (or a `while`'s `condition`,
  /// with the values it forwards) assigns `targets`.
  llvm::Error printRegionBody(const ir::Block &block, unsigned indent,
                              llvm::ArrayRef<const ir::Value *> targets);

  virtual llvm::Error printInstruction(const ir::Operation &op, unsigned indent) = 0;
  virtual llvm::Error printFor(const ir::Operation &op, unsigned indent) = 0;
  virtual llvm::Error printIf(const ir::Operation &op, unsigned indent) = 0;
  /// A `while`: the initial values to the before region's arguments, then
  /// the loop (beginWhile ... endWhile) around the before region, whose
  /// `condition` assigns the after region's arguments, the exit when the
  /// condition fails, and the after region, whose `yield` assigns the
  /// before region's arguments. The results are the after region's
  /// arguments: what the last condition forwarded.
  llvm::Error printWhile(const ir::Operation &op, unsigned indent);
  virtual void beginWhile(const ir::Operation &op, unsigned indent) = 0;
  /// Leaves the innermost loop when `condition` is false.
  virtual void exitWhileUnless(const ir::Value *condition, unsigned indent) = 0;
  virtual void endWhile(unsigned indent) = 0;
  virtual void printReturn(unsigned indent) = 0;
  /// Assigns `values` to `targets` as one parallel copy: what `at` (a
  /// yield, a while's condition, or a while carrying its initial values into
  /// its before region) does.
  virtual void printYield(const ir::Operation &at, llvm::ArrayRef<ir::Value *> values,
                          unsigned indent, llvm::ArrayRef<const ir::Value *> targets) = 0;
  /// An error prefixed with the printer's name.
  virtual llvm::Error error(const llvm::Twine &message) const = 0;

  std::string body;
  const RegisterHandOver handOver;

private:
  std::function<std::string(RegisterClass)> registerPrefix;
  llvm::DenseMap<const ir::Value *, std::string> registers;
  unsigned counts[std::size(kAllRegisterClasses)] = {};
};

} // namespace cutec::ptx

#endif
