// The hardware check of the emulator's TMA model: a hand-written sm_90a PTX
// kernel loads a box with cp.async.bulk.tensor (mbarrier init, expect_tx,
// try_wait.parity) into shared memory pre-filled with a pattern and copies
// the whole shared region to global memory; the same kernel, written against
// cutec's emulation runtime, runs on the CPU. The driver encodes each case's
// map with cuTensorMapEncodeTiled, the emulation with encodeTensorMapTiled,
// and the two shared-memory images must be byte-identical. Cases the GPU
// faults on ("illegal instruction") must be refused by the emulation, and a
// load whose expect_tx overstates its bytes must time out on the GPU (the
// kernel's wait is bounded and reports it) and deadlock in the emulation.
// A second set of cases requires both encoders to accept and reject the
// same arguments. The shared region is sized by the emulator's rule for
// the box's extent (TensorMapInfo::sharedBoxBytes) plus a 1 KiB guard that
// must keep its pattern.
//   tma_model_check                   (on a machine with a GPU)
//   tma_model_check --print-ptx       (the kernels, for ptxas)
//   tma_model_check --emulation-only  (runs only the emulation side)
// Prints PASS/FAIL per case and a summary; exits 1 on any failure. Without a
// CUDA device it says so and exits 0 (CI has no GPU).
#include "runtime/Emulation.h"
#include "runtime/memory/Tma.h"
#include "CudaCheck.h"
#include "TmaImageKernel.h"

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace cutec::rt;

constexpr uint32_t kPatternByte = 0xA5; // shared memory before the load
constexpr uint32_t kRegionAlign = test::kTmaRegionAlign;
constexpr uint32_t kGuardBytes = 1024; // past the modelled extent, must stay pattern
constexpr uint32_t kWaitPolls = 1u << 20;  // test_wait polls before the kernel gives up

// One kernel per rank: thread 0 of a one-thread CTA aligns the dynamic
// shared base up to 1024, fills `total` bytes with the pattern, loads the
// box at base + dstOffset and copies the `total` bytes out.
std::string kernelPtx() {
  std::string ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".extern .shared .align 16 .b8 dsmem[];\n";
  for (int rank = 1; rank <= 5; ++rank) {
    std::string r = std::to_string(rank);
    std::string coords;
    for (int d = 0; d < rank; ++d)
      coords += (d ? ", " : "") + std::string("%r") + std::to_string(20 + d);
    ptx += ".visible .entry tma_load_" + r + "d(.param .align 64 .b8 tmap[128], .param .u64 out, "
           ".param .u32 total, .param .u32 dstOffset, .param .u32 txBytes, .param .align 4 .b8 "
           "coords[20], .param .u64 tmapGlobal, .param .u64 status)\n{\n"
           "  .reg .pred %p<4>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<8>;\n"
           "  .shared .align 8 .b64 bar;\n"
           "  mov.u32 %r1, bar;\n"
           "  mov.u32 %r2, dsmem;\n  add.u32 %r2, %r2, 1023;\n  and.b32 %r2, %r2, -1024;\n"
           "  ld.param.u32 %r3, [total];\n  ld.param.u32 %r4, [dstOffset];\n"
           "  ld.param.u32 %r5, [txBytes];\n  ld.param.u64 %rd1, [out];\n"
           "  mov.u32 %r6, 0;\n  mov.u32 %r7, 0xA5A5A5A5;\n"
           "FILL:\n  add.u32 %r8, %r2, %r6;\n  st.shared.u32 [%r8], %r7;\n"
           "  add.u32 %r6, %r6, 4;\n  setp.lt.u32 %p1, %r6, %r3;\n  @%p1 bra FILL;\n"
           "  mbarrier.init.shared::cta.b64 [%r1], 1;\n"
           "  fence.mbarrier_init.release.cluster;\n  fence.proxy.async.shared::cta;\n";
    for (int d = 0; d < rank; ++d)
      ptx += "  ld.param.s32 %r" + std::to_string(20 + d) + ", [coords+" + std::to_string(4 * d) +
             "];\n";
    // The tensor-map operand is a generic address: of the parameter, or of
    // a copy in global memory when tmapGlobal is not 0.
    ptx += "  mov.b64 %rd2, tmap;\n  cvta.param.u64 %rd2, %rd2;\n"
           "  ld.param.u64 %rd6, [tmapGlobal];\n  setp.ne.u64 %p3, %rd6, 0;\n"
           "  @%p3 mov.b64 %rd2, %rd6;\n  add.u32 %r9, %r2, %r4;\n"
           "  mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r1], %r5;\n"
           "  cp.async.bulk.tensor." +
           r + "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r9], [%rd2, {" +
           coords + "}], [%r1];\n"
                    "  mov.u32 %r11, 0;\n"
                    "WAIT:\n  mbarrier.test_wait.parity.shared::cta.b64 %p2, [%r1], 0;\n"
                    "  @%p2 bra WAITED;\n  add.u32 %r11, %r11, 1;\n"
                    "  setp.lt.u32 %p1, %r11, " + std::to_string(kWaitPolls) + ";\n"
                    "  @%p1 bra WAIT;\n"
                    "WAITED:\n  selp.u32 %r12, 0, 1, %p2;\n  ld.param.u64 %rd7, [status];\n"
                    "  st.global.u32 [%rd7], %r12;\n"
                    "  mov.u32 %r6, 0;\n"
                    "COPY:\n  add.u32 %r8, %r2, %r6;\n  ld.shared.u32 %r10, [%r8];\n"
                    "  cvt.u64.u32 %rd4, %r6;\n  add.u64 %rd5, %rd1, %rd4;\n"
                    "  st.global.u32 [%rd5], %r10;\n"
                    "  add.u32 %r6, %r6, 4;\n  setp.lt.u32 %p1, %r6, %r3;\n  @%p1 bra COPY;\n"
                    "  ret;\n}\n";
  }
  return ptx;
}

