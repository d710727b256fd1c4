// A table of the special-function unit's results over one function's reduced
// domain, as runtime/numerics/SfuTables.cpp stores it: per segment of the domain the
// quadratic the unit evaluates, fitted to an H100's results, and the entries
// where the hardware's result is one unit above or below that quadratic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cutec::rt::sfu {

/// value(x) = base + ((a + b*x + ((c*x*x) >> 8)) >> 40) for the x-th entry of
/// a segment (x below 2^segmentBits).
struct SegmentFit {
  int64_t base, a, b, c;
};

struct Table {
  unsigned segmentBits;
  const SegmentFit *segments;
  size_t segmentCount;
  const char *listed;   // base64 of LEB128 varints: gap to the previous listed entry << 1 | above
  size_t listedCount;
};

extern const Table kEx2Table;
extern const Table kRsqrtTable;
extern const Table kRcpTable;

/// A table with its listed entries decoded (index << 1 | above, in index
/// order), ready for lookups from any thread.
class DecodedTable {
public:
  explicit DecodedTable(const Table &table);
  /// The integer result of entry `index` (of segmentCount << segmentBits).
  int64_t operator[](uint32_t index) const;

private:
  const Table &table_;
  std::vector<uint32_t> listed_;
};

} // namespace cutec::rt::sfu
