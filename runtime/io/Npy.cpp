// .npy container handling: magic, version, header length, dtype and the size
// checks between the header and the data. The header dict itself is parsed in
// NpyHeader.cpp.
#include "runtime/io/Npy.h"

#include "runtime/io/NpyHeader.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

// '=' (native) dtypes are read as little-endian.
static_assert(std::endian::native == std::endian::little,
              "the .npy code assumes a little-endian host");

namespace cutec::rt {
namespace {

constexpr std::array<uint8_t, 6> kMagic = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr size_t kVersionBytes = 2;
/// NumPy pads magic + version + length + header to a multiple of this.
constexpr size_t kHeaderAlign = 64;
/// NumPy leaves room after the dict for the first dimension to grow to this
/// many digits, so that appending data can rewrite the header in place.
constexpr size_t kGrowthAxisMaxDigits = 21;
/// Type codes cutec supports; the digit is the item size.
constexpr std::array<std::string_view, 12> kTypeCodes = {"u1", "i1", "b1", "u2", "i2", "f2",
                                                         "u4", "i4", "f4", "u8", "i8", "f8"};

bool isSupportedTypeCode(std::string_view code) {
  return std::find(kTypeCodes.begin(), kTypeCodes.end(), code) != kTypeCodes.end();
}

/// The canonical form of a dtype as it appears in a header.
Result<std::string> canonicalDtype(const std::string &descr) {
  std::string_view code = std::string_view(descr).substr(std::min<size_t>(1, descr.size()));
  if (descr.size() != 3 || !isSupportedTypeCode(code) ||
      std::string_view("<|=>").find(descr[0]) == std::string_view::npos)
    return Error{"unsupported dtype '" + descr +
                 "' (cutec reads |u1 |i1 |b1 <u2 <i2 <f2 <u4 <i4 <f4 <u8 <i8 <f8)"};
  size_t itemSize = size_t(code[1] - '0');
  if (descr[0] == '>' && itemSize > 1)
    return Error{"big-endian dtype '" + descr + "' is not supported; save little-endian data"};
  return std::string(1, itemSize == 1 ? '|' : '<') + std::string(code);
}

/// Bytes of data the shape needs, or nullopt if that does not fit in 64 bits.
std::optional<uint64_t> dataBytes(const std::vector<int64_t> &shape, size_t itemSize) {
  if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; }))
    return std::nullopt;
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return 0;
  uint64_t bytes = itemSize;
  for (int64_t dim : shape)
    if (__builtin_mul_overflow(bytes, uint64_t(dim), &bytes))
      return std::nullopt;
  return bytes;
}

uint64_t readLittleEndian(std::span<const uint8_t> bytes) {
  uint64_t value = 0;
  for (size_t i = bytes.size(); i-- > 0;)
    value = value << 8 | bytes[i];
  return value;
}

} // namespace

std::optional<size_t> npyItemSize(std::string_view dtype) {
  if (dtype.size() != 3 || !isSupportedTypeCode(dtype.substr(1)))
    return std::nullopt;
  size_t itemSize = size_t(dtype[2] - '0');
  if (dtype[0] != (itemSize == 1 ? '|' : '<'))
    return std::nullopt;
  return itemSize;
}

