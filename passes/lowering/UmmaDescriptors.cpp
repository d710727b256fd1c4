//===- UmmaDescriptors.cpp - tcgen05.mma's descriptors from layouts -------===//
#include "passes/lowering/UmmaDescriptors.h"

#include "hardware/GmmaDescriptor.h"
#include "hardware/UmmaDescriptor.h"
#include "ir/layout/Layout.h"

namespace cutec::umma {
namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The static stride of mode (i, j) of a layout of depth 2, or nullopt.
std::optional<int64_t> strideAt(const Layout &l, size_t i, size_t j) {
  const IntTuple &s = l.stride[i];
  const IntTuple &leaf = s.isLeaf() ? s : s[j];
  return leaf.isLeaf() ? leaf.leaf().getStatic() : std::nullopt;
}

} // namespace

uint64_t SmemDescriptor::constantBits() const {
  using namespace hw::umma_smem;
  return kLeadingByteOffset.put(leadingByteOffset) | kStrideByteOffset.put(strideByteOffset) |
         kVersion.put(kSm100Version) | kLayoutType.put(layoutType);
}

std::optional<uint64_t> SmemDescriptor::wgmmaBits() const {
  using namespace hw::gmma_smem;
  const hw::SwizzleMode *mode = hw::swizzleModeOfUmmaCode(layoutType);
  if (!mode || mode->gmmaLayoutType < 0)
    return std::nullopt;
  return kLeadingByteOffset.put(leadingByteOffset) | kStrideByteOffset.put(strideByteOffset) |
         kLayoutType.put(uint64_t(mode->gmmaLayoutType));
}

llvm::Expected<SmemDescriptor> smemDescriptor(const Layout &tile, const Swizzle &swizzle,
                                              ir::DataType element, Major major) {
  // The layouts lower-mma describes: Swizzle<B,4,3> on byte addresses,
  // repeating every 8 rows of a 16·2^B-byte span (not the 32B-atom one).
  const hw::SwizzleMode *mode = hw::swizzleModeOf(swizzle.bits, swizzle.base, swizzle.shift);
  if (!mode || mode->umma == hw::UmmaLayout::B128Base32B)
    return fail("the MMA reads shared memory unswizzled or with S<1,4,3>, S<2,4,3> or S<3,4,3> "
                "on byte addresses, not " + swizzle.str());
  if (tile.rank() != 2 || !tile.shape.isStatic() || !tile.stride.isStatic())
    return fail("an MMA operand tile is a static (MN, K) layout, not " + tile.str());
  // The tile in 16-byte units: the contiguous mode shrinks by the elements
  // that 16 bytes hold, and so do the other strides.
  unsigned bits = ir::bitWidth(element);
  llvm::Expected<Layout> units = upcast(tile, 128 / bits);
  if (!units)
    return units.takeError();
  // Swizzle atoms hold 2^B units along the contiguous mode (1 unswizzled).
  int64_t atom = int64_t(1) << mode->bits;
  SmemDescriptor d;
  d.layoutType = uint32_t(mode->umma);
  auto tiler = [](int64_t mn, int64_t k) {
    return Tiler::byMode({Tiler::of(makeLayout(IntTuple(mn))), Tiler::of(makeLayout(IntTuple(k)))});
  };
  if (major == Major::K) {
    // ((8, n), (2, k')): rows of a core matrix `atom` units apart; SBO the
    // stride of 8-row groups, LBO that of the second 16-byte chunk.
    llvm::Expected<Layout> canonical = logicalDivide(*units, tiler(8, 2));
    if (!canonical)
      return canonical.takeError();
    auto s00 = strideAt(*canonical, 0, 0), s01 = strideAt(*canonical, 0, 1),
         s10 = strideAt(*canonical, 1, 0);
    if (!s00 || !s01 || !s10 || *s00 != atom || (mode->bits && *s10 != 1))
      return fail("the K-major tile " + tile.str() + " is not a canonical UMMA layout for " +
                  swizzle.str() + ": in 16-byte units it is " + canonical->str() +
                  ", which needs rows " + llvm::Twine(atom) + " apart" +
                  (mode->bits ? " and contiguous 16-byte chunks along K" : ""));
    d.strideByteOffset = uint32_t(*s01);
    d.leadingByteOffset = uint32_t(*s10);
    return d;
  }
  // MN-major: ((atom, n), (8, k)): the contiguous mode in atoms, 8 K-rows.
  llvm::Expected<Layout> canonical = logicalDivide(*units, tiler(atom, 8));
  if (!canonical)
    return canonical.takeError();
  auto s00 = strideAt(*canonical, 0, 0), s01 = strideAt(*canonical, 0, 1),
       s10 = strideAt(*canonical, 1, 0), s11 = strideAt(*canonical, 1, 1);
  if (!s00 || !s01 || !s10 || !s11 || (mode->bits && *s00 != 1) || *s10 != atom)
    return fail("the MN-major tile " + tile.str() + " is not a canonical UMMA layout for " +
                swizzle.str() + ": in 16-byte units it is " + canonical->str());
  d.strideByteOffset = uint32_t(mode->bits ? *s11 : *s01);
  d.leadingByteOffset = uint32_t(mode->bits ? *s01 : *s11);
  return d;
}

