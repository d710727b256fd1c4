// The JIT's object cache: a source compiled once is loaded from the cache by
// the next JIT, in this process or another, and anything that could make the
// cached object wrong (the text, the options, the runtime headers) misses.
#include "JitTestUtil.h"

#include "codegen/jit/EmulationObjectCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fstream>

using cutec::CxxCompileOptions;
using cutec::DiskCache;
using cutec::test::functionOf;
using cutec::test::jitWith;

namespace {

constexpr const char *kSource = R"(extern "C" int triple(int x) { return 3 * x; })";

/// A fresh cache folder under the system's temporary folder.
class EmulationObjectCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cutec-object-cache", folder));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(folder); }

  size_t entries() const {
    llvm::SmallString<256> kind(folder);
    llvm::sys::path::append(kind, cutec::kEmulationObjectKind);
    size_t n = 0;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(kind, ec), end; it != end && !ec; it.increment(ec))
      ++n;
    return n;
  }

  llvm::SmallString<256> folder;
};

TEST_F(EmulationObjectCacheTest, SecondJitLoadsTheObjectFromTheCache) {
  auto first = jitWith(kSource, {}, DiskCache(std::string(folder)));
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->lastSourceFromCache());
  EXPECT_EQ(entries(), 1u);

  auto second = jitWith(kSource, {}, DiskCache(std::string(folder)));
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->lastSourceFromCache());
  auto *triple = functionOf<int(int)>(*second, "triple");
  ASSERT_TRUE(triple);
  EXPECT_EQ(triple(14), 42);
}

TEST_F(EmulationObjectCacheTest, OtherTextOrOptionsMiss) {
  ASSERT_TRUE(jitWith(kSource, {}, DiskCache(std::string(folder))));
  auto otherText = jitWith(R"(extern "C" int triple(int x) { return x + x + x; })", {},
                           DiskCache(std::string(folder)));
  ASSERT_TRUE(otherText);
  EXPECT_FALSE(otherText->lastSourceFromCache());
  CxxCompileOptions o1;
  o1.optLevel = 1;
  auto otherLevel = jitWith(kSource, o1, DiskCache(std::string(folder)));
  ASSERT_TRUE(otherLevel);
  EXPECT_FALSE(otherLevel->lastSourceFromCache());
  CxxCompileOptions defined;
  defined.defines = {"UNUSED=1"};
  auto otherDefines = jitWith(kSource, defined, DiskCache(std::string(folder)));
  ASSERT_TRUE(otherDefines);
  EXPECT_FALSE(otherDefines->lastSourceFromCache());
  EXPECT_EQ(entries(), 4u);
}

TEST_F(EmulationObjectCacheTest, KeyCoversTheRuntimeHeaders) {
  // A copy of a runtime include root whose one header changes between keys.
  llvm::SmallString<256> root(folder);
  llvm::sys::path::append(root, "include");
  llvm::SmallString<256> runtime(root);
  llvm::sys::path::append(runtime, "runtime", "base");
  ASSERT_FALSE(llvm::sys::fs::create_directories(runtime));
  llvm::sys::path::append(runtime, "Header.h");
  CxxCompileOptions options;
  options.runtimeIncludeDir = std::string(root);
  std::ofstream(std::string(runtime)) << "#define VALUE 1\n";
  auto before = cutec::emulationObjectKey(kSource, "k.cpp", options, "host");
  std::ofstream(std::string(runtime)) << "#define VALUE 2\n";
  auto after = cutec::emulationObjectKey(kSource, "k.cpp", options, "host");
  ASSERT_TRUE(before && after);
  EXPECT_NE(*before, *after);
  EXPECT_NE(*after, *cutec::emulationObjectKey(kSource, "k.cpp", options, "other host"));
  EXPECT_EQ(*after, *cutec::emulationObjectKey(kSource, "k.cpp", options, "host"));
}

TEST_F(EmulationObjectCacheTest, FurtherIncludeDirectoriesAreNotCached) {
  CxxCompileOptions options;
  options.includeDirs = {std::string(folder)};
  EXPECT_FALSE(cutec::emulationObjectKey(kSource, "k.cpp", options, "host"));
  auto jit = jitWith(kSource, options, DiskCache(std::string(folder)));
  ASSERT_TRUE(jit);
  EXPECT_FALSE(jit->lastSourceFromCache());
  EXPECT_EQ(entries(), 0u);
}

TEST_F(EmulationObjectCacheTest, StaticInitialisersRunFromTheCache) {
  // The initialiser calls this executable, so the compiler cannot fold it.
  const char *source = R"(
extern "C" int cutecJitTestHostSquare(int x);
static int value = cutecJitTestHostSquare(3);
extern "C" int getValue() { return value; })";
  ASSERT_TRUE(jitWith(source, {}, DiskCache(std::string(folder))));
  auto second = jitWith(source, {}, DiskCache(std::string(folder)));
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->lastSourceFromCache());
  auto *getValue = functionOf<int()>(*second, "getValue");
  ASSERT_TRUE(getValue);
  EXPECT_EQ(getValue(), 9);
}

TEST_F(EmulationObjectCacheTest, UnreadableEntryIsCompiledAgain) {
  ASSERT_TRUE(jitWith(kSource, {}, DiskCache(std::string(folder))));
  llvm::SmallString<256> kind(folder);
  llvm::sys::path::append(kind, cutec::kEmulationObjectKind);
  std::error_code ec;
  llvm::sys::fs::directory_iterator entry(kind, ec);
  ASSERT_FALSE(ec);
  std::ofstream(entry->path(), std::ios::trunc) << "not an object file";
  auto jit = jitWith(kSource, {}, DiskCache(std::string(folder)));
  ASSERT_TRUE(jit);
  EXPECT_FALSE(jit->lastSourceFromCache());
  auto *triple = functionOf<int(int)>(*jit, "triple");
  ASSERT_TRUE(triple);
  EXPECT_EQ(triple(5), 15);
}

TEST_F(EmulationObjectCacheTest, DisabledCacheKeepsNothing) {
  auto jit = jitWith(kSource, {}, DiskCache(""));
  ASSERT_TRUE(jit);
  EXPECT_FALSE(jit->lastSourceFromCache());
  EXPECT_EQ(entries(), 0u);
}

} // namespace
