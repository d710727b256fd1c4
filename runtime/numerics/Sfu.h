// The special-function unit's approximations as PTX exposes them
// (ex2.approx.ftz.f32, rsqrt.approx.ftz.f32, rcp.approx.ftz.f32), bit for bit
// what an H100 returns. The ISA bounds their errors but does not define their
// results; what it does fix, and what these functions reproduce, was measured:
// each result is a table entry of the function over a reduced domain
// (runtime/numerics/SfuTables.cpp), scaled by a power of two, and every one of the
// 2^32 inputs of each function gives the H100's result
// (tests/hardware/SfuCheck.cpp). Subnormal inputs and results are flushed to zero of the
// same sign; a NaN gives the canonical NaN 0x7FFFFFFF.
#pragma once

namespace cutec::rt::ptx {

/// ex2.approx.ftz.f32: 2^x. x is first truncated toward zero to a multiple of
/// 2^-23; for x = n + f (n an integer, f in [0, 1)) the result is table(f)
/// * 2^n, and for x = -(n + f) it is table(1 - 2^-23 - f) / 2 * 2^-n (the
/// unit negates the fraction's bits), or exactly 2^-n when f = 0.
float ex2ApproxFtzF32(float x);
/// rsqrt.approx.ftz.f32: 1/sqrt(x), from a table over [1, 4): rsqrt(m * 4^k)
/// = table(m) * 2^-k. Negative x gives NaN, -0 -inf.
float rsqrtApproxFtzF32(float x);
/// rcp.approx.ftz.f32: 1/x, from a table over [1, 2): rcp(+-m * 2^e) =
/// +-table(m) * 2^-e.
float rcpApproxFtzF32(float x);

} // namespace cutec::rt::ptx
