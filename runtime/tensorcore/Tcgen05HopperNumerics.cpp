// The wgmma type combinations of tcgen05.mma's kinds (see
// runtime/tensorcore/Tcgen05HopperNumerics.h).
#include "runtime/tensorcore/Tcgen05HopperNumerics.h"

namespace cutec::rt {
namespace {

/// wgmma's element type for `e`; false if wgmma has none.
bool wgmmaElementOf(MmaElement e, WgmmaElement &out) {
  switch (e) {
  case MmaElement::F16:
    out = WgmmaElement::F16;
    return true;
  case MmaElement::BF16:
    out = WgmmaElement::BF16;
    return true;
  case MmaElement::TF32:
    out = WgmmaElement::TF32;
    return true;
  case MmaElement::E4M3:
    out = WgmmaElement::E4M3;
    return true;
  case MmaElement::E5M2:
    out = WgmmaElement::E5M2;
    return true;
  default:
    return false;
  }
}

constexpr const char *kCovered = "the Hopper tcgen05 numerics (measured on wgmma) cover kind::f16, "
                                 "kind::tf32 and kind::f8f6f4 with e4m3/e5m2 operands";
constexpr const char *kUseDefault = "; run with the default f32-steps numerics";

} // namespace

std::string hopperWgmmaKind(bool blockScaled, const MmaElementFormat &a, const MmaElementFormat &b,
                            bool f16D, WgmmaKind &out) {
  if (blockScaled)
    return std::string(kCovered) + "; Hopper has no block-scaled MMA" + kUseDefault;
  for (const MmaElementFormat *f : {&a, &b})
    if (!wgmmaElementOf(f->element, f == &a ? out.a : out.b))
      return std::string(kCovered) + "; Hopper has no " + f->name + " operands" + kUseDefault;
  out.d = f16D ? WgmmaAccum::F16 : WgmmaAccum::F32;
  out.saturate = false;
  return "";
}

} // namespace cutec::rt
