"""Numerical defects of the pinned IREE that the fuzzer found (issue 9), pinned down until
issue 12 ("XLA's answer on every target") fixes them; docs/iree-defects.md has one row each
and tests/fuzz/known.py names these tests.

- f32/bf16 ``sin``/``cos``/``tan``: IREE reduces the argument with a single-precision pi,
  so the absolute error grows with ``|x|`` (about ``|x| * 3e-8``: 1.4e-5 at 256, 0.8 at
  2^24) and the reduction overflows for ``|x| > ~1e9``: sin(1e10) = -6.0e21, sin(3.4e38) =
  -inf, bf16 tan of a large value is NaN. XLA CPU is within 2e-8 everywhere.
  ``trig-range-reduction`` reduces every finite argument itself (Cody-Waite below 8192,
  Payne-Hanek past it; tests/e2e/test_trig_range_reduction.py): fixed.
- c64 arithmetic with huge or non-finite parts: the textbook complex division overflows
  (``x / x`` with a part of 3.4e38 is NaN, XLA 1; ``(1+1j) / (inf+0j)`` is NaN, XLA 0) or
  underflows (``(0.25-1j) / -1.2e-38j`` is inf+NaN·j, XLA 8.5e37+2.1e37j): fixed by
  ``complex-division`` (tested here on llvm-cpu and Vulkan);
  ``cos``/``sin`` of a huge real part inherited the real range reduction (fixed by
  ``complex-sin-cos``); ``tan``,
  ``tanh`` and ``logistic`` of inf/NaN or huge parts give NaN where XLA's answer is finite.

Each test asserts XLA's answer (strict mode) and, where numpy defines the value, numpy's;
they are strict xfails: they turn red when IREE or hlo-mlir starts giving the right answer.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    Abs,
    Atan2,
    ConstantR0,
    ConvertElementType,
    Cos,
    Div,
    Exp,
    Expm1,
    Log,
    Logistic,
    Map,
    Parameter,
    Pow,
    PrimitiveType,
    Rem,
    Rsqrt,
    Shape,
    Sin,
    Sqrt,
    Tan,
    Tanh,
    XlaBuilder,
)
from tests import oracle
from tests.oracle import TARGETS

F32_MAX = float(np.finfo(np.float32).max)
TRIG = {"Sin": (Sin, np.sin), "Cos": (Cos, np.cos), "Tan": (Tan, np.tan)}


def _unary(fn, x: np.ndarray):
    b = XlaBuilder(f"fuzz_numerics_{fn.__name__.lower()}")
    return b.build(fn(Parameter(b, 0, Shape.from_numpy(x), "x")))


def _binary(fn, x: np.ndarray, y: np.ndarray):
    b = XlaBuilder(f"fuzz_numerics_{fn.__name__.lower()}2")
    return b.build(fn(Parameter(b, 0, Shape.from_numpy(x), "x"), Parameter(b, 1, Shape.from_numpy(y), "y")))


def _same(actual, expected, rtol: float) -> None:
    """Per component: NaN where ``expected`` is NaN, infinities equal, finite values within
    ``rtol * (|expected| + 1)``."""
    a, e = np.asarray(actual), np.asarray(expected)
    parts = [(a.real, e.real), (a.imag, e.imag)] if e.dtype.kind == "c" else [(a, e)]
    for ap, ep in parts:
        ap, ep = ap.astype(np.float64), ep.astype(np.float64)
        np.testing.assert_array_equal(np.isnan(ap), np.isnan(ep))
        np.testing.assert_array_equal(np.where(np.isinf(ep), ap, 0), np.where(np.isinf(ep), ep, 0))
        finite = np.isfinite(ep)
        assert np.all(np.abs(ap[finite] - ep[finite]) <= rtol * (np.abs(ep[finite]) + 1)), (a, e)


def _check_trig(name: str, x: np.ndarray, numpy_rtol: float, iree_rtol: float) -> None:
    """XLA's ``name``(x) is numpy's (computed in double precision, rounded to x's type), finite,
    and hlo-mlir's is XLA's."""
    fn, ref = TRIG[name]
    comp = _unary(fn, x)
    expected = oracle.run_xla(comp, x, strict=True)
    assert np.all(np.isfinite(expected.astype(np.complex128))), expected
    wide = np.complex128 if x.dtype.kind == "c" else np.float64
    _same(expected, ref(x.astype(wide)).astype(x.dtype), numpy_rtol)
    _same(oracle.run_iree(comp, x), expected, iree_rtol)


# --- real sin/cos/tan of large arguments ----------------------------------------------------------
LARGE = np.array([F32_MAX, -F32_MAX, 1e10, 1e6, 256.0], np.float32)


@pytest.mark.parametrize("name", sorted(TRIG))
def test_f32_trig_of_large_arguments(name):
    """Payne-Hanek past |x| = 8192 (trig-range-reduction; ULP bounds on a dense grid in
    tests/e2e/test_trig_range_reduction.py)."""
    _check_trig(name, LARGE, 2 ** -22, 2 ** -20)


def test_bf16_tan_of_large_arguments():
    _check_trig("Tan", np.array([3.0e38, -1.0e20, 1.0e10], ml_dtypes.bfloat16), 2 ** -7, 2 ** -6)


# --- complex specials -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Cos", "Sin"])
def test_c64_trig_of_huge_real_part(name):
    """complex-sin-cos: XLA's formula with real sin/cos that trig-range-reduction reduces."""
    _check_trig(name, np.array([-F32_MAX - 0.15j, 1e10 + 0.5j, 3e4 - 1j], np.complex64), 2 ** -20, 2 ** -20)


@pytest.mark.parametrize("target", TARGETS)
def test_c64_division_with_huge_tiny_and_infinite_parts(target):
    """``complex-division`` (Smith's algorithm): huge and tiny parts, where the textbook
    ``|y|^2`` overflows or underflows, and infinite divisors give XLA's and numpy's answer."""
    x = np.array([F32_MAX + 1j, 1 + 1j, 1e30 - 1e30j, 0.25 - 1j, -0.2 - 0.9j, 3 + 4j], np.complex64)
    y = np.array([F32_MAX + 1j, np.inf + 0j, 1e30 - 1e30j, -1.1754944e-38j, complex(-np.inf, 3), 1 - 2j],
                 np.complex64)
    comp = _binary(Div, x, y)
    expected = oracle.run_xla(comp, x, y, strict=True)
    _same(expected, np.array([1, 0, 1, (0.25 - 1j) / -1.1754944e-38j, 0, (3 + 4j) / (1 - 2j)], np.complex64),
          2 ** -22)
    _same(oracle.run_iree(comp, x, y, target=target), expected, 2 ** -21)


def test_c64_division_of_special_values_is_xlas():
    """Every pair of 13 special parts (inf, NaN, the largest and smallest normal floats,
    signed zeros, ...) as numerator and divisor: XLA's C99 special cases, value for value
    (llvm-cpu; on Vulkan 800 of the 28561 inf-over-huge quotients differ, see
    docs/iree-defects.md)."""
    parts = [np.inf, -np.inf, np.nan, F32_MAX, -F32_MAX, 0.0, -0.0, 1.5, -2.0, 1e30, 1.1754944e-38, 1e-20,
             7.0]
    z = np.array([complex(a, b) for a in parts for b in parts], np.complex64)
    x, y = np.repeat(z, z.size), np.tile(z, z.size)
    comp = _binary(Div, x, y)
    _same(oracle.run_iree(comp, x, y), oracle.run_xla(comp, x, y, strict=True), 2 ** -21)


SPECIAL_PARTS = {  # inputs where each op differs from XLA (XLA's answer in the comment)
    "Tan": [complex(F32_MAX, np.inf), complex(F32_MAX, 1.5), complex(F32_MAX, F32_MAX)],  # -0+1j, ...
    "Tanh": [complex(np.inf, F32_MAX), complex(-np.inf, 1e30), complex(F32_MAX, F32_MAX)],  # +-1+0j
    "Logistic": [complex(np.inf, F32_MAX), complex(F32_MAX, 1e30), complex(0, F32_MAX)],  # 1+0j, ...
}


@pytest.mark.xfail(strict=True, reason="c64 tan, tanh and logistic of inf/NaN or huge parts differ from XLA "
                                       "(docs/iree-defects.md, 'complex specials'; issue 12)")
@pytest.mark.parametrize("name", sorted(SPECIAL_PARTS))
def test_c64_transcendentals_of_special_parts(name):
    z = np.array(SPECIAL_PARTS[name], np.complex64)
    comp = _unary({"Tan": Tan, "Tanh": Tanh, "Logistic": Logistic}[name], z)
    expected = oracle.run_xla(comp, z, strict=True)
    assert np.all(np.isfinite(expected)), expected
    _same(oracle.run_iree(comp, z), expected, 2 ** -20)


# --- the fuzzer's signatures of these defects (tests/fuzz/known.py) ----------------------------
def _fuzz_program(op: str, dtype: str, *inputs: np.ndarray):
    """A fuzz program (as tests/fuzz/known.py reads it): ``op`` of the parameters."""
    import types
    from collections import Counter

    from tests.fuzz import generator

    names = [f"p{i}" for i in range(len(inputs))]
    params = [f'{n} = Parameter(b, {i}, Shape.parse("{dtype}[{x.size}]"), "{n}")'
              for i, (n, x) in enumerate(zip(names, inputs, strict=True))]
    code = ['b = XlaBuilder("known")', *params, f"v0 = {op}({', '.join(names)})", "return b.build(v0)"]
    return types.SimpleNamespace(code=code, args=list(inputs), leaves=[generator.Leaf(dtype, False, 2)],
                                 ops=Counter({op: 1}))


@pytest.mark.parametrize("op, dtype, inputs, name", [
    ("Tan", "c64", [np.array([F32_MAX + 1.5j, 1j], np.complex64)], "complex-specials"),
    # fixed by trig-range-reduction (Payne-Hanek) and complex-sin-cos: a mismatch would be a finding
    ("Sin", "f32", [np.array([1e10, 0.5, -3.4e38], np.float32)], ""),
    ("Tan", "bf16", [np.array([1e20, 0.5], ml_dtypes.bfloat16)], ""),
    ("Cos", "c64", [np.array([-F32_MAX - 0.15j, 1j], np.complex64)], ""),
    # no input the defects are about: IREE gives XLA's answer, a mismatch would be a finding
    ("Sin", "f32", [np.array([0.5, -2.0, 10.0], np.float32)], ""),
    ("Div", "c64", [np.array([1 + 2j, 3 - 1j], np.complex64)] * 2, ""),
    ("Div", "c64", [np.array([1 + 3.4e38j, 2j], np.complex64)] * 2, ""),  # fixed by complex-division
])
def test_known_signatures(op, dtype, inputs, name):
    """A mismatch is the known defect only when the program differs from XLA and stops
    differing once the op's operands lose the elements the defect is about."""
    import types

    from tests.fuzz import known

    program = _fuzz_program(op, dtype, *inputs)
    verdict = known.match(program, types.SimpleNamespace(outcome="mismatch"))
    assert verdict.startswith(f"known defect {name} ") if name else verdict == ""
    assert known.match(program, types.SimpleNamespace(outcome="error")) == ""


F32_MIN = float(np.finfo(np.float32).tiny)
HUGE_AND_TINY = np.array([-F32_MIN + 0j, -F32_MAX - 3j, 1e30 + 1e30j, 3e20 - 4e20j,
                          F32_MIN * 3 - F32_MIN * 4j, -4 - F32_MIN * 1j, F32_MAX + F32_MAX * 1j, np.inf - 5j,
                          complex(np.nan, np.inf), complex(3, np.nan), 0j, -2 + 0j], np.complex64)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", ["Abs", "Log"])
def test_c64_abs_and_log_of_huge_and_tiny_parts(name, target):
    """c64 abs and log of huge or tiny parts give XLA's answer: IREE's sqrt(a^2 + b^2)
    overflowed to inf and underflowed to 0 (fixed by complex-abs), and its atan2 lost the
    sign of a tiny imaginary part (``log(-4 - 1.2e-38j)`` had phase +pi; fixed in
    c99-pow-atan2-cbrt); fuzzer seed 20261124 program 745."""
    fn, reference = {"Abs": (Abs, np.abs), "Log": (Log, np.log)}[name]
    comp = _unary(fn, HUGE_AND_TINY)
    expected = oracle.run_xla(comp, HUGE_AND_TINY, strict=True)
    defined = ~np.isnan(HUGE_AND_TINY)  # XLA: NaN for a NaN part (C99 and numpy: inf beside an inf)
    with np.errstate(all="ignore"):
        wide = reference(HUGE_AND_TINY[defined].astype(np.complex128)).astype(expected.dtype)
    _same(expected[defined], wide, 1e-6)
    _same(oracle.run_iree(comp, HUGE_AND_TINY, target=target), expected, 1e-6)


@pytest.mark.parametrize("target", TARGETS)
def test_f32_atan2_of_an_underflowing_quotient(target):
    """atan2(y, x) keeps y's sign when y / x underflows: atan2(-3, -3.4e38) is -pi (IREE: +pi)."""
    y = np.float32([-3, 3, -F32_MIN, F32_MIN, -1e-30, -0.0, 0.0])
    x = np.float32([-F32_MAX, -F32_MAX, -4, -4, -1e30, -1, -1])
    comp = _binary(Atan2, y, x)
    expected = oracle.run_xla(comp, y, x, strict=True)
    _same(expected, np.arctan2(y, x), 1e-6)
    _same(oracle.run_iree(comp, y, x, target=target), expected, 1e-6)


# --- pow of a negative infinite base ----------------------------------------------------------
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype", [np.float32, ml_dtypes.bfloat16])
def test_pow_of_negative_infinity(dtype, target):
    """pow(-inf, y) is C99's: +inf for y > 0 and +0 for y < 0 unless y is an odd integer
    (-inf, -0), 1 for y = 0; c99-pow-atan2-cbrt gave NaN for every non-integer y (the
    "negative base, non-integer exponent" rule holds for finite bases only); fuzzer seed
    20261124 programs 1620 (f32 pow(x, 0.5)), 1116 and 1373 (bf16). pow(x, NaN) is NaN
    except pow(1, NaN) = 1 (it gave 0 or inf for x = +-inf, +-0)."""
    y = np.array([0.5, -0.5, 3, -3, 2, -2, 1.1754944e-38, -0.0415, np.inf, -np.inf, 0] + [np.nan] * 7, dtype)
    x = np.array([-np.inf] * 12 + [np.inf, 0, -0.0, -1, 1, 2.5], dtype)
    comp = _binary(Pow, x, y)
    expected = oracle.run_xla(comp, x, y, strict=True)
    _same(expected, np.power(x.astype(np.float64), y.astype(np.float64)).astype(dtype), 0)
    actual = oracle.run_iree(comp, x, y, target=target)
    _same(actual, expected, 0)
    np.testing.assert_array_equal(np.signbit(actual.astype(np.float32)),
                                  np.signbit(expected.astype(np.float32)))


def _ulps(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    return np.abs(actual - expected) / np.spacing(np.abs(expected))


def test_f64_pow_is_within_4_ulp():
    """f64 pow is within 4 ulp of libm's (numpy's and XLA's, within 1): IREE's ``exp(y *
    log(x))`` rounds ``y log(x)`` first, an error that grows with ``|y log(x)|``:
    ``pow(2^-1022, -1)`` = 2^1022 exactly was 123 ulp off (fuzzer seed 20261127 program
    3865), random operands up to 469 (median 40). c99-pow-atan2-cbrt computes ``y ln|x|``
    in double-double."""
    rng = np.random.default_rng(3865)
    tiny = float(np.finfo(np.float64).smallest_normal)
    x = np.concatenate([[tiny, tiny, 2.0 ** 1000, -tiny, 5.79674005], np.exp(rng.uniform(-700, 700, 200)),
                        1 + rng.uniform(-1e-3, 1e-3, 200), rng.uniform(0, 10, 200),
                        -np.exp(rng.uniform(-20, 20, 100))])
    y = np.concatenate([[-1.0, 0.5, 0.7, -1.0, -263.48675497], rng.uniform(-1, 1, 200),
                        rng.uniform(-3e5, 3e5, 200), rng.uniform(-300, 300, 200),
                        np.round(rng.uniform(-30, 30, 100))])
    comp = _binary(Pow, x, y)
    with np.errstate(over="ignore", under="ignore"):
        expected = np.power(x, y)
    assert expected[0] == 2.0 ** 1022 and expected[3] == -(2.0 ** 1022)
    normal = np.isfinite(expected) & (np.abs(expected) >= tiny)
    assert normal.sum() > 650
    reference = oracle.run_xla(comp, x, y, strict=True)
    assert _ulps(reference[normal], expected[normal]).max() <= 1
    actual = oracle.run_iree(comp, x, y)
    assert _ulps(actual[normal], expected[normal]).max() <= 4
    _same(actual[~normal], expected[~normal], 0)


NEGATIVE_AXIS = np.array([-4 - F32_MIN * 1j, -4 + F32_MIN * 1j, -F32_MAX - 3j, -F32_MAX + 3j,
                          complex(-4, -0.0), complex(-4, 0.0), -F32_MIN + 0j, 3 - 4j, -1e-30 - 1e-30j,
                          complex(-np.inf, -1), complex(1, -np.inf), 0j, complex(0, -0.0)], np.complex64)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", ["Sqrt", "Rsqrt"])
def test_c64_sqrt_near_the_negative_real_axis(name, target):
    """c64 sqrt and rsqrt keep the sign of a tiny imaginary part: IREE gave
    ``sqrt(-4 - 1.2e-38j)`` = 2j (XLA -2j) and ``rsqrt`` of it -0.5j (XLA 0.5j); fixed by
    complex-sqrt-sign (fuzzer seed 20261124 program 547)."""
    comp = _unary({"Sqrt": Sqrt, "Rsqrt": Rsqrt}[name], NEGATIVE_AXIS)
    expected = oracle.run_xla(comp, NEGATIVE_AXIS, strict=True)
    actual = oracle.run_iree(comp, NEGATIVE_AXIS, target=target)
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(np.isfinite(actual), finite)
    # relative to |expected|: XLA's real part of rsqrt(-1.2e-38) is -4e11 beside 9.2e18j
    error = np.abs(actual[finite].astype(np.complex128) - expected[finite])
    assert np.all(error <= 1e-6 * np.abs(expected[finite].astype(np.complex128))), (actual, expected)
    finite &= expected.imag != 0
    np.testing.assert_array_equal(np.signbit(actual.imag[finite]), np.signbit(expected.imag[finite]))


@pytest.mark.parametrize("name", [
    "Tan", pytest.param("Tanh", marks=pytest.mark.xfail(
        strict=True, reason="IREE's c64 tanh is off by up to 4e-4 relative near the poles of tan "
                            "(docs/iree-defects.md, 'sin/cos/tan of large arguments'; issue 12)"))])
def test_tan_near_its_poles(name):
    """tan(1.5707) is 10386.65 (XLA, numpy), IREE 10391.14; tan(1.5707964) -2.29e7, IREE -inf
    (right since trig-range-reduction); tanh(4.7130413j) -1532.98j, IREE -1533.29j (fuzzer
    seed 20261124 program 373)."""
    if name == "Tan":
        x = np.float32([1.5707, -1.5709, 4.7123, 1.5707964])
        reference = np.tan(x.astype(np.float64))
    else:
        x = np.complex64([-1.1754944e-38 + 4.7130413j, 1.5707j, 0.2 + 1.5708j])
        reference = np.tanh(x.astype(np.complex128))
    comp = _unary({"Tan": Tan, "Tanh": Tanh}[name], x)
    expected = oracle.run_xla(comp, x, strict=True)
    _same(expected, reference.astype(expected.dtype), 1e-5)
    _same(oracle.run_iree(comp, x), expected, 2 ** -20)


@pytest.mark.parametrize("name", ["Exp", "Expm1"])
def test_c64_exp_of_a_large_imaginary_part(name):
    """exp(15.05 + 415.76j) is 1649551.9+3023580j (XLA), IREE 1649586.8+3023561j;
    exp(-0.1 + 3.4e38j) is 0.77-0.47j (XLA), IREE -inf-inf j (programs 207, 249, 597);
    exp is XLA's since complex-exp (its imaginary part reduced by 2 pi, Payne-Hanek past 4.1e5),
    expm1 since complex-expm1 (real sin/cos that trig-range-reduction reduces)."""
    z = np.complex64([15.052225 + 415.7616j, -0.096843176 + F32_MAX * 1j, 0.5 - F32_MAX * 1j])
    comp = _unary({"Exp": Exp, "Expm1": Expm1}[name], z)
    expected = oracle.run_xla(comp, z, strict=True)
    assert np.all(np.isfinite(expected)), expected
    _same(oracle.run_iree(comp, z), expected, 2 ** -20)


# --- bf16 rounding in scalar code -------------------------------------------------------------
BF16_TIES = np.float32([4.3134205e18, 1 + 2 ** -8, 1 + 3 * 2 ** -8, -(1 + 2 ** -8 + 2 ** -20), F32_MAX,
                        -3.3961e38, np.inf, np.nan, 0.0, -0.0, 255.5, 1e-30])


def _bf16_round_trip(x0):
    """convert(convert(x0, bf16), f32)."""
    return ConvertElementType(ConvertElementType(x0, PrimitiveType.BF16), PrimitiveType.F32)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("form", ["rank0", "one_element", "map"])
def test_bf16_round_trip_of_one_element(form, target):
    """``convert(convert(x, bf16), f32)`` rounds to bf16 in scalar code too: IREE dropped the
    f32 -> bf16 rounding in one-element tensors and map bodies (4.3134205e18 came back
    unchanged, XLA and ml_dtypes 4.3054412e18); fixed by bf16-scalar-rounding; fuzzer seed
    20261124 program 1080 (a map of s64 -> bf16 -> f32)."""
    expected_all = BF16_TIES.astype(ml_dtypes.bfloat16).astype(np.float32)
    for x, want in zip(BF16_TIES, expected_all, strict=True):
        b = XlaBuilder(f"bf16_round_trip_{form}")
        if form == "map":
            body_b = XlaBuilder("body")
            body = body_b.build(_bf16_round_trip(Parameter(body_b, 0, Shape.parse("f32[]"), "x")))
            arg = np.full(3, x, np.float32)
            comp = b.build(Map(b, [Parameter(b, 0, Shape.from_numpy(arg), "x")], body, [0]))
        else:
            arg = np.float32(x) if form == "rank0" else np.full((1, 1), x, np.float32)
            comp = b.build(_bf16_round_trip(Parameter(b, 0, Shape.from_numpy(np.asarray(arg)), "x")))
        expected = oracle.run_xla(comp, arg, strict=True)
        _same(expected, np.full(np.shape(arg), want), 0)
        _same(oracle.run_iree(comp, arg, target=target), expected, 0)


@pytest.mark.parametrize("target", TARGETS)
def test_s64_to_bf16_in_a_map(target):
    """Program 1080 shrunk: a map body ``convert(convert(s64 x, bf16), f32)`` is XLA's (s64 ->
    f32 -> bf16, the double rounding XLA does too: 2^24 + 2^16 + 1 gives 2^24)."""
    x = np.int64([4313420491921403860, 3151827888234704757, 2 ** 24 + 2 ** 16 + 1, -(2 ** 63), -3, 0])
    body_b = XlaBuilder("body")
    p0 = Parameter(body_b, 0, Shape.parse("s64[]"), "x")
    body = body_b.build(_bf16_round_trip(p0))
    b = XlaBuilder("s64_bf16_map")
    comp = b.build(Map(b, [Parameter(b, 0, Shape.from_numpy(x), "x")], body, [0]))
    expected = oracle.run_xla(comp, x, strict=True)
    _same(expected, x.astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float32), 0)
    _same(oracle.run_iree(comp, x, target=target), expected, 0)


# --- XLA CPU: atan2 of constant zeros -----------------------------------------------------------
SIGNED_ZEROS = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0)]  # atan2: 0, -0, pi, -pi


