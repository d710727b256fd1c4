//===- RunParams.cpp - The kernel's parameter struct, built at run time ---===//
#include "run/RunParams.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

namespace cutec {
namespace {

/// The size and alignment of the C++ member a kernel argument becomes
/// (EmuPrinter): a u64 address, a u32 size, or a 64-byte-aligned 128-byte
/// tensor map, which the launch fills in (KernelDescriptor::deriveParams).
size_t memberSize(const ir::Value &arg) {
  return arg.type().isTensorMap() ? 128 : arg.type().isTensor() ? 8 : 4;
}
size_t memberAlignment(const ir::Value &arg) {
  return arg.type().isTensorMap() ? 64 : memberSize(arg);
}

} // namespace

ParamsLayout layoutParams(const ir::Block &entry) {
  ParamsLayout layout;
  size_t end = 0, alignment = 1;
  for (const auto &arg : entry.arguments()) {
    size_t size = memberSize(*arg), align = memberAlignment(*arg);
    layout.offsets.push_back(llvm::alignTo(end, align));
    end = layout.offsets.back() + size;
    alignment = std::max(alignment, align);
  }
  layout.size = llvm::alignTo(end, alignment);
  return layout;
}

llvm::Expected<ScalarBindings> bindScalarParameters(const ir::Operation &kernel,
                                                    const Assignments &defines) {
  ScalarBindings scalars;
  std::vector<std::string> missing;
  for (const auto &arg : kernel.regions()[0]->front().arguments()) {
    if (ir::argumentKind(kernel, *arg) != ir::ArgumentKind::Scalar)
      continue;
    const std::string &name = arg->nameHint();
    auto given = llvm::find_if(defines, [&](const Assignment &d) { return d.name == name; });
    if (given == defines.end()) {
      missing.push_back(name);
      continue;
    }
    llvm::StringRef text = llvm::StringRef(given->value).trim();
    ir::DataType type = arg->type().element();
    if (type == ir::DataType::F32) {
      llvm::APFloat value(llvm::APFloat::IEEEsingle());
      auto status = value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
      if (!status || text.empty()) {
        llvm::consumeError(status.takeError());
        return llvm::createStringError("-D " + name + "=" + given->value +
                                       ": the f32 parameter needs a number such as 1.5");
      }
      scalars[name] = uint32_t(value.bitcastToAPInt().getZExtValue());
      continue;
    }
    int64_t value;
    int64_t low = type == ir::DataType::I32 ? INT32_MIN : 0;
    int64_t high = type == ir::DataType::I32 ? INT32_MAX : UINT32_MAX;
    if (text.getAsInteger(0, value) || value < low || value > high)
      return llvm::createStringError("-D " + name + "=" + given->value + ": the " +
                                     ir::name(type) + " parameter needs an integer from " +
                                     llvm::Twine(low) + " to " + llvm::Twine(high));
    scalars[name] = uint32_t(value);
  }
  if (!missing.empty())
    return llvm::createStringError("missing -D for " + llvm::join(missing, ", ") +
                                   ": the scalar parameters of kernel '" +
                                   *kernel.get(ir::attr::name) + "'");
  return scalars;
}

llvm::Expected<std::vector<uint64_t>> packParams(const ir::Operation &kernel,
                                                 llvm::ArrayRef<TensorBuffer> tensors,
                                                 const SizeBindings &sizes,
                                                 const ScalarBindings &scalars) {
  const ir::Block &entry = kernel.regions()[0]->front();
  ParamsLayout layout = layoutParams(entry);
  std::vector<uint64_t> words(llvm::divideCeil(layout.size, 8));
  auto *bytes = reinterpret_cast<uint8_t *>(words.data());
  for (const auto &arg : entry.arguments()) {
    std::string name = parameterName(*arg);
    uint8_t *member = bytes + layout.offsets[arg->index()];
    switch (ir::argumentKind(kernel, *arg)) {
    case ir::ArgumentKind::TensorMap:
      break;
    case ir::ArgumentKind::Tensor: {
      const auto *tensor =
          llvm::find_if(tensors, [&](const TensorBuffer &t) { return t.name == name; });
      if (tensor == tensors.end())
        return llvm::createStringError("no buffer for the tensor parameter " + name);
      uint64_t address = reinterpret_cast<uintptr_t>(tensor->data.get());
      std::memcpy(member, &address, sizeof address);
      break;
    }
    case ir::ArgumentKind::DynamicSize:
    case ir::ArgumentKind::Scalar: {
      auto size = sizes.find(name);
      auto scalar = scalars.find(name);
      if (size == sizes.end() && scalar == scalars.end())
        return llvm::createStringError("no value for the kernel's parameter " + name);
      uint32_t value = scalar != scalars.end() ? scalar->second : uint32_t(size->second);
      std::memcpy(member, &value, sizeof value);
      break;
    }
    }
  }
  return words;
}

} // namespace cutec
