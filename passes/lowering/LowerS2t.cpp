//===- LowerS2t.cpp - tmem_copy of scale factors to tcgen05.cp ------------===//
//
// `cute.tmem_copy %src, %dst` copies scale-factor tiles from shared memory to
// tensor memory. The source is a tile of whole 512-byte scale-factor atoms
// as TMA brought them from global memory: shape (16, 32, k_atoms[, mn_atoms])
// with strides (1, 16, ...), atom row r0 < 32 holding, in byte c, the factor
// of row 32*(c/4) + r0 of its 128 rows and of its (c%4)-th group of K. The
// destination is a tensor-memory tensor laid out by sf_tmem_layout.
//
// Each atom becomes one `nvgpu.tcgen05_cp` with shape 32x128b.warpx4: row r0
// goes to lane r0 of all four lane quarters, byte c to column col + c/4, byte
// c%4. The pass finds col from the destination's layout and checks that the
// layout puts every factor of the atom exactly where the copy does (and in
// every quarter, as block-scaled tcgen05.mma requires); a layout that does
// not is an error naming the first misplaced factor. The shared memory
// descriptor (no swizzle, 8-row core matrices 128 bytes apart) is constant
// but for the start address. The thread that issues the MMAs issues the
// copies: tcgen05.cp and tcgen05.mma execute in issue order. With
// `cta_group = 2` the copies are tcgen05.cp.cta_group::2, issued by the pair
// leader: each CTA of the pair copies its own shared tile to its own tensor
// memory, at the same addresses (the pair's SFA rows are split between the
// CTAs, its SFB rows are in both).
//
//===----------------------------------------------------------------------===//
#include "passes/lowering/BlockScaledMma.h"
#include "passes/lowering/MaterializeOffset.h"
#include "passes/Passes.h"

namespace cutec {
namespace {

namespace attr = ir::attr;
using ir::Operation;
using ir::OpKind;
using ir::Value;

class S2tLowering {
public:
  S2tLowering(Operation &kernel, PassContext &context) : kernel(kernel), context(context) {}

  void run() {
    for (Operation *copy : ir::collect(kernel, OpKind::TmemCopy))
      if (!lower(*copy))
        return;
  }

private:
  bool fail(const Operation &op, const llvm::Twine &message) {
    context.error(op.loc(), "tmem_copy: " + message);
    return false;
  }

  /// One tcgen05.cp: the source atom's element offset and the destination's
  /// byte offset (a column times 4).
  struct Atom {
    int64_t src = 0, dst = 0;
  };

