#!/usr/bin/env python3
"""Fits the polynomials of passes/lowering/ExpandMath.cpp and prints their f32
coefficients (hex), with each fit's largest error on its interval.

Each fit minimises the largest weighted error (Lawson's iteration over
weighted least squares in float64 on Chebyshev points, references in
long double); the coefficients are then rounded to f32 one at a time, the
remaining ones refitted to what the rounded ones left.
"""
import numpy as np

L = np.longdouble


def lawson(func, powers, lo, hi, weight, points=4000, iterations=60):
    x = (np.cos(np.linspace(0, np.pi, points)) * (hi - lo) / 2 + (hi + lo) / 2).astype(L)
    basis = np.stack([x ** p for p in powers], 1).astype(np.float64)
    y, w = func(x).astype(np.float64), weight(x).astype(np.float64)
    lawson_w = np.full(points, 1.0 / points)
    for _ in range(iterations):
        scale = np.sqrt(lawson_w) / w
        c, *_ = np.linalg.lstsq(basis * scale[:, None], y * scale, rcond=None)
        err = np.abs(basis @ c - y) / w
        lawson_w *= err
        lawson_w /= lawson_w.sum()
    return c


def fit_f32(func, powers, lo, hi, weight):
    rounded, remaining, target = [], list(powers), func
    while remaining:
        c0 = np.float32(lawson(target, remaining, lo, hi, weight)[0])
        rounded.append(c0)
        target = (lambda t, c, p: lambda x: t(x) - L(c) * x ** p)(target, c0, remaining[0])
        remaining = remaining[1:]
    x = np.linspace(lo, hi, 200001).astype(L)
    approx = sum(L(c) * x ** p for c, p in zip(rounded, powers))
    return rounded, float(np.max(np.abs(approx - func(x)) / weight(x)))


def series_exp_q(r):
    """(e^r - 1 - r) / r^2 by its series (no cancellation near 0)."""
    total, term = np.zeros_like(r), np.full_like(r, L(0.5))
    for k in range(2, 30):
        total, term = total + term, term * r / (k + 1)
    return total


def log_q(f, scale=L(1)):
    f = np.where(np.abs(f) < 1e-12, L(1e-12), f)
    return (np.log1p(f) - f) / f ** 2 * scale


def tanh_p(u):
    u = np.maximum(u, L(1e-6))
    x = np.sqrt(u)
    return (np.tanh(x) - x) / (u * x)


def main():
    lo, hi = np.sqrt(L(0.5)) - 1 - L(1e-6), np.sqrt(L(2)) - 1 + L(1e-6)
    rel_log = lambda f: np.abs(np.log1p(np.where(np.abs(f) < 1e-12, L(1e-12), f))) / f ** 2
    fits = {
        # e^r = 1 + r + r^2 Q(r); error relative to e^r ~ 1
        "kExpQ": (series_exp_q, range(5), -0.347, 0.347, lambda r: 1 / np.maximum(r * r, L(1e-12))),
        # log(1 + f) = f + f^2 Q(f); error relative to log(1 + f)
        "kLogQ": (log_q, range(9), lo, hi, rel_log),
        # log2(1 + f) = f log2(e) + f^2 Q2(f)
        "kLog2Q": (lambda f: log_q(f, 1 / np.log(L(2))), range(9), lo, hi, rel_log),
        # tanh(x) = x + x^3 P(x^2), u = x^2 < 0.55^2; error relative to tanh
        "kTanhP": (tanh_p, range(5), 0, 0.55 ** 2, lambda u: 1 / np.maximum(u, L(1e-12))),
    }
    for name, (func, powers, a, b, weight) in fits.items():
        coefficients, err = fit_f32(func, list(powers), L(a), L(b), weight)
        print(f"{name} = {{{', '.join(float(c).hex() + 'f' for c in coefficients)}}}  "
              f"// largest relative error {err:.2e}")


if __name__ == "__main__":
    main()
