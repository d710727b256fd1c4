// Which TMEM cell each register of a tcgen05.ld / tcgen05.st holds: the
// matrix fragments of the PTX ISA ("Matrix fragments for tcgen05.ld/st"),
// as CUTLASS's SM100_TMEM_LOAD_* copy traits lay them out
// (cute/atom/copy_traits_sm100.hpp). With l the lane of the warp and r the
// register, in cells from the address's lane and column:
//   32x32b   .xN: N registers,  (l, r)
//   16x64b   .xN: N registers,  (l/4 + 8*(l%2), (l/2)%2 + 2r)
//   16x128b  .xN: 2N registers, (l/4 + 8*(r%2), l%4 + 4*(r/2))
//   16x256b  .xN: 4N registers, (l/4 + 8*((r/2)%2), r%2 + 2*(l%4) + 8*(r/4))
//   16x32bx2 .xN: N registers,  (l%16, r), the upper half-warp from column
//                 immHalfSplitoff on
// .pack::16b (ld) and .unpack::16b (st) make every column of the table two:
// register r's low half is the low half of cell 2c, its high half that of
// cell 2c+1 (c the table's column).
#pragma once

#include <cstdint>
#include <string>

namespace cutec::rt {

/// `.shape` of tcgen05.ld/st.
enum class TmemLdStShape : uint8_t { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };

/// One tcgen05.ld/st form: the shape, `.num` (.xN), 16-bit packing and,
/// for 16x32bx2, immHalfSplitoff (in columns).
struct TmemFragmentForm {
  TmemLdStShape shape = TmemLdStShape::S32x32b;
  uint32_t num = 1;
  bool pack16 = false;
  uint32_t halfSplitOffset = 0;

  /// TMEM lanes the warp reaches: 32, or 16 for the 16xNb shapes.
  uint32_t lanes() const;
  /// 32-bit registers per thread.
  uint32_t registers() const;
  /// Columns reached, from the address's column: [0, columnSpan()).
  uint32_t columnSpan() const;
  /// "" or why the form does not exist (.num out of range for the shape).
  std::string check() const;
  /// "16x256b.x2.pack::16b", the instruction's qualifiers.
  std::string name(bool store) const;
  bool operator==(const TmemFragmentForm &) const = default;
};

/// A cell relative to the instruction's address.
struct TmemCellOffset {
  uint32_t lane = 0, column = 0;
};

/// The cell that register `reg` of warp lane `lane` holds; with pack16 the
/// first of its two cells (the second is one column on).
TmemCellOffset tmemFragmentCell(const TmemFragmentForm &form, uint32_t lane, uint32_t reg);

} // namespace cutec::rt
