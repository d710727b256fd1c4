"""Inputs and references of epilogue.cute, written to OUT_DIR, every array
flat in memory order:
  stage_src.npy (f32 32x32 with NaNs, infinities, overflow, subnormals and
  ties among random values), stage_dst_ref.npy (cvt.rn.f16.f32 of each,
  NaN as the canonical 0x7FFF) and stage_image_ref.npy (the swizzled shared
  bytes: byte x of the row-major tile at x ^ ((x & 0x180) >> 3), S<2,4,3>);
  for each matrix kernel NAME, NAME_src.npy (random f16 bit patterns, one
  fragment per lane) and NAME_image_ref.npy: the tile that stmatrix writes,
  element (r, c) taken from the PTX ISA's fragment of 8x8 matrices (matrix
  m = r//8 + rows//8 * (c//8) column-major over the blocks; its element
  (i, j) in register m of lane 4i + j//2, half j%2), at the byte offset of
  the tile's layout, swizzled.
    python3 epilogue_data.py OUT_DIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)


def save(name, array):
    np.save(os.path.join(out, name + ".npy"), np.ascontiguousarray(array).ravel())


def swizzled(x, bits, base, shift):
    mask = ((1 << bits) - 1) << (base + shift)
    return x ^ ((x & mask) >> shift)


# Row staging: f32 -> f16 in a 64-byte-swizzled (32, 32) tile.
edges = np.array([np.nan, -np.nan, np.inf, -np.inf, 65504, 65519.996, 65520, -65520,
                  2.0**-24, 2.0**-25, 3 * 2.0**-26, -2.0**-26, 1e-45, -0.0, 0.0,
                  1 + 2.0**-11, 1 + 3 * 2.0**-11, 1e6, -3.0e38], dtype=np.float32)
src = (rng.standard_normal(32 * 32) * 1000).astype(np.float32)
src[rng.choice(src.size, edges.size * 4, replace=False)] = np.tile(edges, 4)
with np.errstate(over="ignore"):
    half = src.astype(np.float16).view(np.uint16)
half = np.where(np.isnan(src), np.uint16(0x7FFF), half)
save("stage_src", src)
save("stage_dst_ref", half.view(np.float16))
image = np.zeros(32 * 32 * 2, dtype=np.uint8)
for e in range(32 * 32):  # element (e // 32, e % 32), row-major
    x = swizzled(2 * e, 2, 4, 3)
    image[x:x + 2] = np.frombuffer(half[e:e + 1].tobytes(), dtype=np.uint8)
save("stage_image_ref", image)

# stmatrix/ldmatrix: (rows, cols, strides, trans, swizzle) per kernel.
kernels = {
    "matrix_x4": (16, 16, (16, 1), (1, 4, 3)),
    "matrix_x4_trans": (16, 16, (1, 16), (1, 4, 3)),
    "matrix_x2": (8, 16, (16, 1), None),
    "matrix_x1_trans": (8, 8, (1, 8), None),
}
for name, (rows, cols, strides, swizzle) in kernels.items():
    per_lane = rows * cols // 32
    frag = rng.integers(0, 1 << 16, size=(32, per_lane), dtype=np.uint16)
    image = np.zeros(rows * cols * 2, dtype=np.uint8)
    for r in range(rows):
        for c in range(cols):
            m = r // 8 + (rows // 8) * (c // 8)
            i, j = r % 8, c % 8
            value = frag[4 * i + j // 2, 2 * m + j % 2]
            x = 2 * (r * strides[0] + c * strides[1])
            if swizzle:
                x = swizzled(x, *swizzle)
            image[x:x + 2] = [value & 0xFF, value >> 8]
    save(name + "_src", frag.view(np.float16))
    save(name + "_image_ref", image)
