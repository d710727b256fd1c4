# Warnings on and clean; sanitizers on request.
add_library(cutec_flags INTERFACE)
target_compile_options(cutec_flags INTERFACE -Wall -Wextra -Wno-unused-parameter)
if(CUTEC_SANITIZE)
  set(CUTEC_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${CUTEC_SANITIZER_FLAGS})
  add_link_options(${CUTEC_SANITIZER_FLAGS})
endif()
