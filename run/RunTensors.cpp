//===- RunTensors.cpp - The tensor parameters' memory in a `cutec run` ----===//
#include "run/RunTensors.h"

#include "run/RunNpyDtypes.h"

#include "runtime/io/Npy.h"
#include "runtime/io/NpyHeader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <new>

namespace cutec {
namespace {

/// Buffers are aligned as cudaMalloc aligns them, which vector loads and TMA
/// rely on.
constexpr std::align_val_t kBufferAlignment{256};

/// The extent of a tensor's memory image under the bound sizes.
struct MemoryImage {
  uint64_t elements;
  uint64_t bytes;
};

llvm::Expected<MemoryImage> memoryImage(const ir::Type &type, const SizeBindings &sizes) {
  llvm::Expected<int64_t> elements = evaluateExactly(cosize(type.tensorLayout()), sizes);
  if (!elements)
    return llvm::createStringError("the cosize of " + type.tensorLayout().str() + ": " +
                                   llvm::toString(elements.takeError()));
  if (*elements < 1)
    return llvm::createStringError("the layout " + type.tensorLayout().str() + " has cosize " +
                                   llvm::Twine(*elements));
  uint64_t bits;
  if (__builtin_mul_overflow(uint64_t(*elements), storageBits(type.element()), &bits))
    return llvm::createStringError(llvm::Twine(*elements) + " elements overflow 64 bits");
  return MemoryImage{uint64_t(*elements), bits / 8 + (bits % 8 != 0)};
}

/// Why `type` takes `image.bytes` bytes: "128 f4e2m1 elements (4 bits each),
/// the cosize of n:1 with n=256".
std::string explainImage(const ir::Type &type, const MemoryImage &image,
                         const SizeBindings &sizes) {
  const Layout &layout = type.tensorLayout();
  std::vector<std::string> used;
  for (const IntTuple *t : {&layout.shape, &layout.stride}) {
    std::vector<IntTuple> leaves;
    flattenInto(*t, leaves);
    for (const IntTuple &leaf : leaves)
      leaf.leaf().collectSymbols(used);
  }
  std::string text = std::to_string(image.elements) + " " + ir::name(type.element()).str() +
                     " elements (" + std::to_string(storageBits(type.element())) +
                     " bits each), the cosize of " + layout.str();
  if (!used.empty())
    text += " with " + describeSizes(used, sizes);
  return text;
}

/// Reads `buffer` from its input file, which must hold exactly its bytes.
llvm::Error readInput(TensorBuffer &buffer, const ir::Type &type, const MemoryImage &image,
                      const SizeBindings &sizes) {
  std::string option = "--arg " + buffer.name + "=" + buffer.inputPath;
  rt::NpyResult<rt::NpyArray> array = rt::readNpyFile(buffer.inputPath);
  if (!array)
    return llvm::createStringError(option + ": " + array.error());
  llvm::ArrayRef<llvm::StringRef> dtypes = npyDtypesFor(buffer.element);
  const rt::NpyArray &npy = array.value();
  if (!llvm::is_contained(dtypes, npy.dtype))
    return llvm::createStringError(
        option + ": the file holds dtype " + npy.dtype + " but " + buffer.name + " is " +
        ir::name(buffer.element) + ", given as its memory image in dtype " +
        llvm::join(dtypes, " or ") +
        (ir::isStorageOnlyFloat(buffer.element) ? " (uint8 bytes)" : ""));
  if (npy.bytes.size() != buffer.size)
    return llvm::createStringError(
        option + ": the file holds " + llvm::Twine(npy.bytes.size()) + " bytes (" + npy.dtype +
        ", shape " + rt::formatNpyShape(npy.shape) + ") but " + buffer.name + " takes " +
        llvm::Twine(buffer.size) + " bytes: " + explainImage(type, image, sizes));
  std::memcpy(buffer.data.get(), npy.bytes.data(), buffer.size);
  return llvm::Error::success();
}

} // namespace

/// Output files are written after the run; a path that cannot be written is
/// better reported before it.
llvm::Error checkOutputPath(const TensorBuffer &buffer) {
  llvm::StringRef path = buffer.outputPath;
  std::string option = "--out " + buffer.name + "=" + buffer.outputPath;
  if (llvm::sys::fs::is_directory(path))
    return llvm::createStringError(option + ": '" + path + "' is a directory");
  llvm::StringRef directory = llvm::sys::path::parent_path(path);
  if (!directory.empty() && !llvm::sys::fs::is_directory(directory))
    return llvm::createStringError(option + ": the directory '" + directory + "' does not exist");
  return llvm::Error::success();
}

namespace {

/// An error for the first name in `given` that is not a tensor parameter.
llvm::Error checkNames(const Assignments &given, llvm::StringRef option,
                       llvm::ArrayRef<std::string> tensorNames, llvm::StringRef kernelName) {
  for (const auto &[name, path] : given)
    if (!llvm::is_contained(tensorNames, name))
      return llvm::createStringError(
          option + " " + name + ": kernel '" + kernelName + "' has no tensor parameter '" + name +
          "' (its tensor parameters: " + llvm::join(tensorNames, ", ") + ")");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<TensorBuffer> allocateBuffer(std::string name, ir::DataType element, size_t bytes) {
  auto *data = static_cast<uint8_t *>(::operator new[](bytes, kBufferAlignment, std::nothrow));
  if (!data)
    return llvm::createStringError("cannot allocate " + llvm::Twine(bytes) + " bytes for " + name);
  TensorBuffer buffer;
  buffer.name = std::move(name);
  buffer.element = element;
  buffer.npyDtype = npyDtypesFor(element).front().str();
  buffer.data.reset(data);
  buffer.size = bytes;
  return buffer;
}

void TensorBuffer::FreeAligned::operator()(uint8_t *bytes) const {
  ::operator delete[](bytes, kBufferAlignment);
}

std::string parameterName(const ir::Value &arg) {
  return arg.nameHint().empty() ? "param_" + std::to_string(arg.index()) : arg.nameHint();
}

llvm::Expected<std::vector<TensorBuffer>>
prepareTensors(const ir::Operation &kernel, const SizeBindings &sizes, const Assignments &args,
               const Assignments &outs, const Assignments &addressed) {
  std::vector<const ir::Value *> params;
  std::vector<std::string> tensorNames;
  for (const auto &arg : kernel.regions()[0]->front().arguments())
    if (arg->type().isTensor()) {
      params.push_back(arg.get());
      tensorNames.push_back(parameterName(*arg));
    }
  llvm::StringRef kernelName = *kernel.get(ir::attr::name);
  if (llvm::Error e = checkNames(args, "--arg", tensorNames, kernelName))
    return e;
  if (llvm::Error e = checkNames(outs, "--out", tensorNames, kernelName))
    return e;

  std::vector<TensorBuffer> tensors;
  for (const ir::Value *param : params) {
    std::string name = parameterName(*param);
    const Assignment *input = findAssignment(args, name);
    const Assignment *output = findAssignment(outs, name);
    const bool hasAddresses = findAssignment(addressed, name);
    if (input && hasAddresses)
      return llvm::createStringError("--addresses " + name + ": " + name +
                                     " also has --arg; give its contents one way");
    if (!input && !output && !hasAddresses)
      return llvm::createStringError("missing --arg for " + name +
                                     " (a tensor the kernel only writes takes --out alone)");
    llvm::Expected<MemoryImage> image = memoryImage(param->type(), sizes);
    if (!image)
      return llvm::createStringError(name + ": " + llvm::toString(image.takeError()));
    llvm::Expected<TensorBuffer> buffer =
        allocateBuffer(name, param->type().element(), image->bytes);
    if (!buffer)
      return buffer.takeError();
    if (output) {
      buffer->outputPath = output->value;
      if (llvm::Error e = checkOutputPath(*buffer))
        return e;
    }
    if (!input) {
      std::memset(buffer->data.get(), 0xFF, buffer->size);
    } else {
      buffer->inputPath = input->value;
      if (llvm::Error e = readInput(*buffer, param->type(), *image, sizes))
        return e;
    }
    tensors.push_back(std::move(*buffer));
  }
  return tensors;
}

llvm::Error writeOutputs(llvm::ArrayRef<TensorBuffer> tensors, llvm::raw_ostream &out) {
  for (const TensorBuffer &tensor : tensors) {
    if (tensor.outputPath.empty())
      continue;
    rt::NpyArray array;
    array.dtype = tensor.npyDtype;
    int64_t count = int64_t(tensor.size / *rt::npyItemSize(array.dtype));
    array.shape = {count};
    array.bytes.assign(tensor.data.get(), tensor.data.get() + tensor.size);
    if (rt::Status written = rt::writeNpyFile(tensor.outputPath, array); !written)
      return llvm::createStringError("--out " + tensor.name + ": " + written.error());
    out << "wrote " << tensor.name << " to " << tensor.outputPath << ": " << count << " x "
        << array.dtype << "\n";
  }
  return llvm::Error::success();
}

} // namespace cutec
