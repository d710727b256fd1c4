#include "runtime/numerics/SfuTable.h"

#include <algorithm>
#include <vector>

namespace cutec::rt::sfu {
namespace {

int base64Digit(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  return c == '+' ? 62 : c == '/' ? 63 : -1;
}

std::vector<uint8_t> base64Bytes(const char *text) {
  std::vector<uint8_t> bytes;
  uint32_t bits = 0;
  int count = 0;
  for (const char *p = text; *p; ++p) {
    int digit = base64Digit(*p);
    if (digit < 0)
      continue; // padding
    bits = bits << 6 | uint32_t(digit);
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes.push_back(uint8_t(bits >> count));
    }
  }
  return bytes;
}

} // namespace

DecodedTable::DecodedTable(const Table &table) : table_(table) {
  listed_.reserve(table.listedCount);
  int64_t index = -1;
  uint64_t value = 0;
  int shift = 0;
  for (uint8_t byte : base64Bytes(table.listed)) {
    value |= uint64_t(byte & 0x7F) << shift;
    shift += 7;
    if (byte & 0x80)
      continue;
    index += int64_t(value >> 1);
    listed_.push_back(uint32_t(index) << 1 | uint32_t(value & 1));
    value = 0;
    shift = 0;
  }
}

int64_t DecodedTable::operator[](uint32_t index) const {
  const SegmentFit &fit = table_.segments[index >> table_.segmentBits];
  int64_t x = index & ((1u << table_.segmentBits) - 1);
  int64_t value = fit.base + ((fit.a + fit.b * x + ((fit.c * x * x) >> 8)) >> 40);
  auto it = std::lower_bound(listed_.begin(), listed_.end(), index << 1);
  if (it != listed_.end() && (*it >> 1) == index)
    value += (*it & 1) ? 1 : -1;
  return value;
}

} // namespace cutec::rt::sfu
