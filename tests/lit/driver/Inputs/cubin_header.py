"""Prints what a cubin's ELF header says, for FileCheck:

    ELF64 e_machine=190 (EM_CUDA) sm_100

The SM number sits in e_flags: bits 8-15 from ELF ABI version 8 (CUDA 12.8
on), bits 0-7 before. Exits 1 for a file that is not an ELF image.
"""
import struct
import sys

data = open(sys.argv[1], "rb").read()
if data[:4] != b"\x7fELF":
    sys.exit(f"{sys.argv[1]}: not an ELF file")
width = {1: "ELF32", 2: "ELF64"}.get(data[4], "ELF?")
machine = struct.unpack_from("<H", data, 18)[0]
flags = struct.unpack_from("<I", data, 48)[0]
sm = (flags >> 8) & 0xFF if data[8] >= 8 else flags & 0xFF
name = " (EM_CUDA)" if machine == 190 else ""
print(f"{width} e_machine={machine}{name} sm_{sm}")
