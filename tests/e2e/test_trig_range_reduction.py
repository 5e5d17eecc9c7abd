"""``trig-range-reduction``: f32, f16 and bf16 sin, cos and tan reduce their argument to
``|r| <= pi/4`` before IREE's polynomial, which floors ``x * 2/pi`` and reduces with a
single-precision pi/2 (docs/iree-defects.md, 'sin/cos/tan: quadrant by floor'). The values
are the fuzzer's (seeds 20261125 and 20261126) and points next to zeros and poles; the
reference is numpy in double precision, rounded, and XLA CPU must agree with it too.
Past ``|x| = 8192`` the pass reduces with Payne-Hanek (IREE's own reduction was off by
``|x| * 3e-8`` and overflowed past 1e9): a dense grid of large arguments, the f32 values
nearest to multiples of pi/2 among them, is within a stated ULP bound of numpy's double."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import Cos, Expm1, Parameter, Shape, Sin, Tan, Tuple, XlaBuilder
from tests import oracle
from tests.oracle import TARGETS

# sin(-1.46e-8) was +6.2e-8 (program 4515's neighbourhood), tan(-0.0019339) 479 ULP off
# (seed 20261126 program 6153), tan(-10.969) 113 ULP (seed 20261125 program 1310), next to
# zeros of sin (pi, 322 pi) and poles of tan (pi/2), and below the 8192 limit.
F32 = np.float32([-1.4576638e-08, -0.0019339080, 0.0018120158, -10.968924, -4.0, 3.1433907, -3.1433907,
                  1.5707964, -1011.5928, 57.054806, 8000.3, 0.0, -0.0, 1.0e-30])


def _trig(x: np.ndarray):
    b = XlaBuilder("trig")
    p = Parameter(b, 0, Shape.from_numpy(x), "x")
    return b.build(Tuple(b, [Sin(p), Cos(p), Tan(p)]))


def _reference(x: np.ndarray) -> tuple:
    xd = x.astype(np.float64)
    return tuple(f(xd).astype(x.dtype) for f in (np.sin, np.cos, np.tan))


@pytest.mark.parametrize("target", TARGETS)
def test_f32_trig_is_within_a_few_ulp(target):
    oracle.check(_trig(F32), [F32], _reference(F32), rtol=4e-7, atol=1e-37, target=target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_narrow_trig_is_computed_in_f32(dtype, target):
    """bf16/f16: rounded from the f32 result (bf16 tan(1000.5) was NaN past the old limit; past
    8192 Payne-Hanek)."""
    x = np.array([-0.0019340515, -10.96875, 3.140625, 1000.5, -4.0, 0.5, 12345.0, -30000.0, 65504.0], dtype)
    oracle.check(_trig(x), [x], _reference(x), rtol=float(np.finfo(np.float16).eps) if dtype == np.float16
                 else 2 ** -7, atol=1e-7, target=target)


# The f32 values nearest to a multiple of pi/2 (|x mod pi/2| from 1.6e-9 = 2^-29.2, the closest
# any f32 comes, to 7.3e-9; found by an exhaustive search over every exponent and mantissa).
CLOSEST_TO_HALF_PI = np.float32([16367173 * 2.0 ** 72, 10741887 * 2.0 ** 11, 16367173 * 2.0 ** 73,
                                 10057457 * 2.0 ** 62, 11617958 * 2.0 ** 17, 9012376 * 2.0 ** 53])
# ULP of the f32 result (numpy's double as the reference) measured on this grid: llvm-cpu 1.7
# (sin, cos) and 2.9 (tan), Vulkan (llvmpipe) 2.1 and 3.2; XLA CPU 0.56 and 0.77. What is left
# is IREE's sin and cos polynomials on [0, pi/4]: the reduced argument is within 0.5 ULP.
ULP_BOUND = {"sin": 2.5, "cos": 2.5, "tan": 3.5}


def _large_arguments() -> np.ndarray:
    """Powers of two from 2^13 to 2^127, F32_MAX, the f32 values nearest to k pi/2 for 1500
    log-spaced k up to 2^128 and their neighbours, CLOSEST_TO_HALF_PI, 3000 log-uniform
    values and both sides of the 8192 switch, each with both signs; inf and NaN."""
    import mpmath

    rng = np.random.default_rng(12)
    ks = np.unique(np.round(np.geomspace(6e3, 2.1e38, 1500)))
    with mpmath.workprec(256):
        near = np.float32([float(mpmath.mpf(int(k)) * mpmath.pi / 2) for k in ks])
    powers = np.float32(2.0) ** np.arange(13, 128).astype(np.float32)
    spread = np.exp(rng.uniform(np.log(8192), np.log(3.4e38), 3000)).astype(np.float32)
    boundary = np.float32([np.finfo(np.float32).max, 8192.0, np.nextafter(np.float32(8192), np.float32(0))])
    neighbours = [np.nextafter(near, np.float32(0)), np.nextafter(near, np.float32(np.inf))]
    x = np.concatenate([powers, near, *neighbours, CLOSEST_TO_HALF_PI, spread, boundary])
    return np.concatenate([x, -x, np.float32([np.inf, -np.inf, np.nan])])


def _ulp_error(actual: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """|actual - reference| in units of the last place of the f32 ``reference``."""
    spacing = np.spacing(np.abs(reference.astype(np.float32))).astype(np.float64)
    return np.abs(actual.astype(np.float64) - reference) / spacing


@pytest.mark.parametrize("target", TARGETS)
def test_f32_trig_of_large_arguments_is_within_a_few_ulp(target):
    """Payne-Hanek: sin and cos within 2.5 ULP, tan within 3.5 ULP of numpy's double for every
    finite argument of the grid, the hardest cases of the reduction included (IREE alone:
    sin(1e10) -6.0e21, sin(3.4e38) -inf); NaN for inf and NaN."""
    x = _large_arguments()
    actual = oracle.run_iree(_trig(x), x, target=target)
    finite = np.isfinite(x)
    xd = x[finite].astype(np.float64)
    for name, fn, got in zip(("sin", "cos", "tan"), (np.sin, np.cos, np.tan), actual, strict=True):
        assert np.all(np.isnan(got[~finite])), (name, got[~finite])
        error = _ulp_error(np.asarray(got)[finite], fn(xd))
        worst = int(np.argmax(error))
        assert error[worst] <= ULP_BOUND[name], (name, xd[worst], got[finite][worst], error[worst])


@pytest.mark.parametrize("target", TARGETS)
def test_c64_sin_cos_of_large_real_parts_are_xlas(target):
    """complex-sin-cos: XLA's sin(a) cosh(b) + i cos(a) sinh(b) (and cos's) with real sin and
    cos that trig-range-reduction reduces, so a huge real part is exact (IREE's own expansion:
    cos(-3.4e38 - 0.15j) = -inf + inf j, XLA 0.98 + 0.037j). Each part within 2^-20 of
    XLA's, relative to cosh(b) (the scale of both parts; Vulkan's exp(20) is 5e-7 off)."""
    real = np.concatenate([_large_arguments()[::40], np.float32([0.0, -0.5, 2.0, 100.25])])
    imag = np.float32([-3.0, -0.15, 0.0, 1e-3, 0.5, 20.0])
    z = (real[:, None] + 1j * imag[None, :]).astype(np.complex64).ravel()
    z = z[np.isfinite(z)]
    b = XlaBuilder("c64_trig")
    p = Parameter(b, 0, Shape.from_numpy(z), "z")
    comp = b.build(Tuple(b, [Sin(p), Cos(p)]))
    expected = oracle.run_xla(comp, z, strict=True)
    actual = oracle.run_iree(comp, z, target=target)
    scale = np.cosh(z.imag.astype(np.float64))
    for got, want in zip(actual, expected, strict=True):
        for part in (np.real, np.imag):
            error = np.abs(part(got).astype(np.float64) - part(want))
            assert np.all(error <= 2 ** -20 * scale), (z[np.argmax(error / scale)], np.max(error / scale))


@pytest.mark.parametrize("target", TARGETS)
def test_c64_expm1_is_xlas(target):
    """complex-expm1: every pair of 15 special and large parts (inf, NaN, +-F32_MAX, +-0,
    1e30, 3e9, 1e5, ...) and small arguments give XLA's expm1: the same NaNs and infinities,
    finite parts within 2^-20 (|XLA| + 1) (IREE's own: expm1(-0.097 + 3.4e38j) NaN - inf j,
    XLA -0.23 - 0.47j; expm1(7 + 1e5j) 5e-6 off in its imaginary part)."""
    big = float(np.finfo(np.float32).max)
    parts = [np.inf, -np.inf, np.nan, big, -big, 0.0, -0.0, 1.5, -2.0, 1e30, 100.0, 1e-20, 7.0, 1e5, 3e9]
    z = np.array([complex(a, b) for a in parts for b in parts] + [1e-5 + 1e-5j, 1e-3 - 2e-4j, 0.3 + 0.7j],
                 np.complex64)
    b = XlaBuilder("c64_expm1")
    comp = b.build(Expm1(Parameter(b, 0, Shape.from_numpy(z), "z")))
    expected = oracle.run_xla(comp, z, strict=True)
    actual = oracle.run_iree(comp, z, target=target)
    for part in (np.real, np.imag):
        got, want = part(actual).astype(np.float64), part(expected).astype(np.float64)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        infinite = np.isinf(want)
        np.testing.assert_array_equal(got[infinite], want[infinite])
        finite = np.isfinite(want)
        error = np.abs(got[finite] - want[finite]) / (np.abs(want[finite]) + 1)
        assert np.all(error <= 2 ** -20), (z[finite][np.argmax(error)], np.max(error))
