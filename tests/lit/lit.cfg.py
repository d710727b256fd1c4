# lit configuration for cutec's command-line tests.
import os
import lit.formats

config.name = "cutec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".cute"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cutec_obj_root, "tests", "lit")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

config.substitutions.append(("%cutec", os.path.join(config.cutec_tools_dir, "cutec")))

# `cutec run` keeps the emulations' object code in the build tree, never in
# the user's cache. CUTEC_TEST_CACHE_DIR names another build's folder instead:
# the test command gives the sanitizer build the release build's, so that its
# run tests do not JIT-compile the same emulations again. That skips no check:
# an object is found by the C++ text the sanitized cutec wrote, and compiled
# outputs are keyed by the cutec executable that made them.
config.environment["CUTEC_CACHE_DIR"] = os.environ.get("CUTEC_TEST_CACHE_DIR") or os.path.join(
    config.cutec_obj_root, "cutec-cache")
config.substitutions.append(("%data", os.path.join(config.cutec_src_root, "tests", "data")))
config.substitutions.append(("%examples", os.path.join(config.cutec_src_root, "examples")))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%ptxas", config.ptxas))
config.substitutions.append(("%python", config.numpy_python))

# cutec was built with nvJitLink (nvJitLink.h found, CUTEC_NVJITLINK on),
# the fallback of --emit=cubin.
if config.nvjitlink.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("nvjitlink")
# ptxas, which --emit=cubin runs (the one CMake found: cutec's default).
if os.access(config.ptxas, os.X_OK):
    config.available_features.add("ptxas")
# A disassembler for the tests that read SASS (CMake's CUTEC_CUOBJDUMP).
if os.access(config.cuobjdump, os.X_OK):
    config.available_features.add("cuobjdump")
config.substitutions.append(("%cuobjdump", config.cuobjdump))
