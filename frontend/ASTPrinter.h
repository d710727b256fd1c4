// ASTPrinter: a stable, indented text dump of the AST, one node per line with
// its line:col, for tests and `cutec --emit=ast`.
//
//   Assign @1:1
//     target: Name 'tile_mnk' @1:1
//     value: Tuple @1:12
//       Int 128 @1:13
//
// A child's role in its parent ("target", "value", "body") prefixes its line;
// the elements of a tuple, list or parenthesis have none.
#ifndef CUTEC_FRONTEND_ASTPRINTER_H
#define CUTEC_FRONTEND_ASTPRINTER_H

#include "frontend/AST.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace cutec {

void printAST(const ast::Node &node, const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);
std::string dumpAST(const ast::Node &node, const llvm::SourceMgr &sourceMgr);

} // namespace cutec

#endif // CUTEC_FRONTEND_ASTPRINTER_H
