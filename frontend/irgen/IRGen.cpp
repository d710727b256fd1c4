// IRGen: the owner of the domains, and buildIR, the front end's entry to it.
#include "frontend/irgen/IRGen.h"
#include "frontend/Sema.h"

namespace cutec {

std::unique_ptr<ir::Module> buildIR(const ast::Module &module, DiagnosticEngine &diags) {
  IRGen gen(diags);
  return gen.topLevel().run(module);
}

IRGen::IRGen(DiagnosticEngine &diags)
    : ctx(diags), topLevelDomain(*this), stmtsDomain(*this), exprsDomain(*this),
      tensorsDomain(*this), builtinsDomain(*this), asyncDomain(*this), tcgen05Domain(*this),
      wgmmaDomain(*this), tiledMmaDomain(*this), copiesDomain(*this), pipelinesDomain(*this),
      warpsDomain(*this), clustersDomain(*this), schedulersDomain(*this) {}

} // namespace cutec
