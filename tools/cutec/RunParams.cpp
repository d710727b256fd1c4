//===- RunParams.cpp - The kernel's parameter struct, built at run time ---===//
#include "tools/cutec/RunParams.h"

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

llvm::Expected<std::vector<uint64_t>> packParams(const ir::Block &entry,
                                                 llvm::ArrayRef<TensorBuffer> tensors,
                                                 const SizeBindings &sizes) {
  ParamsLayout layout = layoutParams(entry);
  std::vector<uint64_t> words(llvm::divideCeil(layout.size, 8));
  auto *bytes = reinterpret_cast<uint8_t *>(words.data());
  for (const auto &arg : entry.arguments()) {
    std::string name = parameterName(*arg);
    uint8_t *member = bytes + layout.offsets[arg->index()];
    if (arg->type().isTensorMap())
      continue;
    if (arg->type().isTensor()) {
      const auto *tensor =
          llvm::find_if(tensors, [&](const TensorBuffer &t) { return t.name == name; });
      if (tensor == tensors.end())
        return llvm::createStringError("no buffer for the tensor parameter " + name);
      uint64_t address = reinterpret_cast<uintptr_t>(tensor->data.get());
      std::memcpy(member, &address, sizeof address);
      continue;
    }
    auto size = sizes.find(name);
    if (size == sizes.end())
      return llvm::createStringError("the kernel's parameter " + name +
                                     " is neither a tensor nor a dynamic size");
    uint32_t value = uint32_t(size->second);
    std::memcpy(member, &value, sizeof value);
  }
  return words;
}

} // namespace cutec
