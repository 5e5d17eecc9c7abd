"""Regressions (issue 9): conversions that gave wrong answers or crashed the compiler.

- ConvertElementType from f16/bf16/f32/f64 to every integer type saturates and maps NaN
  to 0, as XLA does (the pinned IREE wrapped or gave MIN), on llvm-cpu and vulkan-spirv,
  for parameters and for constants (which O2 folds);
- BitcastConvertType to or from complex types compiles (it crashed or was rejected) and
  gives numpy's ``.view``.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import BitcastConvertType, Constant, ConvertElementType, Parameter, Shape, Tuple, XlaBuilder
from hlo_mlir.types import from_dtype
from tests import oracle
from tests.oracle import DRIVER, TARGETS

INT_TYPES = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]
FLOAT_TYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
               "f32": np.dtype(np.float32), "f64": np.dtype(np.float64)}


def _int_dtype(name: str) -> np.dtype:
    return Shape.parse(f"{name}[]").dtype


def _neighbours(values: np.ndarray) -> np.ndarray:
    """Each value with the floats one bit pattern below and above it (same dtype)."""
    bits = values.view(f"u{values.dtype.itemsize}")
    finite = bits[np.isfinite(values.astype(np.float64)) & (values.astype(np.float64) != 0)]
    return np.concatenate([values, (finite - 1).view(values.dtype), (finite + 1).view(values.dtype)])


def _special_values(dtype: np.dtype) -> np.ndarray:
    """NaN, infinities, zeros, fractions, the source type's extremes, and for every
    integer type its minimum and maximum, +-0.5 and +-1 around them and the powers of two
    just beyond, each with its float neighbours (rounded into ``dtype``)."""
    info = ml_dtypes.finfo(dtype)
    base = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.25, -0.25, 0.5, -0.5, 0.99, -0.99, 1.0, -1.0,
            1.5, -1.5, 2.5, -8.25, 300.0, 1e10, -1e10, float(info.max), -float(info.max),
            float(info.smallest_subnormal), -float(info.smallest_subnormal)]
    for name in INT_TYPES:
        lo, hi = (int(v) for v in (np.iinfo(_int_dtype(name)).min, np.iinfo(_int_dtype(name)).max))
        base += [lo, hi, lo - 1, hi + 1, lo - 0.5, hi + 0.5, 2 * (hi + 1), -(hi + 1), lo + 1, hi - 1]
    with np.errstate(over="ignore"):
        values = np.array([float(v) for v in base], np.float64).astype(dtype)
    return _neighbours(values)


def _saturated(values: np.ndarray, int_name: str) -> np.ndarray:
    """XLA's float -> integer: round toward zero, clamp to the type, NaN -> 0 (Python ints)."""
    dtype = _int_dtype(int_name)
    info = np.iinfo(dtype)
    out = []
    for v in values.astype(np.float64):
        if math.isnan(v):
            out.append(0)
        elif math.isinf(v):
            out.append(int(info.max) if v > 0 else int(info.min))
        else:
            out.append(min(max(math.trunc(v), int(info.min)), int(info.max)))
    return np.array(out, dtype=dtype)


def test_issue_reproducer_f32_to_u8_and_s32():
    xs = np.array([-8.25, 300, 1e10, np.nan, np.inf, -np.inf], np.float32)
    b = XlaBuilder("issue")
    x = Parameter(b, 0, Shape.from_numpy(xs), "x")
    comp = b.build(Tuple(b, [ConvertElementType(x, from_dtype("u8")),
                             ConvertElementType(x, from_dtype("s32"))]))
    expected = (np.array([0, 255, 255, 0, 255, 0], np.uint8),
                np.array([-8, 300, 2**31 - 1, 0, 2**31 - 1, -2**31], np.int32))
    oracle.check(comp, [xs], expected, rtol=0, atol=0)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("source", list(FLOAT_TYPES))
def test_float_to_int_saturates_like_xla(source, target):
    """Every special value of the source type to each of the eight integer types."""
    xs = _special_values(FLOAT_TYPES[source])
    b = XlaBuilder(f"saturate_{source}")
    x = Parameter(b, 0, Shape.from_numpy(xs), "x")
    comp = b.build(Tuple(b, [ConvertElementType(x, from_dtype(t)) for t in INT_TYPES]))
    expected = tuple(_saturated(xs, t) for t in INT_TYPES)
    ours = hlo_mlir.runtime.load(hlo_mlir.compile(comp, target), DRIVER[target]).main(xs)
    oracle.assert_close(ours, expected, 0, 0, f"hlo-mlir on {target}")
    oracle.assert_close(oracle.run_xla(comp, xs, strict=True), expected, 0, 0, "XLA")