llvm::Expected<Layout> firstKBlock(const Layout &tile, int64_t kBlock) {
  if (tile.rank() != 2)
    return fail("an MMA operand tile is an (MN, K) layout, not " + tile.str());
  llvm::Expected<Layout> k =
      composition(Layout(tile.shape[1], tile.stride[1]), makeLayout(IntTuple(kBlock)));
  if (!k)
    return k.takeError();
  return makeLayout({Layout(tile.shape[0], tile.stride[0]), *k});
}

namespace {

/// The format table's name for `t`, or nullopt for a type no kind takes.
std::optional<hw::UmmaElement> ummaElement(ir::DataType t) {
  using ir::DataType;
  switch (t) {
  case DataType::F16:
    return hw::UmmaElement::F16;
  case DataType::BF16:
    return hw::UmmaElement::BF16;
  case DataType::TF32:
    return hw::UmmaElement::TF32;
  case DataType::U8:
    return hw::UmmaElement::U8;
  case DataType::I8:
    return hw::UmmaElement::S8;
  case DataType::F8E4M3:
    return hw::UmmaElement::E4M3;
  case DataType::F8E5M2:
    return hw::UmmaElement::E5M2;
  case DataType::F6E2M3:
    return hw::UmmaElement::E2M3;
  case DataType::F6E3M2:
    return hw::UmmaElement::E3M2;
  case DataType::F4E2M1:
    return hw::UmmaElement::E2M1;
  default:
    return std::nullopt;
  }
}

/// The A or B format code of `t` in `kind`'s table.
std::optional<uint32_t> operandFormat(Kind kind, ir::DataType t) {
  std::optional<hw::UmmaElement> element = ummaElement(t);
  return element ? hw::ummaFormatCode(kind, *element) : std::nullopt;
}

} // namespace

llvm::Expected<uint32_t> instrDescriptor(const InstrDescriptorSpec &s) {
  using ir::DataType;
  std::optional<uint32_t> a = operandFormat(s.kind, s.a), b = operandFormat(s.kind, s.b);
  if (!a || !b)
    return fail("this tcgen05.mma kind does not take " + ir::name(s.a) + " x " + ir::name(s.b));
  if (s.m != 64 && s.m != 128 && s.m != 256)
    return fail("tcgen05.mma has M = 64, 128 or 256, not " + llvm::Twine(s.m));
  int64_t step = s.m == 64 ? 8 : 16;
  if (s.n < step || s.n > 256 || s.n % step != 0)
    return fail("tcgen05.mma with M = " + llvm::Twine(s.m) + " needs N a multiple of " +
                llvm::Twine(step) + " from " + llvm::Twine(step) + " to 256, not " +
                llvm::Twine(s.n));
  // Only 8-bit and wider formats may be MN-major (sub-byte data is K-major).
  bool subByte = ir::bitWidth(s.a) < 8 || ir::bitWidth(s.b) < 8;
  if (subByte && (s.aMajor == Major::MN || s.bMajor == Major::MN))
    return fail("4- and 6-bit operands must be K-major");
  hw::MmaInstrDescriptor desc;
  desc.aFormat = *a;
  desc.bFormat = *b;
  desc.aMnMajor = s.aMajor == Major::MN;
  desc.bMnMajor = s.bMajor == Major::MN;
  desc.n = uint32_t(s.n);
  desc.m = uint32_t(s.m);
  if (hw::isBlockScaled(s.kind)) {
    if (s.scale != DataType::UE8M0 && !(s.kind == Kind::Mxf4nvf4 && s.scale == DataType::UE4M3))
      return fail("this block-scaled kind takes ue8m0 scale factors" +
                  llvm::Twine(s.kind == Kind::Mxf4nvf4 ? " or ue4m3" : "") + ", not " +
                  ir::name(s.scale));
    if (s.aSfId > 3 || s.bSfId > 3)
      return fail("the SF ids are bytes 0 to 3 of a TMEM column");
    desc.aSfId = s.aSfId;
    desc.bSfId = s.bSfId;
    desc.scaleUe8m0 = s.scale == DataType::UE8M0;
    return hw::encodeInstrDescriptor(desc, /*blockScaled=*/true);
  }
  hw::UmmaDFormat d;
  if (s.d == DataType::F16 && s.kind != Kind::I8 && s.kind != Kind::Tf32)
    d = hw::UmmaDFormat::F16;
  else if (s.d == DataType::F32 && s.kind != Kind::I8)
    d = hw::UmmaDFormat::F32;
  else if (s.d == DataType::I32 && s.kind == Kind::I8)
    d = hw::UmmaDFormat::S32;
  else
    return fail("this tcgen05.mma kind does not accumulate in " + ir::name(s.d));
  desc.dFormat = uint32_t(d);
  return hw::encodeInstrDescriptor(desc, /*blockScaled=*/false);
}

} // namespace cutec::umma