// The same kernel for the emulator: tests/runtime/TmaImageKernel.h.
using EmuParams = test::TmaImageParams;
const KernelDescriptor &emuKernel = test::kTmaImageKernel;

struct Case {
  std::string name;
  TmaDataType type;
  uint32_t rank;
  uint64_t dim[5];
  uint32_t box[5];
  uint32_t estride[5];
  TmaSwizzle swizzle;
  TmaOobFill oob = TmaOobFill::None;
  int32_t coord[5];
  uint32_t dstOffset = 0;
  bool fp4 = false;
  /// What must happen: the same image on both; a GPU fault (gpuFault) that
  /// the emulation refuses (refusal); or a GPU wait that times out where
  /// the emulation reports a deadlock.
  enum class Expect { Image, Fault, Hang } expect = Expect::Image;
  const char *gpuFault = "illegal instruction";
  const char *refusal = "not on a 16-byte boundary";
  /// The expect_tx bytes; 0: the box's element bytes.
  uint32_t txBytes = 0;
};

/// What the hardware requires of the start (checkTmaBoxStart's rule,
/// restated here so that the probe states its expectation itself).
Case::Expect startExpect(const Case &c) {
  return int64_t(c.coord[0]) * tmaElementBytes(c.type) % 16 ? Case::Expect::Fault
                                                            : Case::Expect::Image;
}

struct Tensor {
  std::vector<uint8_t> host;
  uint64_t stride[4];
};

Tensor makeTensor(const Case &c, std::mt19937 &rng) {
  Tensor t;
  uint32_t e = tmaElementBytes(c.type);
  uint64_t bytes = (c.dim[0] * e + 15) / 16 * 16 + 16; // a padded row pitch
  for (uint32_t d = 1; d < c.rank; ++d) {
    t.stride[d - 1] = bytes;
    bytes *= c.dim[d];
  }
  t.host.resize(bytes);
  for (uint8_t &b : t.host)
    b = uint8_t(rng());
  if (c.fp4) // packed e2m1 pairs: any byte is two valid codes, keep them all
    for (size_t i = 0; i < t.host.size(); ++i)
      t.host[i] = uint8_t((i * 7 + 3) & 0xF) | uint8_t(((i * 5 + 1) & 0xF) << 4);
  return t;
}

uint32_t boxBytes(const Case &c) {
  uint32_t bytes = tmaElementBytes(c.type);
  for (uint32_t d = 0; d < c.rank; ++d)
    bytes *= d == 0 ? c.box[0] : (c.box[d] + c.estride[d] - 1) / c.estride[d];
  return bytes;
}

/// Whether kernels read the tensor map from a global-memory copy rather
/// than from their parameter (the fallback if the parameter's address fails).
bool mapInGlobal = false;

