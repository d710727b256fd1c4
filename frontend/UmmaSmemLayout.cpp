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
  int swizzleBits;
  IntTuple mode0(mn), stride0(k), strideK(1);
  if (!mnMajor) {
    int64_t rowBytes = k * bits / 8;
    swizzleBits = rowBytes == 128 ? 3 : rowBytes == 64 ? 2 : rowBytes == 32 ? 1 : 0;
    if (!swizzleBits || mn % 8 != 0)
      return fail("make_umma_smem_layout lays out K-major rows of 32, 64 or 128 bytes (one "
                  "swizzle span) and MN a multiple of 8; " + tile + " rows are " +
                  llvm::Twine(rowBytes) + " bytes");
  } else {
    if (bits < 8)
      return fail("4- and 6-bit operands must be K-major; " + tile + " cannot be MN-major");
    int64_t columnBytes = mn * bits / 8;
    swizzleBits = swizzleBitsFor(columnBytes);
    if (!swizzleBits || k % 8 != 0)
      return fail("make_umma_smem_layout lays out MN-major columns of a multiple of 32 bytes "
                  "(whole swizzle spans) and K a multiple of 8; " + tile + " columns are " +
                  llvm::Twine(columnBytes) + " bytes");
    int64_t atom = (int64_t(16) << swizzleBits) * 8 / bits;
    if (mn != atom) {
      mode0 = IntTuple::tuple({IntTuple(atom), IntTuple(mn / atom)});
      stride0 = IntTuple::tuple({IntTuple(1), IntTuple(atom * k)});
    } else {
      stride0 = IntTuple(1);
    }
    strideK = IntTuple(atom);
  }
  llvm::Expected<Layout> layout =
      makeLayout(IntTuple::tuple({mode0, IntTuple(k), IntTuple(stages)}),
                 IntTuple::tuple({stride0, strideK, IntTuple(mn * k)}));
  if (!layout)
    return layout.takeError();
  return ComposedLayout{Swizzle{swizzleBits, 4, 3}, IntExpr(0), *layout};
}

} // namespace cutec
