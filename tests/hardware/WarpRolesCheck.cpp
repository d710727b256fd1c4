// The hardware check of warp specialisation:
//  - examples/warp_specialized.cute (named barriers, elect.sync, setmaxnreg
//    with .maxnreg, warp_idx's shfl.sync.idx): its sm_90a PTX runs on the GPU
//    through cutec's host launcher and its emulation on the CPU, on the same
//    inputs, for several shapes; the outputs must be byte-identical and
//    equal to a reference computed here in the consumers' order;
//  - elect.sync: a hand-written probe records which lane the GPU elects for
//    several member masks, against the lane the emulator elects.
//   warp_roles_check warp_specialized.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "warp_specialized_emu.h"
#include "warp_specialized_launch.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

/// y[:, l] = sum over k of x[:, k, l] * (k + 1), in k order, each step one
/// fma in f32 (cutec contracts the consumers' acc += x * s, --fmad).
std::vector<float> reference(const std::vector<float> &x, uint32_t k, uint32_t l) {
  std::vector<float> y(256 * l, 0.0f);
  for (uint32_t b = 0; b < l; ++b)
    for (uint32_t kk = 0; kk < k; ++kk)
      for (uint32_t i = 0; i < 256; ++i)
        y[i + 256 * b] = std::fma(x[i + 256 * (kk + k * b)], float(kk + 1), y[i + 256 * b]);
  return y;
}

bool runOnGpu(CUfunction f, const std::vector<float> &x, std::vector<float> &y, uint32_t k,
              uint32_t l, std::string &error) {
  CUdeviceptr dx, dy;
  CUTEC_CU(cuMemAlloc(&dx, x.size() * 4));
  CUTEC_CU(cuMemcpyHtoD(dx, x.data(), x.size() * 4));
  CUTEC_CU(cuMemAlloc(&dy, y.size() * 4));
  CUTEC_CU(cuMemsetD8(dy, 0xFF, y.size() * 4));
  CUTEC_CU(cutec_launch_warp_specialized(f, {dx, dy, k, l}, nullptr));
  CUTEC_CU(cuCtxSynchronize());
  CUTEC_CU(cuMemcpyDtoH(y.data(), dy, y.size() * 4));
  CUTEC_CU(cuMemFree(dx));
  CUTEC_CU(cuMemFree(dy));
  return true;
}

cutec::rt::Status emulate(const std::vector<float> &x, std::vector<float> &y, uint32_t k,
                          uint32_t l) {
  std::vector<float> input = x;
  cutec::rt::MemoryMap map;
  if (cutec::rt::Status added = map.add(input.data(), input.size() * 4, "x"); !added)
    return added;
  if (cutec::rt::Status added = map.add(y.data(), y.size() * 4, "y"); !added)
    return added;
  warp_specialized_Params params{reinterpret_cast<uintptr_t>(input.data()),
                                 reinterpret_cast<uintptr_t>(y.data()), k, l};
  cutec::rt::LaunchConfig config;
  config.grid = warp_specialized_grid(k, l);
  config.block = warp_specialized_block();
  config.dynamicSharedBytes = warp_specialized_shared_bytes;
  return cutec::rt::launch(cutec_kernel_warp_specialized, config, &params, map);
}

