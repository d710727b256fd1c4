//===- NvJitLink.cpp - PTX to cubin in-process, through nvJitLink ---------===//
#include "codegen/cubin/NvJitLink.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <dlfcn.h>
#include <type_traits>

#if CUTEC_HAVE_NVJITLINK
#include <nvJitLink.h>
#endif

#if defined(__SANITIZE_ADDRESS__) && CUTEC_HAVE_NVJITLINK
// nvJitLink (CUDA 13.0) loses about 2.5 KB per nvJitLinkComplete inside the
// library, out of our reach; the sanitizer build's leak checker would fail
// every test that assembles a cubin on it. LeakSanitizer asks this hook for
// suppressions; only allocations whose stack passes through the library
// are ignored, so leaks of cutec's own still fail.
extern "C" const char *__lsan_default_suppressions() { return "leak:libnvJitLink.so\n"; }
#endif

namespace cutec {

#if !CUTEC_HAVE_NVJITLINK

struct NvJitLinkApi {};

llvm::Expected<NvJitLink> NvJitLink::load(const std::string &) {
  return cubinFailure("this cutec was built without nvJitLink (nvJitLink.h, libnvJitLink.so): "
                 "configure it with the CUDA toolkit installed and -DCUTEC_NVJITLINK=ON");
}

std::string NvJitLink::candidates() { return ""; }

llvm::Expected<Cubin> NvJitLink::assemble(llvm::StringRef, const CubinOptions &) const {
  return cubinFailure("nvJitLink is not available");
}

#else

/// The entry points cutec calls, with the header's types, looked up by their
/// unversioned names (libnvJitLink.so.13 exports them beside the versioned
/// __nvJitLinkCreate_13_0 ... that the header's inline wrappers call).
struct NvJitLinkApi {
  decltype(&nvJitLinkCreate) create = nullptr;
  decltype(&nvJitLinkDestroy) destroy = nullptr;
  decltype(&nvJitLinkAddData) addData = nullptr;
  decltype(&nvJitLinkComplete) complete = nullptr;
  decltype(&nvJitLinkGetLinkedCubinSize) cubinSize = nullptr;
  decltype(&nvJitLinkGetLinkedCubin) cubin = nullptr;
  decltype(&nvJitLinkGetErrorLogSize) errorLogSize = nullptr;
  decltype(&nvJitLinkGetErrorLog) errorLog = nullptr;
  decltype(&nvJitLinkGetInfoLogSize) infoLogSize = nullptr;
  decltype(&nvJitLinkGetInfoLog) infoLog = nullptr;
};

namespace {

/// The libraries to try, in order, and where that list came from: the one
/// asked for, or $CUTEC_NVJITLINK, or the file CMake found
/// (CUTEC_NVJITLINK_PATH) and then its name through the dynamic loader's
/// search path.
struct Candidates {
  std::vector<std::string> paths;
  std::string origin; // for the message when none loads
};

Candidates candidateLibraries(const std::string &asked) {
  if (!asked.empty())
    return {{asked}, ""};
  if (const char *env = std::getenv("CUTEC_NVJITLINK"); env && *env)
    return {{env}, " (CUTEC_NVJITLINK names it)"};
  llvm::StringRef configured = CUTEC_NVJITLINK_PATH;
  std::vector<std::string> paths = {"libnvJitLink.so"};
  if (!configured.empty())
    paths = {configured.str(), llvm::sys::path::filename(configured).str()};
  return {paths, " (set CUTEC_NVJITLINK to its path)"};
}

} // namespace

std::string NvJitLink::candidates() { return llvm::join(candidateLibraries("").paths, ";"); }

llvm::Expected<NvJitLink> NvJitLink::load(const std::string &asked) {
  Candidates candidates = candidateLibraries(asked);
  std::string tried, path;
  void *library = nullptr;
  for (const std::string &candidate : candidates.paths) {
    // RTLD_NODELETE: the library stays mapped until the process ends, so the
    // memory it keeps in its own globals is still reachable when the leak
    // checker scans at exit (LLVM's DynamicLibrary unloads its libraries
    // first).
    library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library) {
      path = candidate;
      break;
    }
    tried += (tried.empty() ? "" : "; ") + std::string(dlerror());
  }
  if (!library)
    return cubinFailure("the CUDA toolkit's nvJitLink library cannot be loaded: " + tried +
                   candidates.origin);
  auto api = std::make_shared<NvJitLinkApi>();
  const char *missing = nullptr;
  auto bind = [&](const char *symbol, auto &entry) {
    entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(
        dlsym(library, symbol));
    if (!entry && !missing)
      missing = symbol;
  };
  bind("nvJitLinkCreate", api->create);
  bind("nvJitLinkDestroy", api->destroy);
  bind("nvJitLinkAddData", api->addData);
  bind("nvJitLinkComplete", api->complete);
  bind("nvJitLinkGetLinkedCubinSize", api->cubinSize);
  bind("nvJitLinkGetLinkedCubin", api->cubin);
  bind("nvJitLinkGetErrorLogSize", api->errorLogSize);
  bind("nvJitLinkGetErrorLog", api->errorLog);
  bind("nvJitLinkGetInfoLogSize", api->infoLogSize);
  bind("nvJitLinkGetInfoLog", api->infoLog);
  if (missing)
    return cubinFailure("'" + path + "' has no " + missing + ": it is not an nvJitLink library");
  return NvJitLink(std::move(api));
}

