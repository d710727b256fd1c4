// How fast the layout algebra evaluates: the whole reference vector set (time
// per expression), and the scale-factor layout a block-scaled kernel builds.
//   build/bin/layout_bench
#include "ir/layout/LayoutExprParser.h"

#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> loadVectorExpressions() {
  std::vector<std::string> exprs;
  for (const char *file : {"coalesce.txt", "complement.txt", "composition.txt", "divide.txt",
                           "inverse.txt", "misc.txt", "product.txt", "slice.txt",
                           "tile_to_shape.txt"}) {
    auto buffer = llvm::MemoryBuffer::getFile(std::string(CUTEC_LAYOUT_VECTORS_DIR) + "/" + file);
    if (!buffer)
      continue;
    llvm::StringRef rest = (*buffer)->getBuffer();
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      rest = next;
      if (!line.trim().empty() && !line.trim().starts_with("#"))
        exprs.push_back(line.split("=>").first.str());
    }
  }
  return exprs;
}

void BM_EvaluateVectorSet(benchmark::State &state) {
  static const std::vector<std::string> exprs = loadVectorExpressions();
  if (exprs.empty()) {
    state.SkipWithError("no vectors found in " CUTEC_LAYOUT_VECTORS_DIR);
    return;
  }
  for (auto _ : state)
    for (const std::string &e : exprs)
      benchmark::DoNotOptimize(cutec::evaluateLayoutExpr(e));
  state.SetItemsProcessed(state.iterations() * exprs.size());
  state.counters["expressions"] = exprs.size();
}
BENCHMARK(BM_EvaluateVectorSet)->Unit(benchmark::kMillisecond);

void BM_DynamicScaleFactorLocalTile(benchmark::State &state) {
  const char *expr = "local_tile(tile_to_shape(((32,4),(16,4)):((16,4),(0,1)),(M,K,L),(2,1,3)),"
                     "(128,64),(_,_,_))";
  for (auto _ : state)
    benchmark::DoNotOptimize(cutec::evaluateLayoutExpr(expr));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DynamicScaleFactorLocalTile)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
