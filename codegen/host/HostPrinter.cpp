//===- HostPrinter.cpp - Kernels to a CUDA driver API launcher header -----===//
#include "codegen/host/HostPrinter.h"
#include "ir/core/LaunchChecks.h"

#include "llvm/ADT/StringSet.h"

#include <set>

namespace cutec::host {
namespace {

using ir::Operation;
using ir::Value;
using Kind = IntExpr::Kind;

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "host printer: " + message);
}

std::string paramName(const Value *arg) {
  return arg->nameHint().empty() ? "param_" + std::to_string(arg->index()) : arg->nameHint();
}

/// The name of the lambda that computes a binary IntExpr node.
const char *helperName(Kind kind) {
  switch (kind) {
  case Kind::Div:
    return "div";
  case Kind::Mod:
    return "mod";
  case Kind::CeilDiv:
    return "ceil_div";
  default:
    return "min";
  }
}

/// The lambda's definition. A division by zero gives 0 instead of trapping.
const char *helperDefinition(Kind kind) {
  switch (kind) {
  case Kind::Div:
    return "auto div = [](uint64_t a, uint64_t b) -> uint64_t { return b ? a / b : 0; };";
  case Kind::Mod:
    return "auto mod = [](uint64_t a, uint64_t b) -> uint64_t { return b ? a % b : 0; };";
  case Kind::CeilDiv:
    return "auto ceil_div = [](uint64_t a, uint64_t b) -> uint64_t { return b ? (a + b - 1) / b "
           ": 0; };";
  default:
    return "auto min = [](uint64_t a, uint64_t b) { return a < b ? a : b; };";
  }
}

std::string literal(int64_t v) {
  return v < 0 ? "uint64_t(" + std::to_string(v) + ")" : std::to_string(v);
}

/// Prints IntExprs over the dynamic sizes as C++ over uint64_t, reading each
/// size from the launch arguments `args`, and records the helpers they call.
class ExprPrinter {
public:
  ExprPrinter(const std::string &kernel, const llvm::StringSet<> &sizes)
      : kernel(kernel), sizes(sizes) {}

  llvm::Expected<std::string> print(const IntExpr &e) {
    if (e.isStatic())
      return literal(e.staticValue());
    const IntExpr::Node &n = *e.dynamicNode();
    if (n.kind == Kind::Symbol) {
      if (!sizes.contains(n.name))
        return error("the grid of kernel '" + kernel + "' uses '" + n.name +
                     "', which is not one of its dynamic sizes");
      return "uint64_t{args." + n.name + "}";
    }
    std::vector<std::string> operands;
    for (const IntExpr &operand : n.operands) {
      auto text = print(operand);
      if (!text)
        return text.takeError();
      operands.push_back(std::move(*text));
    }
    if (n.kind == Kind::Mul || n.kind == Kind::Add)
      return variadic(n, operands);
    used.insert(n.kind);
    return std::string(helperName(n.kind)) + "(" + operands[0] + ", " + operands[1] + ")";
  }

  const std::set<Kind> &helpers() const { return used; }

private:
  static std::string variadic(const IntExpr::Node &n, const std::vector<std::string> &operands) {
    bool isMul = n.kind == Kind::Mul;
    std::string s = isMul && n.coeff != 1 ? literal(n.coeff) + " * " : "";
    for (size_t i = 0; i < operands.size(); ++i)
      s += (i ? (isMul ? " * " : " + ") : "") + operands[i];
    if (!isMul && n.coeff > 0)
      s += " + " + std::to_string(n.coeff);
    else if (!isMul && n.coeff < 0)
      s += " - " + std::to_string(0 - uint64_t(n.coeff));
    return "(" + s + ")";
  }

  const std::string &kernel;
  const llvm::StringSet<> &sizes;
  std::set<Kind> used;
};

