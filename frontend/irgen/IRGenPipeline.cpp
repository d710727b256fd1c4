// IRGenPipeline, for pipelines (docs/language.md "Pipelines"), in the spirit of
// CuTe DSL's cutlass.pipeline: a pipeline is a built-in object that owns a full
// and an empty mbarrier per stage, and a PipelineState (make_pipeline_state) is
// a built-in object with the run-time stage index and phase parity that
// `advance()` moves on. Every method lowers to the mbarrier, tcgen05.commit and
// bulk-group instructions a kernel could write by hand:
//
//   pipeline          producer_acquire     producer_commit    consumer_wait  consumer_release
//   PipelineTmaUmma   wait empty; one      (the TMA bytes)    wait full      one lane commits
//                     lane expects tx                                       the MMAs to empty
//   PipelineTmaAsync  wait empty; one      (the TMA bytes)    wait full      every thread
//                     lane expects tx                                       arrives on empty
//   PipelineUmmaAsync wait empty           one lane commits   wait full      every thread
//                                          the MMAs to full                  arrives on empty
//   PipelineAsync     wait empty           every thread       wait full      every thread
//                                          arrives on full                   arrives on empty
//   PipelineTmaStore  wait_group.read      commit_group
//                     (stages - 1)
//
// The methods are called by whole warps (they elect the lane that issues
// what one thread must issue). The bytes a TMA pipeline's stage expects are
// those of the TMA loads that complete on its barriers: pass pipeline-tx
// (passes/lowering/PipelineTx.cpp) computes them, and checks a tx_count= given here.
#include "frontend/irgen/IRGen.h"

