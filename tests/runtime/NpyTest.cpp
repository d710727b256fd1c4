// Tests of reading and writing valid .npy files. The inputs are byte strings
// spelled out here the way NumPy (old and new, Python 2 and 3) writes them,
// not files produced by cutec's own writer.
#include "runtime/io/Npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

namespace cutec::rt {
namespace {

std::vector<uint8_t> bytesOf(const std::string &s) { return {s.begin(), s.end()}; }

/// `prefix` (magic, version, length) + header text + data, all given verbatim.
std::vector<uint8_t> file(const std::string &prefix, const std::string &header,
                          const std::string &data) {
  return bytesOf(prefix + header + data);
}

std::string spaces(size_t n) { return std::string(n, ' '); }

// 1.0f, 2.0f, 3.0f little-endian.
const std::string kThreeFloats("\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40", 12);

NpyArray parseOk(const std::vector<uint8_t> &bytes) {
  NpyResult<NpyArray> array = parseNpy(bytes);
  EXPECT_TRUE(bool(array)) << (array ? "" : array.error());
  return array ? array.value() : NpyArray{};
}

TEST(Npy, ReadsVersion1AsModernNumPyWritesIt) {
  // np.save of np.array([1, 2, 3], np.float32): header length 118 ('v'), the
  // dict, 21 - len("3") spaces of growth room, alignment spaces, '\n'.
  std::string prefix("\x93NUMPY\x01\x00\x76\x00", 10);
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }" + spaces(60) + "\n";
  NpyArray array = parseOk(file(prefix, header, kThreeFloats));
  EXPECT_EQ(array.dtype, "<f4");
  EXPECT_EQ(array.shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(array.bytes, bytesOf(kThreeFloats));
}

TEST(Npy, WritesWhatNumPyWrites) {
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                         "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }" + spaces(60) +
                         "\n" + kThreeFloats;
  NpyResult<std::vector<uint8_t>> out = serializeNpy({"<f4", {3}, bytesOf(kThreeFloats)});
  ASSERT_TRUE(bool(out)) << out.error();
  EXPECT_EQ(out.value(), bytesOf(expected));
}

TEST(Npy, ReadsOldNumPyHeadersAlignedTo16) {
  // NumPy before 1.14 aligned to 16 bytes and wrote no growth room.
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }" + spaces(12) + "\n";
  NpyArray array =
      parseOk(file(std::string("\x93NUMPY\x01\x00\x46\x00", 10), header, kThreeFloats));
  EXPECT_EQ(array.shape, (std::vector<int64_t>{3}));
}

TEST(Npy, ReadsPython2LongIntegers) {
  std::string header =
      "{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 1L), }" + spaces(8) + "\n";
  std::string data("\x01\x00\xff\xff", 4);
  NpyArray array = parseOk(file(std::string("\x93NUMPY\x01\x00\x46\x00", 10), header, data));
  EXPECT_EQ(array.dtype, "<i2");
  EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 1}));
}

TEST(Npy, ReadsVersion2And3Headers) {
  std::string header = "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }" + spaces(50) +
                       "\n"; // 10 + 2 + 57 + 50 + 1 = 120: no alignment needed
  std::string data("\x01\x00\x02\x00", 4);
  for (char major : {'\x02', '\x03'}) {
    std::string prefix =
        std::string("\x93NUMPY", 6) + major + std::string("\x00\x6c\x00\x00\x00", 5);
    NpyArray array = parseOk(file(prefix, header, data));
    EXPECT_EQ(array.dtype, "<u2");
    EXPECT_EQ(array.bytes, bytesOf(data));
  }
}

TEST(Npy, AcceptsDoubleQuotesNoTrailingCommaAndLooseWhitespace) {
  std::string header = "{ \"shape\" : ( 2 , 2 ) ,\"fortran_order\":False,\t\"descr\": \"|u1\" }\n";
  char length = char(header.size());
  NpyArray array = parseOk(file(std::string("\x93NUMPY\x01\x00", 8) + length + '\0', header,
                                std::string("\x01\x02\x03\x04", 4)));
  EXPECT_EQ(array.dtype, "|u1");
  EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 2}));
}

TEST(Npy, NormalisesByteOrderMarkers) {
  struct Case {
    const char *descr, *canonical;
  } cases[] = {{"=f4", "<f4"}, {"|f4", "<f4"}, {"<u1", "|u1"}, {"=i1", "|i1"},
               {"|b1", "|b1"}, {">u1", "|u1"}, {"<f8", "<f8"}, {"=u8", "<u8"}};
  for (const Case &c : cases) {
    std::string header =
        std::string("{'descr': '") + c.descr + "', 'fortran_order': False, 'shape': (), }\n";
    size_t itemSize = size_t(c.descr[2] - '0');
    NpyArray array = parseOk(file(std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0',
                                  header, std::string(itemSize, '\x01')));
    EXPECT_EQ(array.dtype, c.canonical) << c.descr;
  }
}

