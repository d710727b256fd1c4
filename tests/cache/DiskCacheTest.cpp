// DiskCache: entries round-trip, keys tell their parts apart, and writers in
// parallel never leave a torn entry.
#include "cache/DiskCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using cutec::CacheKey;
using cutec::DiskCache;

namespace {

class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cutec-disk-cache", folder));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(folder); }
  llvm::SmallString<256> folder;
};

TEST_F(DiskCacheTest, EntriesRoundTrip) {
  DiskCache cache{std::string(folder)};
  EXPECT_EQ(cache.get("ptx", "abc"), nullptr);
  std::string bytes("binary\0bytes", 12);
  ASSERT_TRUE(cache.put("ptx", "abc", bytes));
  auto entry = cache.get("ptx", "abc");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->getBuffer().str(), bytes);
  EXPECT_EQ(cache.get("cubin", "abc"), nullptr); // kinds are separate
  ASSERT_TRUE(cache.put("ptx", "abc", "replaced"));
  EXPECT_EQ(cache.get("ptx", "abc")->getBuffer(), "replaced");
}

TEST_F(DiskCacheTest, DisabledCacheStoresNothing) {
  DiskCache cache{""};
  EXPECT_FALSE(cache.enabled());
  EXPECT_FALSE(cache.put("ptx", "abc", "x"));
  EXPECT_EQ(cache.get("ptx", "abc"), nullptr);
}

TEST_F(DiskCacheTest, UnwritableFolderIsNotAnError) {
  DiskCache cache{"/proc/cutec-cannot-write-here"};
  EXPECT_FALSE(cache.put("ptx", "abc", "x"));
  EXPECT_EQ(cache.get("ptx", "abc"), nullptr);
}

TEST_F(DiskCacheTest, KeysSeparateTheirParts) {
  EXPECT_NE(CacheKey().add("ab").add("c").hex(), CacheKey().add("a").add("bc").hex());
  EXPECT_EQ(CacheKey().add("ab").add("c").hex(), CacheKey().add("ab").add("c").hex());
  EXPECT_EQ(CacheKey().add("x").hex().size(), 64u);
}

TEST_F(DiskCacheTest, ParallelWritersLeaveWholeEntries) {
  DiskCache cache{std::string(folder)};
  constexpr int kWriters = 8;
  constexpr size_t kSize = 1 << 20;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w)
    threads.emplace_back([&, w] {
      for (int round = 0; round < 4; ++round) {
        cache.put("blob", "same-key", std::string(kSize, char('a' + w)));
        if (auto entry = cache.get("blob", "same-key")) {
          llvm::StringRef bytes = entry->getBuffer();
          ASSERT_EQ(bytes.size(), kSize);
          EXPECT_EQ(bytes.find_first_not_of(bytes.front()), llvm::StringRef::npos);
        }
      }
    });
  for (std::thread &t : threads)
    t.join();
  // No temporary files are left behind.
  llvm::SmallString<256> kind(folder);
  kind += "/blob";
  std::error_code ec;
  size_t files = 0;
  for (llvm::sys::fs::directory_iterator it(kind, ec), end; it != end && !ec; it.increment(ec))
    ++files;
  EXPECT_EQ(files, 1u);
}

TEST_F(DiskCacheTest, EnvironmentNamesTheFolder) {
  const char *saved = std::getenv("CUTEC_CACHE_DIR");
  std::string old = saved ? saved : "";
  setenv("CUTEC_CACHE_DIR", folder.c_str(), 1);
  EXPECT_EQ(DiskCache::fromEnvironment().directory(), std::string(folder));
  setenv("CUTEC_CACHE_DIR", "", 1);
  EXPECT_FALSE(DiskCache::fromEnvironment().enabled()); // empty: caching off
  if (saved)
    setenv("CUTEC_CACHE_DIR", old.c_str(), 1);
  else
    unsetenv("CUTEC_CACHE_DIR");
}

} // namespace
