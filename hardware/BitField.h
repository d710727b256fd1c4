//===- BitField.h - A field of a descriptor word ---------------------------===//
//
// The descriptors the tensor cores read are words of fields at fixed bit
// positions. Each header here lists its word's fields once as BitFields;
// the compiler's encoders and the emulator's decoders both go through them.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_HARDWARE_BITFIELD_H
#define CUTEC_HARDWARE_BITFIELD_H

#include <cstdint>
#include <initializer_list>

namespace cutec::hw {

/// `width` bits of a word, from bit `lo` up (width below 64).
struct BitField {
  unsigned lo, width;

  /// The largest value the field holds.
  constexpr uint64_t max() const { return (uint64_t(1) << width) - 1; }
  /// The field's bits in place.
  constexpr uint64_t mask() const { return max() << lo; }
  /// The field's value in `word`.
  constexpr uint64_t get(uint64_t word) const { return (word >> lo) & max(); }
  /// `value`, truncated to the field's width, in place.
  constexpr uint64_t put(uint64_t value) const { return (value & max()) << lo; }
};

/// The bits of a `wordBits`-bit word that none of `fields` covers.
constexpr uint64_t bitsOutside(std::initializer_list<BitField> fields, unsigned wordBits) {
  uint64_t covered = 0;
  for (BitField f : fields)
    covered |= f.mask();
  uint64_t word = wordBits == 64 ? ~uint64_t(0) : (uint64_t(1) << wordBits) - 1;
  return word & ~covered;
}

} // namespace cutec::hw

#endif
