//===- CubinAssembler.cpp - Which assembler --emit=cubin uses -------------===//
#include "codegen/cubin/CubinAssembler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

namespace cutec {

llvm::Expected<CubinAssembler> CubinAssembler::choose(CubinRequest request,
                                                      const PtxasPlaces &places) {
  CubinAssembler assembler(std::move(request));
  if (!assembler.request.nvJitLinkOptions.empty()) {
    assembler.whyNvJitLink = "-Xnvjitlink asks for nvJitLink";
    return assembler;
  }
  auto search = Ptxas::find(places);
  if (!search)
    return search.takeError();
  if (search->found) {
    assembler.ptxas = std::move(search->found);
    return assembler;
  }
  assembler.whyNvJitLink =
      "--emit=cubin found no ptxas (" + search->tried + ") and cannot fall back on nvJitLink";
  if (!search->chosen)
    assembler.warning = "no ptxas (" + search->tried +
                        "): assembling with nvJitLink, whose cubin is not ptxas's (no setmaxnreg, "
                        "wgmma serialised around calls, other SASS; docs/cli.md, \"Without "
                        "ptxas: nvJitLink\")";
  return assembler;
}

std::string CubinAssembler::cacheKey() const {
  std::string key = usesPtxas() ? ptxas->identity() : "nvJitLink|" + NvJitLink::candidates();
  key += "\x1f";
  key += request.lineInfo ? "lineinfo" : "";
  for (const auto *options : {&request.ptxasOptions, &request.nvJitLinkOptions})
    key += "\x1f" + llvm::join(*options, "\x1e");
  return key;
}

llvm::Error CubinAssembler::load() {
  if (usesPtxas() || nvJitLink)
    return llvm::Error::success();
  auto loaded = NvJitLink::load();
  if (!loaded)
    return cubinFailure(whyNvJitLink + ": " + llvm::toString(loaded.takeError()));
  nvJitLink.emplace(std::move(*loaded));
  return llvm::Error::success();
}

llvm::Expected<Cubin> CubinAssembler::assemble(llvm::StringRef ptx) const {
  CubinOptions options;
  options.arch = request.arch;
  if (usesPtxas()) {
    if (request.lineInfo)
      options.extraOptions.push_back("-lineinfo");
    llvm::append_range(options.extraOptions, request.ptxasOptions);
    return ptxas->assemble(ptx, options);
  }
  if (!nvJitLink)
    return cubinFailure("nvJitLink is not loaded");
  options.extraOptions = request.nvJitLinkOptions;
  for (const std::string &option : request.ptxasOptions)
    options.extraOptions.push_back("-Xptxas=" + option);
  if (request.lineInfo)
    options.extraOptions.push_back("-lineinfo");
  return nvJitLink->assemble(ptx, options);
}

} // namespace cutec
