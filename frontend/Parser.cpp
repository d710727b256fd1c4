// Parser: recursive descent from tokens to the AST, with statement-level
// error recovery.
//
// Conventions that keep recovery simple:
//  - A parse function that fails returns null after reporting one error (none
//    at an invalid-character token, which the lexer reported), and leaves the
//    position inside the current logical line; the
//    statement loop then skips to the line's end (recoverToStatementEnd).
//  - Once a compound statement has reached its block, errors inside the block
//    are handled there, and the statement itself is returned (possibly with a
//    partial body), so the loop never skips a line that was parsed already.
//
// The layout operator: `shape : stride` is parsed by parseLayoutOrExpr, which
// is used wherever an expression cannot be followed by a block-opening ':'
// (inside brackets, call arguments, annotations, defaults, assignment sides,
// return values and expression statements). Statement headers (`if`, `elif`,
// `for`, the `->` return type) use parseExpr, which stops before ':'.
#include "frontend/Parser.h"

#include "frontend/Lexer.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Casting.h"

#include <optional>

namespace cutec {
namespace {

using namespace ast;

struct OperatorToken {
  TokenKind token;
  BinaryOp op;
};
constexpr OperatorToken kOrOperators[] = {{TokenKind::kw_or, BinaryOp::Or}};
constexpr OperatorToken kAndOperators[] = {{TokenKind::kw_and, BinaryOp::And}};
constexpr OperatorToken kComparisonOperators[] = {
    {TokenKind::equalequal, BinaryOp::Eq}, {TokenKind::exclaimequal, BinaryOp::Ne},
    {TokenKind::less, BinaryOp::Lt},       {TokenKind::lessequal, BinaryOp::Le},
    {TokenKind::greater, BinaryOp::Gt},    {TokenKind::greaterequal, BinaryOp::Ge},
    {TokenKind::kw_is, BinaryOp::Is}};
// Python's precedence, loosest first: | ^ & (<< >>) (+ -) (* / // %).
constexpr OperatorToken kBitOrOperators[] = {{TokenKind::pipe, BinaryOp::BitOr}};
constexpr OperatorToken kBitXorOperators[] = {{TokenKind::caret, BinaryOp::BitXor}};
constexpr OperatorToken kBitAndOperators[] = {{TokenKind::amp, BinaryOp::BitAnd}};
constexpr OperatorToken kShiftOperators[] = {{TokenKind::lessless, BinaryOp::LShift},
                                             {TokenKind::greatergreater, BinaryOp::RShift}};
constexpr OperatorToken kAdditiveOperators[] = {{TokenKind::plus, BinaryOp::Add},
                                                {TokenKind::minus, BinaryOp::Sub}};
constexpr OperatorToken kMultiplicativeOperators[] = {{TokenKind::star, BinaryOp::Mul},
                                                      {TokenKind::slash, BinaryOp::Div},
                                                      {TokenKind::slashslash, BinaryOp::FloorDiv},
                                                      {TokenKind::percent, BinaryOp::Mod}};
constexpr OperatorToken kAugmentedAssignOperators[] = {
    {TokenKind::plusequal, BinaryOp::Add},
    {TokenKind::minusequal, BinaryOp::Sub},
    {TokenKind::starequal, BinaryOp::Mul},
    {TokenKind::slashequal, BinaryOp::Div},
    {TokenKind::slashslashequal, BinaryOp::FloorDiv},
    {TokenKind::percentequal, BinaryOp::Mod},
    {TokenKind::ampequal, BinaryOp::BitAnd},
    {TokenKind::pipeequal, BinaryOp::BitOr},
    {TokenKind::caretequal, BinaryOp::BitXor},
    {TokenKind::lesslessequal, BinaryOp::LShift},
    {TokenKind::greatergreaterequal, BinaryOp::RShift}};

std::optional<BinaryOp> matchOperator(llvm::ArrayRef<OperatorToken> operators, TokenKind kind) {
  for (const OperatorToken &candidate : operators)
    if (candidate.token == kind)
      return candidate.op;
  return std::nullopt;
}

bool isStructureToken(TokenKind kind) {
  return kind == TokenKind::newline || kind == TokenKind::indent || kind == TokenKind::dedent ||
         kind == TokenKind::eof;
}

class Parser {
public:
  Parser(std::vector<Token> tokens, DiagnosticEngine &diags)
      : tokens(std::move(tokens)), diags(diags) {}