bool runGpu(CUfunction f, const Case &c, const Tensor &t, uint32_t total,
            std::vector<uint8_t> &image, bool &timedOut, std::string &error) {
  CUdeviceptr in, out, status, mapCopy = 0;
  CUTEC_CU(cuMemAlloc(&in, t.host.size()));
  CUTEC_CU(cuMemAlloc(&out, total));
  CUTEC_CU(cuMemcpyHtoD(in, t.host.data(), t.host.size()));
  CUTEC_CU(cuMemsetD8(out, 0, total));
  CUTEC_CU(cuMemAlloc(&status, 4));
  CUTEC_CU(cuMemsetD8(status, 0xFF, 4));
  CUtensorMap map;
  CUTEC_CU(cuTensorMapEncodeTiled(&map, CUtensorMapDataType(c.type), c.rank,
                                  reinterpret_cast<void *>(in), c.dim, t.stride, c.box, c.estride,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CUtensorMapSwizzle(c.swizzle),
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CUtensorMapFloatOOBfill(c.oob)));
  uint32_t tx = c.txBytes ? c.txBytes : boxBytes(c), dstOffset = c.dstOffset;
  int32_t coords[5];
  std::memcpy(coords, c.coord, sizeof coords);
  if (mapInGlobal) {
    CUTEC_CU(cuMemAlloc(&mapCopy, sizeof map));
    CUTEC_CU(cuMemcpyHtoD(mapCopy, &map, sizeof map));
  }
  void *args[] = {&map, &out, &total, &dstOffset, &tx, coords, &mapCopy, &status};
  CUTEC_CU(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, total + kRegionAlign, nullptr, args, nullptr));
  CUTEC_CU(cuCtxSynchronize());
  image.resize(total);
  CUTEC_CU(cuMemcpyDtoH(image.data(), out, total));
  uint32_t waitResult = 0;
  CUTEC_CU(cuMemcpyDtoH(&waitResult, status, 4));
  timedOut = waitResult == 1;
  CUTEC_CU(cuMemFree(in));
  CUTEC_CU(cuMemFree(out));
  CUTEC_CU(cuMemFree(status));
  if (mapCopy)
    CUTEC_CU(cuMemFree(mapCopy));
  return true;
}

bool runEmulation(const Case &c, Tensor &t, uint32_t total, std::vector<uint8_t> &image,
                  std::string &error) {
  EmuParams p{};
  std::string problem =
      encodeTensorMapTiled(p.tmap, c.type, c.rank, t.host.data(), c.dim, t.stride, c.box,
                           c.estride, TmaInterleave::None, c.swizzle, TmaL2Promotion::None, c.oob);
  if (!problem.empty()) {
    error = problem;
    return false;
  }
  image.assign(total, 0);
  p.out = reinterpret_cast<uint64_t>(image.data());
  p.total = total;
  p.dstOffset = c.dstOffset;
  p.txBytes = c.txBytes ? c.txBytes : boxBytes(c);
  p.rank = c.rank;
  std::memcpy(p.coords, c.coord, sizeof p.coords);
  MemoryMap globals;
  (void)globals.add(t.host.data(), t.host.size(), "tensor");
  (void)globals.add(image.data(), image.size(), "out");
  LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {1, 1, 1};
  config.dynamicSharedBytes = total + kRegionAlign;
  config.workerThreads = 1;
  Status status = launch(emuKernel, config, &p, globals);
  if (!status) {
    error = status.error();
    return false;
  }
  return true;
}

/// The emulator's decoded map of a case (the cases all encode).
TensorMapInfo modelInfo(const Case &c, Tensor &t) {
  TensorMap map;
  (void)encodeTensorMapTiled(map, c.type, c.rank, t.host.data(), c.dim, t.stride, c.box,
                             c.estride, TmaInterleave::None, c.swizzle, TmaL2Promotion::None,
                             c.oob);
  TensorMapInfo info;
  decodeTensorMap(map, info);
  return info;
}

/// The shared bytes a case copies out: the box's modelled extent from the
/// destination, rounded up, and a guard that no box byte may reach.
uint32_t regionBytes(const Case &c, Tensor &t) {
  uint32_t extent = c.dstOffset + modelInfo(c, t).sharedBoxBytes();
  return (extent + kRegionAlign - 1) / kRegionAlign * kRegionAlign + kGuardBytes;
}