namespace {

const char *resultName(nvJitLinkResult result) {
  switch (result) {
  case NVJITLINK_SUCCESS:
    return "NVJITLINK_SUCCESS";
  case NVJITLINK_ERROR_UNRECOGNIZED_OPTION:
    return "NVJITLINK_ERROR_UNRECOGNIZED_OPTION";
  case NVJITLINK_ERROR_MISSING_ARCH:
    return "NVJITLINK_ERROR_MISSING_ARCH";
  case NVJITLINK_ERROR_INVALID_INPUT:
    return "NVJITLINK_ERROR_INVALID_INPUT";
  case NVJITLINK_ERROR_PTX_COMPILE:
    return "NVJITLINK_ERROR_PTX_COMPILE";
  case NVJITLINK_ERROR_INTERNAL:
    return "NVJITLINK_ERROR_INTERNAL";
  case NVJITLINK_ERROR_UNRECOGNIZED_ARCH:
    return "NVJITLINK_ERROR_UNRECOGNIZED_ARCH";
  case NVJITLINK_ERROR_UNSUPPORTED_ARCH:
    return "NVJITLINK_ERROR_UNSUPPORTED_ARCH";
  default:
    return "an nvJitLink error";
  }
}

/// Owns a link: destroys it on every path.
class Link {
public:
  explicit Link(const NvJitLinkApi &api) : api(api) {}
  ~Link() {
    if (handle)
      api.destroy(&handle);
  }
  Link(const Link &) = delete;
  Link &operator=(const Link &) = delete;

  nvJitLinkHandle handle = nullptr;

  /// The error log, trimmed; empty if there is none.
  std::string errorLog() const { return log(api.errorLogSize, api.errorLog); }
  std::string infoLog() const { return log(api.infoLogSize, api.infoLog); }

private:
  template <typename SizeF, typename LogF> std::string log(SizeF size, LogF get) const {
    size_t bytes = 0;
    if (!handle || size(handle, &bytes) != NVJITLINK_SUCCESS || bytes <= 1)
      return "";
    std::string text(bytes, '\0');
    if (get(handle, text.data()) != NVJITLINK_SUCCESS)
      return "";
    return llvm::StringRef(text.c_str()).trim().str();
  }

  const NvJitLinkApi &api;
};

} // namespace

llvm::Expected<Cubin> NvJitLink::assemble(llvm::StringRef ptx, const CubinOptions &options) const {
  std::vector<std::string> owned = {"-arch=" + options.arch};
  owned.insert(owned.end(), options.extraOptions.begin(), options.extraOptions.end());
  llvm::SmallVector<const char *> argv;
  for (const std::string &option : owned)
    argv.push_back(option.c_str());

  Link link(*api);
  auto check = [&](nvJitLinkResult result, const char *step) -> llvm::Error {
    if (result == NVJITLINK_SUCCESS)
      return llvm::Error::success();
    std::string log = link.errorLog();
    return cubinFailure(llvm::Twine("nvJitLink failed to ") + step + " for " + options.arch + " (" +
                   resultName(result) + ")" + (log.empty() ? "" : ":\n") + log);
  };
  if (llvm::Error e = check(api->create(&link.handle, argv.size(), argv.data()), "start"))
    return e;
  // nvJitLink takes the PTX with its terminating NUL.
  std::string text = ptx.str();
  if (llvm::Error e = check(api->addData(link.handle, NVJITLINK_INPUT_PTX, text.c_str(),
                                         text.size() + 1, "cutec.ptx"),
                            "assemble the PTX"))
    return e;
  if (llvm::Error e = check(api->complete(link.handle), "assemble the PTX"))
    return e;
  size_t bytes = 0;
  if (llvm::Error e = check(api->cubinSize(link.handle, &bytes), "read the cubin"))
    return e;
  Cubin cubin;
  cubin.bytes.resize(bytes);
  if (llvm::Error e = check(api->cubin(link.handle, cubin.bytes.data()), "read the cubin"))
    return e;
  cubin.infoLog = link.infoLog();
  return cubin;
}

#endif

} // namespace cutec
