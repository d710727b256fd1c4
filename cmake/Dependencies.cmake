# Every dependency comes from a Debian package (see tools/setup-debian.sh).
# LLVM's version file matches major.minor exactly, so check the major by hand.
find_package(LLVM REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "cutec needs LLVM 19, found ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
endif()
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
find_package(fmt REQUIRED)
find_package(GTest REQUIRED)
if(CUTEC_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()

# LLVM headers are system headers for us: their warnings are not ours.
add_library(cutec_llvm INTERFACE)
target_include_directories(cutec_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(cutec_llvm INTERFACE ${LLVM_DEFINITIONS})
# LLVM's exported static Support library names zstd::libzstd_shared, which
# LLVM's CMake package defines only where zstd's CMake package is installed;
# the shared library itself comes with LLVM.
if(NOT TARGET zstd::libzstd_shared)
  find_library(CUTEC_ZSTD_LIBRARY NAMES zstd libzstd.so.1 REQUIRED)
  add_library(zstd::libzstd_shared SHARED IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES IMPORTED_LOCATION ${CUTEC_ZSTD_LIBRARY})
endif()
# Programs link libLLVM.so. One whose target property CUTEC_STATIC_LLVM is
# ON links LLVM's support library statically instead, and so starts without
# loading libLLVM: `cutec`, which needs nothing else of LLVM to compile.
target_link_libraries(cutec_llvm INTERFACE
                      "$<IF:$<BOOL:$<TARGET_PROPERTY:CUTEC_STATIC_LLVM>>,LLVMSupport,LLVM>")

# The test tools that come with llvm-19-tools.
find_program(CUTEC_FILECHECK FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(CUTEC_NOT not HINTS ${LLVM_TOOLS_BINARY_DIR})
find_file(CUTEC_LIT lit.py HINTS ${LLVM_TOOLS_BINARY_DIR}/../build/utils/lit
          /usr/lib/llvm-19/build/utils/lit REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# A Python with NumPy (Debian's python3-numpy) computes the independent
# references of the emulation tests.
find_program(CUTEC_NUMPY_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(CUTEC_NUMPY_PYTHON)
  execute_process(COMMAND ${CUTEC_NUMPY_PYTHON} -c "import numpy"
                  RESULT_VARIABLE numpy_missing OUTPUT_QUIET ERROR_QUIET)
endif()
if(NOT CUTEC_NUMPY_PYTHON OR numpy_missing)
  message(WARNING "no python3 with numpy in /usr/bin: the emulation tests will fail")
  set(CUTEC_NUMPY_PYTHON python3-with-numpy-not-found)
endif()

# ptxas checks every PTX the tests produce (its absence fails those tests),
# and --emit=cubin runs it: the one found here is cutec's default, and
# cutec looks for another at run time when it is gone (docs/cli.md).
find_program(CUTEC_PTXAS ptxas HINTS /usr/local/cuda/bin)
if(NOT CUTEC_PTXAS)
  message(WARNING "ptxas not found: the PTX assembly tests will fail")
  set(CUTEC_PTXAS ptxas-not-found)
endif()

# cuobjdump, if there is one, lets the cubin tests look at the SASS (they
# are skipped without it). The CUDA toolkit has it; so does PyPI's
# nvidia-cuda-cuobjdump (-DCUTEC_CUOBJDUMP=.../nvidia/cu13/bin/cuobjdump).
find_program(CUTEC_CUOBJDUMP cuobjdump HINTS /usr/local/cuda/bin)

# nvJitLink (CUDA toolkit) assembles PTX into cubins for --emit=cubin when
# there is no ptxas, or when -Xnvjitlink asks for it. cutec loads
# libnvJitLink.so at run time, so building needs only nvJitLink.h; the
# library found here is the one cutec loads by default. Without the header,
# or with -DCUTEC_NVJITLINK=OFF, cutec builds and --emit=cubin needs ptxas.
option(CUTEC_NVJITLINK "Support --emit=cubin without ptxas, through the CUDA toolkit's nvJitLink" ON)
if(CUTEC_NVJITLINK)
  find_path(CUTEC_NVJITLINK_INCLUDE_DIR nvJitLink.h HINTS /usr/local/cuda/include)
  find_library(CUTEC_NVJITLINK_LIBRARY nvJitLink HINTS /usr/local/cuda/lib64 /usr/local/cuda/lib)
  if(NOT CUTEC_NVJITLINK_INCLUDE_DIR)
    message(WARNING "nvJitLink.h not found: --emit=cubin will need ptxas")
    set(CUTEC_NVJITLINK OFF)
  elseif(CUTEC_NVJITLINK_LIBRARY)
    # The file itself (libnvJitLink.so.13), not the development symlink.
    get_filename_component(CUTEC_NVJITLINK_RUNTIME ${CUTEC_NVJITLINK_LIBRARY} REALPATH)
    message(STATUS "nvJitLink for --emit=cubin: ${CUTEC_NVJITLINK_RUNTIME}")
  else()
    message(WARNING "libnvJitLink.so not found: cutec will look for it at run time "
                    "(CUTEC_NVJITLINK, LD_LIBRARY_PATH)")
  endif()
endif()

# The Python package (python/): the interpreter with NumPy above, unless
# -DPython_EXECUTABLE names another, its headers (python3-dev), and nanobind,
# which tools/setup-debian.sh installs from PyPI into .deps/python.
option(CUTEC_BUILD_PYTHON "Build the Python package (needs python3-dev and nanobind)" ON)
if(CUTEC_BUILD_PYTHON AND (CUTEC_SANITIZE OR CUTEC_FUZZ))
  # An extension built with AddressSanitizer cannot load into an interpreter
  # built without it.
  message(STATUS "sanitizers on: the Python package is not built")
  set(CUTEC_BUILD_PYTHON OFF)
endif()
if(CUTEC_BUILD_PYTHON)
  if(NOT Python_EXECUTABLE AND NOT CUTEC_NUMPY_PYTHON MATCHES "not-found")
    set(Python_EXECUTABLE ${CUTEC_NUMPY_PYTHON})
  endif()
  find_package(Python 3.9 COMPONENTS Interpreter Development.Module)
  if(Python_FOUND)
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PROJECT_SOURCE_DIR}/.deps/python
              ${Python_EXECUTABLE} -m nanobind --cmake_dir
      OUTPUT_VARIABLE CUTEC_NANOBIND_DIR OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(Python_FOUND AND CUTEC_NANOBIND_DIR)
    find_package(nanobind CONFIG REQUIRED PATHS ${CUTEC_NANOBIND_DIR} NO_DEFAULT_PATH)
  else()
    message(WARNING "no Python headers or no nanobind (tools/setup-debian.sh installs both): "
                    "the Python package is not built and its tests are skipped")
    set(CUTEC_BUILD_PYTHON OFF)
  endif()
endif()
