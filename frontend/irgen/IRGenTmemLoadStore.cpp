// IRGenTcgen05, for the copies between registers and tensor memory: tmem_load
// (tcgen05.ld) and tmem_store (tcgen05.st), in any of the instruction's
// shapes (docs/language.md, "Tensor memory and MMA"). Each thread names the
// number of elements it moves; the shape, the repetition count and the
// 16-bit packing follow, and impossible combinations are errors here.
#include "frontend/irgen/IRGen.h"

#include "llvm/Support/MathExtras.h"

namespace cutec {
namespace {

/// One tcgen05.ld/st shape: `lanes` x `bits`, registers and columns per
/// repetition (.x1), and the largest .num (128 registers per thread).
struct TmemShape {
  int64_t lanes, bits;
  const char *name;
  int64_t registers, columns, maxNum;
};

constexpr TmemShape kTmemShapes[] = {
    {32, 32, "32x32b", 1, 1, 128},    {16, 64, "16x64b", 1, 2, 128},
    {16, 128, "16x128b", 2, 4, 64},   {16, 256, "16x256b", 4, 8, 32},
    {16, 32, "16x32bx2", 1, 2, 128}, // two 16x32b halves, side by side
};

std::optional<int64_t> staticInteger(const SemaValue &v) {
  if (v.is(SemaValue::Kind::Int) && v.intValue().isStatic())
    return v.intValue().staticValue();
  return std::nullopt;
}

} // namespace

// tmem_load(t, column, n, shape=(lanes, bits), lane=0, wait=True) and
// tmem_store(t, column, fragment, shape=..., lane=0, wait=True): thread l
// of warp w moves the n elements of its fragment from or to the cells of
// `t` the PTX fragment figures give it, from lane 32*(w % 4) + `lane` and
// `column` on. With wait=False the tcgen05.wait::ld/st is left to a later
// fence_view_async_tmem_load/store().
SemaValue IRGenTcgen05::tmemLoadStore(CallSite &site) {
  llvm::StringRef name = site.callee;
  bool store = name == "tmem_store";
  if (!inKernel(site) || !checkArity(site, name, 3, 3, {"shape", "lane", "wait"}))
    return SemaValue::poison();
  const SemaValue &t = site.args[0];
  if (!t.is(SemaValue::Kind::RunTime) || !t.type().isTensor() ||
      t.type().memorySpace() != ir::MemorySpace::Tensor)
    return error(site.argExpr(0), name + (store ? " writes" : " reads") + " a tmem_tensor, not " +
                                      t.describe());
  const Layout &layout = t.type().tensorLayout();
  int64_t columns = size(layout).staticValue() / product(layout.shape[0]).staticValue();
  std::optional<int64_t> column = staticInteger(site.args[1]);
  if (!column || *column < 0)
    return error(site.argExpr(1), "the first column must be a static integer, not " +
                                      site.args[1].describe());

  const TmemShape *shape = &kTmemShapes[0];
  if (const CallSite::Keyword *kw = site.keyword("shape")) {
    std::optional<int64_t> lanes, bits;
    if (kw->value.is(SemaValue::Kind::Tuple) && kw->value.elements().size() == 2) {
      lanes = staticInteger(kw->value.elements()[0]);
      bits = staticInteger(kw->value.elements()[1]);
    }
    shape = nullptr;
    for (const TmemShape &s : kTmemShapes)
      if (lanes == s.lanes && bits == s.bits)
        shape = &s;
    if (!shape)
      return error(*kw->expr, "the shape of " + name +
                                  " is (32, 32), (16, 64), (16, 128), (16, 256) or (16, 32) "
                                  "(lanes, bits), not " +
                                  (lanes && bits ? "(" + std::to_string(*lanes) + ", " +
                                                       std::to_string(*bits) + ")"
                                                 : kw->value.describe()));
  }
  int64_t lane = 0;
  if (const CallSite::Keyword *kw = site.keyword("lane")) {
    std::optional<int64_t> l = staticInteger(kw->value);
    if (!l || (*l != 0 && *l != 16) || (*l == 16 && shape->lanes == 32))
      return error(*kw->expr,
                   "lane is the first lane of the warp's quarter that the copy reaches: 0, or 16 "
                   "for a 16-lane shape; " + llvm::Twine(shape->name) + " cannot start at " +
                       kw->value.describe());
    lane = *l;
  }
  bool wait = true;
  if (const CallSite::Keyword *kw = site.keyword("wait")) {
    if (!kw->value.is(SemaValue::Kind::Bool))
      return error(*kw->expr, "wait is True or False (whether " + name + " waits with tcgen05.wait::" +
                                  (store ? "st" : "ld") + "), not " + kw->value.describe());
    wait = kw->value.boolValue();
  }

  // The fragment: its element count and type.
  int64_t n = 0;
  ir::DataType element = t.type().element();
  if (store) {
    const SemaValue &f = site.args[2];
    if (!f.is(SemaValue::Kind::RunTime) || !f.type().isTensor() ||
        f.type().memorySpace() != ir::MemorySpace::Register ||
        !size(f.type().tensorLayout()).isStatic() || f.type().element() != element)
      return error(site.argExpr(2), "tmem_store writes a register fragment of " +
                                        ir::name(element) + " elements, not " + f.describe());
    n = size(f.type().tensorLayout()).staticValue();
  } else {
    std::optional<int64_t> count = staticInteger(site.args[2]);
    if (!count || *count < 1)
      return error(site.argExpr(2), "the element count must be a positive static integer, not " +
                                        site.args[2].describe());
    n = *count;
  }
  // 16-bit elements sit one per cell, in its low half: two share a register
  // (.pack::16b, .unpack::16b).
  bool pack = ir::bitWidth(element) == 16;
  int64_t perRepetition = shape->registers * (pack ? 2 : 1);
  int64_t num = n / perRepetition;
  int64_t span = num * shape->columns * (pack ? 2 : 1);
  if (n % perRepetition != 0 || !llvm::isPowerOf2_64(uint64_t(num)) || num > shape->maxNum)
    return error(site.argExpr(2),
                 name + " with shape " + shape->name + " moves " + llvm::Twine(perRepetition) +
                     " " + ir::name(element) + " elements per thread and repetition, in 1 to " +
                     llvm::Twine(shape->maxNum) + " repetitions (a power of two); " +
                     llvm::Twine(n) + " elements are not that");
  if (*column + span > columns)
    return error(site.argExpr(1), name + " with shape " + shape->name + " of " + llvm::Twine(n) +
                                      " elements reaches columns [" + llvm::Twine(*column) + ", " +
                                      llvm::Twine(*column + span) + "), outside the tensor's " +
                                      llvm::Twine(columns));
  if (store) {
    ir::Operation &op = ctx.builder->create(ir::OpKind::TmemStore, site.loc(),
                                            {t.irValue(), site.args[2].irValue()});
    op.set(ir::attr::column, *column);
    op.set(ir::attr::shape, std::string(shape->name));
    op.set(ir::attr::num, num);
    op.set(ir::attr::lane, lane);
    op.set(ir::attr::wait, wait);
    return SemaValue::none();
  }
  ir::Operation &op = ctx.builder->create(
      ir::OpKind::TmemLoad, site.loc(), {t.irValue()},
      {ir::Type::tensor(element, ir::MemorySpace::Register, makeLayout(IntTuple(n)))});
  op.set(ir::attr::column, *column);
  op.set(ir::attr::shape, std::string(shape->name));
  op.set(ir::attr::num, num);
  op.set(ir::attr::lane, lane);
  op.set(ir::attr::wait, wait);
  return SemaValue::runTime(op.result());
}

} // namespace cutec
