//===- RunBuffers.cpp - Global memory that is no parameter, and its addresses //
#include "run/RunBuffers.h"

#include "run/RunNpyDtypes.h"

#include "runtime/io/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

namespace cutec {
namespace {

/// The element types a `--buffer` file may hold, by the dtype that holds
/// them: a buffer is written back in its file's dtype.
constexpr ir::DataType kBufferElements[] = {
    ir::DataType::U8,  ir::DataType::I8,  ir::DataType::Bool, ir::DataType::F16,
    ir::DataType::U16, ir::DataType::I16, ir::DataType::F32,  ir::DataType::U32,
    ir::DataType::I32, ir::DataType::U64, ir::DataType::I64};

std::optional<ir::DataType> elementOfDtype(llvm::StringRef dtype) {
  for (ir::DataType t : kBufferElements)
    if (llvm::is_contained(npyDtypesFor(t), dtype))
      return t;
  return std::nullopt;
}

TensorBuffer *findBuffer(llvm::MutableArrayRef<TensorBuffer> tensors, llvm::StringRef name) {
  auto *it = llvm::find_if(tensors, [&](const TensorBuffer &t) { return t.name == name; });
  return it == tensors.end() ? nullptr : it;
}

} // namespace

llvm::Expected<std::vector<TensorBuffer>> prepareBuffers(const Assignments &buffers,
                                                         const Assignments &outs,
                                                         llvm::ArrayRef<TensorBuffer> tensors) {
  std::vector<TensorBuffer> result;
  for (const auto &[name, path] : buffers) {
    std::string option = "--buffer " + name + "=" + path;
    if (llvm::any_of(tensors, [&](const TensorBuffer &t) { return t.name == name; }))
      return llvm::createStringError(option + ": '" + name +
                                     "' is a tensor parameter; give it with --arg");
    rt::NpyResult<rt::NpyArray> array = rt::readNpyFile(path);
    if (!array)
      return llvm::createStringError(option + ": " + array.error());
    const rt::NpyArray &npy = array.value();
    std::optional<ir::DataType> element = elementOfDtype(npy.dtype);
    if (!element)
      return llvm::createStringError(option + ": the file holds dtype " + npy.dtype +
                                     ", which no element type has");
    if (npy.bytes.empty())
      return llvm::createStringError(option + ": the file holds no elements");
    llvm::Expected<TensorBuffer> buffer = allocateBuffer(name, *element, npy.bytes.size());
    if (!buffer)
      return buffer.takeError();
    buffer->npyDtype = npy.dtype;
    buffer->inputPath = path;
    std::memcpy(buffer->data.get(), npy.bytes.data(), buffer->size);
    if (const Assignment *output = findAssignment(outs, name)) {
      buffer->outputPath = output->value;
      if (llvm::Error e = checkOutputPath(*buffer))
        return e;
    }
    result.push_back(std::move(*buffer));
  }
  return result;
}

llvm::Error fillAddresses(const Assignments &addresses,
                          llvm::MutableArrayRef<TensorBuffer> tensors) {
  for (const auto &[param, list] : addresses) {
    std::string option = "--addresses " + param;
    TensorBuffer *table = findBuffer(tensors, param);
    if (!table || !table->inputPath.empty() ||
        (table->element != ir::DataType::I64 && table->element != ir::DataType::U64))
      return llvm::createStringError(
          option + ": the addresses go into a tensor parameter of i64 or u64 elements" +
          (table ? ", not " + table->name + " (" + ir::name(table->element).str() + ")" : ""));
    llvm::SmallVector<llvm::StringRef, 16> names;
    llvm::StringRef(list).split(names, ',');
    const size_t slots = table->size / sizeof(uint64_t);
    if (names.size() != slots)
      return llvm::createStringError(option + ": " + llvm::Twine(names.size()) + " names for the " +
                                     llvm::Twine(slots) + " elements of " + param);
    for (size_t i = 0; i < names.size(); ++i) {
      const TensorBuffer *target = findBuffer(tensors, names[i].trim());
      if (!target)
        return llvm::createStringError(option + ": no --buffer or tensor parameter '" +
                                       names[i].trim() + "'");
      uint64_t address = reinterpret_cast<uintptr_t>(target->data.get());
      std::memcpy(table->data.get() + i * sizeof address, &address, sizeof address);
    }
  }
  return llvm::Error::success();
}

} // namespace cutec
