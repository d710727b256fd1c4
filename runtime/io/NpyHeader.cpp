// A recursive-descent parser for the .npy header dict. The input is untrusted:
// every read is bounds-checked, nothing recurses (tuples do not nest here) and
// nothing is allocated beyond the text's own size.
#include "runtime/io/NpyHeader.h"

#include <limits>
#include <optional>
#include <set>
#include <variant>

namespace cutec::rt {
namespace {

using Shape = std::vector<int64_t>;
using HeaderValue = std::variant<std::string, bool, Shape>;

class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  Result<NpyHeader> parse() {
    skipSpace();
    if (!consume('{'))
      return fail("the header is not a dict: expected '{'");
    skipSpace();
    while (!consume('}')) {
      std::optional<std::string> key = parseString();
      if (!key)
        return fail(error.empty() ? "expected a quoted key or '}'" : error);
      if (*key != "descr" && *key != "fortran_order" && *key != "shape")
        return fail("unexpected key '" + *key + "'");
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after key '" + *key + "'");
      skipSpace();
      if (*key == "descr" && peek() == '[')
        return fail("structured dtypes (a list as 'descr') are not supported");
      std::optional<HeaderValue> value = parseValue();
      if (!value)
        return fail(error.empty() ? "expected a value for key '" + *key + "'" : error);
      if (std::optional<std::string> problem = store(*key, std::move(*value)))
        return fail(*problem);
      skipSpace();
      // NumPy writes a comma after every entry, the last one included.
      if (consume(','))
        skipSpace();
      else if (peek() != '}')
        return fail("expected ',' or '}' after the value of '" + *key + "'");
    }
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the closing '}'");
    if (seenKeys.size() != 3)
      return fail("the header must have the keys 'descr', 'fortran_order' and 'shape'");
    return header;
  }

private:
  std::string_view text;
  size_t pos = 0;
  /// What the last failing sub-parser found wrong, if it said.
  std::string error;
  NpyHeader header;
  std::set<std::string> seenKeys;

  char peek() const { return pos < text.size() ? text[pos] : '\0'; }

  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }

  bool consumeWord(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  void skipSpace() {
    while (pos < text.size() &&
           (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  Error fail(const std::string &message) const {
    return Error{"invalid .npy header: " + message + " (at offset " + std::to_string(pos) + ")"};
  }

  /// Stores one entry, or says what is wrong with it.
  std::optional<std::string> store(const std::string &key, HeaderValue value) {
    if (!seenKeys.insert(key).second)
      return "key '" + key + "' appears twice";
    if (key == "descr") {
      auto *descr = std::get_if<std::string>(&value);
      if (!descr)
        return "'descr' must be a dtype string";
      header.descr = std::move(*descr);
    } else if (key == "fortran_order") {
      auto *fortranOrder = std::get_if<bool>(&value);
      if (!fortranOrder)
        return "'fortran_order' must be True or False";
      header.fortranOrder = *fortranOrder;
    } else {
      auto *shape = std::get_if<Shape>(&value);
      if (!shape)
        return "'shape' must be a tuple of integers";
      header.shape = std::move(*shape);
    }
    return std::nullopt;
  }

  std::optional<std::string> parseString() {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return std::nullopt;
    size_t start = ++pos;
    while (pos < text.size() && text[pos] != quote) {
      // NumPy's keys and dtype strings never need escapes or line breaks.
      if (text[pos] == '\\' || text[pos] == '\n') {
        error = "escapes and line breaks are not supported in strings";
        return std::nullopt;
      }
      ++pos;
    }
    if (pos >= text.size()) {
      error = "unterminated string";
      return std::nullopt;
    }
    return std::string(text.substr(start, pos++ - start));
  }

  std::optional<HeaderValue> parseValue() {
    if (peek() == '\'' || peek() == '"') {
      std::optional<std::string> s = parseString();
      return s ? std::optional<HeaderValue>(*s) : std::nullopt;
    }
    if (consumeWord("True"))
      return HeaderValue(true);
    if (consumeWord("False"))
      return HeaderValue(false);
    if (peek() == '(')
      return parseShape();
    return std::nullopt;
  }

  std::optional<HeaderValue> parseShape() {
    consume('(');
    skipSpace();
    Shape shape;
    bool trailingComma = false;
    while (!consume(')')) {
      std::optional<int64_t> dim = parseDimension();
      if (!dim)
        return std::nullopt;
      shape.push_back(*dim);
      skipSpace();
      trailingComma = consume(',');
      skipSpace();
      if (!trailingComma && peek() != ')') {
        error = "expected ',' or ')' in the shape tuple";
        return std::nullopt;
      }
    }
    // In Python `(3)` is the integer 3, not a tuple.
    if (shape.size() == 1 && !trailingComma) {
      error = "'shape' (" + std::to_string(shape[0]) + ") is not a tuple; NumPy writes (" +
              std::to_string(shape[0]) + ",)";
      return std::nullopt;
    }
    return HeaderValue(std::move(shape));
  }

  std::optional<int64_t> parseDimension() {
    if (peek() == '-') {
      error = "negative dimension in 'shape'";
      return std::nullopt;
    }
    if (peek() < '0' || peek() > '9') {
      error = "expected a non-negative integer in 'shape'";
      return std::nullopt;
    }
    int64_t value = 0;
    while (peek() >= '0' && peek() <= '9') {
      int digit = text[pos++] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        error = "dimension in 'shape' does not fit in 64 bits";
        return std::nullopt;
      }
      value = value * 10 + digit;
    }
    consume('L'); // Python 2's long integers, in files written by old NumPy.
    return value;
  }
};

} // namespace

Result<NpyHeader> parseNpyHeader(std::string_view text) { return HeaderParser(text).parse(); }

std::string formatNpyShape(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::string formatNpyHeader(const NpyHeader &header) {
  // NumPy writes the keys sorted, each entry followed by ", ".
  return "{'descr': '" + header.descr +
         "', 'fortran_order': " + (header.fortranOrder ? "True" : "False") +
         ", 'shape': " + formatNpyShape(header.shape) + ", }";
}

} // namespace cutec::rt
