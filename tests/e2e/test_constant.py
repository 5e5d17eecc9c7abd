"""End to end: constants of every dtype and shape, special values, Python scalar typing
(XLA's ConstantR0: bool -> PRED, int -> S32, float -> F32, complex -> C64), helpers.

Complex constants crash the pinned IREE unless legalized (complex-constant-parts); a
regression would kill the test process, so one test first compiles them in a child.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    Constant,
    ConstantR0,
    ConstantR1,
    ConstantR2,
    DTypeError,
    Full,
    InvalidArgumentError,
    One,
    Parameter,
    PrimitiveType,
    ScalarLike,
    Shape,
    Tuple,
    XlaBuilder,
    Zero,
)
from hlo_mlir.types import dtype_of, from_dtype
from tests import oracle

ALL = ["pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64",
       "c64", "c128"]


def _values(name: str) -> np.ndarray:
    t = from_dtype(name)
    dt = dtype_of(t)
    if t.is_pred:
        return np.array([[True, False, True], [False, False, True]])
    if t.is_integer:
        info = np.iinfo(dt)
        return np.array([[info.min, info.max, 0], [1, 7, info.max - 1]]).astype(dt)
    real = np.array([[np.inf, -np.inf, np.nan], [-0.0, 1.5, 3.0e-3]])
    if t.is_complex:
        out = np.empty(real.shape, dt)
        out.real, out.imag = real, real[::-1, ::-1]
        return out
    return real.astype(dt)


def test_complex_constants_do_not_crash_the_compiler():
    """Scalar, splat and non-splat complex constants as results, compiled in a child process."""
    code = textwrap.dedent("""
        import numpy as np
        from hlo_mlir import Constant, Tuple, XlaBuilder
        from tests import oracle
        b = XlaBuilder("complex_constants")
        values = [np.complex128(1 - 2j), np.array([1 + 2j, 3 - 1j]), np.full((2, 2), 1 + 1j, np.complex64),
                  np.complex64(0.1 + 0.2j)]
        out = oracle.run_iree(b.build(Tuple(b, [Constant(b, v) for v in values])))
        for o, v in zip(out, values):
            np.testing.assert_array_equal(o, v)
        print("ok")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    assert proc.returncode == 0 and "ok" in proc.stdout, (proc.returncode, proc.stderr[-2000:])


@pytest.mark.parametrize("shape_kind", ["2d", "scalar_vector_empty"])
def test_constants_of_every_dtype(shape_kind):
    """One module with constants of all 15 dtypes (special values: inf, NaN, -0, INT_MIN/MAX)."""
    b = XlaBuilder(f"constants_{shape_kind}")
    outs, expected = [], []
    for name in ALL:
        v = _values(name)
        arrays = [v] if shape_kind == "2d" else [v[0, 1], v[1], v[:, :0]]
        for a in arrays:
            outs.append(Constant(b, a))
            expected.append(np.asarray(a))
    got = oracle.check(b.build(Tuple(b, outs)), [], tuple(expected), rtol=0, atol=0)
    for g, e in zip(got, expected, strict=True):  # -0.0 keeps its sign
        if e.dtype.kind == "f" or e.dtype == ml_dtypes.bfloat16:
            np.testing.assert_array_equal(np.signbit(g.astype(np.float64)), np.signbit(e.astype(np.float64)))


def test_constant_used_in_arithmetic():
    """Constants combine with parameters; Python scalars take the parameter's type."""
    b = XlaBuilder("constant_arith")
    x = Parameter(b, 0, Shape.parse("c128[2]"))
    f = Parameter(b, 1, Shape.parse("bf16[2]"))
    c = Constant(b, np.array([1 + 2j, -3j]))
    comp = b.build(Tuple(b, [x * c + (0.5 - 1j), f * 3 + 1]))
    x0 = np.array([2 - 1j, 1j])
    f0 = np.array([1.5, -2], ml_dtypes.bfloat16)
    oracle.check(comp, [x0, f0], (x0 * np.array([1 + 2j, -3j]) + (0.5 - 1j),
                                  (f0.astype(np.float32) * 3 + 1).astype(ml_dtypes.bfloat16)))


def test_python_scalar_types_follow_constant_r0():
    b = XlaBuilder("scalars")
    assert Constant(b, True).shape == Shape.parse("pred[]")
    assert Constant(b, 3).shape == Shape.parse("s32[]")
    assert Constant(b, 2.5).shape == Shape.parse("f32[]")
    assert Constant(b, 1j).shape == Shape.parse("c64[]")
    assert Constant(b, np.float64(1)).shape == Shape.parse("f64[]")
    assert Constant(b, [1, 2], PrimitiveType.U8).shape == Shape.parse("u8[2]")


def test_constant_helpers():
    b = XlaBuilder("helpers")
    x = Parameter(b, 0, Shape.parse("f16[3]"))
    outs = [Zero(b, PrimitiveType.S16), One(b, "bf16"), Full(b, -2.5, Shape.parse("f64[2,2]")),
            ScalarLike(x, 7), ConstantR0(b, np.uint64(2**64 - 1)), ConstantR1(b, [1, 2, 3], "s8"),
            ConstantR2(b, [[1.0], [2.0]], "f32")]
    expected = (np.int16(0), ml_dtypes.bfloat16(1), np.full((2, 2), -2.5), np.float16(7),
                np.uint64(2**64 - 1), np.array([1, 2, 3], np.int8), np.array([[1.0], [2.0]], np.float32))
    oracle.check(b.build(Tuple(b, outs)), [np.zeros(3, np.float16)], expected, rtol=0, atol=0)


def test_constant_errors():
    b = XlaBuilder("errors")
    with pytest.raises(DTypeError, match=r"Constant requires a numeric or boolean value of an XLA type; "
                                         r"got dtype <U1"):
        Constant(b, ["a"])
    with pytest.raises(InvalidArgumentError, match=r"ConstantR1 requires a rank-1 value; got rank 2"):
        ConstantR1(b, [[1]])
    with pytest.raises(InvalidArgumentError,
                       match=r"ConstantR0 requires a scalar; got an array of shape \(2,\)"):
        ConstantR0(b, [1, 2])
    with pytest.raises(InvalidArgumentError, match=r"Constant requires an XlaBuilder; got int"):
        Constant(3, 1)