  Block parseFile() {
    Block body;
    parseStatements(body, /*inBlock=*/false);
    return body;
  }

private:
  /// Counts nesting levels entered in one scope and leaves them at its end.
  class Nesting {
  public:
    explicit Nesting(Parser &parser) : parser(parser) {}
    Nesting(const Nesting &) = delete;
    Nesting &operator=(const Nesting &) = delete;
    ~Nesting() { parser.depth -= levels; }
    /// Enters one more level; reports and returns false past the limit.
    [[nodiscard]] bool enter() {
      ++parser.depth;
      ++levels;
      if (parser.depth <= kMaxNestingDepth)
        return true;
      parser.diags.error(parser.tok().getLoc(), llvm::Twine("nesting too deep (the limit is ") +
                                                    llvm::Twine(kMaxNestingDepth) + " levels)");
      return false;
    }

  private:
    Parser &parser;
    unsigned levels = 0;
  };

  // Tokens.
  const Token &tok() const { return tokens[pos]; }
  const Token &peek() const { return tokens[std::min(pos + 1, tokens.size() - 1)]; }
  bool at(TokenKind kind) const { return tok().is(kind); }
  llvm::SMLoc consume();
  bool consumeIf(TokenKind kind);
  llvm::SMRange rangeFrom(llvm::SMLoc begin) const { return {begin, lastTokenEnd}; }
  bool canStartExpression() const;

  // Diagnostics.
  bool errorExpected(const llvm::Twine &what);
  bool expectClosing(TokenKind close, TokenKind open, llvm::SMLoc openLoc);
  bool expectHeaderColon(llvm::StringRef header);
  bool checkAssignTarget(const Expr &target);
  bool checkAugmentedTarget(const Expr &target);
  unsigned lineOf(llvm::SMLoc loc) const {
    return diags.getSourceMgr().getLineAndColumn(loc).first;
  }

  // Statements.
  void parseStatements(Block &body, bool inBlock);
  void parseIndentedBlock(Block &body);
  void parseSuite(Block &body, const llvm::Twine &construct, llvm::SMLoc headerLoc);
  void recoverToStatementEnd();
  void skipIndentedBlock();
  StmtPtr parseStatement();
  StmtPtr parseSimpleStatementLine();
  StmtPtr parseSimpleStatement();
  StmtPtr parseReturn();
  StmtPtr parseExprOrAssignment();
  StmtPtr parseFunctionDef();
  bool parseParam(ParamList &params);
  StmtPtr parseFor();
  StmtPtr parseWhile();
  StmtPtr parseIf();

  // Expressions, loosest binding first.
  ExprPtr parseExprList(bool allowLayout);
  ExprPtr parseLayoutOrExpr();
  ExprPtr parseExpr();
  ExprPtr parseLeftAssociative(ExprPtr (Parser::*parseOperand)(),
                               llvm::ArrayRef<OperatorToken> operators);
  ExprPtr parseOr() { return parseLeftAssociative(&Parser::parseAnd, kOrOperators); }
  ExprPtr parseAnd() { return parseLeftAssociative(&Parser::parseNot, kAndOperators); }
  ExprPtr parseNot();
  ExprPtr parseComparison();
  ExprPtr parseUnpack();
  ExprPtr parsePrefix(UnaryOp op, ExprPtr (Parser::*operand)());
  ExprPtr parseBitOr() { return parseLeftAssociative(&Parser::parseBitXor, kBitOrOperators); }
  ExprPtr parseBitXor() { return parseLeftAssociative(&Parser::parseBitAnd, kBitXorOperators); }
  ExprPtr parseBitAnd() { return parseLeftAssociative(&Parser::parseShift, kBitAndOperators); }
  ExprPtr parseShift() { return parseLeftAssociative(&Parser::parseArithmetic, kShiftOperators); }
  ExprPtr parseArithmetic() { return parseLeftAssociative(&Parser::parseTerm, kAdditiveOperators); }
  ExprPtr parseTerm() {
    return parseLeftAssociative(&Parser::parseUnary, kMultiplicativeOperators);
  }
  ExprPtr parseUnary();
  ExprPtr parsePower();
  ExprPtr parsePostfix();
  ExprPtr parseAtom();
  ExprPtr parseParenthesized();
  ExprPtr parseListDisplay();
  bool parseDisplayElements(TokenKind close, ExprList &elements, bool *sawComma = nullptr);
  ExprPtr parseCall(ExprPtr callee);
  ExprPtr parseSubscript(ExprPtr base);
  bool parseCommaSeparated(TokenKind open, llvm::SMLoc openLoc, TokenKind close,
                           llvm::function_ref<bool()> parseItem, bool *sawComma = nullptr);

