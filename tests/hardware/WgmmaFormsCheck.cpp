// The hardware check of the wgmma forms as cutec compiles them: the
// one-warpgroup kernels of tests/lit/run/Inputs/wgmma_forms.py (D = C + A
// B^T, 128 x 128 x 64, f16 and fp8 into f16, tf32, s8/u8 wrapping and
// saturating, and A from registers for f16, tf32, e5m2 and u8) run on the
// GPU from their sm_90a PTX and in the emulator on the same random inputs
// (full-range values, so the sums round); D must be byte-identical. A from
// registers checks the thread fragments partition_A gives against the
// tensor core's, the shared forms the matrix descriptors and the numerics.
//   wgmma_forms_check wgmma_FORM.sm_90a.ptx ... (in the order of kForms)
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "wgmma_f16acc_emu.h"
#include "wgmma_f16acc_launch.h"
#include "wgmma_fp8f16_emu.h"
#include "wgmma_fp8f16_launch.h"
#include "wgmma_rmem_emu.h"
#include "wgmma_rmem_fp8_emu.h"
#include "wgmma_rmem_fp8_launch.h"
#include "wgmma_rmem_launch.h"
#include "wgmma_rmem_s8sat_emu.h"
#include "wgmma_rmem_s8sat_launch.h"
#include "wgmma_rmem_tf32_emu.h"
#include "wgmma_rmem_tf32_launch.h"
#include "wgmma_s8sat_emu.h"
#include "wgmma_s8sat_launch.h"
#include "wgmma_s8u8_emu.h"
#include "wgmma_s8u8_launch.h"
#include "wgmma_tf32_emu.h"
#include "wgmma_tf32_launch.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

constexpr uint32_t kM = 128, kN = 128, kK = 64;

/// How an operand's random elements are made.
enum class Element { F16, Tf32, E4M3, E5M2, Byte, F32, I32 };

size_t bytesOf(Element e) {
  switch (e) {
  case Element::F16:
    return 2;
  case Element::E4M3:
  case Element::E5M2:
  case Element::Byte:
    return 1;
  default:
    return 4;
  }
}

/// A finite element with an exponent spread that makes sums round: f16 in
/// [2^-6, 2^6), fp8 with every finite exponent, f32/tf32 normal values
/// scaled by 2^-6 .. 2^5, bytes and i32 over their whole range.
uint32_t randomCode(Element e, std::mt19937 &rng) {
  std::normal_distribution<float> normal;
  const uint32_t r = rng();
  switch (e) {
  case Element::F16:
    return (r & 0x8000) | (9 + (r >> 16) % 12) << 10 | (r & 0x3FF);
  case Element::E4M3: // exponent field 0-14 (15 holds the NaN)
    return (r & 0x80) | ((r >> 8) % 15) << 3 | (r & 7);
  case Element::E5M2: // exponent field 0-30
    return (r & 0x80) | ((r >> 8) % 31) << 2 | (r & 3);
  case Element::Byte:
    return r & 0xFF;
  case Element::Tf32:
  case Element::F32: {
    float f = std::ldexp(normal(rng), int(r % 12) - 6);
    uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
  }
  case Element::I32:
    return r;
  }
  return 0;
}

std::vector<uint8_t> randomTensor(Element e, size_t count, std::mt19937 &rng) {
  std::vector<uint8_t> bytes(count * bytesOf(e));
  for (size_t i = 0; i < count; ++i) {
    uint32_t code = randomCode(e, rng);
    std::memcpy(&bytes[i * bytesOf(e)], &code, bytesOf(e));
  }
  return bytes;
}

using Launch = CUresult (*)(CUfunction, const CUdeviceptr *);
using Emulate = cutec::rt::Status (*)(const uint64_t *, cutec::rt::MemoryMap &);

struct Form {
  const char *name;
  Element a, b, acc;
  cutec::hw::LoadKernel load;
  Launch launch;
  Emulate emulate;
};