/// Lane l of one warp: 2 if not in `mask`, else whether elect.sync elected it.
const char *kElectProbe = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry elect_probe(.param .u64 out, .param .u32 mask)
{
  .reg .b32 %r<6>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd1, %rd0;
  ld.param.u32 %r0, [mask];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  shr.u32 %r2, %r0, %r1;
  and.b32 %r2, %r2, 1;
  mov.u32 %r3, 2;
  setp.eq.u32 %p0, %r2, 0;
  @%p0 bra DONE;
  elect.sync %r4|%p1, %r0;
  selp.u32 %r3, 1, 0, %p1;
DONE:
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

struct ElectParams {
  uint64_t out;
  uint32_t mask;
};

void electBody(cutec::rt::Thread &t, const void *raw) {
  const auto &p = *static_cast<const ElectParams *>(raw);
  uint32_t value = 2;
  if (p.mask >> t.laneid & 1)
    value = cutec::rt::warpSyncElect(t, p.mask, "elect.sync at elect_probe");
  t.storeGlobal<uint32_t>(p.out + t.laneid * 4, value, "st.global.u32 at elect_probe");
}

bool electOnGpu(CUmodule module, uint32_t mask, std::vector<uint32_t> &out, std::string &error) {
  CUfunction f;
  CUTEC_CU(cuModuleGetFunction(&f, module, "elect_probe"));
  CUdeviceptr d;
  CUTEC_CU(cuMemAlloc(&d, 32 * 4));
  void *params[] = {&d, &mask};
  CUTEC_CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  CUTEC_CU(cuCtxSynchronize());
  CUTEC_CU(cuMemcpyDtoH(out.data(), d, 32 * 4));
  CUTEC_CU(cuMemFree(d));
  return true;
}

cutec::rt::Status electEmulated(uint32_t mask, std::vector<uint32_t> &out) {
  static const cutec::rt::KernelDescriptor kernel{"elect_probe", electBody, sizeof(ElectParams),
                                                  true, 0};
  cutec::rt::MemoryMap map;
  if (cutec::rt::Status added = map.add(out.data(), out.size() * 4, "out"); !added)
    return added;
  ElectParams params{reinterpret_cast<uintptr_t>(out.data()), mask};
  cutec::rt::LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {32, 1, 1};
  return cutec::rt::launch(kernel, config, &params, map);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: warp_roles_check warp_specialized.sm_90a.ptx\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("warp_roles_check", context))
    return *status;
  std::string ptx = cutec::hw::readFile(argv[1]);
  CUmodule module, probe;
  CUfunction f;
  if (cutec_load_warp_specialized(ptx.c_str(), &module, &f) != CUDA_SUCCESS ||
      cuModuleLoadData(&probe, kElectProbe) != CUDA_SUCCESS) {
    std::fprintf(stderr, "warp_roles_check: cannot load %s or the elect.sync probe\n", argv[1]);
    return 1;
  }
  int passed = 0, failed = 0;
  const uint32_t shapes[][2] = {{1, 1}, {5, 3}, {33, 8}, {64, 20}};
  for (const auto &[k, l] : shapes) {
    std::mt19937 rng(k * 1000 + l);
    std::normal_distribution<float> normal;
    std::vector<float> x(256 * k * l);
    for (float &v : x)
      v = normal(rng);
    std::vector<float> gpu(256 * l), emulated(256 * l);
    std::memset(emulated.data(), 0xFF, emulated.size() * 4);
    std::string error;
    if (!runOnGpu(f, x, gpu, k, l, error)) {
      std::fprintf(stderr, "warp_roles_check: K=%u L=%u: %s\n", k, l, error.c_str());
      return 1;
    }
    if (cutec::rt::Status status = emulate(x, emulated, k, l); !status) {
      std::fprintf(stderr, "warp_roles_check: K=%u L=%u: emulation failed: %s\n", k, l,
                   status.error().c_str());
      return 1;
    }
    std::vector<float> expected = reference(x, k, l);
    bool same = std::memcmp(gpu.data(), emulated.data(), gpu.size() * 4) == 0;
    bool right = std::memcmp(gpu.data(), expected.data(), gpu.size() * 4) == 0;
    std::printf("warp_specialized K=%u L=%u: GPU vs emulation %s, GPU vs reference %s\n", k, l,
                same ? "byte-identical" : "DIFFERENT", right ? "byte-identical" : "DIFFERENT");
    (same && right ? passed : failed)++;
  }
  for (uint32_t mask :
       {0xFFFFFFFFu, 0xFFFF0000u, 0x0000FF00u, 0x80000001u, 0xAAAAAAAAu, 0x80000000u}) {
    std::vector<uint32_t> gpu(32), emulated(32);
    std::string error;
    if (!electOnGpu(probe, mask, gpu, error)) {
      std::fprintf(stderr, "warp_roles_check: elect.sync 0x%08x: %s\n", mask, error.c_str());
      return 1;
    }
    if (cutec::rt::Status status = electEmulated(mask, emulated); !status) {
      std::fprintf(stderr, "warp_roles_check: elect.sync emulation failed: %s\n",
                   status.error().c_str());
      return 1;
    }
    int leader = -1;
    for (int lane = 0; lane < 32; ++lane)
      if (gpu[lane] == 1)
        leader = lane;
    bool same = gpu == emulated;
    std::printf("elect.sync mask 0x%08x: the GPU elects lane %d, the emulator %s\n", mask, leader,
                same ? "the same" : "ANOTHER");
    (same ? passed : failed)++;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
