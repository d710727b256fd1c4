// nvJitLink, loaded at run time, assembles PTX into cubins; what it rejects
// comes back as an error with its log.
#include "codegen/cubin/NvJitLink.h"

#include "TestKernels.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using test::errorOf;
using test::kEmptyKernel;

TEST(NvJitLink, MissingLibraryIsNamed) {
  auto loaded = NvJitLink::load("/nonexistent/libnvJitLink.so.13");
  ASSERT_FALSE(bool(loaded));
  std::string message = errorOf(loaded.takeError());
#if CUTEC_HAVE_NVJITLINK
  EXPECT_NE(message.find("nvJitLink library cannot be loaded: "
                         "/nonexistent/libnvJitLink.so.13"),
            std::string::npos)
      << message;
#else
  EXPECT_NE(message.find("this cutec was built without nvJitLink"), std::string::npos) << message;
#endif
}

#if CUTEC_HAVE_NVJITLINK

/// The library CMake found, loaded once for the tests below.
const NvJitLink &nvJitLink() {
  static const NvJitLink loaded = [] {
    auto library = NvJitLink::load();
    if (!library) {
      ADD_FAILURE() << errorOf(library.takeError());
      std::abort();
    }
    return std::move(*library);
  }();
  return loaded;
}

TEST(NvJitLink, AssemblesAnElfImageForTheArch) {
  auto cubin = nvJitLink().assemble(kEmptyKernel, CubinOptions{"sm_100a", {}});
  ASSERT_TRUE(bool(cubin)) << errorOf(cubin.takeError());
  EXPECT_TRUE(test::isCubinFor(cubin->bytes, 100));
}

TEST(NvJitLink, SameInputSameBytes) {
  auto first = nvJitLink().assemble(kEmptyKernel, CubinOptions{"sm_100a", {}});
  auto second = nvJitLink().assemble(kEmptyKernel, CubinOptions{"sm_100a", {}});
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->bytes, second->bytes);
}

TEST(NvJitLink, BadPtxGivesTheAssemblersMessage) {
  auto cubin = nvJitLink().assemble(test::badKernel(), CubinOptions{"sm_100a", {}});
  ASSERT_FALSE(bool(cubin));
  std::string message = errorOf(cubin.takeError());
  EXPECT_NE(message.find("nvJitLink failed to assemble the PTX for sm_100a "
                         "(NVJITLINK_ERROR_PTX_COMPILE):\n"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("line 6"), std::string::npos) << message;
}

TEST(NvJitLink, PtxForANewerTargetIsRejected) {
  auto cubin = nvJitLink().assemble(kEmptyKernel, CubinOptions{"sm_90a", {}});
  ASSERT_FALSE(bool(cubin));
  std::string message = errorOf(cubin.takeError());
  EXPECT_NE(message.find("SM version specified by .target is higher"), std::string::npos)
      << message;
}

TEST(NvJitLink, UnknownOptionIsReported) {
  auto cubin = nvJitLink().assemble(kEmptyKernel, CubinOptions{"sm_100a", {"-frobnicate"}});
  ASSERT_FALSE(bool(cubin));
  std::string message = errorOf(cubin.takeError());
  EXPECT_NE(message.find("NVJITLINK_ERROR_UNRECOGNIZED_OPTION"), std::string::npos) << message;
  EXPECT_NE(message.find("-frobnicate"), std::string::npos) << message;
}

TEST(NvJitLink, InfoLogCarriesVerboseOutput) {
  auto cubin = nvJitLink().assemble(kEmptyKernel, CubinOptions{"sm_100a", {"-Xptxas=-v"}});
  ASSERT_TRUE(bool(cubin)) << errorOf(cubin.takeError());
  EXPECT_NE(cubin->infoLog.find("Compiling entry function 'k' for 'sm_100a'"), std::string::npos)
      << cubin->infoLog;
}

#endif

} // namespace
} // namespace cutec
