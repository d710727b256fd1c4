// make_umma_smem_layout's layouts (frontend/UmmaSmemLayout.h). The swizzle
// atoms are those of CuTe's UMMA::Layout_{K,MN}_SW{32,64,128}_Atom: 8 rows
// of one span for K-major, one span by 8 K-rows for MN-major.
#include "frontend/UmmaSmemLayout.h"

#include "ir/layout/Layout.h"

namespace cutec {

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// log2(span / 16) of the widest swizzle span (128, 64, 32 bytes) that
/// divides `bytes`, or 0 when none does.
static int swizzleBitsFor(int64_t bytes) {
  for (int bits = 3; bits >= 1; --bits)
    if (bytes % (int64_t(16) << bits) == 0)
      return bits;
  return 0;
}

llvm::Expected<ComposedLayout> makeUmmaSmemLayout(ir::DataType element, bool mnMajor, int64_t mn,
                                                  int64_t k, int64_t stages) {
  unsigned bits = ir::bitWidth(element);
  std::string tile =
      ("(" + llvm::Twine(mn) + ", " + llvm::Twine(k) + ") " + ir::name(element)).str();
  // The contiguous mode (K for K-major, MN for MN-major) and the other one.
  int64_t contiguous = mnMajor ? mn : k, other = mnMajor ? k : mn;
  int64_t bytes = contiguous * bits / 8;
  int swizzleBits = swizzleBitsFor(bytes);
  if (mnMajor && bits < 8)
    return fail("4- and 6-bit operands must be K-major; " + tile + " cannot be MN-major");
  if (!swizzleBits || other % 8 != 0)
    return fail("make_umma_smem_layout lays out " + llvm::Twine(mnMajor ? "MN" : "K") + "-major " +
                (mnMajor ? "columns" : "rows") +
                " of a multiple of 32 bytes (whole swizzle spans) and " + (mnMajor ? "K" : "MN") +
                " a multiple of 8; " + tile + " " + (mnMajor ? "columns" : "rows") + " are " +
                llvm::Twine(bytes) + " bytes");
  // Atoms of `atom` contiguous elements by all `other` rows, one after the
  // other along the contiguous mode.
  int64_t atom = (int64_t(16) << swizzleBits) * 8 / bits;
  IntTuple shapeC(contiguous), strideC(1), strideO(atom);
  if (contiguous != atom) {
    shapeC = IntTuple::tuple({IntTuple(atom), IntTuple(contiguous / atom)});
    strideC = IntTuple::tuple({IntTuple(1), IntTuple(atom * other)});
  }
  IntTuple shapeMn = mnMajor ? shapeC : IntTuple(mn), strideMn = mnMajor ? strideC : strideO;
  IntTuple shapeK = mnMajor ? IntTuple(k) : shapeC, strideK = mnMajor ? strideO : strideC;
  llvm::Expected<Layout> layout =
      makeLayout(IntTuple::tuple({shapeMn, shapeK, IntTuple(stages)}),
                 IntTuple::tuple({strideMn, strideK, IntTuple(mn * k)}));
  if (!layout)
    return layout.takeError();
  return ComposedLayout{Swizzle{swizzleBits, 4, 3}, IntExpr(0), *layout};
}

} // namespace cutec
