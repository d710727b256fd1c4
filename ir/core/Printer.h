//===- Printer.h - The textual form of the IR -----------------------------===//
//
// Every operation prints in one generic form:
//   %res = name %operand, ... {attr = value, ...} : result-type
// followed by its regions in braces, each block introduced by its arguments:
//   ^bb(%k: i32):
// Values take their source names where they have one (%tidx), numbered
// otherwise; names are assigned in print order, so output is deterministic.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_PRINTER_H
#define CUTEC_IR_CORE_PRINTER_H

#include "ir/core/IR.h"

#include "llvm/Support/raw_ostream.h"

namespace cutec::ir {

void print(const Operation &op, llvm::raw_ostream &os);
void print(const Module &module, llvm::raw_ostream &os);
std::string toString(const Operation &op);

} // namespace cutec::ir

#endif
