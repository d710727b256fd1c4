// IRGen for Blackwell's tensor memory: tmem_alloc, tmem_dealloc and
// tmem_relinquish_alloc_permit (docs/language.md, "Tensor memory"). These
// are sm_100a instructions; isel refuses them for sm_90a. Columns are
// counted at compile time: a kernel whose allocations exceed the 512 columns
// of a CTA's tensor memory is an error at the allocation that does.
#include "frontend/IRGen.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace cutec {

/// Columns of a CTA's tensor memory (128 lanes of 512 32-bit cells).
static constexpr int64_t kTmemColumns = 512;

bool IRGen::isTcgen05BuiltinName(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("tmem_alloc", "tmem_dealloc", "tmem_relinquish_alloc_permit", true)
      .Default(false);
}

/// A static column count: a power of two from 32 to 512.
std::optional<int64_t> IRGen::tmemColumnsArgument(CallSite &site, size_t i) {
  const SemaValue &v = site.args[i];
  if (v.is(SemaValue::Kind::Int) && v.intValue().isStatic()) {
    int64_t n = v.intValue().staticValue();
    if (n >= 32 && n <= kTmemColumns && llvm::isPowerOf2_64(uint64_t(n)))
      return n;
  }
  if (!v.isPoison())
    error(site.argExpr(i), "tensor memory is allocated in a compile-time power of two of 32 to "
                           "512 columns, not " +
                               v.describe());
  return std::nullopt;
}

SemaValue IRGen::callTcgen05Builtin(llvm::StringRef name, CallSite &site) {
  if (!requireBuilder(site.loc(), name + "()"))
    return SemaValue::poison();
  if (name == "tmem_relinquish_alloc_permit") {
    if (!checkArity(site, name, 0, 0))
      return SemaValue::poison();
    builder->create(ir::OpKind::TmemRelinquish, site.loc(), {});
    return SemaValue::none();
  }
  if (!checkArity(site, name, 2, 2))
    return SemaValue::poison();
  std::optional<int64_t> columns = tmemColumnsArgument(site, 1);
  if (!columns)
    return SemaValue::poison();
  ir::Value *count = builder->constantInt(site.loc(), ir::DataType::I32, *columns);
  if (name == "tmem_dealloc") {
    // tmem_dealloc(address, columns): the address tmem_alloc wrote.
    const SemaValue &address = site.args[0];
    if (!address.is(SemaValue::Kind::RunTime) || !address.type().isScalar() ||
        !ir::isInteger(address.type().element()) || ir::bitWidth(address.type().element()) != 32)
      return error(site.argExpr(0), "tmem_dealloc takes the 32-bit address tmem_alloc wrote, not " +
                                        address.describe());
    builder->create(ir::OpKind::TmemDealloc, site.loc(), {address.irValue(), count});
    return SemaValue::none();
  }
  // tmem_alloc(holder, columns): the allocated address goes to `holder`, one
  // u32 element of a shared tensor.
  const SemaValue &holder = site.args[0];
  bool isHolder = holder.is(SemaValue::Kind::RunTime) && holder.type().isTensor() &&
                  holder.type().memorySpace() == ir::MemorySpace::Shared &&
                  holder.type().tensorLayout().shape.isTuple() &&
                  holder.type().tensorLayout().shape.rank() == 0 &&
                  ir::bitWidth(holder.type().element()) == 32 &&
                  ir::isInteger(holder.type().element());
  if (!isHolder)
    return error(site.argExpr(0), "tmem_alloc writes the allocated address to one u32 element "
                                  "of a shared tensor (e.g. holder[0]), not " +
                                      holder.describe());
  if (tmemColumns + *columns > kTmemColumns)
    return error(site.loc(),
                 "tensor memory: this allocation of " + llvm::Twine(*columns) +
                     " columns brings the kernel to " + llvm::Twine(tmemColumns + *columns) +
                     ", more than the " + llvm::Twine(kTmemColumns) + " columns of a CTA",
                 {site.range()});
  tmemColumns += *columns;
  builder->create(ir::OpKind::TmemAlloc, site.loc(), {holder.irValue(), count});
  return SemaValue::none();
}

} // namespace cutec
