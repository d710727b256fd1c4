// EmulationJit: an ORC LLJIT fed with modules from CxxToModule.
#include "codegen/jit/EmulationJit.h"
#include "codegen/jit/EmulationObjectCache.h"

#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/ObjectFileInterface.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <utility>
#include <vector>

namespace cutec {

namespace {

void initializeNativeTargetOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Inline assembly in the JIT'd code is parsed when the JIT compiles it.
    llvm::InitializeNativeTargetAsmParser();
  });
}

/// Host symbols come from the running process: libc, libstdc++, libgcc and
/// whatever the executable exports.
llvm::Expected<llvm::orc::JITDylibSP> setUpProcessSymbols(llvm::orc::LLJIT &jit) {
  auto generator = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit.getDataLayout().getGlobalPrefix());
  if (!generator)
    return generator.takeError();
  llvm::orc::JITDylib &processSymbols =
      jit.getExecutionSession().createBareJITDylib("<process symbols>");
  processSymbols.addGenerator(std::move(*generator));
  return &processSymbols;
}

/// The symbols `module` defines, named as the JIT names them.
llvm::orc::SymbolLookupSet definedSymbols(llvm::orc::LLJIT &jit, llvm::Module &module) {
  std::vector<llvm::GlobalValue *> values;
  for (llvm::GlobalValue &value : module.global_values())
    values.push_back(&value);
  llvm::orc::SymbolFlagsMap symbols;
  llvm::orc::IRSymbolMapper::add(jit.getExecutionSession(),
                                 *jit.getIRCompileLayer().getManglingOptions(), values, symbols);
  return llvm::orc::SymbolLookupSet::fromMapKeys(symbols);
}

} // namespace

llvm::Expected<std::unique_ptr<EmulationJit>> EmulationJit::create(CxxCompileOptions options,
                                                                   std::optional<DiskCache> cache) {
  std::optional<llvm::CodeGenOptLevel> codeGenLevel = llvm::CodeGenOpt::getLevel(options.optLevel);
  if (!codeGenLevel)
    return llvm::createStringError("optimisation level " + llvm::Twine(options.optLevel) +
                                   " is not 0 to 3");
  initializeNativeTargetOnce();
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machine =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine)
    return machine.takeError();
  machine->setCodeGenOptLevel(*codeGenLevel);
  // ORC's generic platform has no ELF TLS support; emulated TLS turns each
  // thread_local access into a call to libgcc's __emutls_get_address, which
  // the host process provides.
  machine->getOptions().EmulatedTLS = true;
  std::string hostTarget = machine->getTargetTriple().str() + " " + machine->getCPU() + " " +
                           machine->getFeatures().getString();
  if (cache && !cache->enabled())
    cache.reset();
  std::unique_ptr<EmulationObjectCapture> capture;
  if (cache)
    capture = std::make_unique<EmulationObjectCapture>(*cache);
  llvm::orc::LLJITBuilder builder;
  builder.setJITTargetMachineBuilder(std::move(*machine))
      .setProcessSymbolsJITDylibSetup(setUpProcessSymbols);
  if (capture)
    builder.setCompileFunctionCreator(
        [objects = capture.get()](llvm::orc::JITTargetMachineBuilder target)
            -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
          llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
              target.createTargetMachine();
          if (!machine)
            return machine.takeError();
          return std::make_unique<llvm::orc::TMOwningSimpleCompiler>(std::move(*machine),
                                                                     objects);
        });
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit = builder.create();
  if (!jit)
    return jit.takeError();
  return std::unique_ptr<EmulationJit>(new EmulationJit(std::move(options), std::move(cache),
                                                        std::move(capture),
                                                        std::move(hostTarget), std::move(*jit)));
}

EmulationJit::EmulationJit(CxxCompileOptions options, std::optional<DiskCache> cache,
                           std::unique_ptr<EmulationObjectCapture> capture, std::string hostTarget,
                           std::unique_ptr<llvm::orc::LLJIT> jit)
    : options(std::move(options)), cache(std::move(cache)), capture(std::move(capture)),
      hostTarget(std::move(hostTarget)), jit(std::move(jit)) {
  // ORC reports why a module failed to link (e.g. which symbols are missing)
  // here, while the lookup that triggered the link only says that it failed.
  this->jit->getExecutionSession().setErrorReporter(
      [this](llvm::Error error) { recordAsyncError(llvm::toString(std::move(error))); });
}

