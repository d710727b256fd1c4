//===- Printer.cpp - The textual form of the IR ---------------------------===//
#include "ir/core/Printer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

namespace cutec::ir {
namespace {

class IRPrinter {
public:
  explicit IRPrinter(llvm::raw_ostream &os) : os(os) {}

  void printOp(const Operation &op, unsigned indent) {
    os.indent(indent);
    if (!op.results().empty()) {
      for (size_t i = 0; i < op.results().size(); ++i)
        os << (i ? ", " : "") << nameOf(op.result(i));
      os << " = ";
    }
    os << name(op.kind());
    for (size_t i = 0; i < op.operands().size(); ++i)
      os << (i ? ", " : " ") << nameOf(op.operand(i));
    if (!op.attributes().empty()) {
      os << " {";
      bool first = true;
      for (const auto &[key, value] : op.attributes()) {
        os << (first ? "" : ", ") << key << " = " << str(value);
        first = false;
      }
      os << "}";
    }
    if (!op.results().empty()) {
      os << " : ";
      for (size_t i = 0; i < op.results().size(); ++i)
        os << (i ? ", " : "") << op.result(i)->type().str();
    }
    for (const auto &region : op.regions())
      printRegion(*region, indent);
    os << "\n";
  }

private:
  void printRegion(const Region &region, unsigned indent) {
    os << " {\n";
    for (const auto &block : region.blocks()) {
      if (!block->arguments().empty()) {
        os.indent(indent) << "^bb(";
        for (size_t i = 0; i < block->arguments().size(); ++i) {
          const Value *arg = block->argument(i);
          os << (i ? ", " : "") << nameOf(arg) << ": " << arg->type().str();
        }
        os << "):\n";
      }
      for (const auto &op : block->operations())
        printOp(*op, indent + 2);
    }
    os.indent(indent) << "}";
  }

  std::string nameOf(const Value *v) {
    if (!v)
      return "<<null>>";
    auto it = names.find(v);
    if (it != names.end())
      return it->second;
    std::string base = v->nameHint().empty() ? std::to_string(nextNumber++) : v->nameHint();
    std::string name = "%" + base;
    for (unsigned suffix = 1; !used.insert(name).second; ++suffix)
      name = "%" + base + "_" + std::to_string(suffix);
    names[v] = name;
    return name;
  }

  llvm::raw_ostream &os;
  llvm::DenseMap<const Value *, std::string> names;
  llvm::StringSet<> used;
  unsigned nextNumber = 0;
};

} // namespace

void print(const Operation &op, llvm::raw_ostream &os) { IRPrinter(os).printOp(op, 0); }

void print(const Module &module, llvm::raw_ostream &os) {
  for (const auto &kernel : module.kernels())
    print(*kernel, os);
}

std::string toString(const Operation &op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(op, os);
  return s;
}

} // namespace cutec::ir