std::vector<Case> imageCases() {
  std::vector<Case> cases;
  struct Type {
    TmaDataType type;
    const char *name;
  };
  const Type types[] = {{TmaDataType::Uint8, "u8"},
                        {TmaDataType::Float16, "f16"},
                        {TmaDataType::Float32, "f32"}};
  const TmaSwizzle swizzles[] = {TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64,
                                 TmaSwizzle::B128};
  for (TmaSwizzle s : swizzles)
    for (const Type &ty : types)
      for (uint32_t rank : {2u, 3u})
        for (int shape = 0; shape < 2; ++shape) {
          uint32_t e = tmaElementBytes(ty.type);
          uint32_t span = s == TmaSwizzle::None ? 64 : tmaSwizzleSpan(s);
          uint32_t inner = (shape == 0 ? span : std::max(16u, span / 2)) / e;
          uint32_t rows = shape == 0 ? 8 : 19;
          uint64_t dim0 = inner * 3 + 5, dim1 = 45, dim2 = 4;
          struct Where {
            const char *name;
            int32_t c[3];
          };
          // Box starts on 16-byte boundaries but the last: an unaligned start
          // is an illegal instruction (when dim0 - inner/2 - 1 is not a
          // whole chunk; for f32 it is).
          int32_t chunk = int32_t(16 / e);
          int32_t beyond = int32_t((dim0 + chunk - 1) / chunk * chunk) + 4 * chunk;
          const Where wheres[] = {
              {"inside", {int32_t(inner), 3, 1}},
              {"past-upper",
               {int32_t((dim0 - inner / 2) / chunk * chunk), int32_t(dim1 - rows / 2), 2}},
              {"negative", {-2 * chunk, -3, -1}},
              {"wholly-outside", {beyond, -40, 0}},
              {"unaligned-start", {int32_t(dim0 - inner / 2 - 1), 5, 1}},
          };
          for (const Where &w : wheres) {
            Case c{};
            c.type = ty.type;
            c.rank = rank;
            c.dim[0] = dim0, c.dim[1] = dim1, c.dim[2] = dim2;
            c.box[0] = inner, c.box[1] = rows, c.box[2] = 3;
            for (uint32_t &es : c.estride)
              es = 1;
            c.swizzle = s;
            for (int d = 0; d < 3; ++d)
              c.coord[d] = w.c[d];
            c.name = "swizzle=" + std::to_string(tmaSwizzleSpan(s)) + "B " + ty.name + " " +
                     std::to_string(rank) + "d box=" + std::to_string(inner) + "x" +
                     std::to_string(rows) + (rank == 3 ? "x3" : "") + " " + w.name;
            c.expect = startExpect(c);
            cases.push_back(c);
          }
        }
  // Packed fp4 (two e2m1 per byte) as Uint8: a 64-element (32-byte) K
  // slice, the shape of a GEMV's A rows, with each swizzle that fits.
  for (TmaSwizzle s : swizzles) {
    Case c{};
    c.type = TmaDataType::Uint8;
    c.rank = 2;
    c.dim[0] = 96, c.dim[1] = 40; // 192 fp4 values per row
    c.box[0] = 32, c.box[1] = 16;
    for (uint32_t &es : c.estride)
      es = 1;
    c.swizzle = s;
    c.coord[0] = 80, c.coord[1] = 30; // past both upper edges
    c.fp4 = true;
    c.name = "fp4-as-u8 swizzle=" + std::to_string(tmaSwizzleSpan(s)) + "B box=32Bx16 past-upper";
    cases.push_back(c);
  }
  // Rows narrower than the swizzle span, at widths that tell a pitch of
  // the span from one of twice the row or the next power of two.
  for (TmaSwizzle s : {TmaSwizzle::B64, TmaSwizzle::B128})
    for (uint32_t innerBytes : {16u, 48u, 80u, 96u, 112u})
      for (TmaDataType type : {TmaDataType::Uint8, TmaDataType::Float16}) {
        if (innerBytes >= tmaSwizzleSpan(s))
          continue;
        uint32_t e = tmaElementBytes(type);
        Case c{};
        c.type = type;
        c.rank = 3;
        c.dim[0] = innerBytes / e * 2 + 3, c.dim[1] = 12, c.dim[2] = 3;
        c.box[0] = innerBytes / e, c.box[1] = 10, c.box[2] = 2;
        for (uint32_t &es : c.estride)
          es = 1;
        c.swizzle = s;
        c.coord[0] = int32_t(16 / e), c.coord[1] = 5, c.coord[2] = 2; // past dims 1, 2
        c.name = "narrow rows swizzle=" + std::to_string(tmaSwizzleSpan(s)) + "B inner=" +
                 std::to_string(innerBytes) + "B e=" + std::to_string(e) + " 3d box=" +
                 std::to_string(c.box[0]) + "x10x2";
        cases.push_back(c);
      }
  // The transaction bytes of a narrow-row box: expecting its padded extent
  // must never complete (the hardware counts only the box's elements).
  {
    Case c{};
    c.type = TmaDataType::Uint8;
    c.rank = 2;
    c.dim[0] = 40, c.dim[1] = 30;
    c.box[0] = 16, c.box[1] = 8;
    for (uint32_t &es : c.estride)
      es = 1;
    c.swizzle = TmaSwizzle::B32;
    c.coord[0] = 16, c.coord[1] = 3;
    c.txBytes = 8 * 32;
    c.expect = Case::Expect::Hang;
    c.name = "tx=padded extent swizzle=32B u8 box=16x8 (the elements are 128 bytes)";
    cases.push_back(c);
  }
  // Element strides (dimension 0's is ignored by the hardware) and ranks 1,4,5.
  {
    Case c{};
    c.type = TmaDataType::Uint16;
    c.rank = 3;
    c.dim[0] = 40, c.dim[1] = 30, c.dim[2] = 7;
    c.box[0] = 16, c.box[1] = 9, c.box[2] = 5;
    c.estride[0] = 2, c.estride[1] = 3, c.estride[2] = 2;
    c.swizzle = TmaSwizzle::B32;
    c.coord[0] = -8, c.coord[1] = 20, c.coord[2] = 3;
    c.name = "elementStrides=(2,3,2) u16 3d box=16x9x5 swizzle=32B edges";
    cases.push_back(c);
    c.swizzle = TmaSwizzle::None;
    c.name = "elementStrides=(2,3,2) u16 3d box=16x9x5 swizzle=none edges";
    cases.push_back(c);
    c.coord[0] = -3;
    c.expect = Case::Expect::Fault;
    c.name = "elementStrides=(2,3,2) u16 3d box=16x9x5 swizzle=none start -3 (6 bytes)";
    cases.push_back(c);
  }
  {
    Case c{};
    c.type = TmaDataType::Uint32;
    c.rank = 1;
    c.dim[0] = 50;
    c.box[0] = 32;
    c.estride[0] = 1;
    c.swizzle = TmaSwizzle::None;
    c.coord[0] = 28;
    c.name = "u32 1d box=32 past-upper";
    cases.push_back(c);
    c.coord[0] = 30;
    c.expect = Case::Expect::Fault;
    c.name = "u32 1d box=32 start 30 (120 bytes)";
    cases.push_back(c);
    Case d{};
    d.type = TmaDataType::Uint8;
    d.rank = 5;
    d.dim[0] = 40, d.dim[1] = 3, d.dim[2] = 4, d.dim[3] = 3, d.dim[4] = 2;
    d.box[0] = 32, d.box[1] = 2, d.box[2] = 3, d.box[3] = 2, d.box[4] = 2;
    for (uint32_t &es : d.estride)
      es = 1;
    d.swizzle = TmaSwizzle::B128;
    d.coord[0] = 16, d.coord[1] = 2, d.coord[2] = -1, d.coord[3] = 2, d.coord[4] = 1;
    d.name = "u8 5d box=32x2x3x2x2 swizzle=128B edges";
    cases.push_back(d);
    d.rank = 4;
    d.name = "u8 4d box=32x2x3x2 swizzle=128B edges";
    cases.push_back(d);
  }
  // The NaN out-of-bounds fill of each float size.
  for (TmaDataType type : {TmaDataType::Float16, TmaDataType::Bfloat16, TmaDataType::Float32}) {
    Case c{};
    c.type = type;
    c.rank = 2;
    c.dim[0] = 20, c.dim[1] = 10;
    c.box[0] = 32 / tmaElementBytes(type), c.box[1] = 4;
    for (uint32_t &es : c.estride)
      es = 1;
    c.swizzle = TmaSwizzle::None;
    c.oob = TmaOobFill::NanRequestZeroFma;
    c.coord[0] = 16, c.coord[1] = 8;
    c.name = std::string("oobFill=NaN type=") + std::to_string(uint32_t(type)) + " past-upper";
    cases.push_back(c);
  }
  // Destinations 128-byte but not pattern aligned: the swizzle takes the
  // absolute address bits. Below 128 bytes: a misaligned address.
  const std::pair<TmaSwizzle, uint32_t> offsets[] = {{TmaSwizzle::B32, 128},
                                                     {TmaSwizzle::B64, 128},
                                                     {TmaSwizzle::B64, 256},
                                                     {TmaSwizzle::B128, 128},
                                                     {TmaSwizzle::B128, 256},
                                                     {TmaSwizzle::B128, 512},
                                                     {TmaSwizzle::None, 16},
                                                     {TmaSwizzle::None, 64}};
  for (auto [s, offset] : offsets) {
    Case c{};
    c.type = TmaDataType::Uint8;
    c.rank = 2;
    c.dim[0] = 200, c.dim[1] = 40;
    c.box[0] = s == TmaSwizzle::None ? 64 : tmaSwizzleSpan(s), c.box[1] = 16;
    for (uint32_t &es : c.estride)
      es = 1;
    c.swizzle = s;
    c.coord[0] = 16, c.coord[1] = 2;
    c.dstOffset = offset;
    if (offset % 128) {
      c.expect = Case::Expect::Fault;
      c.gpuFault = "misaligned address";
      c.refusal = "is not 128-byte aligned";
    }
    c.name = "swizzle=" + std::to_string(tmaSwizzleSpan(s)) + "B dst=base+" +
             std::to_string(offset);
    cases.push_back(c);
  }
  return cases;
}

