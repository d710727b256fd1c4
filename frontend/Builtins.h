// The table of built-in functions and methods (frontend/Builtins.def),
// with each row's signature parsed.
#ifndef CUTEC_FRONTEND_BUILTINS_H
#define CUTEC_FRONTEND_BUILTINS_H

#include "frontend/BuiltinSignature.h"
#include "ir/core/IR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/SMLoc.h"

#include <optional>
#include <string>
#include <vector>

namespace cutec {

class IRGen;
class SemaValue;
struct CallSite;

/// Calls the handler a BUILTIN row names: `gen.domain().handler(site)`.
using BuiltinHandler = SemaValue (*)(IRGen &gen, CallSite &site);

struct BuiltinInfo {
  llvm::StringRef spelling;
  llvm::StringRef signatureText;
  BuiltinSignature signature;
  /// The handler of a BUILTIN row; null for an INTRINSIC.
  BuiltinHandler handler = nullptr;
  /// The kernel IR op of an INTRINSIC row.
  ir::OpKind op = ir::OpKind::Kernel;
  /// An UPDATING_METHOD row: the method changes its object.
  bool updatesSelf = false;
  /// A NOT_CALLABLE row: a built-in class, enumeration or value.
  bool notCallable = false;
  /// A MODULE row (also not callable): one of CuTe DSL's modules.
  bool isModule = false;
};

/// The row of `spelling` ("warp_idx", "NamedBarrier.sync"), or null.
const BuiltinInfo *findBuiltin(llvm::StringRef spelling);

/// The built-in called at `loc`, a location in a source buffer that is still
/// alive ("warpgroup.fence()" where the source reads `warpgroup.fence(`),
/// for messages of later passes about the ops the call became; nullopt
/// where no built-in of the table is called there.
std::optional<std::string> builtinCalledAt(llvm::SMLoc loc);

/// The built-in that CuTe DSL's `spelling` names (an ALIAS row:
/// "range_constexpr" gives "unroll"), or nullopt.
std::optional<llvm::StringRef> aliasedBuiltin(llvm::StringRef spelling);

/// The element type of CuTe DSL's name `spelling` ("Float32"), or nullopt.
std::optional<ir::DataType> cuteDslElementType(llvm::StringRef spelling);

/// The ALIAS and ELEMENT_TYPE rows' spellings (for did-you-mean).
std::vector<llvm::StringRef> cuteDslNames();

/// Whether some built-in class has a method `member` that changes its object
/// ("advance"): what a loop must carry is decided from the source, before
/// the receiver's class is known.
bool isUpdatingMethodName(llvm::StringRef member);

/// Every row, in table order (for the test that checks the table).
llvm::ArrayRef<BuiltinInfo> builtinTable();

} // namespace cutec

#endif // CUTEC_FRONTEND_BUILTINS_H