EmulationJit::~EmulationJit() {
  // Static destructors of the loaded code run now, while it is still mapped.
  if (llvm::Error error = jit->deinitialize(jit->getMainJITDylib()))
    llvm::logAllUnhandledErrors(std::move(error), llvm::errs(), "cutec jit: ");
}

llvm::Error EmulationJit::addSource(llvm::StringRef cppText, llvm::StringRef bufferName) {
  std::lock_guard<std::mutex> lock(addMutex);
  fromCache = false;
  std::optional<std::string> key;
  if (cache) {
    key = emulationObjectKey(cppText, bufferName, options, hostTarget);
    if (key)
      if (std::optional<llvm::Error> loaded = addCachedObject(*key, bufferName))
        return std::move(*loaded);
  }
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      compileCxxToModule(cppText, bufferName, options, *context);
  if (!module)
    return module.takeError();
  if (key)
    (*module)->setModuleIdentifier(EmulationObjectCapture::moduleIdentifier(*key));

  // Without a handler, an error the backend finds while the JIT compiles the
  // module (bad inline assembly) would print and exit the process.
  context->setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *info, void *self) {
        if (info->getSeverity() != llvm::DS_Error)
          return;
        std::string message;
        llvm::raw_string_ostream stream(message);
        llvm::DiagnosticPrinterRawOStream printer(stream);
        info->print(printer);
        static_cast<EmulationJit *>(self)->recordAsyncError(message);
      },
      this);

  llvm::orc::SymbolLookupSet symbols = definedSymbols(*jit, **module);
  if (llvm::Error error =
          jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(*module), std::move(context))))
    return error;
  return linkAndInitialize(std::move(symbols), bufferName);
}

std::optional<llvm::Error> EmulationJit::addCachedObject(llvm::StringRef key,
                                                         llvm::StringRef bufferName) {
  std::unique_ptr<llvm::MemoryBuffer> object = cache->get(kEmulationObjectKind, key);
  if (!object)
    return std::nullopt;
  // An entry that is not an object this JIT reads is compiled again.
  llvm::Expected<llvm::orc::MaterializationUnit::Interface> interface =
      llvm::orc::getObjectFileInterface(jit->getExecutionSession(), object->getMemBufferRef());
  if (!interface) {
    llvm::consumeError(interface.takeError());
    return std::nullopt;
  }
  llvm::orc::SymbolLookupSet symbols =
      llvm::orc::SymbolLookupSet::fromMapKeys(interface->SymbolFlags);
  if (llvm::Error error = jit->addObjectFile(std::move(object)))
    return error;
  fromCache = true;
  return linkAndInitialize(std::move(symbols), bufferName);
}

llvm::Error EmulationJit::linkAndInitialize(llvm::orc::SymbolLookupSet symbols,
                                            llvm::StringRef bufferName) {
  // Compile and link now, so that this call reports undefined symbols and
  // backend errors instead of the first lookup.
  llvm::orc::JITDylib &mainDylib = jit->getMainJITDylib();
  llvm::Expected<llvm::orc::SymbolMap> linked = jit->getExecutionSession().lookup(
      llvm::orc::makeJITDylibSearchOrder(&mainDylib,
                                         llvm::orc::JITDylibLookupFlags::MatchAllSymbols),
      std::move(symbols));
  // ORC's error only names the symbols that failed; the reported ones say
  // why. Backend errors alone mean wrong code, whose initialisers must not run.
  std::string failure = takeAsyncErrors();
  if (!linked)
    failure += (failure.empty() ? "" : "\n") + llvm::toString(linked.takeError());
  if (!failure.empty())
    return llvm::createStringError(bufferName + ": " + llvm::StringRef(failure).rtrim());
  return jit->initialize(mainDylib);
}

llvm::Expected<void *> EmulationJit::lookup(llvm::StringRef symbolName) {
  llvm::Expected<llvm::orc::ExecutorAddr> address = jit->lookup(symbolName);
  if (!address)
    return address.takeError();
  return address->toPtr<void *>();
}

void EmulationJit::recordAsyncError(llvm::StringRef message) {
  std::lock_guard<std::mutex> lock(asyncErrorsMutex);
  if (!asyncErrors.empty())
    asyncErrors += '\n';
  asyncErrors += message;
}

std::string EmulationJit::takeAsyncErrors() {
  std::lock_guard<std::mutex> lock(asyncErrorsMutex);
  return std::exchange(asyncErrors, {});
}

} // namespace cutec
