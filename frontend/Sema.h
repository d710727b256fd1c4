// Sema: semantic analysis and IR generation for a parsed .cute file.
//
// buildIR resolves names, evaluates everything known at compile time
// (constants, tuples, layouts, helper functions), and emits one `kernel`
// operation per `@kernel` function in the kernel IR of docs/ir.md. Errors are
// reported through the DiagnosticEngine at the node they concern; analysis
// recovers per statement so one run reports every independent mistake.
#ifndef CUTEC_FRONTEND_SEMA_H
#define CUTEC_FRONTEND_SEMA_H

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"
#include "ir/core/IR.h"

#include <memory>

namespace cutec {

/// The kernels of `module` as kernel IR, or null when an error was reported.
/// In builds with assertions the result is also run through ir::verify, and
/// a verifier issue is reported as an internal error.
std::unique_ptr<ir::Module> buildIR(const ast::Module &module, DiagnosticEngine &diags);

} // namespace cutec

#endif // CUTEC_FRONTEND_SEMA_H
