// One test per kind of malformed .npy input: each must be rejected with a
// message that names the problem, never a crash, an out-of-bounds read or an
// allocation sized by the file's claims. Run under CUTEC_SANITIZE to check the
// "never" part.
#include "runtime/io/Npy.h"

#include <gtest/gtest.h>

#include <string>

namespace cutec::rt {
namespace {

std::vector<uint8_t> bytesOf(const std::string &s) { return {s.begin(), s.end()}; }

/// A version 1.0 file with the given header text (length computed) and data.
std::vector<uint8_t> v1File(const std::string &header, const std::string &data = "") {
  std::string prefix("\x93NUMPY\x01\x00", 8);
  prefix += char(header.size() & 0xFF);
  prefix += char(header.size() >> 8);
  return bytesOf(prefix + header + data);
}

std::string dict(const std::string &descr, const std::string &order, const std::string &shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': " + shape + ", }\n";
}

void expectError(const std::vector<uint8_t> &bytes, const std::string &fragment) {
  NpyResult<NpyArray> array = parseNpy(bytes);
  ASSERT_FALSE(bool(array)) << "accepted; expected an error about: " << fragment;
  EXPECT_NE(array.error().find(fragment), std::string::npos)
      << "message: " << array.error() << "\nexpected to mention: " << fragment;
}

TEST(NpyMalformed, EmptyFile) { expectError({}, "not an .npy file"); }

TEST(NpyMalformed, BadMagic) {
  expectError(bytesOf(std::string("\x93NUMPZ\x01\x00\x00\x00", 10)), "not an .npy file");
  expectError(bytesOf("PK\x03\x04 a zip file, say"), "not an .npy file");
}

TEST(NpyMalformed, UnsupportedVersion) {
  expectError(bytesOf(std::string("\x93NUMPY\x04\x00\x00\x00", 10)), "version 4.0");
  expectError(bytesOf(std::string("\x93NUMPY\x01\x01\x00\x00", 10)), "version 1.1");
  expectError(bytesOf(std::string("\x93NUMPY\x00\x00\x00\x00", 10)), "version 0.0");
}

TEST(NpyMalformed, TruncatedLengthField) {
  expectError(bytesOf(std::string("\x93NUMPY\x01\x00\x10", 9)), "header length is cut off");
  expectError(bytesOf(std::string("\x93NUMPY\x02\x00\x10\x00", 10)), "header length is cut off");
}

TEST(NpyMalformed, TruncatedHeader) {
  std::vector<uint8_t> bytes = v1File(dict("<f4", "False", "(3,)"));
  bytes.resize(bytes.size() - 5);
  expectError(bytes, "truncated .npy file");
}

TEST(NpyMalformed, HugeHeaderLength) {
  // Version 2.0 with a 4 GiB header length in a 20-byte file.
  expectError(bytesOf(std::string("\x93NUMPY\x02\x00\xf0\xff\xff\xff{'descr'", 19)),
              "header length is 4294967280 bytes but only 7 follow");
}

TEST(NpyMalformed, HeaderNotADict) {
  expectError(v1File("[('descr', '<f4')]\n"), "not a dict");
  expectError(v1File("\n"), "not a dict");
}

TEST(NpyMalformed, UnknownDtype) {
  expectError(v1File(dict("<c8", "False", "(1,)"), std::string(8, '\0')),
              "unsupported dtype '<c8'");
  expectError(v1File(dict("<U3", "False", "(1,)"), std::string(12, '\0')), "unsupported dtype");
  expectError(v1File(dict("f4", "False", "(1,)"), std::string(4, '\0')), "unsupported dtype 'f4'");
}

TEST(NpyMalformed, StructuredDtype) {
  expectError(v1File("{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (1,), }\n"),
              "structured dtypes");
}

TEST(NpyMalformed, FortranOrder) {
  expectError(v1File(dict("<f4", "True", "(2, 2)"), std::string(16, '\0')), "Fortran-ordered");
}

TEST(NpyMalformed, BigEndian) {
  expectError(v1File(dict(">f4", "False", "(1,)"), std::string(4, '\0')), "big-endian");
}

TEST(NpyMalformed, NegativeDimension) {
  expectError(v1File(dict("<f4", "False", "(2, -1)")), "negative dimension");
}

TEST(NpyMalformed, DimensionBeyond64Bits) {
  expectError(v1File(dict("|u1", "False", "(99999999999999999999,)")), "does not fit in 64 bits");
}

TEST(NpyMalformed, ShapeWhoseSizeOverflows) {
  expectError(v1File(dict("<f8", "False", "(4294967296, 4294967296)")), "is too large");
  expectError(v1File(dict("<f8", "False", "(9223372036854775807,)")), "is too large");
}

TEST(NpyMalformed, DataSizeDoesNotMatchShape) {
  expectError(v1File(dict("<f4", "False", "(3,)"), std::string(8, '\0')),
              "holds 8 bytes of data but shape (3,) of <f4 needs 12");
  expectError(v1File(dict("<f4", "False", "(3,)"), std::string(13, '\0')), "holds 13 bytes");
  expectError(v1File(dict("<f4", "False", "(1000000000000,)")), "holds 0 bytes");
}

TEST(NpyMalformed, MissingKey) {
  expectError(v1File("{'descr': '<f4', 'shape': (1,), }\n", std::string(4, '\0')),
              "must have the keys");
}

TEST(NpyMalformed, DuplicateKey) {
  expectError(v1File("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}\n"),
              "appears twice");
}

TEST(NpyMalformed, UnknownKey) {
  expectError(v1File("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}\n"),
              "unexpected key 'x'");
}

TEST(NpyMalformed, ShapeThatIsNotATuple) {
  expectError(v1File(dict("<f4", "False", "(3)")), "not a tuple");
  expectError(v1File(dict("<f4", "False", "[3]")), "expected a value for key 'shape'");
  expectError(v1File(dict("<f4", "False", "(3,,)")), "non-negative integer");
  expectError(v1File(dict("<f4", "False", "(3 4)")), "expected ',' or ')'");
  expectError(v1File(dict("<f4", "False", "(3.0,)")), "expected ',' or ')'");
  expectError(v1File(dict("<f4", "False", "(3,")), "non-negative integer");
}

TEST(NpyMalformed, WrongValueTypes) {
  expectError(v1File(dict("<f4", "0", "(1,)")), "expected a value for key 'fortran_order'");
  expectError(v1File("{'descr': '<f4', 'fortran_order': 'no', 'shape': (1,)}\n"),
              "must be True or False");
  expectError(v1File("{'descr': (1,), 'fortran_order': False, 'shape': (1,)}\n"),
              "must be a dtype string");
  expectError(v1File("{'descr': '<f4', 'fortran_order': False, 'shape': 'x'}\n"),
              "must be a tuple");
}

TEST(NpyMalformed, BadStrings) {
  expectError(v1File("{'descr' '<f4', 'fortran_order': False, 'shape': (1,)}\n"),
              "expected ':' after key 'descr'");
  expectError(v1File("{'descr: '<f4', 'fortran_order': False, 'shape': (1,)}\n"),
              "unexpected key 'descr: '");
  expectError(v1File("{'descr"), "unterminated string");
  expectError(v1File("{'de\\x73cr': '<f4', 'fortran_order': False, 'shape': (1,)}\n"), "escapes");
}

TEST(NpyMalformed, TextAfterTheDict) {
  expectError(v1File(dict("<f4", "False", "(1,)") + "x", std::string(4, '\0')),
              "after the closing '}'");
  expectError(v1File("{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}\n"),
              "expected ',' or '}'");
}

TEST(NpyMalformed, EveryTruncationAndByteFlipFailsCleanly) {
  // Not a specific message: just no crash, hang or sanitizer report.
  std::vector<uint8_t> valid = v1File(dict("<f4", "False", "(2, 3)"), std::string(24, '\x7f'));
  ASSERT_TRUE(bool(parseNpy(valid)));
  for (size_t size = 0; size < valid.size(); ++size) {
    std::vector<uint8_t> truncated(valid.begin(), valid.begin() + size);
    EXPECT_FALSE(bool(parseNpy(truncated))) << size;
  }
  for (size_t i = 0; i < valid.size() - 24; ++i) {
    for (uint8_t value :
         {uint8_t(0x00), uint8_t(0xff), uint8_t('('), uint8_t('\''), uint8_t('9')}) {
      std::vector<uint8_t> mutated = valid;
      mutated[i] = value;
      (void)parseNpy(mutated);
    }
  }
}

} // namespace
} // namespace cutec::rt
