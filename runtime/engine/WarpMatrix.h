// `stmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 [p], {r...}` and
// `ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 {r...}, [p]` as the
// emulation runs them: warp collectives (Thread::warpSync) over N 8x8
// matrices of 16-bit elements (PTX ISA, "Warp-level matrix store/load").
//
//  - Lane 8m + i supplies the shared address of row i of matrix m: 16 bytes,
//    16-byte aligned. With .x1 and .x2 the addresses of lanes 8N and up are
//    not used.
//  - Register m of lane 4i + w holds elements (i, 2w) and (i, 2w + 1) of
//    matrix m, the first in the low half.
//  - With .trans the matrix in registers is the transpose of the one in
//    memory: element (i, j) of the registers is byte 2i of memory row j.
// A row address that is not 16-byte aligned is reported with its lane; one
// outside the CTA's shared memory as Thread::storeShared/loadShared report it.
#pragma once

#include "runtime/base/DiagnosticText.h"
#include "runtime/engine/Thread.h"

#include <array>
#include <cstdint>
#include <string>

namespace cutec::rt {

namespace matrix_detail {

struct Lane {
  uint32_t address;
  std::array<uint32_t, 4> words;
};

/// The 16-bit element `column` of `row` as a register pair holds it.
inline uint16_t half(const std::array<uint32_t, 4> &row, uint32_t column) {
  return uint16_t(row[column / 2] >> (16 * (column % 2)));
}

/// Moves the matrices between the memory rows and the lanes' registers, in
/// the direction `store` says, on behalf of the whole warp.
inline void moveMatrices(Thread &t, const WarpCollective &w, uint32_t num, bool trans, bool store,
                         const char *what) {
  auto lane = [&](uint32_t l) { return static_cast<Lane *>(w.laneData[l]); };
  for (uint32_t l = 0; l < 8 * num; ++l)
    if (uint32_t address = lane(l)->address; address % 16 != 0)
      t.failWith(what, [&] {
        return "lane " + std::to_string(l) + " gives the row address " + hex(address) +
               ", which is not 16-byte aligned";
      });
  for (uint32_t m = 0; m < num; ++m) {
    // rows[i]: memory row i of matrix m, as four words of two elements.
    std::array<std::array<uint32_t, 4>, 8> rows{};
    for (uint32_t i = 0; i < 8 && !store; ++i)
      rows[i] = t.loadShared<std::array<uint32_t, 4>>(lane(8 * m + i)->address, what);
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t word = 0; word < 4; ++word) {
        uint32_t &reg = lane(4 * i + word)->words[m];
        for (uint32_t k = 0; k < 2; ++k) {
          // Element (i, 2 word + k) of the registers' matrix.
          uint32_t row = trans ? 2 * word + k : i, column = trans ? i : 2 * word + k;
          uint32_t shift = 16 * (column % 2);
          if (store) {
            uint32_t value = reg >> (16 * k) & 0xFFFF;
            uint32_t &cell = rows[row][column / 2];
            cell = (cell & ~(0xFFFFu << shift)) | value << shift;
          } else {
            reg = (reg & ~(0xFFFFu << (16 * k))) | uint32_t(half(rows[row], column)) << (16 * k);
          }
        }
      }
    for (uint32_t i = 0; i < 8 && store; ++i)
      t.storeShared(lane(8 * m + i)->address, rows[i], what);
  }
}

} // namespace matrix_detail

/// `stmatrix`: `words[0 .. num-1]` are this lane's registers.
inline void warpSyncStmatrix(Thread &t, uint32_t address, std::array<uint32_t, 4> words,
                             uint32_t num, bool trans, const char *what) {
  matrix_detail::Lane lane{address, words};
  t.warpSync(0xFFFFFFFFu, &lane, what, [&t, num, trans, what](const WarpCollective &w) {
    matrix_detail::moveMatrices(t, w, num, trans, /*store=*/true, what);
  });
}

/// `ldmatrix`: this lane's registers; the first `num` are loaded.
inline std::array<uint32_t, 4> warpSyncLdmatrix(Thread &t, uint32_t address, uint32_t num,
                                                bool trans, const char *what) {
  matrix_detail::Lane lane{address, {}};
  t.warpSync(0xFFFFFFFFu, &lane, what, [&t, num, trans, what](const WarpCollective &w) {
    matrix_detail::moveMatrices(t, w, num, trans, /*store=*/false, what);
  });
  return lane.words;
}

} // namespace cutec::rt