TEST(Npy, ZeroDimensionalAndEmptyArrays) {
  std::string prefix = std::string("\x93NUMPY\x01\x00", 8);
  std::string scalar = "{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n";
  NpyArray a = parseOk(file(prefix + char(scalar.size()) + '\0', scalar, std::string(8, '\0')));
  EXPECT_TRUE(a.shape.empty());
  EXPECT_EQ(a.bytes.size(), 8u);

  std::string empty = "{'descr': '<f8', 'fortran_order': False, 'shape': (0,), }\n";
  NpyArray b = parseOk(file(prefix + char(empty.size()) + '\0', empty, ""));
  EXPECT_EQ(b.shape, (std::vector<int64_t>{0}));
  EXPECT_TRUE(b.bytes.empty());

  // A zero dimension makes the array empty however large the others are.
  std::string wide = "{'descr': '<f8', 'fortran_order': False, 'shape': "
                     "(9223372036854775807, 9223372036854775807, 0), }\n";
  NpyArray c = parseOk(file(prefix + char(wide.size()) + '\0', wide, ""));
  EXPECT_EQ(c.shape.size(), 3u);
}

TEST(Npy, RoundTripsEveryDtypeAndShape) {
  const char *dtypes[] = {"|u1", "|i1", "|b1", "<u2", "<i2", "<f2",
                          "<u4", "<i4", "<f4", "<u8", "<i8", "<f8"};
  const std::vector<int64_t> shapes[] = {{}, {0}, {1}, {5}, {2, 3, 4}, {3, 0, 2}, {1, 1, 1, 7}};
  for (const char *dtype : dtypes) {
    for (const std::vector<int64_t> &shape : shapes) {
      size_t count = 1;
      for (int64_t d : shape)
        count *= size_t(d);
      NpyArray array{dtype, shape, {}};
      for (size_t i = 0; i < count * *npyItemSize(dtype); ++i)
        array.bytes.push_back(uint8_t(i * 37 + 11));
      NpyResult<std::vector<uint8_t>> out = serializeNpy(array);
      ASSERT_TRUE(bool(out)) << out.error();
      const std::vector<uint8_t> &bytes = out.value();
      size_t headerEnd = bytes.size() - array.bytes.size();
      EXPECT_EQ(headerEnd % 64, 0u) << "NumPy's alignment";
      EXPECT_EQ(bytes[headerEnd - 1], '\n');
      EXPECT_EQ(bytes[6], 1) << "version 1.0";
      NpyArray back = parseOk(bytes);
      EXPECT_EQ(back.dtype, array.dtype);
      EXPECT_EQ(back.shape, array.shape);
      EXPECT_EQ(back.bytes, array.bytes);
    }
  }
}

TEST(Npy, WritesVersion2WhenTheHeaderNeedsIt) {
  NpyArray array{"|u1", std::vector<int64_t>(30000, 1), {42}};
  NpyResult<std::vector<uint8_t>> out = serializeNpy(array);
  ASSERT_TRUE(bool(out)) << out.error();
  EXPECT_EQ(out.value()[6], 2);
  EXPECT_EQ((out.value().size() - 1) % 64, 0u);
  NpyArray back = parseOk(out.value());
  EXPECT_EQ(back.shape.size(), 30000u);
  EXPECT_EQ(back.bytes, std::vector<uint8_t>{42});
}

TEST(Npy, RefusesToWriteInconsistentArrays) {
  EXPECT_FALSE(bool(serializeNpy({"<f4", {3}, std::vector<uint8_t>(8)})));
  EXPECT_FALSE(bool(serializeNpy({">f4", {2}, std::vector<uint8_t>(8)})));
  EXPECT_FALSE(bool(serializeNpy({"<c8", {1}, std::vector<uint8_t>(8)})));
  EXPECT_FALSE(bool(serializeNpy({"<f4", {-1}, {}})));
}

TEST(Npy, FileRoundTrip) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("cutec-npy-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       ".npy");
  NpyArray array{"<f4", {3}, bytesOf(kThreeFloats)};
  Status written = writeNpyFile(path.string(), array);
  ASSERT_TRUE(bool(written)) << written.error();
  NpyResult<NpyArray> back = readNpyFile(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(bool(back)) << back.error();
  EXPECT_EQ(back.value().bytes, array.bytes);
}

TEST(Npy, MissingFileIsAnError) {
  NpyResult<NpyArray> array = readNpyFile("/nonexistent/cutec/array.npy");
  ASSERT_FALSE(bool(array));
  EXPECT_NE(array.error().find("/nonexistent/cutec/array.npy"), std::string::npos);
}

} // namespace
} // namespace cutec::rt
