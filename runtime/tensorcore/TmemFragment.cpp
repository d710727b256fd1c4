// The tcgen05.ld/st matrix fragments (see TmemFragment.h).
#include "runtime/tensorcore/TmemFragment.h"

namespace cutec::rt {
namespace {

/// Registers per thread of one repetition (.x1).
uint32_t registersPerRepetition(TmemLdStShape shape) {
  switch (shape) {
  case TmemLdStShape::S16x128b:
    return 2;
  case TmemLdStShape::S16x256b:
    return 4;
  default:
    return 1;
  }
}

/// Columns of one repetition, unpacked (16x32bx2: one half's).
uint32_t columnsPerRepetition(TmemLdStShape shape) {
  switch (shape) {
  case TmemLdStShape::S16x64b:
    return 2;
  case TmemLdStShape::S16x128b:
    return 4;
  case TmemLdStShape::S16x256b:
    return 8;
  default:
    return 1;
  }
}

const char *shapeName(TmemLdStShape shape) {
  switch (shape) {
  case TmemLdStShape::S32x32b:
    return "32x32b";
  case TmemLdStShape::S16x64b:
    return "16x64b";
  case TmemLdStShape::S16x128b:
    return "16x128b";
  case TmemLdStShape::S16x256b:
    return "16x256b";
  case TmemLdStShape::S16x32bx2:
    return "16x32bx2";
  }
  return "?";
}

} // namespace

uint32_t TmemFragmentForm::lanes() const { return shape == TmemLdStShape::S32x32b ? 32 : 16; }

uint32_t TmemFragmentForm::registers() const { return num * registersPerRepetition(shape); }

uint32_t TmemFragmentForm::columnSpan() const {
  uint32_t columns = num * columnsPerRepetition(shape) * (pack16 ? 2 : 1);
  return shape == TmemLdStShape::S16x32bx2 ? halfSplitOffset + columns : columns;
}

std::string TmemFragmentForm::check() const {
  // At most 128 registers per thread.
  uint32_t maxNum = 128 / registersPerRepetition(shape);
  if (num == 0 || num > maxNum || (num & (num - 1)))
    return std::string(".num of the ") + shapeName(shape) +
           " shape must be a power of two from 1 to " + std::to_string(maxNum) + ", not " +
           std::to_string(num);
  return "";
}

std::string TmemFragmentForm::name(bool store) const {
  return std::string(shapeName(shape)) + ".x" + std::to_string(num) +
         (pack16 ? (store ? ".unpack::16b" : ".pack::16b") : "");
}

TmemCellOffset tmemFragmentCell(const TmemFragmentForm &form, uint32_t l, uint32_t r) {
  TmemCellOffset c;
  uint32_t split = 0;
  switch (form.shape) {
  case TmemLdStShape::S32x32b:
    c = {l, r};
    break;
  case TmemLdStShape::S16x64b:
    c = {l / 4 + 8 * (l % 2), (l / 2) % 2 + 2 * r};
    break;
  case TmemLdStShape::S16x128b:
    c = {l / 4 + 8 * (r % 2), l % 4 + 4 * (r / 2)};
    break;
  case TmemLdStShape::S16x256b:
    c = {l / 4 + 8 * ((r / 2) % 2), r % 2 + 2 * (l % 4) + 8 * (r / 4)};
    break;
  case TmemLdStShape::S16x32bx2:
    c = {l % 16, r};
    split = l >= 16 ? form.halfSplitOffset : 0;
    break;
  }
  c.column = c.column * (form.pack16 ? 2 : 1) + split;
  return c;
}

} // namespace cutec::rt