@pytest.mark.parametrize("source", list(FLOAT_TYPES))
def test_float_to_int_constants_fold_like_xla(source):
    """The same values as constants, and per integer type a constant of its own bounds
    (the folder folds a constant only when it thinks every value is in range; f32 2^31
    compared with the s32 maximum rounds to equal): O2's constant folding must saturate."""
    dtype = FLOAT_TYPES[source]
    xs = _special_values(dtype)
    b = XlaBuilder(f"saturate_constants_{source}")
    outs, expected = [], []
    for t in INT_TYPES:
        info = np.iinfo(_int_dtype(t))
        with np.errstate(over="ignore"):
            edges = np.array([float(info.min), float(info.max) + 1], np.float64).astype(dtype)
        edges = edges[np.isfinite(edges.astype(np.float64)) & (edges.astype(np.float64) != 0)]
        bits = edges.view(f"u{edges.dtype.itemsize}")
        inward = (bits - 1).view(dtype)  # toward zero: the largest in-range values
        for values in (xs, np.concatenate([edges, inward, np.array([0.5], dtype)])):
            outs.append(ConvertElementType(Constant(b, values), from_dtype(t)))
            expected.append(_saturated(values, t))
    comp = b.build(Tuple(b, outs))
    expected = tuple(expected)
    oracle.assert_close(oracle.run_iree(comp), expected, 0, 0, "hlo-mlir")
    oracle.assert_close(oracle.run_xla(comp, strict=True), expected, 0, 0, "XLA")


# --- BitcastConvertType of complex types -------------------------------------------------------
def _complex_values(dtype, shape, seed: int) -> np.ndarray:
    """Random complex values with zeros of both signs, infinities, NaN and tiny numbers mixed in."""
    rng = np.random.default_rng(seed)
    part = np.float32 if np.dtype(dtype) == np.complex64 else np.float64
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, -1.5, 3.25], np.float64).astype(part)
    real, imag = (np.where(rng.random(shape) < 0.4, rng.choice(special, shape),
                           rng.standard_normal(shape).astype(part)) for _ in range(2))
    out = np.empty(shape, dtype)
    out.real, out.imag = real, imag
    return out


def _bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).view(np.uint32)


@pytest.mark.parametrize("target", TARGETS)
def test_complex_bitcasts_give_numpy_view(target):
    """c128 -> c64 (the issue: SIGSEGV), c64 -> c128 and the same-type bitcasts, bit for bit
    against numpy (XLA CPU rejects complex bitcasts: "Conversion between complex and real
    type")."""
    z128 = _complex_values(np.complex128, (3,), 1)
    z64 = _complex_values(np.complex64, (2, 3, 2), 2)
    s64 = _complex_values(np.complex64, (4,), 3)
    b = XlaBuilder("complex_bitcasts")
    p128 = Parameter(b, 0, Shape.from_numpy(z128), "z128")
    p64 = Parameter(b, 1, Shape.from_numpy(z64), "z64")
    q64 = Parameter(b, 2, Shape.from_numpy(s64), "s64")
    comp = b.build(Tuple(b, [BitcastConvertType(p128, from_dtype("c64")),
                             BitcastConvertType(p64, from_dtype("c128")),
                             BitcastConvertType(q64, from_dtype("c64")),
                             BitcastConvertType(p128, from_dtype("c128"))]))
    expected = (z128.view(np.complex64).reshape(3, 2), z64.view(np.complex128).reshape(2, 3), s64, z128)
    ours = hlo_mlir.runtime.load(hlo_mlir.compile(comp, target), DRIVER[target]).main(z128, z64, s64)
    assert len(ours) == len(expected)
    for got, want in zip(ours, expected, strict=True):
        assert (got.shape, got.dtype) == (want.shape, want.dtype)
        np.testing.assert_array_equal(_bits(got), _bits(want))  # NaNs included


def test_issue_reproducer_complex128_to_complex64_compiles():
    b = XlaBuilder("c128_to_c64")
    z = Parameter(b, 0, Shape.parse("c128[]"), "z")
    comp = b.build(BitcastConvertType(z, from_dtype("c64")))
    z0 = np.complex128(1.5 - 2.25j)
    got = hlo_mlir.runtime.load(hlo_mlir.compile(comp)).main(z0)
    np.testing.assert_array_equal(_bits(got), _bits(np.array(z0).reshape(1).view(np.complex64)))
