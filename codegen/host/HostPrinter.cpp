//===- HostPrinter.cpp - Kernels to a CUDA driver API launcher header -----===//
#include "codegen/host/HostPrinter.h"

#include "codegen/host/CxxIntExpr.h"
#include "codegen/host/TensorMapCode.h"
#include "ir/core/KernelArguments.h"
#include "ir/core/LaunchChecks.h"

#include "llvm/ADT/StringSet.h"

#include <set>

namespace cutec::host {
namespace {

using ir::Operation;
using ir::Value;

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "host printer: " + message);
}

std::string paramName(const Value *arg) {
  return arg->nameHint().empty() ? "param_" + std::to_string(arg->index()) : arg->nameHint();
}

/// The three static block dimensions.
llvm::Expected<std::vector<int64_t>> blockDims(const Operation &kernel, const std::string &name) {
  const IntTuple *block = kernel.get(ir::attr::block);
  if (!block)
    return error("kernel '" + name + "' has no block shape");
  std::vector<IntTuple> leaves;
  flattenInto(*block, leaves);
  if (leaves.size() > 3)
    return error("the block of kernel '" + name + "' has more than 3 dimensions");
  std::vector<int64_t> dims;
  for (const IntTuple &leaf : leaves) {
    std::optional<int64_t> v = leaf.leaf().getStatic();
    if (!v || *v <= 0)
      return error("the block of kernel '" + name + "' is not a static positive shape");
    dims.push_back(*v);
  }
  dims.resize(3, 1);
  return dims;
}

/// `{g0, g1, g2}` over the launch arguments, after the helper lambdas.
llvm::Expected<std::string> gridInitializer(const Operation &kernel, const std::string &name,
                                            const llvm::StringSet<> &sizes, std::string &helpers) {
  const IntTuple *grid = kernel.get(ir::attr::grid);
  if (!grid)
    return error("kernel '" + name + "' has no grid shape");
  std::vector<IntTuple> leaves;
  flattenInto(*grid, leaves);
  if (leaves.size() > 3)
    return error("the grid of kernel '" + name + "' has more than 3 dimensions");
  llvm::StringSet<> names = sizes;
  names.insert(ir::kSmCountSize);
  CxxIntExpr printer("the grid of kernel '" + name + "'", names, [](llvm::StringRef size) {
    return size == ir::kSmCountSize ? "uint64_t(sm_count)" : "uint64_t{args." + size.str() + "}";
  });
  std::vector<std::string> dims;
  for (const IntTuple &leaf : leaves) {
    auto text = printer.print(leaf.leaf());
    if (!text)
      return error(llvm::toString(text.takeError()));
    dims.push_back(std::move(*text));
  }
  dims.resize(3, "1");
  helpers += printer.helperDefinitions("  ");
  return "{" + dims[0] + ", " + dims[1] + ", " + dims[2] + "}";
}

/// A grid of sm_count() reads the SM count of the current context's device.
std::string smCountQuery(const Operation &kernel) {
  if (!ir::gridUsesSmCount(kernel))
    return "";
  return "  int sm_count = 0;\n"
         "  CUdevice device;\n"
         "  if (CUresult r = cuCtxGetDevice(&device); r != CUDA_SUCCESS)\n"
         "    return r;\n"
         "  if (CUresult r = cuDeviceGetAttribute(&sm_count, "
         "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);\n"
         "      r != CUDA_SUCCESS)\n"
         "    return r;\n";
}

void printLoad(const std::string &name, llvm::raw_ostream &os) {
  os << "/// Loads PTX text holding kernel " << name
     << " (what `cutec --emit=ptx` wrote) and finds\n"
     << "/// its entry. On an error nothing stays loaded.\n"
     << "inline CUresult cutec_load_" << name
     << "(const char *ptx, CUmodule *module, CUfunction *function) {\n"
     << "  if (!ptx || !module || !function)\n"
     << "    return CUDA_ERROR_INVALID_VALUE;\n"
     << "  CUresult result = cuModuleLoadData(module, ptx);\n"
     << "  if (result != CUDA_SUCCESS)\n"
     << "    return result;\n"
     << "  result = cuModuleGetFunction(function, *module, \"" << name << "\");\n"
     << "  if (result != CUDA_SUCCESS) {\n"
     << "    // The lookup's error is the one to report.\n"
     << "    cuModuleUnload(*module);\n"
     << "    *module = nullptr;\n"
     << "  }\n"
     << "  return result;\n"
     << "}\n\n";
}

