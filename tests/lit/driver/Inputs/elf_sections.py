"""Prints the section names of an ELF file (a cubin), one per line."""
import struct
import sys

data = open(sys.argv[1], "rb").read()
if data[:4] != b"\x7fELF" or data[4] != 2:
    sys.exit(f"{sys.argv[1]}: not a 64-bit ELF file")
shoff = struct.unpack_from("<Q", data, 0x28)[0]
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
def header(i):
    return struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
names_offset = header(shstrndx)[4]
for i in range(shnum):
    start = names_offset + header(i)[0]
    print(data[start:data.index(b"\0", start)].decode())