def _atan2_of_constants_in_a_map(y0: float, x0: float):
    """``Map(i: u32[3])`` whose body is ``atan2(y0, x0)`` of two constants (program 1511)."""
    body_b = XlaBuilder("body")
    Parameter(body_b, 0, Shape.parse("u32[]"), "i")
    body = body_b.build(Atan2(ConstantR0(body_b, np.float32(y0)), ConstantR0(body_b, np.float32(x0))))
    b = XlaBuilder("atan2_of_constants")
    return b.build(Map(b, [Parameter(b, 0, Shape.parse("u32[3]"), "i")], body, [0]))


def _same_signed(actual, expected) -> None:
    np.testing.assert_array_equal(actual, expected)
    np.testing.assert_array_equal(np.signbit(actual), np.signbit(expected))


@pytest.mark.parametrize("target", TARGETS)
def test_atan2_of_zeros_in_a_map(target):
    """atan2 of (+-0, +-0) is C99's (numpy's, XLA's for runtime zeros) in hlo-mlir, constants
    in a map body included: 0, -0, pi, -pi."""
    y = np.float32([a for a, _ in SIGNED_ZEROS])
    x = np.float32([b for _, b in SIGNED_ZEROS])
    want = np.arctan2(y, x)
    comp = _binary(Atan2, y, x)
    _same_signed(oracle.run_xla(comp, y, x, strict=True), want)
    _same_signed(oracle.run_iree(comp, y, x, target=target), want)
    i = np.uint32([2, 0, 2])
    for (y0, x0), w in zip(SIGNED_ZEROS, want, strict=True):
        _same_signed(oracle.run_iree(_atan2_of_constants_in_a_map(y0, x0), i, target=target), np.full(3, w))


