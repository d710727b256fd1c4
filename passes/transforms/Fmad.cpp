//===- Fmad.cpp - Contract f32 multiply-adds into fma, as nvcc does -------===//
//
// nvcc contracts a * b + c into one fused multiply-add by default (-fmad):
// one instruction instead of two, and one rounding instead of two, so the
// result may differ from the separately rounded one in the last bit.
// cutec does the same unless `--fmad=false`: an f32 addition of a product
// used nowhere else becomes `arith.fma` (fma.rn.f32). The emulation
// computes fma.rn.f32 fused (std::fma), so the PTX and the emulation agree
// bit for bit either way. Products exact-arith has proven exact were fused
// already (that changes nothing); subtractions stay.
//
//===----------------------------------------------------------------------===//
#include "passes/transforms/FmaContraction.h"
#include "passes/Passes.h"

namespace cutec {
namespace {

class FmadPass : public Pass {
public:
  llvm::StringRef name() const override { return "fmad"; }
  void run(ir::Operation &kernel, PassContext &) override {
    contractMultiplyAdds(kernel, [](const ir::Operation &) { return true; });
  }
};

} // namespace

std::unique_ptr<Pass> createFmadPass() { return std::make_unique<FmadPass>(); }

} // namespace cutec
