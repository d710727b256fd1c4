//===- Launcher.cpp - The per-call path of Kernel.__call__ ----------------===//
#include "python/native/Launcher.h"

#include <nanobind/stl/array.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>

namespace nb = nanobind;

namespace cutec::py {
namespace {

// DLPack's exchange API (dlpack.h 1.x): a table of C functions a framework
// publishes on its tensor class, which read a tensor into a DLTensor and
// give the current stream without a Python call each.
struct DLDevice {
  int32_t deviceType;
  int32_t deviceId;
};
struct DLDataType {
  uint8_t code, bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byteOffset;
};
struct DLPackExchangeApi {
  uint32_t major, minor;
  void *previous;
  void *managedTensorAllocator;
  void *managedTensorFromPyObject;
  void *managedTensorToPyObject;
  int (*dltensorFromPyObject)(void *object, DLTensor *out);
  int (*currentWorkStream)(int32_t deviceType, int32_t deviceId, void **stream);
};
constexpr int32_t kDLCuda = 2;

/// What the path needs from PyTorch, looked up once (and never freed: it
/// must outlive the interpreter's shutdown).
struct Torch {
  nb::object tensorType;
  nb::object currentStream; // torch._C._cuda_getCurrentRawStream(device)
  const DLPackExchangeApi *exchange = nullptr;
  nb::object dataPtr = nb::str("data_ptr"), getDevice = nb::str("get_device"),
             stride = nb::str("stride"), dtype = nb::str("dtype"), shape = nb::str("shape");

  static Torch &get() {
    static Torch *torch = [] {
      auto *t = new Torch;
      nb::module_ module = nb::module_::import_("torch");
      t->tensorType = module.attr("Tensor");
      t->currentStream = module.attr("_C").attr("_cuda_getCurrentRawStream");
      t->exchange = exchangeApi(t->tensorType);
      return t;
    }();
    return *torch;
  }