@pytest.mark.xfail(strict=True, reason="XLA CPU's atan2 of constant zeros (a map body, constant folding "
                                       "off as the fuzzer runs it) is NaN (docs/iree-defects.md, "
                                       "'XLA CPU: atan2 of constant zeros')")
def test_xla_atan2_of_constant_zeros():
    """XLA's answer for atan2 of constant zeros is its answer for runtime zeros (C99, numpy)."""
    i = np.uint32([2, 0, 2])
    for y0, x0 in SIGNED_ZEROS:
        got = oracle.run_xla(_atan2_of_constants_in_a_map(y0, x0), i, strict=True,
                             disable=("constant_folding",))
        _same_signed(got, np.full(3, np.arctan2(np.float32(y0), np.float32(x0))))


@pytest.mark.parametrize("y0, x0, name", [(0.0, 0.0, "xla-atan2-of-constant-zeros"), (1.0, 0.0, "")])
def test_known_signature_of_xla_atan2_of_constant_zeros(y0, x0, name):
    """Program 1511's shape is the known XLA defect; with y = 1 nothing differs (no verdict)."""
    import types
    from collections import Counter

    from tests.fuzz import generator, known

    code = ['b = XlaBuilder("known")', 'p0 = Parameter(b, 0, Shape.parse("u32[3]"), "p0")',
            'c0_b = XlaBuilder("c0_map")', 'c0_p0 = Parameter(c0_b, 0, Shape.parse("u32[]"), "x0")',
            f"v1 = Atan2(ConstantR0(c0_b, np.float32({y0})), ConstantR0(c0_b, np.float32({x0})))",
            "c0 = c0_b.build(v1)", "v2 = Map(b, [p0], c0, [0])", "return b.build(v2)"]
    program = types.SimpleNamespace(code=code, args=[np.uint32([2, 0, 2])],
                                    leaves=[generator.Leaf("f32", False, 1)],
                                    ops=Counter({"Atan2": 1, "Map": 1, "ConstantR0": 2}))
    verdict = known.match(program, types.SimpleNamespace(outcome="mismatch"))
    assert verdict.startswith(f"known defect {name} ") if name else verdict == ""