#define CUTEC_WGMMA_FORM(Name, A, B, Acc)                                                          \
  Form {                                                                                           \
#Name, Element::A, Element::B, Element::Acc, cutec_load_wgmma_##Name,                          \
        [](CUfunction f, const CUdeviceptr *d) {                                                   \
          return cutec_launch_wgmma_##Name(f, {d[0], d[1], d[2], d[3]}, nullptr);                  \
        },                                                                                         \
        [](const uint64_t *a, cutec::rt::MemoryMap &map) {                                         \
          wgmma_##Name##_Params p{}; /* the launch encodes the tensor maps */                      \
          p.mA = a[0];                                                                             \
          p.mB = a[1];                                                                             \
          p.mC = a[2];                                                                             \
          p.mD = a[3];                                                                             \
          return cutec::rt::launch(cutec_kernel_wgmma_##Name,                                      \
                                   cutec::hw::emulatedLaunch(wgmma_##Name##_grid(), wgmma_##Name##_block(),           \
                                          wgmma_##Name##_shared_bytes),                            \
                                   &p, map);                                                       \
        }   \
  }

/// Every form, in the order of the command line's PTX files.
const Form kForms[] = {
    CUTEC_WGMMA_FORM(f16acc, F16, F16, F16),      CUTEC_WGMMA_FORM(fp8f16, E4M3, E5M2, F16),
    CUTEC_WGMMA_FORM(tf32, Tf32, Tf32, F32),      CUTEC_WGMMA_FORM(s8u8, Byte, Byte, I32),
    CUTEC_WGMMA_FORM(s8sat, Byte, Byte, I32),     CUTEC_WGMMA_FORM(rmem, F16, F16, F32),
    CUTEC_WGMMA_FORM(rmem_tf32, Tf32, Tf32, F32), CUTEC_WGMMA_FORM(rmem_fp8, E5M2, E4M3, F16),
    CUTEC_WGMMA_FORM(rmem_s8sat, Byte, Byte, I32)};
constexpr size_t kFormCount = sizeof(kForms) / sizeof(kForms[0]);

/// The tensors mA, mB, mC and mD of one run of `form` (mD filled with ones).
std::vector<std::vector<uint8_t>> inputs(const Form &form, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<uint8_t>> t;
  t.push_back(randomTensor(form.a, size_t(kM) * kK, rng));
  t.push_back(randomTensor(form.b, size_t(kN) * kK, rng));
  t.push_back(randomTensor(form.acc, size_t(kM) * kN, rng));
  t.emplace_back(size_t(kM) * kN * bytesOf(form.acc), 0xFF);
  return t;
}

bool runOnGpu(const Form &form, CUfunction f, const std::vector<std::vector<uint8_t>> &t,
              std::vector<uint8_t> &d, std::string &error) {
  CUdeviceptr p[4];
  for (int i = 0; i < 4; ++i) {
    CUTEC_CU(cuMemAlloc(&p[i], t[i].size()));
    CUTEC_CU(cuMemcpyHtoD(p[i], t[i].data(), t[i].size()));
  }
  CUTEC_CU(form.launch(f, p));
  CUTEC_CU(cuCtxSynchronize());
  d.resize(t[3].size());
  CUTEC_CU(cuMemcpyDtoH(d.data(), p[3], d.size()));
  for (CUdeviceptr q : p)
    CUTEC_CU(cuMemFree(q));
  return true;
}

cutec::rt::Status emulate(const Form &form, std::vector<std::vector<uint8_t>> t,
                          std::vector<uint8_t> &d) {
  static const char *const names[] = {"mA", "mB", "mC", "mD"};
  cutec::rt::MemoryMap map;
  uint64_t addresses[4];
  for (int i = 0; i < 4; ++i) {
    if (cutec::rt::Status added = map.add(t[i].data(), t[i].size(), names[i]); !added)
      return added;
    addresses[i] = reinterpret_cast<uintptr_t>(t[i].data());
  }
  cutec::rt::Status status = form.emulate(addresses, map);
  d = t[3];
  return status;
}

} // namespace

int main(int argc, char **argv) {
  if (size_t(argc) != kFormCount + 1) {
    std::fprintf(stderr,
                 "usage: wgmma_forms_check wgmma_FORM.sm_90a.ptx ... (%zu files: "
                 "f16acc fp8f16 tf32 s8u8 s8sat rmem rmem_tf32 rmem_fp8 rmem_s8sat)\n",
                 kFormCount);
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("wgmma_forms_check", context))
    return *status;
  int passed = 0, failed = 0;
  for (size_t i = 0; i < kFormCount; ++i) {
    const Form &form = kForms[i];
    CUfunction function;
    if (!cutec::hw::loadKernels("wgmma_forms_check", argv + i + 1, {form.load}, &function))
      return 1;
    for (uint32_t seed : {1u, 2u, 3u}) {
      std::vector<std::vector<uint8_t>> t = inputs(form, seed);
      std::vector<uint8_t> gpu, emu;
      std::string error;
      if (!runOnGpu(form, function, t, gpu, error)) {
        std::fprintf(stderr, "wgmma_forms_check: %s: %s\n", form.name, error.c_str());
        return 1;
      }
      if (cutec::rt::Status status = emulate(form, t, emu); !status) {
        std::fprintf(stderr, "wgmma_forms_check: %s: emulation failed: %s\n", form.name,
                     status.error().c_str());
        return 1;
      }
      const size_t width = bytesOf(form.acc);
      size_t differ = 0;
      for (size_t e = 0; e < gpu.size(); e += width)
        differ += std::memcmp(&gpu[e], &emu[e], width) != 0;
      std::printf("wgmma_%-10s seed %u: GPU vs emulation %s (%zu of %u differ)\n", form.name, seed,
                  differ ? "DIFFERENT" : "byte-identical", differ, kM * kN);
      (differ ? failed : passed)++;
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
