//===- WgmmaRegisterWebs.h - Registers a wgmma.mma_async uses asynchronously ===//
//
// A wgmma.mma_async reads and writes its accumulator registers (and reads
// its A registers, in the forms that take A from registers) until the
// wgmma.wait_group that retires it; the PTX ISA leaves any other access to
// them before then undefined. The emulation checks those accesses when they
// run (runtime/engine/CtaWgmmaHazards.cpp); this analysis tells the printer which
// values they concern.
//
// The emulation names one register per SSA value, but on the GPU a wgmma's
// results are its accumulator operands' registers where those hand them
// over (ptx/RegisterHandOver.h; the PTX printer copies the others first), a
// loop's results are its carried values' registers, and a loop's initial
// value that hands its registers over is its carried value's; the halves an
// f16x2 word is packed from or unpacked to are the word's register, too. A
// yield is a copy (a mov), not a join: the printer checks it. A *web* is a set of values joined that way
// around a wgmma's accumulators (or around its A registers): one register
// set on the GPU.
// Each web has a small number, the key of the run-time state. A kernel
// without wgmma has no webs, and its emulation gets no checks.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_EMU_WGMMAREGISTERWEBS_H
#define CUTEC_CODEGEN_EMU_WGMMAREGISTERWEBS_H

#include "codegen/ptx/RegisterHandOver.h"
#include "ir/core/IR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace cutec::emu {

class WgmmaRegisterWebs {
public:
  explicit WgmmaRegisterWebs(const ir::Operation &kernel);

  /// The web of `v`'s register, if a wgmma uses it asynchronously.
  std::optional<unsigned> web(const ir::Value *v) const;
  /// Whether `op` only renames registers (packs halves into a word or
  /// unpacks one): no access, whatever web it touches.
  bool isRename(const ir::Operation &op) const;
  /// The webs wgmma.mma_async `op` uses: its accumulators', then its A
  /// registers' when it has any.
  llvm::SmallVector<unsigned, 2> websOf(const ir::Operation &op) const;

private:
  void visit(const ir::Block &block);
  /// Joins the values that loop `op` keeps in one register set.
  void joinLoopRegisters(const ir::Operation &op);
  void join(const ir::Value *a, const ir::Value *b) { classes.unionSets(a, b); }

  const ptx::RegisterHandOver handOver;
  llvm::EquivalenceClasses<const ir::Value *> classes;
  /// A value of each web, in the order the wgmmas come.
  std::vector<const ir::Value *> members;
  /// The web numbers, keyed by class leader.
  llvm::DenseMap<const ir::Value *, unsigned> numbers;
};

} // namespace cutec::emu

#endif