# --- sin/cos/tan error through a remainder ------------------------------------------------------
TAN_NEAR_ZERO = np.float32([-6.300992488861084, 9.43, 12.5])  # tan: -0.0178, 0.0046, -0.066


def _remainder_by_tan(x: np.ndarray):
    b = XlaBuilder("rem_by_tan")
    p = Parameter(b, 0, Shape.from_numpy(x), "x")
    return b.build(Rem(p, Tan(p)))


def test_remainder_by_tan_near_its_zeros():
    """rem(x, tan(x)) is XLA's and numpy's fmod(x, tan(x)) (fuzzer seed 20261124 program 1410):
    IREE's tan(-6.3) was 1.2e-5 relative off, which the remainder multiplies by x / tan(x) = 354
    (fixed by trig-range-reduction)."""
    comp = _remainder_by_tan(TAN_NEAR_ZERO)
    expected = oracle.run_xla(comp, TAN_NEAR_ZERO, strict=True)
    tan = np.tan(TAN_NEAR_ZERO.astype(np.float64)).astype(np.float32)
    _same(expected, np.fmod(TAN_NEAR_ZERO, tan), 2 ** -20)
    _same(oracle.run_iree(comp, TAN_NEAR_ZERO), expected, 2 ** -17)


@pytest.mark.parametrize("target", TARGETS)
def test_f32_atan2_of_a_negative_infinite_x(target):
    """atan2(y, -inf) is copysign(pi, y) for finite y: IREE gave +pi for y < 0 (fixed with the
    underflowing quotient above, c99-pow-atan2-cbrt); fuzzer seed 20261124 programs 191
    (atan2(-0.81, -3.4e38)) and 1312 (atan2(-1, -inf))."""
    y = np.float32([-1, 1, -0.8093454, -F32_MAX, -F32_MIN, -0.8093454])
    x = np.float32([-np.inf, -np.inf, -np.inf, -np.inf, -np.inf, -F32_MAX])
    comp = _binary(Atan2, y, x)
    expected = oracle.run_xla(comp, y, x, strict=True)
    _same(expected, np.arctan2(y, x), 1e-6)
    _same(oracle.run_iree(comp, y, x, target=target), expected, 1e-6)
