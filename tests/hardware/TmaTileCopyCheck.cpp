// The hardware check of the TMA tile copies (examples/tma_tile_copy.cute):
// each kernel's sm_90a PTX runs on the GPU (loaded and launched through
// cutec's host launcher, which encodes the tensor maps with the driver) and
// its emulation on the CPU, on the same source tensor, for boxes inside it
// and past its edges. The shared-memory images and read-back tiles must be
// byte-identical, and equal to the independently computed TMA image.
//   tma_tile_copy_check tma_tile_copy.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "TmaTileCopyCases.h"
#include "tma_tile_copy_launch.h"

#include <functional>
#include <map>

namespace {

using cutec::test::TileCopyProblem;

/// Launches one kernel through its host launcher.
using GpuLaunch = std::function<CUresult(CUfunction, const TileCopyProblem &, CUdeviceptr src,
                                         CUdeviceptr image, CUdeviceptr tiles)>;

template <typename Args>
GpuLaunch gpuLaunch(CUresult (*launch)(CUfunction, const Args &, CUstream)) {
  return [launch](CUfunction f, const TileCopyProblem &p, CUdeviceptr src, CUdeviceptr image,
                  CUdeviceptr tiles) {
    return launch(f, cutec::test::tileCopyArguments<Args>(p, src, image, tiles), nullptr);
  };
}

const std::map<std::string, GpuLaunch> &gpuLaunches() {
  static const std::map<std::string, GpuLaunch> launches = {
      {"tma_copy_u8_none", gpuLaunch(cutec_launch_tma_copy_u8_none)},
      {"tma_copy_f16_sw32", gpuLaunch(cutec_launch_tma_copy_f16_sw32)},
      {"tma_copy_f32_sw64", gpuLaunch(cutec_launch_tma_copy_f32_sw64)},
      {"tma_copy_f16_sw128", gpuLaunch(cutec_launch_tma_copy_f16_sw128)},
      {"tma_copy_fp4_sw128", gpuLaunch(cutec_launch_tma_copy_fp4_sw128)},
      {"tma_copy_bf16_3d_sw64", gpuLaunch(cutec_launch_tma_copy_bf16_3d_sw64)},
  };
  return launches;
}

/// Runs `p` on the GPU; its image and tiles get the GPU's output.
bool runOnGpu(CUmodule module, TileCopyProblem &p, std::string &error) {
  CUfunction f;
  CUTEC_CU(cuModuleGetFunction(&f, module, p.kernel->name));
  CUdeviceptr src, image, tiles = 0;
  CUTEC_CU(cuMemAlloc(&src, p.src.size()));
  CUTEC_CU(cuMemcpyHtoD(src, p.src.data(), p.src.size()));
  CUTEC_CU(cuMemAlloc(&image, p.image.size()));
  CUTEC_CU(cuMemcpyHtoD(image, p.image.data(), p.image.size()));
  if (!p.tiles.empty()) {
    CUTEC_CU(cuMemAlloc(&tiles, p.tiles.size()));
    CUTEC_CU(cuMemcpyHtoD(tiles, p.tiles.data(), p.tiles.size()));
  }
  CUTEC_CU(gpuLaunches().at(p.kernel->name)(f, p, src, image, tiles));
  CUTEC_CU(cuCtxSynchronize());
  CUTEC_CU(cuMemcpyDtoH(p.image.data(), image, p.image.size()));
  if (tiles)
    CUTEC_CU(cuMemcpyDtoH(p.tiles.data(), tiles, p.tiles.size()));
  for (CUdeviceptr b : {src, image, tiles})
    if (b)
      CUTEC_CU(cuMemFree(b));
  return true;
}

size_t differences(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i)
    n += a[i] != b[i];
  return n;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tma_tile_copy_check tma_tile_copy.sm_90a.ptx\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("tma_tile_copy_check", context))
    return *status;
  std::string ptx = cutec::hw::readFile(argv[1]);
  CUmodule module;
  if (cuModuleLoadData(&module, ptx.c_str()) != CUDA_SUCCESS) {
    std::fprintf(stderr, "tma_tile_copy_check: cannot load %s\n", argv[1]);
    return 1;
  }
  int passed = 0, failed = 0;
  for (const cutec::test::TileCopyEntry &entry : cutec::test::tileCopyKernels())
    for (cutec::test::TileCopyShape s : cutec::test::tileCopyShapes(entry.kernel)) {
      uint32_t seed = s.m * 7 + s.n;
      TileCopyProblem gpu = cutec::test::makeTileCopyProblem(entry.kernel, s.m, s.n, s.l, seed);
      TileCopyProblem emulated = gpu;
      std::string error;
      if (!runOnGpu(module, gpu, error)) {
        std::fprintf(stderr, "tma_tile_copy_check: %s: %s\n", entry.kernel.name, error.c_str());
        return 1;
      }
      if (cutec::rt::Status status = entry.emulate(emulated, 0); !status) {
        std::fprintf(stderr, "tma_tile_copy_check: %s: emulation failed: %s\n",
                     entry.kernel.name, status.error().c_str());
        return 1;
      }
      std::vector<uint8_t> image, tiles;
      cutec::test::expectedTileCopy(gpu, image, tiles);
      size_t imageDiff = differences(gpu.image, emulated.image),
             tilesDiff = differences(gpu.tiles, emulated.tiles),
             expectedDiff = differences(gpu.image, image) + differences(gpu.tiles, tiles);
      bool ok = imageDiff == 0 && tilesDiff == 0 && expectedDiff == 0;
      std::printf("%s M=%u N=%u L=%u (%u CTAs): GPU vs emulation %s (image %zu, tiles %zu bytes "
                  "differ), GPU vs expected %zu differ\n",
                  entry.kernel.name, s.m, s.n, s.l, gpu.ctas(), ok ? "byte-identical" : "DIFFERENT",
                  imageDiff, tilesDiff, expectedDiff);
      (ok ? passed : failed)++;
    }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