/// The three static block dimensions.
llvm::Expected<std::vector<int64_t>> blockDims(const Operation &kernel, const std::string &name) {
  const IntTuple *block = kernel.attrAs<IntTuple>("block");
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
  const IntTuple *grid = kernel.attrAs<IntTuple>("grid");
  if (!grid)
    return error("kernel '" + name + "' has no grid shape");
  std::vector<IntTuple> leaves;
  flattenInto(*grid, leaves);
  if (leaves.size() > 3)
    return error("the grid of kernel '" + name + "' has more than 3 dimensions");
  ExprPrinter printer(name, sizes);
  std::vector<std::string> dims;
  for (const IntTuple &leaf : leaves) {
    auto text = printer.print(leaf.leaf());
    if (!text)
      return text.takeError();
    dims.push_back(std::move(*text));
  }
  dims.resize(3, "1");
  for (Kind kind : printer.helpers())
    helpers += "  " + std::string(helperDefinition(kind)) + "\n";
  return "{" + dims[0] + ", " + dims[1] + ", " + dims[2] + "}";
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

llvm::Error printKernel(const Operation &kernel, llvm::raw_ostream &os) {
  std::string name = *kernel.attrAs<std::string>("name");
  const ir::Block &entry = *kernel.regions()[0]->blocks().front();
  llvm::StringSet<> sizes;
  std::vector<std::string> fields;
  os << "/// The parameters of kernel " << name << ", in PTX .param order.\n";
  os << "struct " << name << "_LaunchArgs {\n";
  for (const auto &arg : entry.arguments()) {
    std::string field = paramName(arg.get());
    bool isPointer = arg->type().isTensor();
    os << "  " << (isPointer ? "CUdeviceptr " : "uint32_t ") << field << ";\n";
    if (!isPointer)
      sizes.insert(field);
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
  os << "/// Whether `args` keep what kernel " << name << " relies on (16-byte aligned\n"
     << "/// tensors, its assume= facts); if not, why, in `message` (`size` bytes).\n"
     << "inline bool cutec_check_" << name << "(const " << name
     << "_LaunchArgs &args, char *message, size_t size) {\n"
     << "  (void)args, (void)message, (void)size;\n"
     << ir::printLaunchChecks(kernel, "args.", "  ") << "  return true;\n}\n\n";
  os << "/// Launches kernel " << name << " on `stream`. A grid dimension that is 0 or\n"
     << "/// does not fit in 32 bits, or arguments that cutec_check_" << name << " refuses,\n"
     << "/// are CUDA_ERROR_INVALID_VALUE; driver errors are returned unchanged.\n"
     << "inline CUresult cutec_launch_" << name << "(CUfunction f, const " << name
     << "_LaunchArgs &args, CUstream stream) {\n"
     << "  if (char message[256]; !cutec_check_" << name << "(args, message, sizeof message))\n"
     << "    return CUDA_ERROR_INVALID_VALUE;\n"
     << helpers << "  const uint64_t grid[3] = " << *grid << ";\n"
     << "  for (uint64_t g : grid)\n"
     << "    if (g == 0 || g > UINT32_MAX)\n"
     << "      return CUDA_ERROR_INVALID_VALUE;\n";
  if (fields.empty()) {
    os << "  void **kernelParams = nullptr;\n";
  } else {
    os << "  // cuLaunchKernel takes void **, and copies the values at launch.\n"
       << "  " << name << "_LaunchArgs params = args;\n  void *kernelParams[] = {";
    for (size_t i = 0; i < fields.size(); ++i)
      os << (i ? ", " : "") << "&params." << fields[i];
    os << "};\n";
  }
  os << "  // No dynamic shared memory yet: it comes with the TMA kernels, as do the\n"
     << "  // tensor maps they take.\n"
     << "  return cuLaunchKernel(f, uint32_t(grid[0]), uint32_t(grid[1]), uint32_t(grid[2]), "
     << (*block)[0] << ", " << (*block)[1] << ", " << (*block)[2] << ",\n"
     << "                        /*sharedMemBytes=*/0, stream, kernelParams, /*extra=*/nullptr);\n"
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
