// Helpers for the `cutec run` tests: the kernels they run (decode_sum of
// tests/codegen/MachineKernels.h with its sizes and grid, and a kernel that
// reads past its buffer), their emulation, .npy files in a temporary
// directory, and runKernel's output.
#ifndef CUTEC_TESTS_RUN_RUNTESTUTIL_H
#define CUTEC_TESTS_RUN_RUNTESTUTIL_H

#include "MachineKernels.h"

#include "codegen/emu/EmuPrinter.h"
#include "runtime/io/Npy.h"
#include "run/RunCommand.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstring>

namespace cutec::test {

/// decode_sum as the front end would describe it: one dynamic size n, one
/// CTA of 128 threads. Thread t reads byte t of x, so x needs n >= 256.
inline std::unique_ptr<ir::Module> makeDecodeSumModule() {
  std::unique_ptr<ir::Module> module = makeDecodeSumKernel();
  ir::Operation &kernel = *module->kernels()[0];
  kernel.set(ir::attr::dynamicSizes, tup(IntExpr::symbol("n")));
  kernel.set(ir::attr::grid, tup(1, 1, 1));
  return module;
}

/// x[t] = x[t] + x[t] for each of 128 threads, with x of n f32: for n < 128
/// the threads from n on read past the end of x.
inline std::unique_ptr<ir::Module> makeDoubleInPlaceModule() {
  auto module = std::make_unique<ir::Module>();
  auto kernel = std::make_unique<ir::Operation>(ir::OpKind::Kernel, llvm::SMLoc());
  kernel->set(ir::attr::name, std::string("double_in_place"));
  kernel->set(ir::attr::block, tup(128, 1, 1));
  kernel->set(ir::attr::grid, tup(1, 1, 1));
  kernel->set(ir::attr::dynamicSizes, tup(IntExpr::symbol("n")));
  ir::Block &entry = kernel->addRegion().addBlock();
  entry.addArgument(
      ir::Type::tensor(ir::DataType::F32, ir::MemorySpace::Global, Layout(IntExpr::symbol("n"), 1)),
      "x");
  entry.addArgument(ir::Type::scalar(ir::DataType::I32), "n");
  ir::Builder b(entry);
  llvm::SMLoc loc;
  ir::Operation &px = emitInst(b, loc, PtxOpcode::LdParamU64, {ir::DataType::U64});
  px.set(ir::attr::param, std::string("x"));
  ir::Value *x = emitValue(b, loc, PtxOpcode::CvtaToGlobalU64, ir::DataType::U64, {px.result()});
  ir::Operation &tid = emitInst(b, loc, PtxOpcode::MovU32, {ir::DataType::U32});
  tid.set(ir::attr::special, std::string("%tid.x"));
  ir::Value *tid64 = emitValue(b, loc, PtxOpcode::CvtS64S32, ir::DataType::U64, {tid.result()});
  ir::Operation &four = emitInst(b, loc, PtxOpcode::MovB64, {ir::DataType::U64});
  four.set(ir::attr::imm, int64_t(4));
  ir::Value *address =
      emitValue(b, loc, PtxOpcode::MadLoS64, ir::DataType::U64, {tid64, four.result(), x});
  ir::Operation &load = emitInst(b, loc, PtxOpcode::LdGlobalF32, {ir::DataType::F32}, {address});
  load.set(ir::attr::offset, int64_t(0));
  ir::Value *twice =
      emitValue(b, loc, PtxOpcode::AddRnF32, ir::DataType::F32, {load.result(), load.result()});
  ir::Operation &store = emitInst(b, loc, PtxOpcode::StGlobalF32, {}, {address, twice});
  store.set(ir::attr::offset, int64_t(0));
  b.create(ir::OpKind::Return, loc);
  module->kernels().push_back(std::move(kernel));
  return module;
}

inline std::string emulationOf(const ir::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (llvm::Error e = emu::printEmulation(module, {}, os))
    ADD_FAILURE() << llvm::toString(std::move(e));
  return text;
}

/// A directory removed with its files at the end of the test.
class TempDir {
public:
  TempDir() {
    std::error_code ec = llvm::sys::fs::createUniqueDirectory("cutec-run-test", path);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }

private:
  llvm::SmallString<128> path;
};

/// Writes a 1-d .npy file of `dtype` holding `bytes`; returns its path.
inline std::string writeNpy(const TempDir &dir, llvm::StringRef name, const std::string &dtype,
                            std::vector<uint8_t> bytes) {
  rt::NpyArray array;
  array.dtype = dtype;
  array.shape = {int64_t(bytes.size() / *rt::npyItemSize(dtype))};
  array.bytes = std::move(bytes);
  std::string path = dir.file(name);
  rt::Status written = rt::writeNpyFile(path, array);
  EXPECT_TRUE(bool(written)) << written.error();
  return path;
}

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T> std::vector<T> valuesOf(const std::vector<uint8_t> &bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

/// What runKernel printed and returned.
struct RunOutcome {
  int exitCode;
  std::string out, err;
};

inline RunOutcome runWith(const ir::Module &module, llvm::StringRef emulation,
                          const RunOptions &options) {
  RunOutcome outcome;
  llvm::raw_string_ostream out(outcome.out), err(outcome.err);
  outcome.exitCode = runKernel(module, emulation, options, out, err);
  return outcome;
}

} // namespace cutec::test

#endif