/// Statements that encode each tensor-map argument into a local of its name
/// with cuTensorMapEncodeTiled, from the launch arguments.
llvm::Expected<std::string> tensorMapCode(const ir::Block &entry, const std::string &name,
                                          const llvm::StringSet<> &sizes, std::string &helpers) {
  CxxIntExpr exprs("a tensor map of kernel '" + name + "'", sizes,
                   [](llvm::StringRef size) { return "uint64_t{args." + size.str() + "}"; });
  auto code = tensorMapsEncodeCode(
      entry, exprs, [](const std::string &, const std::string &) {
        return std::string("return CUDA_ERROR_INVALID_VALUE;");
      },
      "  CUtensorMap $map;\n",
      "if (CUresult r = cuTensorMapEncodeTiled(&$map, CUtensorMapDataType($type), $rank, "
      "reinterpret_cast<void *>(args.$source), dims, strides, box, elementStrides, "
      "CU_TENSOR_MAP_INTERLEAVE_NONE, CUtensorMapSwizzle($swizzle), "
      "CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE); r != CUDA_SUCCESS)\n"
      "      return r;",
      "  ");
  if (!code)
    return error(llvm::toString(code.takeError()));
  helpers += exprs.helperDefinitions("  ");
  return *code;
}

llvm::Error printKernel(const Operation &kernel, llvm::raw_ostream &os) {
  std::string name = *kernel.get(ir::attr::name);
  const ir::Block &entry = *kernel.regions()[0]->blocks().front();
  llvm::StringSet<> sizes;
  std::vector<std::string> fields, params;
  os << "/// The arguments of kernel " << name << ": its tensors, scalars and dynamic sizes.\n";
  os << "struct " << name << "_LaunchArgs {\n";
  for (const auto &arg : entry.arguments()) {
    std::string field = paramName(arg.get());
    if (arg->type().isTensorMap()) {
      params.push_back("&" + field);
      continue;
    }
    bool isPointer = arg->type().isTensor();
    os << "  " << (isPointer ? "CUdeviceptr" : ir::cxxParameterType(kernel, *arg)) << " " << field
       << ";\n";
    if (ir::argumentKind(kernel, *arg) == ir::ArgumentKind::DynamicSize)
      sizes.insert(field);
    params.push_back("&params." + field);
    fields.push_back(std::move(field));
  }
  os << "};\n\n";
  printLoad(name, os);

  auto block = blockDims(kernel, name);
  if (!block)
    return block.takeError();
  std::string helpers;
  auto grid = gridInitializer(kernel, name, sizes, helpers);
  if (!grid)
    return grid.takeError();
  auto maps = tensorMapCode(entry, name, sizes, helpers);
  if (!maps)
    return maps.takeError();
  const int64_t *shared = kernel.get(ir::attr::sharedBytes);
  int64_t sharedBytes = shared ? *shared : 0;
  os << "/// Whether `args` keep what kernel " << name << " relies on (16-byte aligned\n"
     << "/// tensors, its assume= facts); if not, why, in `message` (`size` bytes).\n"
     << "inline bool cutec_check_" << name << "(const " << name
     << "_LaunchArgs &args, char *message, size_t size) {\n"
     << "  (void)args, (void)message, (void)size;\n"
     << ir::printLaunchChecks(kernel, "args.", "  ") << "  return true;\n}\n\n";
  os << "/// Launches kernel " << name << " on `stream`";
  if (!maps->empty())
    os << ", after encoding its tensor maps from `args`";
  os << ". A grid\n/// dimension that is 0 or does not fit in 32 bits, arguments that\n"
     << "/// cutec_check_" << name << " refuses, or sizes a tensor map cannot describe, are\n"
     << "/// CUDA_ERROR_INVALID_VALUE; driver errors are returned unchanged.\n"
     << "inline CUresult cutec_launch_" << name << "(CUfunction f, const " << name
     << "_LaunchArgs &args, CUstream stream) {\n"
     << "  if (char message[256]; !cutec_check_" << name << "(args, message, sizeof message))\n"
     << "    return CUDA_ERROR_INVALID_VALUE;\n"
     << smCountQuery(kernel) << helpers << "  const uint64_t grid[3] = " << *grid << ";\n"
     << "  for (uint64_t g : grid)\n"
     << "    if (g == 0 || g > UINT32_MAX)\n"
     << "      return CUDA_ERROR_INVALID_VALUE;\n"
     << *maps;
  // Above 48 KiB a kernel must opt in to its dynamic shared memory.
  if (sharedBytes > 48 * 1024)
    os << "  if (CUresult r = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
       << sharedBytes << "); r != CUDA_SUCCESS)\n    return r;\n";
  if (params.empty()) {
    os << "  void **kernelParams = nullptr;\n";
  } else {
    os << "  // cuLaunchKernel takes void **, and copies the values at launch.\n";
    if (!fields.empty())
      os << "  " << name << "_LaunchArgs params = args;\n";
    os << "  void *kernelParams[] = {";
    for (size_t i = 0; i < params.size(); ++i)
      os << (i ? ", " : "") << params[i];
    os << "};\n";
  }
  if (const IntTuple *cluster = kernel.get(ir::attr::cluster)) {
    // A cluster kernel: launched with its cluster shape (the one its PTX
    // requires with .reqnctapercluster; the grid is a whole number of them).
    // More than 8 CTAs (the portable size) need the kernel's opt-in.
    if (product(*cluster).staticValue() > 8)
      os << "  if (CUresult r = cuFuncSetAttribute(f, "
            "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1); r != CUDA_SUCCESS)\n"
            "    return r;\n";
    os << "  CUlaunchAttribute cluster{};\n"
       << "  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;\n"
       << "  cluster.value.clusterDim.x = " << (*cluster)[0].str() << ";\n"
       << "  cluster.value.clusterDim.y = " << (*cluster)[1].str() << ";\n"
       << "  cluster.value.clusterDim.z = " << (*cluster)[2].str() << ";\n"
       << "  if (grid[0] % " << (*cluster)[0].str() << " || grid[1] % " << (*cluster)[1].str()
       << " || grid[2] % " << (*cluster)[2].str() << ")\n"
       << "    return CUDA_ERROR_INVALID_VALUE;\n"
       << "  CUlaunchConfig config{};\n"
       << "  config.gridDimX = uint32_t(grid[0]);\n"
       << "  config.gridDimY = uint32_t(grid[1]);\n"
       << "  config.gridDimZ = uint32_t(grid[2]);\n"
       << "  config.blockDimX = " << (*block)[0] << ";\n"
       << "  config.blockDimY = " << (*block)[1] << ";\n"
       << "  config.blockDimZ = " << (*block)[2] << ";\n"
       << "  config.sharedMemBytes = " << sharedBytes << ";\n"
       << "  config.hStream = stream;\n"
       << "  config.attrs = &cluster;\n"
       << "  config.numAttrs = 1;\n"
       << "  return cuLaunchKernelEx(&config, f, kernelParams, /*extra=*/nullptr);\n"
       << "}\n\n";
    return llvm::Error::success();
  }
  os << "  return cuLaunchKernel(f, uint32_t(grid[0]), uint32_t(grid[1]), uint32_t(grid[2]), "
     << (*block)[0] << ", " << (*block)[1] << ", " << (*block)[2] << ",\n"
     << "                        /*sharedMemBytes=*/" << sharedBytes
     << ", stream, kernelParams, /*extra=*/nullptr);\n"
     << "}\n\n";
  return llvm::Error::success();
}

} // namespace

llvm::Error printHostLauncher(const ir::Module &module, llvm::raw_ostream &os) {
  // Printed to a buffer, so that an error leaves `os` untouched.
  std::string text;
  llvm::raw_string_ostream buffer(text);
  buffer << "// Generated by cutec: launchers over the CUDA driver API. Do not edit.\n"
         << "// The PTX is not embedded: pass the text of `cutec --emit=ptx` to\n"
         << "// cutec_load_<kernel>.\n"
         << "#pragma once\n\n#include <cuda.h>\n\n#include <cstdint>\n#include <cstdio>\n\n";
  for (const auto &kernel : module.kernels())
    if (llvm::Error e = printKernel(*kernel, buffer))
      return e;
  os << text;
  return llvm::Error::success();
}

} // namespace cutec::host