// Encoder agreement: arguments each encoder must accept or reject alike.
struct EncodeCase {
  std::string name;
  uint32_t type, rank;
  uint64_t addressOffset;
  uint64_t dim[5], stride[4];
  uint32_t box[5], estride[5];
  uint32_t swizzle, oob;
};

std::vector<EncodeCase> encodeCases() {
  // A valid 2d f16 map; each case changes one thing.
  EncodeCase base{"valid 2d f16", 6, 2, 0, {64, 32, 1, 1, 1}, {256, 0, 0, 0},
                  {64, 16, 1, 1, 1},       {1, 1, 1, 1, 1},       3, 0};
  std::vector<EncodeCase> cases;
  auto with = [&](std::string name, auto change) {
    EncodeCase c = base;
    c.name = std::move(name);
    change(c);
    cases.push_back(c);
  };
  cases.push_back(base);
  with("rank 0", [](EncodeCase &c) { c.rank = 0; });
  with("rank 6", [](EncodeCase &c) { c.rank = 6; });
  with("address 8-aligned", [](EncodeCase &c) { c.addressOffset = 8; });
  with("globalDim 0", [](EncodeCase &c) { c.dim[1] = 0; });
  with("globalDim 2^32", [](EncodeCase &c) { c.dim[1] = uint64_t(1) << 32; });
  with("globalDim 2^32+1", [](EncodeCase &c) { c.dim[1] = (uint64_t(1) << 32) + 1; });
  with("stride 8", [](EncodeCase &c) { c.stride[0] = 8; });
  with("stride 2^40", [](EncodeCase &c) { c.stride[0] = uint64_t(1) << 40; });
  with("stride 2^40-16", [](EncodeCase &c) { c.stride[0] = (uint64_t(1) << 40) - 16; });
  with("boxDim 0", [](EncodeCase &c) { c.box[1] = 0; });
  with("boxDim 256", [](EncodeCase &c) { c.box[1] = 256; });
  with("boxDim 257", [](EncodeCase &c) { c.box[1] = 257; });
  with("inner box 24 bytes", [](EncodeCase &c) { c.box[0] = 12, c.swizzle = 0; });
  with("inner box 256 bytes no swizzle", [](EncodeCase &c) { c.box[0] = 128, c.swizzle = 0; });
  with("inner box 128B > 64B swizzle", [](EncodeCase &c) { c.swizzle = 2; });
  with("inner box 64B in 64B swizzle", [](EncodeCase &c) { c.box[0] = 32, c.swizzle = 2; });
  with("inner box 64B > 32B swizzle", [](EncodeCase &c) { c.box[0] = 32, c.swizzle = 1; });
  with("elementStride 0", [](EncodeCase &c) { c.estride[1] = 0; });
  with("elementStride 8", [](EncodeCase &c) { c.estride[1] = 8; });
  with("elementStride 9", [](EncodeCase &c) { c.estride[1] = 9; });
  with("elementStride[0] 9", [](EncodeCase &c) { c.estride[0] = 9; });
  with("NaN fill on f16", [](EncodeCase &c) { c.oob = 1; });
  with("NaN fill on u16", [](EncodeCase &c) { c.oob = 1, c.type = 1; });
  with("NaN fill on int32", [](EncodeCase &c) { c.oob = 1, c.type = 3, c.box[0] = 32; });
  with("rank 5 u8", [](EncodeCase &c) {
    c.rank = 5, c.type = 0;
    for (int d = 0; d < 4; ++d)
      c.stride[d] = uint64_t(64) << (d * 4), c.dim[d + 1] = 4, c.box[d + 1] = 2;
  });
  return cases;
}

} // namespace

