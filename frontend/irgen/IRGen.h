// IRGen: the evaluator behind buildIR (internal to frontend/).
//
// One tree walk does both semantic analysis and IR generation. Expressions
// evaluate to SemaValues: compile-time values fold on the spot (so helper
// functions, tuples and layouts cost nothing at run time), run-time values
// are IR values created at the builder's insertion point. Python variables
// are a map from names to SemaValues; `for` and `if` over run-time values
// turn the variables they reassign into region arguments and results (SSA
// construction by scope snapshots).
//
// As Clang's Sema owns SemaCUDA and SemaOpenMP, IRGen owns one object per
// domain of the language, each a class on IRGenBase (the shared state,
// diagnostics and helpers) with its own header here; domains reach each
// other only through IRGen's accessors (`gen.exprs().eval(e)`), and the
// built-in table (frontend/Builtins.def) names each built-in's domain and
// handler.
#ifndef CUTEC_FRONTEND_IRGEN_IRGEN_H
#define CUTEC_FRONTEND_IRGEN_IRGEN_H

#include "frontend/irgen/IRGenAsync.h"
#include "frontend/irgen/IRGenBuiltins.h"
#include "frontend/irgen/IRGenCluster.h"
#include "frontend/irgen/IRGenCopy.h"
#include "frontend/irgen/IRGenExpr.h"
#include "frontend/irgen/IRGenModule.h"
#include "frontend/irgen/IRGenPipeline.h"
#include "frontend/irgen/IRGenStmt.h"
#include "frontend/irgen/IRGenTcgen05.h"
#include "frontend/irgen/IRGenTensor.h"
#include "frontend/irgen/IRGenTileScheduler.h"
#include "frontend/irgen/IRGenTiledMma.h"
#include "frontend/irgen/IRGenWarp.h"
#include "frontend/irgen/IRGenWarpgroupMma.h"

namespace cutec {

class IRGen {
public:
  explicit IRGen(DiagnosticEngine &diags);
  IRGen(const IRGen &) = delete;
  IRGen &operator=(const IRGen &) = delete;

  IRGenBase::Context &context() { return ctx; }
  IRGenModule &topLevel() { return topLevelDomain; }
  IRGenStmt &stmts() { return stmtsDomain; }
  IRGenExpr &exprs() { return exprsDomain; }
  IRGenTensor &tensors() { return tensorsDomain; }
  IRGenBuiltins &builtins() { return builtinsDomain; }
  IRGenAsync &async() { return asyncDomain; }
  IRGenTcgen05 &tcgen05() { return tcgen05Domain; }
  IRGenWarpgroupMma &wgmma() { return wgmmaDomain; }
  IRGenTiledMma &tiledMma() { return tiledMmaDomain; }
  IRGenCopy &copies() { return copiesDomain; }
  IRGenPipeline &pipelines() { return pipelinesDomain; }
  IRGenWarp &warps() { return warpsDomain; }
  IRGenCluster &clusters() { return clustersDomain; }
  IRGenTileScheduler &schedulers() { return schedulersDomain; }

private:
  IRGenBase::Context ctx;
  IRGenModule topLevelDomain;
  IRGenStmt stmtsDomain;
  IRGenExpr exprsDomain;
  IRGenTensor tensorsDomain;
  IRGenBuiltins builtinsDomain;
  IRGenAsync asyncDomain;
  IRGenTcgen05 tcgen05Domain;
  IRGenWarpgroupMma wgmmaDomain;
  IRGenTiledMma tiledMmaDomain;
  IRGenCopy copiesDomain;
  IRGenPipeline pipelinesDomain;
  IRGenWarp warpsDomain;
  IRGenCluster clustersDomain;
  IRGenTileScheduler schedulersDomain;
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGEN_H
