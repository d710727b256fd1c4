//===- InstructionSelection.h - Kernel IR to machine IR --------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_INSTRUCTIONSELECTION_H
#define CUTEC_TARGET_PTX_ISEL_INSTRUCTIONSELECTION_H

#include "passes/Pass.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace cutec {

/// "isel": kernel IR → machine IR, one ptx.inst per PTX instruction
/// (InstructionSelection.cpp), for `arch` (a row of target/ptx/Targets.h).
std::unique_ptr<Pass> createInstructionSelectionPass(llvm::StringRef arch = "sm_100a");

} // namespace cutec

#endif