CUcontext context = nullptr;
CUmodule module;
CUfunction kernels[6];
std::string contextError;

/// (Re)creates the context and loads the kernels; a kernel fault leaves a
/// context unusable.
bool openContext(char (&name)[128]) {
  if (context)
    cuCtxDestroy(context);
  context = nullptr;
  CUdevice device;
  if (cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&context, nullptr, 0, device) != CUDA_SUCCESS ||
      cuDeviceGetName(name, sizeof name, device) != CUDA_SUCCESS) {
    contextError = "cannot create a context";
    return false;
  }
  std::string ptx = kernelPtx();
  char log[8192] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log))};
  if (cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values) != CUDA_SUCCESS) {
    contextError = std::string("the PTX does not load:\n") + log;
    return false;
  }
  for (int rank = 1; rank <= 5; ++rank) {
    std::string entry = "tma_load_" + std::to_string(rank) + "d";
    if (cuModuleGetFunction(&kernels[rank], module, entry.c_str()) != CUDA_SUCCESS ||
        cuFuncSetAttribute(kernels[rank], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           200 * 1024) != CUDA_SUCCESS) {
      contextError = "no kernel " + entry;
      return false;
    }
  }
  return true;
}

void encoderAgreement(int &passed, int &failed) {
  alignas(256) static uint8_t dummy[512];
  for (const EncodeCase &c : encodeCases()) {
    void *address = dummy + c.addressOffset;
    CUtensorMap driverMap;
    CUresult driver = cuTensorMapEncodeTiled(
        &driverMap, CUtensorMapDataType(c.type), c.rank, address, c.dim, c.stride, c.box,
        c.estride, CU_TENSOR_MAP_INTERLEAVE_NONE, CUtensorMapSwizzle(c.swizzle),
        CU_TENSOR_MAP_L2_PROMOTION_NONE, CUtensorMapFloatOOBfill(c.oob));
    TensorMap ours;
    std::string emulation = encodeTensorMapTiled(
        ours, TmaDataType(c.type), c.rank, address, c.dim, c.stride, c.box, c.estride,
        TmaInterleave::None, TmaSwizzle(c.swizzle), TmaL2Promotion::None, TmaOobFill(c.oob));
    bool agree = (driver == CUDA_SUCCESS) == emulation.empty();
    std::printf("%s encode %s: driver %s, emulation %s\n", agree ? "PASS" : "FAIL",
                c.name.c_str(), driver == CUDA_SUCCESS ? "accepts" : "rejects",
                emulation.empty() ? "accepts" : emulation.c_str());
    (agree ? passed : failed) += 1;
  }
}