NpyResult<NpyArray> parseNpy(std::span<const uint8_t> file) {
  if (file.size() < kMagic.size() + kVersionBytes ||
      !std::equal(kMagic.begin(), kMagic.end(), file.begin()))
    return Error{"not an .npy file: it does not start with \\x93NUMPY and a version"};
  unsigned major = file[6], minor = file[7];
  if (major < 1 || major > 3 || minor != 0)
    return Error{"unsupported .npy format version " + std::to_string(major) + "." +
                 std::to_string(minor) + " (cutec reads 1.0, 2.0 and 3.0)"};
  // Version 1.0 has a 16-bit header length, later versions a 32-bit one.
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t prefix = kMagic.size() + kVersionBytes + lengthBytes;
  if (file.size() < prefix)
    return Error{"truncated .npy file: the header length is cut off"};
  uint64_t headerLength = readLittleEndian(file.subspan(prefix - lengthBytes, lengthBytes));
  if (headerLength > file.size() - prefix)
    return Error{"truncated .npy file: the header length is " + std::to_string(headerLength) +
                 " bytes but only " + std::to_string(file.size() - prefix) + " follow"};

  std::string_view text(reinterpret_cast<const char *>(file.data() + prefix), headerLength);
  Result<NpyHeader> header = parseNpyHeader(text);
  if (!header)
    return Error{header.error()};
  Result<std::string> dtype = canonicalDtype(header.value().descr);
  if (!dtype)
    return Error{dtype.error()};
  if (header.value().fortranOrder)
    return Error{"Fortran-ordered arrays are not supported; save a C-ordered array "
                 "(numpy.ascontiguousarray)"};
  const std::vector<int64_t> &shape = header.value().shape;
  std::optional<uint64_t> expected = dataBytes(shape, *npyItemSize(dtype.value()));
  if (!expected)
    return Error{"shape " + formatNpyShape(shape) + " is too large"};
  uint64_t actual = file.size() - prefix - headerLength;
  if (actual != *expected)
    return Error{"the file holds " + std::to_string(actual) + " bytes of data but shape " +
                 formatNpyShape(shape) + " of " + dtype.value() + " needs " +
                 std::to_string(*expected)};

  size_t dataStart = prefix + headerLength;
  return NpyArray{std::move(dtype.value()), shape,
                  std::vector<uint8_t>(file.begin() + dataStart, file.end())};
}

NpyResult<NpyArray> readNpyFile(const std::string &path) {
  std::error_code ec;
  uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec)
    return Error{"cannot read '" + path + "': " + ec.message()};
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes(size);
  if (!in || !in.read(reinterpret_cast<char *>(bytes.data()), std::streamsize(size)))
    return Error{"cannot read '" + path + "': " + std::strerror(errno)};
  NpyResult<NpyArray> array = parseNpy(bytes);
  if (!array)
    return Error{path + ": " + array.error()};
  return array;
}

NpyResult<std::vector<uint8_t>> serializeNpy(const NpyArray &array) {
  std::optional<size_t> itemSize = npyItemSize(array.dtype);
  if (!itemSize)
    return Error{"cannot write dtype '" + array.dtype + "': not a supported canonical dtype"};
  std::optional<uint64_t> expected = dataBytes(array.shape, *itemSize);
  if (!expected || *expected != array.bytes.size())
    return Error{"cannot write shape " + formatNpyShape(array.shape) + " of " + array.dtype +
                 " with " + std::to_string(array.bytes.size()) + " bytes of data"};

  std::string dict = formatNpyHeader({array.dtype, false, array.shape});
  if (!array.shape.empty())
    dict.append(kGrowthAxisMaxDigits - std::to_string(array.shape[0]).size(), ' ');
  // Like NumPy: version 1.0 unless the padded header overflows its 16-bit
  // length; at least one space of padding, then '\n'.
  auto paddedLength = [&](size_t lengthBytes) {
    size_t unpadded = kMagic.size() + kVersionBytes + lengthBytes + dict.size() + 1;
    return dict.size() + 1 + (kHeaderAlign - unpadded % kHeaderAlign);
  };
  size_t lengthBytes = paddedLength(2) <= 0xFFFF ? 2 : 4;
  size_t headerLength = paddedLength(lengthBytes);

  std::vector<uint8_t> out(kMagic.begin(), kMagic.end());
  out.push_back(lengthBytes == 2 ? 1 : 2);
  out.push_back(0);
  for (size_t i = 0; i < lengthBytes; ++i)
    out.push_back(uint8_t(headerLength >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), headerLength - dict.size() - 1, ' ');
  out.push_back('\n');
  out.insert(out.end(), array.bytes.begin(), array.bytes.end());
  return out;
}

Status writeNpyFile(const std::string &path, const NpyArray &array) {
  NpyResult<std::vector<uint8_t>> bytes = serializeNpy(array);
  if (!bytes)
    return Error{bytes.error()};
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !out.write(reinterpret_cast<const char *>(bytes.value().data()),
                         std::streamsize(bytes.value().size())))
    return Error{"cannot write '" + path + "': " + std::strerror(errno)};
  out.close();
  if (!out)
    return Error{"cannot write '" + path + "': " + std::strerror(errno)};
  return ok();
}

} // namespace cutec::rt