namespace cutec {

namespace {

constexpr llvm::StringLiteral kProducer = "PipelineUserType.Producer";
constexpr llvm::StringLiteral kConsumer = "PipelineUserType.Consumer";

/// The field `name` of an object the table built (always present).
/// Pipelines whose producer is TMA: a stage is full once its bytes land.
bool isTmaPipeline(llvm::StringRef cls) {
  return cls == "PipelineTmaUmma" || cls == "PipelineTmaAsync";
}

const SemaValue &fieldOf(const SemaValue &object, llvm::StringRef name) {
  return *object.field(name);
}

int64_t staticField(const SemaValue &object, llvm::StringRef name) {
  return fieldOf(object, name).intValue().staticValue();
}

} // namespace

// --- Small builders for run-time i32 arithmetic that folds compile-time
// operands, so a state that never enters a run-time loop costs nothing.

SemaValue IRGenPipeline::pipelineArith(ir::OpKind kind, const SemaValue &a, int64_t c,
                                       llvm::SMLoc loc) {
  if (a.is(SemaValue::Kind::Int) && a.intValue().isStatic()) {
    int64_t v = a.intValue().staticValue();
    return SemaValue::integer(kind == ir::OpKind::Add ? v + c : v ^ c);
  }
  ir::Value *lhs = toRunTime(a, loc, llvm::SMRange(), ir::DataType::I32);
  if (!lhs)
    return SemaValue::poison();
  ir::Value *rhs = ctx.builder->constantInt(loc, ir::DataType::I32, c);
  return SemaValue::runTime(
      ctx.builder->createValue(kind, loc, ir::Type::scalar(ir::DataType::I32), {lhs, rhs}));
}

ir::Value *IRGenPipeline::equalsConstant(ir::Value *v, int64_t c, llvm::SMLoc loc) {
  ir::Operation &cmp = ctx.builder->create(
      ir::OpKind::Cmp, loc, {v, ctx.builder->constantInt(loc, v->type().element(), c)},
      {ir::Type::scalar(ir::DataType::Bool)});
  cmp.set(ir::attr::predicate, std::string("eq"));
  return cmp.result();
}

void IRGenPipeline::emitIf(ir::Value *condition, llvm::SMLoc loc, llvm::function_ref<void()> body) {
  ir::Operation &op = ctx.builder->create(ir::OpKind::If, loc, {condition});
  ir::Builder inner(op.addRegion().addBlock());
  ir::Builder *outer = ctx.builder;
  ctx.builder = &inner;
  body();
  inner.create(ir::OpKind::Yield, loc, {});
  ctx.builder = outer;
}

// --- CooperativeGroup, make_pipeline_state, PipelineState ------------------

// CooperativeGroup(Agent.Thread, size=1): `size` threads that arrive.
SemaValue IRGenPipeline::cooperativeGroup(CallSite &site) {
  const SemaValue &agent = site.bound[0];
  if (!agent.is(SemaValue::Kind::Builtin) || agent.name() != "Agent.Thread")
    return error(site.argExpr(0), "a CooperativeGroup's agent is Agent.Thread, not " +
                                      agent.describe());
  return SemaValue::object("CooperativeGroup", {"size"}, {site.bound[1]});
}

// make_pipeline_state(PipelineUserType.Producer|Consumer, stages): stage 0;
// a producer starts in phase 1, so that its first wait on each empty
// barrier (which has completed no phase yet) succeeds at once.
SemaValue IRGenPipeline::makePipelineState(CallSite &site) {
  const SemaValue &type = site.bound[0];
  bool producer = type.is(SemaValue::Kind::Builtin) && type.name() == kProducer;
  if (!producer && !(type.is(SemaValue::Kind::Builtin) && type.name() == kConsumer))
    return error(site.argExpr(0), "make_pipeline_state takes PipelineUserType.Producer or "
                                  "PipelineUserType.Consumer, not " +
                                      type.describe());
  return SemaValue::object("PipelineState", {"_stages", "index", "phase", "count"},
                           {site.bound[1], SemaValue::integer(0),
                            SemaValue::integer(producer ? 1 : 0), SemaValue::integer(0)});
}

// state.advance(): the next stage; past the last one, stage 0 of the next
// phase. `count` counts the advances (since reset_count()).
SemaValue IRGenPipeline::pipelineStateAdvance(CallSite &site) {
  const SemaValue &state = *site.self;
  llvm::SMLoc loc = site.loc();
  int64_t stages = staticField(state, "_stages");
  SemaValue next = pipelineArith(ir::OpKind::Add, fieldOf(state, "index"), 1, loc);
  SemaValue phase = fieldOf(state, "phase");
  SemaValue count = pipelineArith(ir::OpKind::Add, fieldOf(state, "count"), 1, loc);
  if (next.isPoison() || count.isPoison())
    return SemaValue::poison();
  SemaValue index = next;
  if (next.is(SemaValue::Kind::Int) && phase.is(SemaValue::Kind::Int)) {
    if (next.intValue().staticValue() == stages) {
      index = SemaValue::integer(0);
      phase = SemaValue::integer(phase.intValue().staticValue() ^ 1);
    }
  } else {
    ir::Value *nextValue = toRunTime(next, loc, llvm::SMRange(), ir::DataType::I32);
    ir::Value *phaseValue = toRunTime(phase, loc, llvm::SMRange(), ir::DataType::I32);
    SemaValue flipped = pipelineArith(ir::OpKind::BitXor, SemaValue::runTime(phaseValue), 1, loc);
    ir::Value *wrap = equalsConstant(nextValue, stages, loc);
    ir::Type i32 = ir::Type::scalar(ir::DataType::I32);
    index = SemaValue::runTime(ctx.builder->createValue(
        ir::OpKind::Select, loc, i32,
        {wrap, ctx.builder->constantInt(loc, ir::DataType::I32, 0), nextValue}));
    phase = SemaValue::runTime(ctx.builder->createValue(ir::OpKind::Select, loc, i32,
                                                        {wrap, flipped.irValue(), phaseValue}));
  }
  site.updatedSelf =
      state.withField("index", index).withField("phase", phase).withField("count", count);
  return SemaValue::none();
}

SemaValue IRGenPipeline::pipelineStateResetCount(CallSite &site) {
  site.updatedSelf = site.self->withField("count", SemaValue::integer(0));
  return SemaValue::none();
}

// --- Pipeline construction ------------------------------------------------

// <Pipeline>.create(*, num_stages, producer_group, consumer_group, ...):
// allocates the stage barriers, initialises them from one thread, and
// (unless defer_sync=True) makes the initialisation visible to the CTA, or
// to the cluster in a cluster kernel, before anyone uses them.
SemaValue IRGenPipeline::createPipeline(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  llvm::StringRef cls = site.callee.split('.').first;
  const BuiltinSignature &sig = findBuiltin(site.callee)->signature;
  auto arg = [&](llvm::StringRef name) -> const SemaValue & {
    return site.bound[size_t(sig.find(name))];
  };
  int64_t stages = arg("num_stages").intValue().staticValue();
  std::vector<std::string> names{"_stages", "_name"};
  std::vector<SemaValue> values{SemaValue::integer(stages), arg("name")};
  if (cls == "PipelineTmaStore")
    return SemaValue::object(cls, names, values);

  auto groupSize = [&](llvm::StringRef name) -> std::optional<int64_t> {
    const SemaValue &g = arg(name);
    if (g.is(SemaValue::Kind::Object) && g.className() == "CooperativeGroup")
      return g.field("size")->intValue().staticValue();
    error(site.loc(), "'" + name + "' of " + site.callee + " must be a CooperativeGroup, not " +
                          g.describe(),
          {site.range()});
    return std::nullopt;
  };
  std::optional<int64_t> producers = groupSize("producer_group");
  std::optional<int64_t> consumers = groupSize("consumer_group");
  if (!producers || !consumers)
    return SemaValue::poison();
  int64_t group = 1;
  if (sig.find("cta_group") >= 0) {
    group = arg("cta_group").intValue().staticValue();
    if (group == 2 && ctx.clusterCtas % 2 != 0)
      return error(site.loc(),
                   site.callee + " with cta_group=2 works on CTA pairs: the kernel must run in "
                                 "clusters of an even number of CTAs, e.g. @kernel(..., "
                                 "cluster=(2, 1, 1))",
                   {site.range()});
  }
  // Who arrives on each barrier: a TMA stage is completed by its bytes and
  // one expect_tx, an MMA's by one tcgen05.commit; threads arrive one each.
  int64_t fullArrivals = cls == "PipelineAsync" ? *producers : 1;
  int64_t emptyArrivals = *consumers;

  std::string base = arg("name").is(SemaValue::Kind::String) ? arg("name").name().str()
                                                              : cls.str();
  SemaValue full =
      gen.async().allocateShared(ir::DataType::U64, makeLayout(IntTuple(stages)), Swizzle(), 8,
                                 site.loc(), site.range(), base + ".full");
  SemaValue empty =
      gen.async().allocateShared(ir::DataType::U64, makeLayout(IntTuple(stages)), Swizzle(), 8,
                                 site.loc(), site.range(), base + ".empty");
  if (full.isPoison() || empty.isPoison())
    return SemaValue::poison();
  llvm::SMLoc loc = site.loc();
  emitIf(firstThreadOfCta(loc), loc, [&] {
    for (int64_t s = 0; s < stages; ++s) {
      ctx.builder->create(ir::OpKind::MbarrierInit, loc,
                          {stageBarrier(full, SemaValue::integer(s), loc),
                           ctx.builder->constantInt(loc, ir::DataType::I32, fullArrivals)});
      ctx.builder->create(ir::OpKind::MbarrierInit, loc,
                          {stageBarrier(empty, SemaValue::integer(s), loc),
                           ctx.builder->constantInt(loc, ir::DataType::I32, emptyArrivals)});
    }
  });
  if (!arg("defer_sync").boolValue()) {
    ctx.builder->create(ir::OpKind::FenceMbarrierInit, loc, {});
    ctx.builder->create(ctx.clusterCtas > 1 ? ir::OpKind::ClusterSync : ir::OpKind::BarrierSync,
                        loc, {});
  }
  names.insert(names.end(), {"_full", "_empty", "_cta_group"});
  values.insert(values.end(), {full, empty, SemaValue::integer(group)});
  if (isTmaPipeline(cls)) {
    names.push_back("_tx_count");
    values.push_back(arg("tx_count"));
  }
  return SemaValue::object(cls, names, values);
}

ir::Value *IRGenPipeline::isPairLeader(llvm::SMLoc loc) {
  ir::Operation &rank = ctx.builder->create(ir::OpKind::ClusterSpecial, loc, {},
                                            {ir::Type::scalar(ir::DataType::I32)});
  rank.set(ir::attr::clusterRegister, std::string("%cluster_ctarank"));
  ir::Value *odd = ctx.builder->createValue(
      ir::OpKind::BitAnd, loc, ir::Type::scalar(ir::DataType::I32),
      {rank.result(), ctx.builder->constantInt(loc, ir::DataType::I32, 1)});
  return equalsConstant(odd, 0, loc);
}

ir::Value *IRGenPipeline::electOne(CallSite &site) {
  return gen.builtins().invokeBuiltin("elect_one", site, {}).irValue();
}

ir::Value *IRGenPipeline::firstThreadOfCta(llvm::SMLoc loc) {
  ir::Value *all = nullptr;
  for (int64_t dim = 0; dim < 3; ++dim) {
    ir::Operation &tid =
        ctx.builder->create(ir::OpKind::ThreadIdx, loc, {}, {ir::Type::scalar(ir::DataType::I32)});
    tid.set(ir::attr::dim, dim);
    ir::Value *zero = equalsConstant(tid.result(), 0, loc);
    if (!all) {
      all = zero;
      continue;
    }
    all = ctx.builder->createValue(ir::OpKind::Select, loc, ir::Type::scalar(ir::DataType::Bool),
                                   {all, zero, all});
  }
  return all;
}

/// The mbarrier of stage `index` (compile-time or run-time) of `barriers`.
ir::Value *IRGenPipeline::stageBarrier(const SemaValue &barriers, const SemaValue &index,
                                       llvm::SMLoc loc) {
  return gen.tensors().elementView(barriers, index, loc).irValue();
}

// --- Pipeline methods -------------------------------------------------------

/// The state argument of a pipeline method, checked against the pipeline:
/// a PipelineState of as many stages.
const SemaValue *IRGenPipeline::pipelineStateArgument(CallSite &site) {
  const SemaValue &pipeline = *site.self;
  const SemaValue &state = site.bound[0];
  if (!state.is(SemaValue::Kind::Object) || state.className() != "PipelineState") {
    error(site.argExpr(0), site.callee + " takes a PipelineState (make_pipeline_state), not " +
                               state.describe());
    return nullptr;
  }
  int64_t stages = staticField(pipeline, "_stages");
  if (staticField(state, "_stages") != stages) {
    error(site.argExpr(0), "this PipelineState has " +
                               llvm::Twine(staticField(state, "_stages")) +
                               " stages, but the pipeline has " + llvm::Twine(stages));
    return nullptr;
  }
  return &state;
}

void IRGenPipeline::waitStage(const SemaValue &barriers, const SemaValue &state, llvm::SMLoc loc) {
  ir::Value *parity = toRunTime(fieldOf(state, "phase"), loc, llvm::SMRange(), ir::DataType::I32);
  ctx.builder->create(ir::OpKind::MbarrierWait, loc,
                      {stageBarrier(barriers, fieldOf(state, "index"), loc), parity});
}

/// One lane of the warp commits the thread's earlier MMAs to `bar` (both
/// CTAs' barriers for a CTA pair).
void IRGenPipeline::commitStage(const SemaValue &pipeline, ir::Value *bar, CallSite &site) {
  llvm::SMLoc loc = site.loc();
  emitIf(electOne(site), loc, [&] {
    IRGenCluster::setCtaGroup(ctx.builder->create(ir::OpKind::UmmaCommit, loc, {bar}),
                              staticField(pipeline, "_cta_group"));
  });
}

SemaValue IRGenPipeline::pipelineProducerAcquire(CallSite &site) {
  const SemaValue &pipeline = *site.self;
  llvm::SMLoc loc = site.loc();
  if (pipeline.className() == "PipelineTmaStore") {
    // The oldest of `stages` buffers may be written again once the TMA
    // stores that read it have read it.
    gen.builtins().invokeBuiltin("tma_store_wait", site,
                                 {SemaValue::integer(staticField(pipeline, "_stages") - 1)});
    return SemaValue::none();
  }
  const SemaValue *state = pipelineStateArgument(site);
  if (!state)
    return SemaValue::poison();
  waitStage(fieldOf(pipeline, "_empty"), *state, loc);
  if (!isTmaPipeline(pipeline.className()))
    return SemaValue::none();
  // The stage's bytes arrive on the leader's full barrier (a pair's loads
  // complete there), so only the leader expects them.
  ir::Value *bar = stageBarrier(fieldOf(pipeline, "_full"), fieldOf(*state, "index"), loc);
  ir::Value *issue = electOne(site);
  if (staticField(pipeline, "_cta_group") == 2)
    issue = ctx.builder->createValue(ir::OpKind::Select, loc, ir::Type::scalar(ir::DataType::Bool),
                                     {issue, isPairLeader(loc), issue});
  emitIf(issue, loc, [&] {
    // The byte count is the pipeline's tx_count, or pipeline-tx's sum of
    // the stage's TMA loads (the placeholder 0 marks it for that pass).
    const SemaValue &declared = fieldOf(pipeline, "_tx_count");
    int64_t tx = declared.is(SemaValue::Kind::Int) ? declared.intValue().staticValue() : 0;
    ir::Operation &expect =
        ctx.builder->create(ir::OpKind::MbarrierExpectTx, loc,
                            {bar, ctx.builder->constantInt(loc, ir::DataType::I32, tx)});
    expect.set(declared.is(SemaValue::Kind::Int) ? ir::attr::pipelineTxDeclared
                                                 : ir::attr::pipelineTx,
               true);
  });
  return SemaValue::none();
}

SemaValue IRGenPipeline::pipelineProducerCommit(CallSite &site) {
  const SemaValue &pipeline = *site.self;
  llvm::SMLoc loc = site.loc();
  llvm::StringRef cls = pipeline.className();
  if (cls == "PipelineTmaStore") {
    gen.builtins().invokeBuiltin("tma_store_commit", site, {});
    return SemaValue::none();
  }
  const SemaValue *state = pipelineStateArgument(site);
  if (!state)
    return SemaValue::poison();
  if (isTmaPipeline(cls)) // the TMA loads' bytes complete the stage
    return SemaValue::none();
  ir::Value *bar = stageBarrier(fieldOf(pipeline, "_full"), fieldOf(*state, "index"), loc);
  if (cls == "PipelineUmmaAsync")
    commitStage(pipeline, bar, site);
  else
    ctx.builder->create(ir::OpKind::MbarrierArrive, loc, {bar});
  return SemaValue::none();
}

SemaValue IRGenPipeline::pipelineConsumerWait(CallSite &site) {
  const SemaValue *state = pipelineStateArgument(site);
  if (!state)
    return SemaValue::poison();
  waitStage(fieldOf(*site.self, "_full"), *state, site.loc());
  return SemaValue::none();
}

SemaValue IRGenPipeline::pipelineConsumerRelease(CallSite &site) {
  const SemaValue &pipeline = *site.self;
  const SemaValue *state = pipelineStateArgument(site);
  if (!state)
    return SemaValue::poison();
  llvm::SMLoc loc = site.loc();
  ir::Value *bar = stageBarrier(fieldOf(pipeline, "_empty"), fieldOf(*state, "index"), loc);
  if (pipeline.className() == "PipelineTmaUmma") {
    commitStage(pipeline, bar, site);
    return SemaValue::none();
  }
  // A pair's epilogue threads of both CTAs release the leader's stage.
  IRGenCluster::setCtaGroup(
      ctx.builder->create(ir::OpKind::MbarrierArrive, loc, {bar}),
      pipeline.className() == "PipelineUmmaAsync" ? staticField(pipeline, "_cta_group") : 1);
  return SemaValue::none();
}

SemaValue IRGenPipeline::pipelineProducerGetBarrier(CallSite &site) {
  const SemaValue *state = pipelineStateArgument(site);
  if (!state)
    return SemaValue::poison();
  return gen.tensors().elementView(fieldOf(*site.self, "_full"), fieldOf(*state, "index"),
                                   site.loc());
}

// producer_tail(state): the producer waits until the consumers have
// released every stage it filled, so that the CTA (and its shared memory)
// outlives the asynchronous operations that still read or signal it.
SemaValue IRGenPipeline::pipelineProducerTail(CallSite &site) {
  const SemaValue &pipeline = *site.self;
  llvm::SMLoc loc = site.loc();
  if (pipeline.className() == "PipelineTmaStore") {
    gen.builtins().invokeBuiltin("tma_store_wait", site, {SemaValue::integer(0)});
    return SemaValue::none();
  }
  const SemaValue *state = pipelineStateArgument(site);
  if (!state)
    return SemaValue::poison();
  SemaValue s = *state;
  for (int64_t i = 0; i < staticField(pipeline, "_stages"); ++i) {
    waitStage(fieldOf(pipeline, "_empty"), s, loc);
    CallSite step{site.call, {}, {}, site.callee, &s, {}, std::nullopt};
    pipelineStateAdvance(step);
    s = *step.updatedSelf;
  }
  return SemaValue::none();
}

} // namespace cutec
