//===- TensorMapCode.cpp - C++ that encodes a kernel's tensor maps --------===//
#include "codegen/host/TensorMapCode.h"

#include "llvm/ADT/STLExtras.h"

namespace cutec::host {

static std::string join(const std::vector<std::string> &items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + items[i];
  return s;
}

static void replaceAll(std::string &text, llvm::StringRef key, const std::string &value) {
  for (size_t pos = text.find(key); pos != std::string::npos;
       pos = text.find(key, pos + value.size()))
    text.replace(pos, key.size(), value);
}

llvm::Expected<std::string>
tensorMapEncodeCode(const ir::TensorMapSpec &spec, llvm::StringRef name, CxxIntExpr &exprs,
                    const std::function<std::string(const std::string &message)> &fail,
                    llvm::StringRef encode, llvm::StringRef indent) {
  std::string in = indent.str(), out = in + "{ // " + name.str() + ": " + spec.str() + "\n";
  // The extents and strides in elements, then in the driver's units.
  std::vector<std::string> elements, strides, packedChecks;
  for (size_t k = 0; k < spec.rank(); ++k) {
    auto text = exprs.print(spec.globalDim[k]);
    if (!text)
      return text.takeError();
    elements.push_back(*text);
    if (k == 0)
      continue;
    auto stride = exprs.print(spec.globalStride[k - 1]);
    if (!stride)
      return stride.takeError();
    strides.push_back(*stride);
  }
  unsigned bits = ir::bitWidth(spec.element);
  std::vector<std::string> dims = elements, box;
  if (spec.packsNibbles()) {
    // Two elements per byte: dimension 0 and every stride must be even.
    std::vector<std::string> halved{elements[0]};
    for (const std::string &s : strides)
      if (!llvm::is_contained(halved, s))
        halved.push_back(s);
    std::string condition;
    for (const std::string &h : halved)
      condition += (condition.empty() ? "" : " || ") + h + " % 2 != 0";
    out += in + "  if (" + condition + ")\n" + in + "    " +
           fail("TMA moves 4-bit data as bytes, so the contiguous extent and the strides must "
                "be even") +
           "\n";
    dims[0] = elements[0] + " / 2";
  }
  for (std::string &s : strides)
    s = bits == 4 ? s + " / 2" : bits == 8 ? s : s + " * " + std::to_string(bits / 8);
  for (size_t k = 0; k < spec.rank(); ++k)
    box.push_back(std::to_string(k == 0 && spec.packsNibbles() ? spec.box[k] / 2 : spec.box[k]));
  size_t rank = spec.rank();
  out += in + "  const uint64_t dims[" + std::to_string(rank) + "] = {" + join(dims) + "};\n";
  // A rank-1 map has no strides; the array must still exist.
  out += in + "  const uint64_t strides[" + std::to_string(std::max<size_t>(rank - 1, 1)) +
         "] = {" + (strides.empty() ? std::string("0") : join(strides)) + "};\n";
  out += in + "  const uint32_t box[" + std::to_string(rank) + "] = {" + join(box) + "};\n";
  out += in + "  const uint32_t elementStrides[" + std::to_string(rank) + "] = {" +
         join(std::vector<std::string>(rank, "1")) + "};\n";
  std::string statement = encode.str();
  replaceAll(statement, "$type", std::to_string(spec.cudaDataType()));
  replaceAll(statement, "$rank", std::to_string(rank));
  replaceAll(statement, "$swizzle", std::to_string(spec.cudaSwizzle()));
  out += in + "  " + statement + "\n" + in + "}\n";
  return out;
}

llvm::Expected<std::string> tensorMapsEncodeCode(
    const ir::Block &entry, CxxIntExpr &exprs,
    const std::function<std::string(const std::string &map, const std::string &message)> &fail,
    llvm::StringRef declare, llvm::StringRef encode, llvm::StringRef indent) {
  std::string code;
  for (const auto &arg : entry.arguments()) {
    if (!arg->type().isTensorMap())
      continue;
    const ir::TensorMapSpec &spec = arg->type().tensorMapSpec();
    const std::string &map = arg->nameHint();
    auto named = [&](llvm::StringRef text) {
      std::string t = text.str();
      replaceAll(t, "$map", map);
      replaceAll(t, "$source", spec.source);
      return t;
    };
    code += named(declare);
    auto block = tensorMapEncodeCode(
        spec, map, exprs, [&](const std::string &message) { return fail(map, message); },
        named(encode), indent);
    if (!block)
      return block.takeError();
    code += *block;
  }
  return code;
}

} // namespace cutec::host
