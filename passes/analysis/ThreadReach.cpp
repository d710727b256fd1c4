//===- ThreadReach.cpp - Which threads of a cluster reach each operation --===//
#include "passes/analysis/ThreadReach.h"

#include "ir/core/DataType.h"

namespace cutec {

using namespace ir;

namespace {

int64_t staticExtent(const IntTuple *shape, size_t d) {
  return shape && d < shape->rank() ? (*shape)[d].leaf().staticValue() : 1;
}

/// Sources of values that differ between the threads of a cluster.
bool variesAtSource(const Operation &op, int64_t ctas) {
  switch (op.kind()) {
  case OpKind::ThreadIdx:
  case OpKind::WarpIdx:
  case OpKind::LaneIdx:
  case OpKind::ElectOne:
  case OpKind::Shuffle:
  case OpKind::TmemLoad:
  case OpKind::Atomic:
  case OpKind::ClusterSpecial:
    return true;
  case OpKind::BlockIdx:
    return ctas > 1;
  default:
    return false;
  }
}

std::optional<int64_t> binary(OpKind kind, int64_t a, int64_t b, const Operation &op) {
  switch (kind) {
  case OpKind::Add:
    return a + b;
  case OpKind::Sub:
    return a - b;
  case OpKind::Mul:
    return a * b;
  case OpKind::Div:
    return b == 0 ? std::nullopt : std::optional<int64_t>(a / b);
  case OpKind::Rem:
    return b == 0 ? std::nullopt : std::optional<int64_t>(a % b);
  case OpKind::BitAnd:
    return a & b;
  case OpKind::BitOr:
    return a | b;
  case OpKind::BitXor:
    return a ^ b;
  case OpKind::ShiftRight:
    return b < 0 || b > 62 ? std::nullopt : std::optional<int64_t>(a >> b);
  case OpKind::Cmp: {
    const std::string *p = op.get(attr::predicate);
    if (!p)
      return std::nullopt;
    if (*p == "lt")
      return a < b;
    if (*p == "le")
      return a <= b;
    if (*p == "gt")
      return a > b;
    if (*p == "ge")
      return a >= b;
    if (*p == "eq")
      return a == b;
    if (*p == "ne")
      return a != b;
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

} // namespace

ThreadReach::ThreadReach(const Operation &kernel) {
  const IntTuple *b = kernel.get(attr::block);
  const IntTuple *c = kernel.get(attr::cluster);
  for (size_t d = 0; d < 3; ++d) {
    block[d] = staticExtent(b, d);
    threads *= block[d];
    clusterCtas *= staticExtent(c, d);
  }
  computeVarying(kernel);
  llvm::BitVector all(points(), true);
  visitBlock(kernel.regions()[0]->front(), all);
}

const llvm::BitVector *ThreadReach::reach(const Operation &op) const {
  auto it = blockPoints.find(op.parentBlock());
  return it == blockPoints.end() || !it->second ? nullptr : &*it->second;
}

void ThreadReach::computeVarying(const Operation &kernel) {
  auto mark = [&](const Value *v, bool varies, bool &changed) {
    if (varies && varying.insert(v).second)
      changed = true;
  };
  auto anyVaries = [&](llvm::ArrayRef<Value *> values) {
    for (const Value *v : values)
      if (varying.contains(v))
        return true;
    return false;
  };
  // Varying only grows, over finitely many values: a fixed point.
  bool changed = true;
  while (changed) {
    changed = false;
    walk(const_cast<Operation &>(kernel), [&](Operation &op) {
      bool operands = anyVaries(op.operands());
      switch (op.kind()) {
      case OpKind::If:
        for (const auto &region : op.regions())
          if (const Operation *yield = region->front().terminator())
            for (size_t i = 0; i < op.results().size() && i < yield->operands().size(); ++i)
              mark(op.result(unsigned(i)),
                   operands || varying.contains(yield->operand(unsigned(i))), changed);
        return;
      case OpKind::For: {
        const Block &body = op.regions()[0]->front();
        bool bounds = anyVaries(op.operands().take_front(3));
        mark(body.argument(0), bounds, changed);
        const Operation *yield = body.terminator();
        for (size_t i = 0; i + 3 < op.operands().size(); ++i) {
          bool v = bounds || varying.contains(op.operand(unsigned(i + 3))) ||
                   (yield && i < yield->operands().size() &&
                    varying.contains(yield->operand(unsigned(i))));
          mark(body.argument(unsigned(i + 1)), v, changed);
          mark(op.result(unsigned(i)), v, changed);
        }
        return;
      }
      case OpKind::While: {
        const Block &before = op.regions()[0]->front();
        const Block &after = op.regions()[1]->front();
        const Operation *cond = before.terminator();
        const Operation *yield = after.terminator();
        bool stops = cond && varying.contains(cond->operand(0));
        for (size_t i = 0; i < before.arguments().size(); ++i)
          mark(before.argument(unsigned(i)),
               stops || varying.contains(op.operand(unsigned(i))) ||
                   (yield && i < yield->operands().size() &&
                    varying.contains(yield->operand(unsigned(i)))),
               changed);
        for (size_t i = 0; cond && i + 1 < cond->operands().size(); ++i) {
          bool v = stops || varying.contains(cond->operand(unsigned(i + 1)));
          if (i < after.arguments().size())
            mark(after.argument(unsigned(i)), v, changed);
          if (i < op.results().size())
            mark(op.result(unsigned(i)), v, changed);
        }
        return;
      }
      default:
        for (const auto &result : op.results())
          mark(result.get(), operands || variesAtSource(op, clusterCtas), changed);
      }
    });
  }
}

std::optional<llvm::BitVector>
ThreadReach::condition(const Value *cond, const llvm::BitVector &points, bool taken) const {
  llvm::BitVector result(points.size());
  for (unsigned p : points.set_bits()) {
    std::optional<int64_t> value = evaluate(cond, p, points);
    if (!value) // the same for every thread: either branch may run
      return varies(cond) ? std::nullopt : std::optional<llvm::BitVector>(points);
    if ((*value != 0) == taken)
      result.set(p);
  }
  return result;
}

void ThreadReach::visitBlock(const Block &b, const std::optional<llvm::BitVector> &points) {
  blockPoints[&b] = points;
  for (const auto &op : b.operations()) {
    std::optional<llvm::BitVector> inner = points;
    switch (op->kind()) {
    case OpKind::If:
      for (size_t r = 0; r < op->regions().size(); ++r)
        visitBlock(op->regions()[r]->front(),
                   points ? condition(op->operand(0), *points, r == 0) : std::nullopt);
      continue;
    case OpKind::For:
      for (const Value *bound : op->operands().take_front(3))
        if (varies(bound))
          inner = std::nullopt;
      break;
    case OpKind::While:
      if (const Operation *cond = op->regions()[0]->front().terminator())
        if (varies(cond->operand(0)))
          inner = std::nullopt;
      break;
    default:
      break;
    }
    for (const auto &region : op->regions())
      visitBlock(region->front(), inner);
  }
}

std::optional<int64_t> ThreadReach::evaluate(const Value *v, unsigned point,
                                             const llvm::BitVector &among,
                                             const Bindings *bindings) const {
  // Values share operands: a budget keeps a long chain of them from taking
  // exponential time.
  int64_t budget = 4096;
  return evaluateWithin(v, point, among, bindings, budget);
}

std::optional<int64_t> ThreadReach::evaluateWithin(const Value *v, unsigned point,
                                                   const llvm::BitVector &among,
                                                   const Bindings *bindings,
                                                   int64_t &budget) const {
  if (--budget < 0)
    return std::nullopt;
  if (bindings)
    if (auto it = bindings->find(v); it != bindings->end())
      return it->second;
  const Operation *def = v->definingOp();
  if (!def || !v->type().isScalar() || isFloat(v->type().element()))
    return std::nullopt;
  auto operand = [&](unsigned i) {
    return evaluateWithin(def->operand(i), point, among, bindings, budget);
  };
  int64_t tid = threadOf(point);
  switch (def->kind()) {
  case OpKind::Constant:
    if (const int64_t *i = def->get<int64_t>(attr::value))
      return *i;
    if (const bool *b = def->get<bool>(attr::value))
      return *b;
    return std::nullopt;
  case OpKind::ThreadIdx: {
    const int64_t *dim = def->get(attr::dim);
    int64_t d = dim ? *dim : 0;
    int64_t below = 1;
    for (int64_t i = 0; i < d; ++i)
      below *= block[i];
    return tid / below % block[d];
  }
  case OpKind::WarpIdx:
    return tid / 32;
  case OpKind::LaneIdx:
    return tid % 32;
  case OpKind::ElectOne: {
    unsigned first = point - unsigned(tid % 32);
    int elected = among.find_first_in(first, std::min(first + 32, among.size()));
    return elected >= 0 && unsigned(elected) == point;
  }
  case OpKind::ClusterSpecial: {
    const std::string *reg = def->get(attr::clusterRegister);
    if (reg && *reg == "%cluster_ctarank")
      return rankOf(point);
    if (reg && *reg == "%cluster_nctarank")
      return clusterCtas;
    return std::nullopt;
  }
  case OpKind::Convert:
    return operand(0);
  case OpKind::Neg:
    if (std::optional<int64_t> a = operand(0))
      return -*a;
    return std::nullopt;
  case OpKind::Select: {
    std::optional<int64_t> c = operand(0);
    if (!c)
      return std::nullopt;
    return operand(*c ? 1 : 2);
  }
  case OpKind::If: {
    std::optional<int64_t> c = operand(0);
    if (!c || size_t(*c ? 0 : 1) >= def->regions().size())
      return std::nullopt;
    const Operation *yield = def->regions()[*c ? 0 : 1]->front().terminator();
    if (!yield || v->index() >= yield->operands().size())
      return std::nullopt;
    return evaluateWithin(yield->operand(v->index()), point, among, bindings, budget);
  }
  default: {
    if (def->operands().size() != 2)
      return std::nullopt;
    std::optional<int64_t> a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    return binary(def->kind(), *a, *b, *def);
  }
  }
}

} // namespace cutec