  /// The class's exchange table (published as an int address or a capsule,
  /// under either name in use), if it has one of DLPack major version 1.
  static const DLPackExchangeApi *exchangeApi(nb::handle type) {
    for (const char *name : {"__dlpack_c_exchange_api__", "__c_dlpack_exchange_api__"}) {
      if (!nb::hasattr(type, name))
        continue;
      nb::object value = type.attr(name);
      const DLPackExchangeApi *api = nullptr;
      if (nb::isinstance<nb::int_>(value))
        api = reinterpret_cast<const DLPackExchangeApi *>(nb::cast<uintptr_t>(value));
      else if (PyCapsule_CheckExact(value.ptr()))
        api = static_cast<const DLPackExchangeApi *>(
            PyCapsule_GetPointer(value.ptr(), PyCapsule_GetName(value.ptr())));
      PyErr_Clear();
      if (api && api->major == 1 && api->dltensorFromPyObject && api->currentWorkStream)
        return api;
    }
    return nullptr;
  }
};

nb::object callMethod(nb::handle object, nb::handle name) {
  PyObject *self = object.ptr();
  PyObject *result = PyObject_VectorcallMethod(name.ptr(), &self,
                                               1 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
  if (!result)
    throw nb::python_error();
  return nb::steal(result);
}

/// The handle of a call's `stream`: PyTorch's current stream for None;
/// false for an object this path does not read.
bool streamOf(nb::handle stream, int device, uint64_t &handle) {
  Torch &torch = Torch::get();
  if (stream.is_none() && torch.exchange) {
    void *current = nullptr;
    if (torch.exchange->currentWorkStream(kDLCuda, device, &current) != 0)
      return false;
    handle = reinterpret_cast<uint64_t>(current);
  } else if (stream.is_none())
    handle = nb::cast<uint64_t>(torch.currentStream(device));
  else if (nb::isinstance<nb::int_>(stream))
    handle = nb::cast<uint64_t>(stream);
  else if (nb::hasattr(stream, "cuda_stream"))
    handle = nb::cast<uint64_t>(stream.attr("cuda_stream"));
  else
    return false;
  return true;
}

} // namespace

void writeParameter(char kind, nb::handle value, ParamSlot &slot) {
  auto write = [&](auto v) { std::memcpy(slot.bytes, &v, sizeof v); };
  switch (kind) {
  case 'p':
    return write(nb::cast<uint64_t>(value));
  case 'u':
    return write(nb::cast<uint32_t>(value));
  case 'i':
    return write(nb::cast<int32_t>(value));
  case 'f':
    return write(nb::cast<float>(value));
  case 'm': {
    nb::bytes map = nb::cast<nb::bytes>(value);
    if (map.size() != sizeof(TensorMap))
      throw std::invalid_argument("launch: a tensor map has 128 bytes");
    std::memcpy(slot.bytes, map.c_str(), sizeof(TensorMap));
    return;
  }
  }
  throw std::invalid_argument(std::string("launch: unknown parameter kind '") + kind + "'");
}

Launcher::Launcher(uintptr_t function, int device, unsigned alignment,
                   std::vector<int> arguments, std::string kinds)
    : function(function), device(device), alignment(alignment), arguments(std::move(arguments)),
      kinds(std::move(kinds)), slots(this->kinds.size()), params(this->kinds.size()) {
  for (size_t p = 0; p < slots.size(); ++p)
    params[p] = slots[p].bytes;
}

bool Launcher::describe(nb::tuple args, std::vector<int64_t> &key,
                        std::vector<uint64_t> &pointers) {
  if (args.size() != arguments.size())
    return false;
  Torch &torch = Torch::get();
  for (size_t i = 0; i < args.size(); ++i) {
    nb::handle arg = args[i];
    char kind = kinds[size_t(arguments[i])];
    if (kind != 'p') {
      // A scalar: its Python type is part of the key (an int for an f32
      // parameter is converted; a float for an int one is Python's error).
      key.push_back(nb::isinstance<nb::float_>(arg) ? 1 : nb::isinstance<nb::int_>(arg) ? 2 : 3);
      pointers.push_back(0);
      continue;
    }
    if (!nb::isinstance(arg, torch.tensorType))
      return false;
    if (torch.exchange) {
      DLTensor t;
      if (torch.exchange->dltensorFromPyObject(arg.ptr(), &t) != 0) {
        PyErr_Clear();
        return false;
      }
      if (t.device.deviceType != kDLCuda || t.device.deviceId != device)
        return false;
      key.push_back(int64_t(t.dtype.code) | int64_t(t.dtype.bits) << 8 |
                    int64_t(t.dtype.lanes) << 16);
      key.push_back(t.ndim);
      int64_t contiguous = 1;
      for (int d = t.ndim - 1; d >= 0; --d) {
        key.push_back(t.shape[d]);
        key.push_back(t.strides ? t.strides[d] : contiguous);
        contiguous *= t.shape[d];
      }
      pointers.push_back(reinterpret_cast<uint64_t>(t.data) + t.byteOffset);
      continue;
    }
    if (nb::cast<int>(callMethod(arg, torch.getDevice)) != device)
      return false;
    key.push_back(reinterpret_cast<intptr_t>(nb::getattr(arg, torch.dtype).ptr()));
    nb::tuple shape = nb::borrow<nb::tuple>(nb::getattr(arg, torch.shape));
    nb::tuple strides = nb::borrow<nb::tuple>(callMethod(arg, torch.stride));
    key.push_back(int64_t(shape.size()));
    for (size_t d = 0; d < shape.size(); ++d) {
      key.push_back(nb::cast<int64_t>(shape[d]));
      key.push_back(nb::cast<int64_t>(strides[d]));
    }
    pointers.push_back(nb::cast<uint64_t>(callMethod(arg, torch.dataPtr)));
  }
  return true;
}

bool Launcher::call(nb::tuple args, nb::handle stream) {
  // The buffers are the launcher's, reused: the GIL is held throughout.
  key.clear();
  pointers.clear();
  if (!describe(args, key, pointers))
    return false;
  auto found = plans.find(key);
  if (found == plans.end())
    return false;
  Plan &plan = found->second;
  for (size_t i = 0; i < pointers.size(); ++i)
    if (kinds[size_t(arguments[i])] == 'p' && pointers[i] % alignment)
      return false;

  for (size_t i = 0; i < arguments.size(); ++i) {
    ParamSlot &slot = slots[size_t(arguments[i])];
    if (char kind = kinds[size_t(arguments[i])]; kind == 'p')
      std::memcpy(slot.bytes, &pointers[i], sizeof(uint64_t));
    else
      writeParameter(kind, args[i], slot);
  }
  for (auto &[index, value] : plan.sizes)
    std::memcpy(slots[size_t(index)].bytes, &value, sizeof value);
  CudaDriver &driver = CudaDriver::get();
  for (auto &[index, recipe] : plan.maps) {
    uint64_t address = pointers[size_t(recipe.source)];
    if (recipe.encodedFor != address) {
      driver.encodeTiled(recipe.map, recipe.dataType, unsigned(recipe.dims.size()), address,
                         recipe.dims.data(), recipe.strides.data(), recipe.box.data(),
                         recipe.swizzle);
      recipe.encodedFor = address;
    }
    std::memcpy(slots[size_t(index)].bytes, &recipe.map, sizeof(TensorMap));
  }
  uint64_t handle;
  if (!streamOf(stream, device, handle))
    return false;
  // The GIL stays held, as PyTorch's launches hold it: releasing and taking
  // it back would cost more than the launch call.
  driver.launch(reinterpret_cast<CUfunction>(function), plan.shape,
                reinterpret_cast<CUstream>(handle), params.data());
  return true;
}

void Launcher::remember(nb::tuple args, std::array<unsigned, 3> grid,
                        std::array<unsigned, 3> block, std::array<unsigned, 3> cluster,
                        unsigned sharedBytes, std::map<int, uint32_t> sizes,
                        std::map<int, nb::tuple> maps) {
  std::vector<int64_t> key;
  std::vector<uint64_t> pointers;
  if (!describe(args, key, pointers))
    return;
  Plan plan;
  plan.shape = {{grid[0], grid[1], grid[2]},
                {block[0], block[1], block[2]},
                {cluster[0], cluster[1], cluster[2]},
                sharedBytes};
  plan.sizes = std::move(sizes);
  for (auto &[index, m] : maps) {
    TensorMapRecipe recipe;
    recipe.source = nb::cast<int>(m[0]);
    recipe.dataType = nb::cast<unsigned>(m[1]);
    recipe.dims = nb::cast<std::vector<uint64_t>>(m[2]);
    recipe.strides = nb::cast<std::vector<uint64_t>>(m[3]);
    recipe.box = nb::cast<std::vector<uint32_t>>(m[4]);
    recipe.swizzle = nb::cast<unsigned>(m[5]);
    plan.maps.emplace(index, std::move(recipe));
  }
  // Plans of a long-running program that sees many shapes stay bounded.
  if (plans.size() >= 1024)
    plans.clear();
  plans[key] = std::move(plan);
}

namespace {

/// The base class of cutec.Kernel: its __call__ tries the launcher, and
/// hands the call to the Python method `_launch(args, stream, kwargs)` when
/// the launcher does not take it. Written here so that a call costs no
/// Python frame.
struct KernelBase {
  nb::object launcherObject;
  Launcher *launcher = nullptr;
};

nb::object callKernel(nb::handle self, nb::args args, nb::kwargs kwargs) {
  KernelBase &base = nb::cast<KernelBase &>(self);
  nb::handle stream = Py_None;
  size_t others = kwargs.size();
  if (kwargs.contains("stream")) {
    stream = kwargs["stream"];
    --others;
  }
  if (base.launcher && others == 0 && base.launcher->call(args, stream))
    return nb::none();
  nb::dict rest;
  for (auto [key, value] : kwargs)
    if (!nb::str(key).equal(nb::str("stream")))
      rest[key] = value;
  return self.attr("_launch")(args, stream, rest);
}

} // namespace

void bindLauncher(nb::module_ &m) {
  // Kernels (and their launchers) that PyTorch's op registry holds live
  // until the interpreter exits; that is not a leak to report.
  nb::set_leak_warnings(false);
  m.def("exchange_api_in_use", [] { return Torch::get().exchange != nullptr; },
        "Whether launches read PyTorch tensors through DLPack's exchange API");
  nb::class_<Launcher>(m, "Launcher")
      .def(nb::init<uintptr_t, int, unsigned, std::vector<int>, std::string>(),
           nb::arg("function"), nb::arg("device"), nb::arg("alignment"), nb::arg("arguments"),
           nb::arg("kinds"))
      .def("call", &Launcher::call, nb::arg("args"), nb::arg("stream").none())
      .def("remember", &Launcher::remember, nb::arg("args"), nb::arg("grid"), nb::arg("block"),
           nb::arg("cluster"), nb::arg("shared_bytes"), nb::arg("sizes"), nb::arg("maps"));
  nb::class_<KernelBase>(m, "KernelBase")
      .def(nb::init<>())
      .def("__call__", &callKernel)
      .def("_set_launcher", [](KernelBase &base, nb::object launcher) {
        base.launcher = &nb::cast<Launcher &>(launcher);
        base.launcherObject = std::move(launcher);
      });
}

} // namespace cutec::py
