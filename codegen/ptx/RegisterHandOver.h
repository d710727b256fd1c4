//===- RegisterHandOver.h - Values that give their registers to the next --===//
//
// The printers name one register set per SSA value and copy a value into
// another's registers where the machine IR joins them: a loop's initial
// values into its carried values, a wgmma's accumulator operands into its
// results. A copy is wasted when nothing reads the source afterwards, and
// wrong while a wgmma is still writing the source: the copy would read
// registers in flight (ptxas then inserts a wait; the PTX ISA leaves the
// read undefined). So a value read only once hands its registers over
// instead: the loop's carried value, or the wgmma's result, *is* the same
// registers. Both printers and the emulation's wgmma register webs ask this
// one analysis, so that they agree on which registers are one.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_PTX_REGISTERHANDOVER_H
#define CUTEC_CODEGEN_PTX_REGISTERHANDOVER_H

#include "ir/core/IR.h"

#include "llvm/ADT/DenseMap.h"

namespace cutec::ptx {

class RegisterHandOver {
public:
  explicit RegisterHandOver(const ir::Operation &kernel);

  /// Whether operand `v` of `user` gives its registers to what `user`
  /// makes of it (a loop's carried value, a wgmma's result): `v` is read by
  /// nothing else, and is defined in the block `user` is in (a value of an
  /// enclosing block may be read again by an enclosing loop's next
  /// iteration, after `user` overwrote it).
  bool takesRegisters(const ir::Operation &user, const ir::Value *v) const;

private:
  /// How many operands each value is, in the whole kernel.
  llvm::DenseMap<const ir::Value *, unsigned> useCounts;
};

} // namespace cutec::ptx

#endif
