// The forms of wgmma.mma_async and its accumulator fragment.
#include "runtime/tensorcore/Wgmma.h"

namespace cutec::rt {
namespace {

bool isFp8(WgmmaElement t) { return t == WgmmaElement::E4M3 || t == WgmmaElement::E5M2; }
bool isInteger(WgmmaElement t) { return t == WgmmaElement::S8 || t == WgmmaElement::U8; }
bool isHalf(WgmmaElement t) { return t == WgmmaElement::F16 || t == WgmmaElement::BF16; }

} // namespace

bool operator==(const WgmmaShape &x, const WgmmaShape &y) {
  return x.n == y.n && x.a == y.a && x.b == y.b && x.d == y.d && x.transposeA == y.transposeA &&
         x.transposeB == y.transposeB && x.scaleA == y.scaleA && x.scaleB == y.scaleB && x.satfinite == y.satfinite &&
         x.aInRegisters == y.aInRegisters;
}

uint32_t wgmmaAccumulatorRegisters(const WgmmaShape &shape) {
  return shape.d == WgmmaAccum::F16 ? shape.n / 4 : shape.n / 2;
}

uint32_t wgmmaK(const WgmmaShape &shape) { return wgmmaK(shape.a); }

std::string checkWgmmaShape(const WgmmaShape &s) {
  const std::string types = std::string(".") + wgmmaElementName(s.a) + "." + wgmmaElementName(s.b);
  bool typesMatch = s.a == s.b || (isFp8(s.a) && isFp8(s.b)) ||
                    (isInteger(s.a) && isInteger(s.b));
  if (!typesMatch)
    return "A and B types " + types +
           " do not combine: they must be equal, except that e4m3/e5m2 and s8/u8 may mix";
  bool nValid = s.n >= 8 && s.n <= 256 && s.n % 8 == 0;
  if (isInteger(s.a))
    nValid = nValid && (s.n <= 32 || s.n % 16 == 0);
  if (!nValid)
    return "N=" + std::to_string(s.n) +
           (isInteger(s.a) ? " is not a shape for s8/u8 (8, 16, 24, 32, then 48 to 256 in steps of 16)"
                           : " is not a multiple of 8 from 8 to 256");
  bool dValid;
  switch (s.d) {
  case WgmmaAccum::F16:
    dValid = s.a == WgmmaElement::F16 || isFp8(s.a);
    break;
  case WgmmaAccum::F32:
    dValid = !isInteger(s.a);
    break;
  default:
    dValid = isInteger(s.a);
    break;
  }
  if (!dValid)
    return std::string("a .") + wgmmaAccumName(s.d) + " accumulator is not valid with " + types +
           " (f16 and fp8: f16 or f32; bf16 and tf32: f32; s8/u8: s32)";
  if ((s.transposeA || s.transposeB) && !isHalf(s.a))
    return "imm-trans-a/b (an MN-major operand) is only valid for f16 and bf16, not " + types;
  if ((s.scaleA != 1 && s.scaleA != -1) || (s.scaleB != 1 && s.scaleB != -1))
    return "imm-scale-a/b must be 1 or -1 (got " + std::to_string(s.scaleA) + ", " +
           std::to_string(s.scaleB) + ")";
  if (isInteger(s.a) && (s.scaleA != 1 || s.scaleB != 1))
    return "the integer forms have no imm-scale-a/b (negation)";
  if (s.satfinite && !isInteger(s.a))
    return ".satfinite is only valid for s8/u8, not " + types;
  if (s.aInRegisters && s.transposeA)
    return "A from registers has no imm-trans-a (it is K-major)";
  return "";
}

std::string wgmmaShapeText(const WgmmaShape &s) {
  std::string text = "m64n" + std::to_string(s.n) + "k" + std::to_string(wgmmaK(s)) + "." +
                     wgmmaAccumName(s.d) + "." + wgmmaElementName(s.a) + "." + wgmmaElementName(s.b);
  if (s.satfinite)
    text += ".satfinite";
  if (s.aInRegisters)
    text += " A in registers";
  if (s.transposeA)
    text += " trans-a";
  if (s.transposeB)
    text += " trans-b";
  if (s.scaleA != 1)
    text += " scale-a " + std::to_string(s.scaleA);
  if (s.scaleB != 1)
    text += " scale-b " + std::to_string(s.scaleB);
  return text;
}

WgmmaPosition wgmmaAccumulatorPosition(uint32_t thread, uint32_t element) {
  const uint32_t warp = thread / 32, lane = thread % 32;
  return {16 * warp + lane / 4 + 8 * ((element / 2) % 2),
          8 * (element / 4) + 2 * (lane % 4) + element % 2};
}

WgmmaPosition wgmmaRegisterAPosition(uint32_t thread, uint32_t reg, uint32_t element,
                                     uint32_t perRegister) {
  const uint32_t warp = thread / 32, lane = thread % 32;
  return {16 * warp + lane / 4 + 8 * (reg % 2),
          perRegister * (lane % 4) + 4 * perRegister * (reg / 2) + element};
}

} // namespace cutec::rt