  /// The atoms of `src` (shared) and where `dst` wants them; false after an
  /// error.
  bool plan(const Operation &op, const Layout &src, const ScaleFactorTmem &dst,
            std::vector<Atom> &atoms) {
    auto mode = [&](size_t i) -> std::pair<int64_t, int64_t> {
      if (i >= src.rank())
        return {1, 0};
      std::optional<int64_t> n = src.shape[i].isLeaf() ? src.shape[i].leaf().getStatic()
                                                       : std::nullopt;
      std::optional<int64_t> s = src.stride[i].isLeaf() ? src.stride[i].leaf().getStatic()
                                                        : std::nullopt;
      return {n.value_or(-1), s.value_or(-1)};
    };
    auto [rowBytes, one] = mode(0);
    auto [rows, sixteen] = mode(1);
    auto [kAtoms, kStride] = mode(2);
    auto [mnAtoms, mnStride] = mode(3);
    if (src.rank() < 3 || src.rank() > 4 || rowBytes != 16 || one != 1 || rows != 32 ||
        sixteen != 16 || kAtoms < 1 || mnAtoms < 1 || kStride < 0 || mnStride < 0 ||
        kStride % 16 || mnStride % 16)
      return fail(op, "the source " + src.str() + " is not a tile of whole scale-factor atoms "
                      "(16, 32, k_atoms[, mn_atoms]):(1, 16, ...) at 16-byte aligned offsets");
    if (mnAtoms * 128 != dst.rows || kAtoms * 4 * dst.vec != dst.k)
      return fail(op, "the source holds " + llvm::Twine(mnAtoms * 128) + " rows by " +
                      llvm::Twine(kAtoms * 4) + " factors, the destination " + dst.layout.str() +
                      " " + llvm::Twine(dst.rows) + " rows by " + llvm::Twine(dst.k / dst.vec));
    for (int64_t na = 0; na < mnAtoms; ++na)
      for (int64_t ka = 0; ka < kAtoms; ++ka) {
        llvm::Expected<int64_t> base = dst.offset(na * 128, 0, ka * 4 * dst.vec);
        if (!base)
          return fail(op, llvm::toString(base.takeError()));
        if (*base % 4 != 0 || *base >= ScaleFactorTmem::kLaneBytes)
          return fail(op, "the destination " + dst.layout.str() + " puts atom (" +
                              llvm::Twine(ka) + ", " + llvm::Twine(na) + ") at byte " +
                              llvm::Twine(*base) + ", not at the start of a column of lane 0");
        for (int64_t q = 0; q < 4; ++q)
          for (int64_t r0 = 0; r0 < 32; ++r0)
            for (int64_t c = 0; c < 16; ++c) {
              int64_t row = na * 128 + 32 * (c / 4) + r0, kElem = (ka * 4 + c % 4) * dst.vec;
              llvm::Expected<int64_t> at = dst.offset(row, q, kElem);
              if (!at)
                return fail(op, llvm::toString(at.takeError()));
              int64_t want = *base + r0 * ScaleFactorTmem::kLaneBytes + c +
                             q * ScaleFactorTmem::kQuarterBytes;
              if (*at != want)
                return fail(op, "the destination " + dst.layout.str() + " puts the factor of row " +
                                    llvm::Twine(row) + ", K = " + llvm::Twine(kElem) +
                                    " in lane quarter " + llvm::Twine(q) + " at byte " +
                                    llvm::Twine(*at) + "; tcgen05.cp.32x128b.warpx4 writes it "
                                    "at byte " + llvm::Twine(want));
            }
        atoms.push_back({ka * kStride + na * mnStride, *base});
      }
    return true;
  }

  bool lower(Operation &copy) {
    Value *src = copy.operand(0), *dst = copy.operand(1);
    for (Value *v : {src, dst})
      if (!v->definingOp() || v->definingOp()->kind() != OpKind::View)
        return fail(copy, "internal error: the operands are not views; run 'partition' first");
    if (!src->type().tensorSwizzle().isIdentity())
      return fail(copy, "scale-factor tiles are not swizzled in shared memory, this source is (" +
                            src->type().tensorSwizzle().str() + ")");
    llvm::Expected<ScaleFactorTmem> sf = ScaleFactorTmem::of(dst->type(), "the destination");
    if (!sf)
      return fail(copy, llvm::toString(sf.takeError()));
    std::vector<Atom> atoms;
    if (!plan(copy, src->type().tensorLayout(), *sf, atoms))
      return false;
    // 32 rows of 16 bytes: one core matrix wide, 8-row groups 128 bytes apart.
    umma::SmemDescriptor desc;
    desc.strideByteOffset = 128 / 16;
    ir::Builder b;
    b.setInsertionPoint(copy);
    for (const Atom &atom : atoms) {
      Operation &cp = b.create(OpKind::Tcgen05Cp, copy.loc(),
                               {shiftView(b, copy.loc(), dst, atom.dst),
                                shiftView(b, copy.loc(), src, atom.src)});
      cp.set(attr::shape, std::string("32x128b.warpx4"));
      cp.set(attr::desc, int64_t(desc.constantBits()));
      if (const int64_t *group = copy.get(attr::ctaGroup))
        cp.set(attr::ctaGroup, *group);
    }
    ir::erase(copy);
    return true;
  }

  Operation &kernel;
  PassContext &context;
};

class LowerS2t : public Pass {
public:
  llvm::StringRef name() const override { return "lower-s2t"; }
  void run(Operation &kernel, PassContext &context) override { S2tLowering(kernel, context).run(); }
};

} // namespace

std::unique_ptr<Pass> createLowerS2tPass() { return std::make_unique<LowerS2t>(); }

} // namespace cutec
