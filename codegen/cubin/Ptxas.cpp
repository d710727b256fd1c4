//===- Ptxas.cpp - PTX to cubin, through the ptxas program ----------------===//
#include "codegen/cubin/Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

#ifndef CUTEC_PTXAS_PATH
#define CUTEC_PTXAS_PATH ""
#endif

namespace cutec {
namespace {

/// The name ptxas's messages give the input, in place of the temporary file.
constexpr const char *kInputName = "cutec.ptx";

bool isExecutableFile(const llvm::Twine &path) {
  return llvm::sys::fs::can_execute(path) && !llvm::sys::fs::is_directory(path);
}

/// A file that is removed when this goes out of scope.
struct TemporaryFile {
  llvm::SmallString<128> path;
  std::optional<llvm::FileRemover> remover;

  llvm::Error create(llvm::StringRef suffix) {
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile("cutec", suffix, path))
      return cubinFailure("cannot create a temporary file for ptxas: " + ec.message());
    remover.emplace(path);
    return llvm::Error::success();
  }
};

/// ptxas's messages, trimmed, with the temporary input's path replaced by
/// kInputName so that they read the same in every run.
std::string readLog(llvm::StringRef logPath, llvm::StringRef inputPath) {
  auto buffer = llvm::MemoryBuffer::getFile(logPath, /*IsText=*/true);
  if (!buffer)
    return "";
  std::string log = (*buffer)->getBuffer().trim().str();
  std::string result;
  for (size_t at = 0;;) {
    size_t next = log.find(inputPath.str(), at);
    result += log.substr(at, next == std::string::npos ? next : next - at);
    if (next == std::string::npos)
      return result;
    result += kInputName;
    at = next + inputPath.size();
  }
}

} // namespace

PtxasPlaces PtxasPlaces::defaults() {
  PtxasPlaces places;
  if (const char *env = std::getenv("CUTEC_PTXAS"))
    places.named = env;
  for (const char *candidate : {CUTEC_PTXAS_PATH, "/usr/local/cuda/bin/ptxas"})
    if (*candidate && !llvm::is_contained(places.candidates, candidate))
      places.candidates.push_back(candidate);
  return places;
}

llvm::Expected<PtxasSearch> Ptxas::find(const PtxasPlaces &places) {
  if (places.named) {
    const std::string &named = *places.named;
    if (named.empty())
      return PtxasSearch{std::nullopt, "CUTEC_PTXAS is empty", /*chosen=*/true};
    // A bare name is looked up on the PATH, as a shell would.
    bool bare = named.find('/') == std::string::npos;
    if (bare) {
      if (auto onPath = llvm::sys::findProgramByName(named))
        return PtxasSearch{Ptxas(*onPath), ""};
    } else if (isExecutableFile(named)) {
      return PtxasSearch{Ptxas(named), ""};
    }
    return cubinFailure("CUTEC_PTXAS names '" + named + "', which is " +
                   (bare ? "no program on the PATH" : "not an executable file") +
                   " (set it to ptxas's path, or to nothing to assemble with nvJitLink)");
  }
  llvm::SmallVector<std::string> tried;
  for (const std::string &candidate : places.candidates) {
    if (isExecutableFile(candidate))
      return PtxasSearch{Ptxas(candidate), ""};
    tried.push_back(candidate);
  }
  if (places.searchPath) {
    if (auto onPath = llvm::sys::findProgramByName("ptxas"))
      return PtxasSearch{Ptxas(*onPath), ""};
    tried.push_back("ptxas on the PATH");
  }
  std::string where = tried.empty() ? "nowhere to look" : "tried " + llvm::join(tried, ", ");
  return PtxasSearch{std::nullopt, where + "; set CUTEC_PTXAS to its path"};
}

std::string Ptxas::identity() const {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(program, real))
    real = program;
  std::string identity = "ptxas|" + std::string(real);
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(real, status))
    return identity;
  auto mtime = std::chrono::duration_cast<std::chrono::nanoseconds>(
      status.getLastModificationTime().time_since_epoch());
  return identity + "|" + std::to_string(status.getSize()) + "|" + std::to_string(mtime.count());
}

llvm::Expected<Cubin> Ptxas::assemble(llvm::StringRef ptx, const CubinOptions &options) const {
  TemporaryFile input, output, log;
  for (auto [file, suffix] : {std::pair{&input, "ptx"}, {&output, "cubin"}, {&log, "log"}})
    if (llvm::Error e = file->create(suffix))
      return e;
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input.path, ec);
    if (!ec) {
      os << ptx;
      os.close();
      ec = os.error();
    }
    if (ec)
      return cubinFailure("cannot write the PTX for ptxas to '" + input.path + "': " + ec.message());
  }

  std::string arch = "-arch=" + options.arch;
  llvm::SmallVector<llvm::StringRef> args = {program, arch};
  for (const std::string &option : options.extraOptions)
    args.push_back(option);
  args.append({input.path, "-o", output.path});
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), log.path.str(),
                                                log.path.str()};
  std::string message;
  bool couldNotRun = false;
  int rc = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects, 0, 0, &message,
                                     &couldNotRun);
  if (couldNotRun)
    return cubinFailure("cannot run ptxas '" + program + "': " + message);
  std::string messages = readLog(log.path, input.path);
  if (rc != 0) {
    std::string how = rc < 0 ? "crashed: " + message : "exited with " + std::to_string(rc);
    return cubinFailure("ptxas failed to assemble the PTX for " + options.arch + " ('" + program + "' " +
                   how + ")" + (messages.empty() ? "" : ":\n") + messages);
  }
  auto bytes = llvm::MemoryBuffer::getFile(output.path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes)
    return cubinFailure("ptxas ('" + program + "') wrote no cubin: " + bytes.getError().message());
  Cubin cubin;
  cubin.bytes.assign((*bytes)->getBufferStart(), (*bytes)->getBufferEnd());
  cubin.infoLog = std::move(messages);
  return cubin;
}

} // namespace cutec