/// Whether the emulation's outcome is the expected one; `error` is its
/// refusal or failure, if any.
bool emulationAsExpected(const Case &c, bool ran, const std::string &error) {
  switch (c.expect) {
  case Case::Expect::Image:
    return ran;
  case Case::Expect::Fault:
    return !ran && error.find(c.refusal) != std::string::npos;
  case Case::Expect::Hang:
    return !ran && error.find("deadlock") != std::string::npos;
  }
  return false;
}

int emulationOnly() {
  std::mt19937 rng(2024);
  int failed = 0, cases = 0;
  for (const Case &c : imageCases()) {
    Tensor t = makeTensor(c, rng);
    uint32_t total = regionBytes(c, t);
    std::vector<uint8_t> emulated;
    std::string error;
    bool ran = runEmulation(c, t, total, emulated, error);
    ++cases;
    if (!emulationAsExpected(c, ran, error)) {
      std::printf("FAIL %s: %s\n", c.name.c_str(), ran ? "accepted" : error.c_str());
      ++failed;
    }
  }
  std::printf("emulation only: %d cases, %d failed\n", cases, failed);
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  std::string option = argc > 1 ? argv[1] : "";
  if (option == "--print-ptx") {
    std::fputs(kernelPtx().c_str(), stdout);
    return 0;
  }
  if (option == "--emulation-only")
    return emulationOnly();
  int devices = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0) {
    std::printf("tma_model_check: skipped: no CUDA device on this machine\n");
    return 0;
  }
  char name[128];
  if (!openContext(name)) {
    std::fprintf(stderr, "tma_model_check: %s\n", contextError.c_str());
    return 1;
  }
  std::printf("device: %s\n", name);
  int passed = 0, failed = 0;
  size_t start = 0;
  bool gpuWorked = false;
  if (option == "--from" && argc == 6) { // restarted after a fault
    start = std::strtoull(argv[2], nullptr, 10);
    passed = std::atoi(argv[3]);
    failed = std::atoi(argv[4]);
    mapInGlobal = argv[5][0] == '1';
    gpuWorked = true; // the parameter-or-global choice was made before
  } else {
    encoderAgreement(passed, failed);
  }
  std::mt19937 rng(2024);
  std::vector<Case> cases = imageCases();
  for (size_t index = 0; index < cases.size(); ++index) {
    const Case &c = cases[index];
    Tensor t = makeTensor(c, rng); // every case draws, so a restart sees the same data
    if (index < start)
      continue;
    uint32_t total = regionBytes(c, t);
    std::vector<uint8_t> gpu, emulated;
    std::string error;
    bool timedOut = false;
    bool ran = runGpu(kernels[c.rank], c, t, total, gpu, timedOut, error);
    if (!ran && !mapInGlobal && !gpuWorked && c.expect != Case::Expect::Fault) {
      // A fault kills the context: start again, with the map in global memory.
      std::printf("note: %s: the tensor map as a parameter failed (%s); passing it in global "
                  "memory from now on\n", c.name.c_str(), error.c_str());
      mapInGlobal = true;
      if (!openContext(name)) {
        std::fprintf(stderr, "tma_model_check: %s\n", contextError.c_str());
        return 1;
      }
      ran = runGpu(kernels[c.rank], c, t, total, gpu, timedOut, error);
    }
    if (!ran) {
      std::string emuError;
      bool emuRan = runEmulation(c, t, total, emulated, emuError);
      bool expected = c.expect == Case::Expect::Fault &&
                      error.find(c.gpuFault) != std::string::npos &&
                      emulationAsExpected(c, emuRan, emuError);
      std::printf("%s %s: GPU: %s; emulation: %s\n", expected ? "PASS" : "FAIL", c.name.c_str(),
                  error.c_str(), emuRan ? "accepts it" : emuError.c_str());
      (expected ? passed : failed) += 1;
      // A kernel fault is sticky for the whole process: go on in a new one.
      std::fflush(stdout);
      std::string from = std::to_string(index + 1), p = std::to_string(passed),
                  f = std::to_string(failed), g = mapInGlobal ? "1" : "0";
      execl("/proc/self/exe", argv[0], "--from", from.c_str(), p.c_str(), f.c_str(), g.c_str(),
            static_cast<char *>(nullptr));
      std::fprintf(stderr, "tma_model_check: cannot restart itself\n");
      return 1;
    }
    gpuWorked = true;
    bool emuRan = runEmulation(c, t, total, emulated, error);
    if (c.expect == Case::Expect::Fault || c.expect == Case::Expect::Hang) {
      bool expected = c.expect == Case::Expect::Hang && timedOut &&
                      emulationAsExpected(c, emuRan, error);
      std::printf("%s %s: GPU %s; emulation %s\n", expected ? "PASS" : "FAIL", c.name.c_str(),
                  timedOut ? "wait timed out" : "completed",
                  emuRan ? "completed" : error.substr(0, error.find('\n')).c_str());
      (expected ? passed : failed) += 1;
      continue;
    }
    if (timedOut) {
      std::printf("FAIL %s: the GPU's wait timed out (%u polls)\n", c.name.c_str(), kWaitPolls);
      ++failed;
      continue;
    }
    if (!emuRan) {
      std::printf("FAIL %s: emulation: %s\n", c.name.c_str(), error.c_str());
      ++failed;
      continue;
    }
    size_t differ = 0, first = total;
    for (size_t i = 0; i < total; ++i)
      if (gpu[i] != emulated[i]) {
        ++differ;
        first = std::min(first, i);
      }
    if (differ == 0) {
      std::printf("PASS %s (%u box bytes)\n", c.name.c_str(), boxBytes(c));
      ++passed;
    } else {
      size_t at = first & ~size_t(7);
      std::string gpuBytes, emuBytes;
      char hexByte[4];
      for (size_t i = at; i < std::min<size_t>(at + 8, total); ++i) {
        std::snprintf(hexByte, sizeof hexByte, "%02x", gpu[i]);
        gpuBytes += hexByte;
        std::snprintf(hexByte, sizeof hexByte, "%02x", emulated[i]);
        emuBytes += hexByte;
      }
      std::printf("FAIL %s: %zu of %u bytes differ, first at offset %zu (bytes %zu..: GPU %s, "
                  "emulation %s)\n",
                  c.name.c_str(), differ, total, first, at, gpuBytes.c_str(), emuBytes.c_str());
      ++failed;
    }
  }

  std::printf("tma_model_check on %s: %d passed, %d failed\n", name, passed, failed);
  return failed ? 1 : 0;
}
