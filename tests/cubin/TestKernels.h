// PTX and environment helpers shared by the cubin assembler tests.
#ifndef CUTEC_TESTS_CUBIN_TESTKERNELS_H
#define CUTEC_TESTS_CUBIN_TESTKERNELS_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace cutec::test {

/// The smallest kernel, for sm_100a; its `ret;` is on line 6.
constexpr const char *kEmptyKernel = ".version 8.8\n"
                                     ".target sm_100a\n"
                                     ".address_size 64\n"
                                     ".visible .entry k()\n"
                                     "{\n"
                                     "\tret;\n"
                                     "}\n";

/// kEmptyKernel with an instruction no assembler knows on line 6.
inline std::string badKernel() {
  std::string ptx = kEmptyKernel;
  ptx.replace(ptx.find("ret;"), 4, "frobnicate.u32 %r1;");
  return ptx;
}

inline std::string errorOf(llvm::Error e) { return llvm::toString(std::move(e)); }

/// ELF, EM_CUDA, and the SM of e_flags (bits 8-15, ELF ABI version 8 on).
inline bool isCubinFor(const std::vector<char> &bytes, unsigned sm) {
  if (bytes.size() <= 64 || std::memcmp(bytes.data(), "\x7f" "ELF", 4) != 0)
    return false;
  uint16_t machine;
  uint32_t flags;
  std::memcpy(&machine, bytes.data() + 18, sizeof machine);
  std::memcpy(&flags, bytes.data() + 48, sizeof flags);
  return machine == 190 && ((flags >> 8) & 0xFF) == sm;
}

/// Sets (or, with nullopt, unsets) an environment variable for a scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, std::optional<std::string> value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved)
      setenv(name, saved->c_str(), 1);
    else
      unsetenv(name);
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  const char *name;
  std::optional<std::string> saved;
};

} // namespace cutec::test

#endif