  std::vector<Token> tokens;
  size_t pos = 0;
  /// End of the last consumed token that has a spelling: where the range of
  /// the construct being finished ends.
  llvm::SMLoc lastTokenEnd;
  unsigned depth = 0;
  DiagnosticEngine &diags;
};

//===----------------------------------------------------------------------===//
// Tokens and diagnostics
//===----------------------------------------------------------------------===//

llvm::SMLoc Parser::consume() {
  const Token &current = tok();
  if (!isStructureToken(current.kind))
    lastTokenEnd = current.getEndLoc();
  if (pos + 1 < tokens.size())
    ++pos;
  return current.getLoc();
}

bool Parser::consumeIf(TokenKind kind) {
  if (!at(kind))
    return false;
  consume();
  return true;
}

bool Parser::canStartExpression() const {
  switch (tok().kind) {
  case TokenKind::identifier:
  case TokenKind::integer:
  case TokenKind::floating:
  case TokenKind::string:
  case TokenKind::reserved:
  case TokenKind::kw_True:
  case TokenKind::kw_False:
  case TokenKind::kw_None:
  case TokenKind::kw_not:
  case TokenKind::l_paren:
  case TokenKind::l_square:
  case TokenKind::minus:
  case TokenKind::plus:
    return true;
  default:
    return false;
  }
}

/// Reports "expected X, found Y" at the current token; returns false, saying
/// nothing, at an invalid-character token the lexer has reported already.
bool Parser::errorExpected(const llvm::Twine &what) {
  if (at(TokenKind::error))
    return false;
  llvm::SmallVector<llvm::SMRange, 1> ranges;
  if (!tok().spelling.empty())
    ranges.push_back(tok().getRange());
  diags.error(tok().getLoc(), "expected " + what + ", found " + tok().describe(), ranges);
  return true;
}

bool Parser::expectClosing(TokenKind close, TokenKind open, llvm::SMLoc openLoc) {
  if (consumeIf(close))
    return true;
  if (errorExpected(describeTokenKind(close) + " to close " + describeTokenKind(open)))
    diags.note(openLoc, describeTokenKind(open) + " opened here");
  return false;
}

bool Parser::expectHeaderColon(llvm::StringRef header) {
  if (consumeIf(TokenKind::colon))
    return true;
  errorExpected("':' after '" + header + "' header");
  return false;
}

bool Parser::checkAssignTarget(const Expr &target) {
  switch (target.getKind()) {
  case NodeKind::Name:
  case NodeKind::Subscript:
  case NodeKind::Attribute:
    return true;
  case NodeKind::Paren:
    return checkAssignTarget(llvm::cast<ParenExpr>(target).getInner());
  case NodeKind::Tuple:
  case NodeKind::List: {
    const ExprList &elements = target.getKind() == NodeKind::Tuple
                                   ? llvm::cast<TupleExpr>(target).getElements()
                                   : llvm::cast<ListExpr>(target).getElements();
    return llvm::all_of(elements, [&](const ExprPtr &e) { return checkAssignTarget(*e); });
  }
  case NodeKind::Layout:
    diags.error(target.getLoc(),
                "cannot assign to a layout; annotated assignments like 'x: T = v' are not "
                "supported",
                target.getRange());
    return false;
  case NodeKind::Call:
    diags.error(target.getLoc(), "cannot assign to a function call", target.getRange());
    return false;
  case NodeKind::IntegerLiteral:
  case NodeKind::FloatLiteral:
  case NodeKind::StringLiteral:
  case NodeKind::BoolLiteral:
  case NodeKind::NoneLiteral:
    diags.error(target.getLoc(), "cannot assign to a literal", target.getRange());
    return false;
  default:
    diags.error(target.getLoc(), "cannot assign to an operator expression", target.getRange());
    return false;
  }
}

bool Parser::checkAugmentedTarget(const Expr &target) {
  if (llvm::isa<NameExpr, SubscriptExpr, AttributeExpr>(target))
    return true;
  diags.error(target.getLoc(),
              "the target of an augmented assignment must be a name, subscript or attribute",
              target.getRange());
  return false;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Parser::parseStatements(Block &body, bool inBlock) {
  while (!at(TokenKind::eof) && !(inBlock && at(TokenKind::dedent))) {
    if (diags.errorLimitReached()) {
      pos = tokens.size() - 1;
      return;
    }
    if (at(TokenKind::indent)) {
      diags.error(tok().getLoc(), "unexpected indent");
      // Parse the stray block anyway, for the errors in it.
      Block discarded;
      parseIndentedBlock(discarded);
      continue;
    }
    size_t start = pos;
    if (StmtPtr stmt = parseStatement())
      body.push_back(std::move(stmt));
    else
      recoverToStatementEnd();
    // Every iteration consumes a token; a malformed stream cannot hang us.
    if (pos == start)
      consume();
  }
}

void Parser::parseIndentedBlock(Block &body) {
  Nesting nesting(*this);
  if (!nesting.enter()) {
    skipIndentedBlock();
    return;
  }
  consume(); // indent
  parseStatements(body, /*inBlock=*/true);
  consumeIf(TokenKind::dedent);
}

void Parser::skipIndentedBlock() {
  unsigned open = 0;
  do {
    if (at(TokenKind::indent))
      ++open;
    else if (at(TokenKind::dedent))
      --open;
    consume();
  } while (open > 0 && !at(TokenKind::eof));
}

void Parser::recoverToStatementEnd() {
  while (!at(TokenKind::newline) && !at(TokenKind::eof) && !at(TokenKind::dedent))
    consume();
  if (!consumeIf(TokenKind::newline))
    return;
  // A block after a broken line belongs to it (a failed `for` header, say):
  // parse it for its own errors rather than report it as unexpected.
  if (at(TokenKind::indent)) {
    Block discarded;
    parseIndentedBlock(discarded);
  }
}

void Parser::parseSuite(Block &body, const llvm::Twine &construct, llvm::SMLoc headerLoc) {
  if (!at(TokenKind::newline)) {
    // An inline suite: `if x: pass`.
    if (StmtPtr stmt = parseSimpleStatementLine())
      body.push_back(std::move(stmt));
    else
      recoverToStatementEnd();
    return;
  }
  consume();
  if (!at(TokenKind::indent)) {
    diags.error(tok().getLoc(), "expected an indented block after " + construct + " on line " +
                                    llvm::Twine(lineOf(headerLoc)));
    return;
  }
  parseIndentedBlock(body);
}

StmtPtr Parser::parseStatement() {
  switch (tok().kind) {
  case TokenKind::at:
  case TokenKind::kw_def:
    return parseFunctionDef();
  case TokenKind::kw_for:
    return parseFor();
  case TokenKind::kw_while:
    return parseWhile();
  case TokenKind::kw_if:
    return parseIf();
  case TokenKind::kw_elif:
  case TokenKind::kw_else:
    diags.error(tok().getLoc(), "'" + tok().spelling + "' without a matching 'if'",
                tok().getRange());
    return nullptr;
  default:
    return parseSimpleStatementLine();
  }
}

StmtPtr Parser::parseSimpleStatementLine() {
  StmtPtr stmt = parseSimpleStatement();
  if (!stmt)
    return nullptr;
  if (!consumeIf(TokenKind::newline)) {
    errorExpected("end of line after statement");
    return nullptr;
  }
  return stmt;
}

StmtPtr Parser::parseSimpleStatement() {
  if (at(TokenKind::kw_pass)) {
    llvm::SMRange range = tok().getRange();
    consume();
    return std::make_unique<PassStmt>(range);
  }
  if (at(TokenKind::kw_return))
    return parseReturn();
  if (at(TokenKind::kw_break) || at(TokenKind::kw_continue)) {
    bool isBreak = at(TokenKind::kw_break);
    llvm::SMRange range = tok().getRange();
    consume();
    if (isBreak)
      return std::make_unique<BreakStmt>(range);
    return std::make_unique<ContinueStmt>(range);
  }
  return parseExprOrAssignment();
}

StmtPtr Parser::parseReturn() {
  llvm::SMLoc begin = consume();
  ExprPtr value;
  if (canStartExpression()) {
    value = parseExprList(/*allowLayout=*/true);
    if (!value)
      return nullptr;
  }
  return std::make_unique<ReturnStmt>(rangeFrom(begin), std::move(value));
}

StmtPtr Parser::parseExprOrAssignment() {
  ExprPtr lhs = parseExprList(/*allowLayout=*/true);
  if (!lhs)
    return nullptr;
  if (at(TokenKind::equal)) {
    if (!checkAssignTarget(*lhs))
      return nullptr;
    llvm::SMLoc equalLoc = consume();
    ExprPtr value = parseExprList(/*allowLayout=*/true);
    if (!value)
      return nullptr;
    if (at(TokenKind::equal)) {
      diags.error(tok().getLoc(), "chained assignment is not supported", tok().getRange());
      return nullptr;
    }
    return std::make_unique<AssignStmt>(equalLoc, std::move(lhs), std::move(value));
  }
  if (std::optional<BinaryOp> op = matchOperator(kAugmentedAssignOperators, tok().kind)) {
    if (!checkAugmentedTarget(*lhs))
      return nullptr;
    llvm::SMLoc opLoc = consume();
    ExprPtr value = parseExprList(/*allowLayout=*/true);
    if (!value)
      return nullptr;
    return std::make_unique<AugAssignStmt>(*op, opLoc, std::move(lhs), std::move(value));
  }
  return std::make_unique<ExprStmt>(std::move(lhs));
}

StmtPtr Parser::parseFunctionDef() {
  ExprList decorators;
  while (at(TokenKind::at)) {
    consume();
    ExprPtr decorator = parseExpr();
    if (!decorator)
      return nullptr;
    if (!llvm::isa<NameExpr, AttributeExpr, CallExpr>(*decorator)) {
      diags.error(decorator->getLoc(), "a decorator must be a name or a call",
                  decorator->getRange());
      return nullptr;
    }
    if (!consumeIf(TokenKind::newline)) {
      errorExpected("end of line after decorator");
      return nullptr;
    }
    decorators.push_back(std::move(decorator));
  }
  if (!at(TokenKind::kw_def)) {
    errorExpected("'def' after decorator");
    return nullptr;
  }
  llvm::SMLoc defLoc = consume();
  if (!at(TokenKind::identifier)) {
    errorExpected("function name after 'def'");
    return nullptr;
  }
  std::string name = tok().spelling.str();
  llvm::SMRange nameRange = tok().getRange();
  consume();
  if (!at(TokenKind::l_paren)) {
    errorExpected("'(' after function name");
    return nullptr;
  }
  llvm::SMLoc openLoc = consume();
  ParamList params;
  if (!parseCommaSeparated(TokenKind::l_paren, openLoc, TokenKind::r_paren,
                           [&] { return parseParam(params); }))
    return nullptr;
  ExprPtr returnType;
  if (consumeIf(TokenKind::arrow)) {
    returnType = parseExpr();
    if (!returnType)
      return nullptr;
  }
  if (!expectHeaderColon("def"))
    return nullptr;
  Block body;
  parseSuite(body, "function definition", defLoc);
  return std::make_unique<FunctionDef>(rangeFrom(defLoc), std::move(name), nameRange,
                                       std::move(decorators), std::move(params),
                                       std::move(returnType), std::move(body));
}

bool Parser::parseParam(ParamList &params) {
  if (!at(TokenKind::identifier)) {
    errorExpected("parameter name");
    return false;
  }
  llvm::SMLoc begin = tok().getLoc();
  std::string name = tok().spelling.str();
  consume();
  ExprPtr annotation, defaultValue;
  if (consumeIf(TokenKind::colon)) {
    annotation = parseLayoutOrExpr();
    if (!annotation)
      return false;
  }
  if (consumeIf(TokenKind::equal)) {
    defaultValue = parseLayoutOrExpr();
    if (!defaultValue)
      return false;
  }
  params.push_back(std::make_unique<Param>(rangeFrom(begin), std::move(name), std::move(annotation),
                                           std::move(defaultValue)));
  return true;
}

StmtPtr Parser::parseFor() {
  llvm::SMLoc forLoc = consume();
  ExprPtr target = parseExprList(/*allowLayout=*/false);
  if (!target || !checkAssignTarget(*target))
    return nullptr;
  if (!consumeIf(TokenKind::kw_in)) {
    errorExpected("'in' after 'for' target");
    return nullptr;
  }
  ExprPtr iterable = parseExprList(/*allowLayout=*/false);
  if (!iterable || !expectHeaderColon("for"))
    return nullptr;
  Block body;
  parseSuite(body, "'for' statement", forLoc);
  return std::make_unique<ForStmt>(rangeFrom(forLoc), std::move(target), std::move(iterable),
                                   std::move(body));
}

StmtPtr Parser::parseWhile() {
  llvm::SMLoc whileLoc = consume();
  ExprPtr condition = parseExpr();
  if (!condition || !expectHeaderColon("while"))
    return nullptr;
  Block body;
  parseSuite(body, "'while' statement", whileLoc);
  if (at(TokenKind::kw_else)) {
    // Python runs a loop's `else` when no `break` left it, a rarely used
    // form that readers misread; statements after the loop say it plainly.
    diags.error(tok().getLoc(),
                "'else' after a 'while' loop is not supported; write its "
                "statements after the loop",
                tok().getRange());
    llvm::SMLoc elseLoc = consume();
    Block ignored; // parsed for its own errors
    if (!expectHeaderColon("else"))
      return nullptr;
    parseSuite(ignored, "'else'", elseLoc);
  }
  return std::make_unique<WhileStmt>(rangeFrom(whileLoc), std::move(condition), std::move(body));
}

StmtPtr Parser::parseIf() {
  llvm::SMLoc ifLoc = tok().getLoc();
  std::vector<IfClause> clauses;
  do {
    llvm::StringRef keyword = tok().spelling;
    llvm::SMLoc keywordLoc = consume();
    ExprPtr condition = parseExpr();
    if (!condition || !expectHeaderColon(keyword))
      return nullptr;
    IfClause &clause = clauses.emplace_back();
    clause.keywordLoc = keywordLoc;
    clause.condition = std::move(condition);
    parseSuite(clause.body, "'" + keyword + "' statement", keywordLoc);
  } while (at(TokenKind::kw_elif));
  llvm::SMLoc elseLoc;
  Block elseBody;
  if (at(TokenKind::kw_else)) {
    elseLoc = consume();
    if (!expectHeaderColon("else"))
      return nullptr;
    parseSuite(elseBody, "'else'", elseLoc);
  }
  return std::make_unique<IfStmt>(rangeFrom(ifLoc), std::move(clauses), elseLoc,
                                  std::move(elseBody));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// `a, b, c` without brackets (a trailing comma is allowed) becomes a Tuple;
/// a single expression stays itself.
ExprPtr Parser::parseExprList(bool allowLayout) {
  llvm::SMLoc begin = tok().getLoc();
  auto parseElement = [&] { return allowLayout ? parseLayoutOrExpr() : parseExpr(); };
  ExprPtr first = parseElement();
  if (!first || !at(TokenKind::comma))
    return first;
  ExprList elements;
  elements.push_back(std::move(first));
  while (consumeIf(TokenKind::comma) && canStartExpression()) {
    ExprPtr element = parseElement();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  return std::make_unique<TupleExpr>(rangeFrom(begin), std::move(elements));
}

ExprPtr Parser::parseLayoutOrExpr() {
  ExprPtr shape = parseExpr();
  if (!shape || !at(TokenKind::colon))
    return shape;
  llvm::SMLoc colonLoc = consume();
  if (at(TokenKind::r_square) || at(TokenKind::colon)) {
    diags.error(colonLoc, "slices are not supported; index a whole mode with '_'");
    return nullptr;
  }
  if (!canStartExpression()) {
    errorExpected("layout stride after ':'");
    return nullptr;
  }
  ExprPtr stride = parseExpr();
  if (!stride)
    return nullptr;
  if (at(TokenKind::colon)) {
    diags.error(tok().getLoc(), "unexpected ':' after a layout's stride; parenthesise a layout "
                                "used as a shape or stride");
    return nullptr;
  }
  return std::make_unique<LayoutExpr>(colonLoc, std::move(shape), std::move(stride));
}

ExprPtr Parser::parseLeftAssociative(ExprPtr (Parser::*parseOperand)(),
                                     llvm::ArrayRef<OperatorToken> operators) {
  ExprPtr lhs = (this->*parseOperand)();
  // Each operator in a chain deepens the tree by one: it counts as nesting.
  Nesting nesting(*this);
  while (lhs) {
    std::optional<BinaryOp> op = matchOperator(operators, tok().kind);
    if (!op)
      break;
    if (!nesting.enter())
      return nullptr;
    llvm::SMLoc opLoc = consume();
    ExprPtr rhs = (this->*parseOperand)();
    if (!rhs)
      return nullptr;
    lhs = std::make_unique<BinaryExpr>(*op, opLoc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

/// `a if c else b`: the loosest expression, right-associative as in Python
/// (`a if c else b if d else e` is `a if c else (b if d else e)`).
ExprPtr Parser::parseExpr() {
  ExprPtr value = parseOr();
  if (!value || !at(TokenKind::kw_if))
    return value;
  Nesting nesting(*this);
  if (!nesting.enter())
    return nullptr;
  llvm::SMLoc ifLoc = consume();
  ExprPtr condition = parseOr();
  if (!condition)
    return nullptr;
  if (!consumeIf(TokenKind::kw_else)) {
    errorExpected("'else' in the conditional expression 'x if c else y'");
    return nullptr;
  }
  ExprPtr other = parseExpr();
  if (!other)
    return nullptr;
  return std::make_unique<ConditionalExpr>(ifLoc, std::move(value), std::move(condition),
                                           std::move(other));
}

ExprPtr Parser::parseNot() {
  if (!at(TokenKind::kw_not))
    return parseComparison();
  return parsePrefix(UnaryOp::Not, &Parser::parseNot);
}

/// The prefix operator at the current token, applied to what `operand`
/// parses after it.
ExprPtr Parser::parsePrefix(UnaryOp op, ExprPtr (Parser::*operand)()) {
  Nesting nesting(*this);
  if (!nesting.enter())
    return nullptr;
  llvm::SMLoc begin = consume();
  ExprPtr value = (this->*operand)();
  if (!value)
    return nullptr;
  return std::make_unique<UnaryExpr>(rangeFrom(begin), op, std::move(value));
}

/// Comparisons do not chain: Python's `a < b < c` means `a < b and b < c`,
/// which a left-associative reading would silently get wrong.
ExprPtr Parser::parseComparison() {
  ExprPtr lhs = parseBitOr();
  if (!lhs)
    return nullptr;
  std::optional<BinaryOp> op = matchOperator(kComparisonOperators, tok().kind);
  if (!op)
    return lhs;
  llvm::SMLoc opLoc = consume();
  if (op == BinaryOp::Is && consumeIf(TokenKind::kw_not))
    op = BinaryOp::IsNot;
  ExprPtr rhs = parseBitOr();
  if (!rhs)
    return nullptr;
  if (matchOperator(kComparisonOperators, tok().kind)) {
    diags.error(tok().getLoc(), "comparisons cannot be chained; combine them with 'and'",
                tok().getRange());
    return nullptr;
  }
  return std::make_unique<BinaryExpr>(*op, opLoc, std::move(lhs), std::move(rhs));
}

ExprPtr Parser::parseUnary() {
  std::optional<UnaryOp> op;
  if (at(TokenKind::minus))
    op = UnaryOp::Negate;
  else if (at(TokenKind::plus))
    op = UnaryOp::Plus;
  else if (at(TokenKind::tilde))
    op = UnaryOp::Invert;
  if (!op)
    return parsePower();
  return parsePrefix(*op, &Parser::parseUnary);
}

/// `**` is right-associative and binds tighter than a unary operator on its
/// left but not on its right: `-a ** -b` is `-(a ** (-b))`.
ExprPtr Parser::parsePower() {
  ExprPtr base = parsePostfix();
  if (!base || !at(TokenKind::starstar))
    return base;
  Nesting nesting(*this);
  if (!nesting.enter())
    return nullptr;
  llvm::SMLoc opLoc = consume();
  ExprPtr exponent = parseUnary();
  if (!exponent)
    return nullptr;
  return std::make_unique<BinaryExpr>(BinaryOp::Pow, opLoc, std::move(base), std::move(exponent));
}

ExprPtr Parser::parsePostfix() {
  ExprPtr expr = parseAtom();
  Nesting nesting(*this);
  while (expr) {
    if (!at(TokenKind::l_paren) && !at(TokenKind::l_square) && !at(TokenKind::period))
      break;
    if (!nesting.enter())
      return nullptr;
    if (at(TokenKind::l_paren)) {
      expr = parseCall(std::move(expr));
    } else if (at(TokenKind::l_square)) {
      expr = parseSubscript(std::move(expr));
    } else {
      consume();
      if (!at(TokenKind::identifier)) {
        errorExpected("attribute name after '.'");
        return nullptr;
      }
      llvm::SMRange nameRange = tok().getRange();
      std::string name = tok().spelling.str();
      consume();
      llvm::SMLoc begin = expr->getLoc();
      expr = std::make_unique<AttributeExpr>(rangeFrom(begin), std::move(expr), std::move(name),
                                             nameRange);
    }
  }
  return expr;
}

ExprPtr Parser::parseCall(ExprPtr callee) {
  llvm::SMLoc openLoc = consume();
  ExprList args;
  std::vector<KeywordArg> keywords;
  auto parseArgument = [&] {
    if (at(TokenKind::identifier) && peek().is(TokenKind::equal)) {
      KeywordArg &keyword = keywords.emplace_back();
      keyword.name = tok().spelling.str();
      keyword.nameRange = tok().getRange();
      consume();
      consume();
      keyword.value = parseLayoutOrExpr();
      return keyword.value != nullptr;
    }
    if (!keywords.empty()) {
      diags.error(tok().getLoc(), "positional argument follows keyword argument", tok().getRange());
      return false;
    }
    ExprPtr arg = parseLayoutOrExpr();
    if (!arg)
      return false;
    args.push_back(std::move(arg));
    return true;
  };
  if (!parseCommaSeparated(TokenKind::l_paren, openLoc, TokenKind::r_paren, parseArgument))
    return nullptr;
  llvm::SMLoc begin = callee->getLoc();
  return std::make_unique<CallExpr>(rangeFrom(begin), std::move(callee), std::move(args),
                                    std::move(keywords));
}

ExprPtr Parser::parseSubscript(ExprPtr base) {
  llvm::SMLoc openLoc = consume();
  if (at(TokenKind::r_square)) {
    errorExpected("index");
    return nullptr;
  }
  ExprList indices;
  auto parseIndex = [&] {
    if (at(TokenKind::colon)) {
      diags.error(tok().getLoc(), "slices are not supported; index a whole mode with '_'");
      return false;
    }
    ExprPtr index = parseLayoutOrExpr();
    if (!index)
      return false;
    indices.push_back(std::move(index));
    return true;
  };
  if (!parseCommaSeparated(TokenKind::l_square, openLoc, TokenKind::r_square, parseIndex))
    return nullptr;
  llvm::SMLoc begin = base->getLoc();
  return std::make_unique<SubscriptExpr>(rangeFrom(begin), std::move(base), std::move(indices));
}

/// Items separated by commas up to `close`, with an optional trailing comma;
/// the opening bracket has been consumed.
bool Parser::parseCommaSeparated(TokenKind open, llvm::SMLoc openLoc, TokenKind close,
                                 llvm::function_ref<bool()> parseItem, bool *sawComma) {
  while (!at(close)) {
    if (!parseItem())
      return false;
    if (!consumeIf(TokenKind::comma))
      break;
    if (sawComma)
      *sawComma = true;
  }
  return expectClosing(close, open, openLoc);
}

ExprPtr Parser::parseAtom() {
  const Token &token = tok();
  llvm::SMRange range = token.getRange();
  switch (token.kind) {
  case TokenKind::identifier:
    consume();
    return std::make_unique<NameExpr>(range, token.spelling.str());
  case TokenKind::integer:
    consume();
    return std::make_unique<IntegerLiteralExpr>(range, token.intValue);
  case TokenKind::floating:
    consume();
    return std::make_unique<FloatLiteralExpr>(range, token.floatValue);
  case TokenKind::string:
    consume();
    return std::make_unique<StringLiteralExpr>(range, token.stringValue);
  case TokenKind::kw_True:
  case TokenKind::kw_False:
    consume();
    return std::make_unique<BoolLiteralExpr>(range, token.is(TokenKind::kw_True));
  case TokenKind::kw_None:
    consume();
    return std::make_unique<NoneLiteralExpr>(range);
  case TokenKind::l_paren:
    return parseParenthesized();
  case TokenKind::l_square:
    return parseListDisplay();
  case TokenKind::reserved:
    diags.error(token.getLoc(), "'" + token.spelling + "' is not supported in the kernel language",
                range);
    return nullptr;
  default:
    errorExpected("expression");
    return nullptr;
  }
}

/// The elements of a `(...)` or `[...]` display, from its opening bracket on.
bool Parser::parseDisplayElements(TokenKind close, ExprList &elements, bool *sawComma) {
  TokenKind open = tok().kind;
  llvm::SMLoc openLoc = consume();
  auto parseElement = [&] {
    ExprPtr element = at(TokenKind::star) ? parseUnpack() : parseLayoutOrExpr();
    if (!element)
      return false;
    elements.push_back(std::move(element));
    return true;
  };
  return parseCommaSeparated(open, openLoc, close, parseElement, sawComma);
}

/// `*t` among the elements of a display: Python's `star_named_expression`.
ExprPtr Parser::parseUnpack() { return parsePrefix(UnaryOp::Unpack, &Parser::parseBitOr); }

static bool isUnpack(const Expr &e) {
  const auto *unary = llvm::dyn_cast<UnaryExpr>(&e);
  return unary && unary->getOp() == UnaryOp::Unpack;
}

/// `()` and `(a, ...)` are tuples; `(a)` is a ParenExpr.
ExprPtr Parser::parseParenthesized() {
  Nesting nesting(*this);
  if (!nesting.enter())
    return nullptr;
  llvm::SMLoc begin = tok().getLoc();
  ExprList elements;
  bool sawComma = false;
  if (!parseDisplayElements(TokenKind::r_paren, elements, &sawComma))
    return nullptr;
  if (elements.size() == 1 && !sawComma && isUnpack(*elements.front())) {
    diags.error(elements.front()->getLoc(),
                "cannot use a starred expression here; a tuple of its elements is (*t,)",
                elements.front()->getRange());
    return nullptr;
  }
  if (elements.size() == 1 && !sawComma)
    return std::make_unique<ParenExpr>(rangeFrom(begin), std::move(elements.front()));
  return std::make_unique<TupleExpr>(rangeFrom(begin), std::move(elements));
}

ExprPtr Parser::parseListDisplay() {
  Nesting nesting(*this);
  if (!nesting.enter())
    return nullptr;
  llvm::SMLoc begin = tok().getLoc();
  ExprList elements;
  if (!parseDisplayElements(TokenKind::r_square, elements))
    return nullptr;
  return std::make_unique<ListExpr>(rangeFrom(begin), std::move(elements));
}

} // namespace

std::unique_ptr<ast::Module> parseModule(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                         DiagnosticEngine &diags) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  Parser parser(tokenize(sourceMgr, bufferId, diags), diags);
  ast::Block body = parser.parseFile();
  llvm::SMRange range(llvm::SMLoc::getFromPointer(buffer->getBufferStart()),
                      llvm::SMLoc::getFromPointer(buffer->getBufferEnd()));
  return std::make_unique<ast::Module>(range, buffer->getBufferIdentifier().str(), std::move(body));
}

} // namespace cutec
