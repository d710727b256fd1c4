//===- Pipeline.cpp - The order of the passes, in one place ---------------===//
#include "driver/Pipeline.h"

#include "passes/Passes.h"
#include "target/ptx/isel/InstructionSelection.h"

namespace cutec {

void addLoweringPipeline(PassManager &pm, llvm::StringRef arch) {
  pm.add(createVerifyUniformityPass());
  pm.add(createTileToShapePass());
  pm.add(createPipelineTxPass());
  pm.add(createCheckPipelinesPass());
  pm.add(createLowerTmaPass());
  pm.add(createPartitionPass());
  pm.add(createLowerS2tPass());
  pm.add(createLowerMmaPass());
  pm.add(createAdvanceDescriptorsPass());
  pm.add(createCanonicalizePass());
  pm.add(createLowerIndexingPass());
  // Element addresses share most of their arithmetic: fold it before isel.
  pm.add(createCanonicalizePass());
  // On the folded offsets; the next CSE merges the starts it makes.
  pm.add(createAddressConstantsPass());
  pm.add(createCanonicalizePass());
  // On the shared starts: a fragment's 16-byte stores are then start + c.
  pm.add(createWideStoresPass(arch));
  // After CSE, so that the scale factors shared by many products are one
  // value each.
  pm.add(createExactArithPass());
  pm.add(createNarrowPairsPass(arch));
  pm.add(createFmadPass());
  // After fmad, which would otherwise fuse the expansions' own products;
  // before licm, which hoists their constants out of loops.
  pm.add(createExpandMathPass());
  pm.add(createLicmPass());
  pm.add(createInstructionSelectionPass(arch));
}

llvm::ArrayRef<llvm::StringRef> optionalPasses() {
  static const llvm::StringRef names[] = {"advance-descriptors", "address-constants",
                                          "wide-stores", "exact-arith", "narrow-pairs",
                                          "licm"};
  return names;
}

} // namespace cutec
