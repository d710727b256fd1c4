// Helpers for the tests that launch hand-written kernel bodies: registering
// std::vectors as global buffers and taking a failed launch's message.
#pragma once

#include "runtime/Emulation.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cutec::rt::test {

template <typename T> uint64_t addressOf(const std::vector<T> &v) {
  return reinterpret_cast<uintptr_t>(v.data());
}

template <typename T> void addBuffer(MemoryMap &map, std::vector<T> &v, const char *name) {
  Status added = map.add(v.data(), v.size() * sizeof(T), name);
  ASSERT_TRUE(bool(added)) << added.error();
}

inline LaunchConfig config(Dim3 grid, Dim3 block, unsigned workers = 0) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.workerThreads = workers;
  return c;
}

/// The error of a launch that must fail ("" and a test failure if it ran).
inline std::string launchError(const KernelDescriptor &kernel, const LaunchConfig &c,
                               const void *params, const MemoryMap &map) {
  Status status = launch(kernel, c, params, map);
  EXPECT_FALSE(bool(status)) << "kernel '" << kernel.name << "' ran without an error";
  return status ? std::string() : status.error();
}

} // namespace cutec::rt::test
