"""Numerical defects of the pinned IREE that the fuzzer found (issue 9), pinned down until
issue 12 ("XLA's answer on every target") fixes them; docs/iree-defects.md has one row each
and tests/fuzz/known.py names these tests.

- f32/bf16 ``sin``/``cos``/``tan``: IREE reduces the argument with a single-precision pi,
  so the absolute error grows with ``|x|`` (about ``|x| * 3e-8``: 1.4e-5 at 256, 0.8 at
  2^24) and the reduction overflows for ``|x| > ~1e9``: sin(1e10) = -6.0e21, sin(3.4e38) =
  -inf, bf16 tan of a large value is NaN. XLA CPU is within 2e-8 everywhere.
- c64 arithmetic with huge or non-finite parts: the textbook complex division overflows
  (``x / x`` with a part of 3.4e38 is NaN, XLA 1; ``(1+1j) / (inf+0j)`` is NaN, XLA 0) or
  underflows (``(0.25-1j) / -1.2e-38j`` is inf+NaN·j, XLA 8.5e37+2.1e37j): fixed by
  ``complex-division`` (tested here on llvm-cpu and Vulkan);
  ``cos``/``sin``/``tan`` of a huge real part inherit the real range reduction; ``tan``,
  ``tanh`` and ``logistic`` of inf/NaN or huge parts give NaN where XLA's answer is finite.

Each test asserts XLA's answer (strict mode) and, where numpy defines the value, numpy's;
they are strict xfails: they turn red when IREE or hlo-mlir starts giving the right answer.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    Cos,
    Div,
    Logistic,
    Parameter,
    Shape,
    Sin,
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


@pytest.mark.xfail(strict=True, reason="IREE reduces f32 sin/cos/tan arguments with a single-precision pi: "
                                       "error ~|x|*3e-8, overflow past ~1e9 (docs/iree-defects.md, "
                                       "'sin/cos/tan of large arguments'; issue 12)")
@pytest.mark.parametrize("name", sorted(TRIG))
def test_f32_trig_of_large_arguments(name):
    _check_trig(name, LARGE, 2 ** -22, 2 ** -20)


@pytest.mark.xfail(strict=True, reason="bf16 tan of a large value is NaN on IREE (docs/iree-defects.md, "
                                       "'sin/cos/tan of large arguments'; issue 12)")
def test_bf16_tan_of_large_arguments():
    _check_trig("Tan", np.array([3.0e38, -1.0e20, 1.0e10], ml_dtypes.bfloat16), 2 ** -7, 2 ** -6)


# --- complex specials -------------------------------------------------------------------------
@pytest.mark.xfail(strict=True, reason="c64 cos/sin of a huge real part: IREE's real range reduction "
                                       "overflows (docs/iree-defects.md, 'complex specials'; issue 12)")
@pytest.mark.parametrize("name", ["Cos", "Sin"])
def test_c64_trig_of_huge_real_part(name):
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
    ("Sin", "f32", [np.array([1e10, 0.5, -3.4e38], np.float32)], "large-argument-trig"),
    ("Tan", "bf16", [np.array([1e20, 0.5], ml_dtypes.bfloat16)], "large-argument-trig"),
    ("Cos", "c64", [np.array([-F32_MAX - 0.15j, 1j], np.complex64)], "complex-specials"),
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
