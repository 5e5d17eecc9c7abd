"""End to end: Iota, Reshape, Collapse, Transpose and Rev against numpy and XLA CPU.

Each compiled module returns several results as one tuple, so one compile covers many
cases; errors are checked for their message (op name, condition, concrete shapes) and
for the user's file:line.
"""

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    Collapse,
    DTypeError,
    InvalidArgumentError,
    Iota,
    Parameter,
    PrimitiveType,
    Reshape,
    Rev,
    Shape,
    ShapeError,
    Transpose,
    Tuple,
    XlaBuilder,
)
from tests.oracle import check

DTYPES = {"f32": np.float32, "s32": np.int32, "pred": np.bool_, "u8": np.uint8, "bf16": ml_dtypes.bfloat16,
          "c64": np.complex64}


def data(dtype, shape, seed=0):
    """Distinct-looking values of ``dtype`` (small integers, so exact in every type)."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    values = rng.integers(0, 100, shape)
    if dtype.kind == "c":
        return (values + 1j * rng.integers(0, 100, shape)).astype(dtype)
    return values.astype(dtype)


def build(name, fn):
    b = XlaBuilder(name)
    return b.build(fn(b))


def tuple_of(b, *ops):
    return Tuple(b, list(ops))


# --- Iota ----------------------------------------------------------------------------------
@pytest.mark.parametrize("type_name", ["s32", "u8", "s64", "u32", "f32", "f16", "bf16", "c64"])
def test_iota(type_name):
    t = PrimitiveType(type_name)
    dtype = np.dtype({"s32": np.int32, "u8": np.uint8, "s64": np.int64, "u32": np.uint32, "f32": np.float32,
                      "f16": np.float16, "bf16": ml_dtypes.bfloat16, "c64": np.complex64}[type_name])
    # 300 elements: past 256, where bf16 can no longer count by one (the spec: a float
    # iota is ConvertElementType of an integer iota, so it rounds like a conversion).
    n = 200 if type_name == "u8" else 300
    comp = build(f"iota_{type_name}", lambda b: tuple_of(
        b,
        Iota(b, Shape.array_shape(t, [4, 8]), 0),
        Iota(b, Shape.array_shape(t, [4, 8]), 1),
        Iota(b, t, n),
        Iota(b, Shape.array_shape(t, [2, 3, 5]), 2),
        Iota(b, Shape.array_shape(t, [0, 3]), 1)))
    expected = (np.broadcast_to(np.arange(4)[:, None], (4, 8)).astype(dtype),
                np.broadcast_to(np.arange(8)[None, :], (4, 8)).astype(dtype),
                np.arange(n).astype(dtype),
                np.broadcast_to(np.arange(5), (2, 3, 5)).astype(dtype),
                np.zeros((0, 3), dtype))
    check(comp, [], expected, rtol=0, atol=0)


def test_iota_spec_example():
    comp = build("iota_spec", lambda b: Iota(b, Shape.parse("s32[4,8]"), 0))
    check(comp, [], np.array([[i] * 8 for i in range(4)], np.int32))


# --- Reshape, Collapse, Transpose, Rev over dtypes ---------------------------------------------
@pytest.mark.parametrize("type_name", list(DTYPES))
def test_data_movement(type_name):
    dtype = DTYPES[type_name]
    x = data(dtype, (4, 2, 3))

    def fn(b):
        p = Parameter(b, 0, Shape.array_shape(dtype, (4, 2, 3)))
        return tuple_of(b,
                        Reshape(p, [24]), Reshape(p, [8, 3]), Reshape(p, [1, 2, 0], [24]),
                        Reshape(p, [1, 2, 0], [2, 6, 2]), Reshape(p, [0, 1, 2], [6, 4]),
                        Reshape(p, [2, 0, 1], [3, 8]),
                        Collapse(p, [0, 1]), Collapse(p, [1, 2]), Collapse(p, [0, 1, 2]), Collapse(p, [1]),
                        Transpose(p, [2, 0, 1]), Transpose(p, [0, 1, 2]), Transpose(p, [1, 0, 2]))

    expected = (x.reshape(24), x.reshape(8, 3), x.transpose(1, 2, 0).reshape(24),
                x.transpose(1, 2, 0).reshape(2, 6, 2), x.reshape(6, 4),
                x.transpose(2, 0, 1).reshape(3, 8),
                x.reshape(8, 3), x.reshape(4, 6), x.reshape(24), x,
                x.transpose(2, 0, 1), x, x.transpose(1, 0, 2))
    check(build(f"data_movement_{type_name}", fn), [x], expected, rtol=0, atol=0)


@pytest.mark.parametrize("type_name", [*DTYPES, "u32"])
def test_rev(type_name):
    dtype = DTYPES.get(type_name, np.uint32)
    x = data(dtype, (4, 2, 3))

    def fn(b):
        p = Parameter(b, 0, Shape.array_shape(dtype, (4, 2, 3)))
        return tuple_of(b, Rev(p, [0, 2]), Rev(p, [1]), Rev(p, []), Rev(p, [2, 0, 1]))

    check(build(f"rev_{type_name}", fn), [x], (x[::-1, :, ::-1], x[:, ::-1, :], x, x[::-1, ::-1, ::-1]),
          rtol=0, atol=0)


def test_reshape_spec_examples():
    """The spec's v = f32[4x2x3] examples, with its printed answers."""
    v = np.array([[[10, 11, 12], [15, 16, 17]], [[20, 21, 22], [25, 26, 27]],
                  [[30, 31, 32], [35, 36, 37]], [[40, 41, 42], [45, 46, 47]]], np.float32)

    def fn(b):
        p = Parameter(b, 0, Shape.parse("f32[4,2,3]"))
        return tuple_of(b, Reshape(p, [1, 2, 0], [24]), Reshape(p, [1, 2, 0], [8, 3]), Collapse(p, [1, 2]))

    expected = (np.array([10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32, 42,
                          15, 25, 35, 45, 16, 26, 36, 46, 17, 27, 37, 47], np.float32),
                np.array([[10, 20, 30], [40, 11, 21], [31, 41, 12], [22, 32, 42],
                          [15, 25, 35], [45, 16, 26], [36, 46, 17], [27, 37, 47]], np.float32),
                np.array([[10, 11, 12, 15, 16, 17], [20, 21, 22, 25, 26, 27],
                          [30, 31, 32, 35, 36, 37], [40, 41, 42, 45, 46, 47]], np.float32))
    check(build("reshape_spec", fn), [v], expected)


def test_scalars_and_single_elements():
    """The spec's special case: a one-element array reshapes to a scalar and back."""
    def fn(b):
        s = Parameter(b, 0, Shape.parse("s32[]"))
        m = Parameter(b, 1, Shape.parse("s32[1,1]"))
        return tuple_of(b, Reshape(s, [1, 1]), Reshape(s, [], [1, 1]), Reshape(m, []), Reshape(m, [0, 1], []),
                        Reshape(s, []), Transpose(s, []), Collapse(m, [0, 1]))

    s, m = np.int32(5), np.array([[7]], np.int32)
    check(build("scalars", fn), [s, m],
          (np.array([[5]], np.int32), np.array([[5]], np.int32), np.int32(7), np.int32(7), np.int32(5),
           np.int32(5), np.array([7], np.int32)))


def test_rev_scalar():
    comp = build("rev_scalar", lambda b: Rev(Parameter(b, 0, Shape.parse("s32[]")), []))
    check(comp, [np.int32(5)], np.int32(5))


def test_empty_dimensions():
    def fn(b):
        e = Parameter(b, 0, Shape.parse("f32[2,0,4]"))
        return tuple_of(b, Reshape(e, [0, 5]), Reshape(e, [2, 0, 1], [8, 0]), Collapse(e, [1, 2]),
                        Collapse(e, [0, 1, 2]), Transpose(e, [2, 1, 0]), Rev(e, [0, 1, 2]))

    e = np.zeros((2, 0, 4), np.float32)
    check(build("empty", fn), [e],
          (np.zeros((0, 5), np.float32), np.zeros((8, 0), np.float32), np.zeros((2, 0), np.float32),
           np.zeros((0,), np.float32), np.zeros((4, 0, 2), np.float32), e))


def test_results_are_verified_types():
    """The shape rules agree with StableHLO's own verifier (build() runs it)."""
    b = XlaBuilder("types")
    p = Parameter(b, 0, Shape.parse("u8[3,1,5]"))
    assert str(Transpose(p, [2, 0, 1]).shape) == "u8[5,3,1]"
    assert str(Reshape(p, [2, 0, 1], [5, 3]).shape) == "u8[5,3]"
    assert str(Collapse(p, [0, 1]).shape) == "u8[3,5]"
    assert str(Iota(b, PrimitiveType.BF16, 7).shape) == "bf16[7]"
    b.build(Rev(p, [1]))


# --- errors ------------------------------------------------------------------------------------
def _param(shape_text):
    b = XlaBuilder("errors")
    return b, Parameter(b, 0, Shape.parse(shape_text))


@pytest.mark.parametrize("call, error, message", [
    (lambda p: Transpose(p, [0, 0, 1]), InvalidArgumentError,
     r"Transpose requires permutation to be a permutation of \[0, 3\); got \[0, 0, 1\] "
     r"for operand f32\[2,3,4\]"),
    (lambda p: Transpose(p, [0, 1]), InvalidArgumentError,
     r"Transpose requires permutation to be a permutation of \[0, 3\); got \[0, 1\]"),
    (lambda p: Transpose(p, [0, 1, 3]), InvalidArgumentError, r"got \[0, 1, 3\] for operand f32\[2,3,4\]"),
    (lambda p: Reshape(p, [5, 5]), ShapeError,
     r"Reshape requires new_sizes with as many elements as the operand; got \[5, 5\] \(25 elements\) "
     r"for operand f32\[2,3,4\] \(24 elements\)"),
    (lambda p: Reshape(p, [0, 2, 2], [24]), InvalidArgumentError,
     r"Reshape requires dimensions to be a permutation of \[0, 3\); got \[0, 2, 2\]"),
    (lambda p: Reshape(p, [-24, -1]), InvalidArgumentError,
     r"Reshape requires non-negative new_sizes; got \[-24, -1\]"),
    (lambda p: Reshape(p, [24.0]), InvalidArgumentError, r"Reshape requires integer new_sizes; got \[24.0\]"),
    (lambda p: Collapse(p, [0, 2]), InvalidArgumentError,
     r"Collapse requires consecutive dimensions in increasing order; got \[0, 2\] for operand f32\[2,3,4\]"),
    (lambda p: Collapse(p, [1, 0]), InvalidArgumentError, r"Collapse requires consecutive dimensions"),
    (lambda p: Collapse(p, [2, 3]), InvalidArgumentError,
     r"Collapse requires dimensions in \[0, 3\); got \[2, 3\] for operand f32\[2,3,4\]"),
    (lambda p: Rev(p, [1, 1]), InvalidArgumentError, r"Rev requires distinct dimensions; got \[1, 1\]"),
    (lambda p: Rev(p, [3]), InvalidArgumentError,
     r"Rev requires dimensions in \[0, 3\); got \[3\] for operand f32\[2,3,4\]"),
    (lambda p: Rev(p, [-1]), InvalidArgumentError, r"Rev requires dimensions in \[0, 3\); got \[-1\]"),
    (lambda p: Rev(p, 1), InvalidArgumentError, r"Rev requires a sequence of integers for dimensions; got 1"),
])
def test_errors(call, error, message):
    _, p = _param("f32[2,3,4]")
    with pytest.raises(error, match=message) as info:
        call(p)
    assert "test_shape_ops.py:" in str(info.value)  # the user's line


def test_tuple_operand_error():
    b = XlaBuilder("tuple_operand")
    t = Parameter(b, 0, Shape.parse("(f32[2], s32[])"))
    with pytest.raises(ShapeError, match=r"Transpose requires an array operand; got \(f32\[2\], s32\[\]\)"):
        Transpose(t, [0])
    with pytest.raises(ShapeError, match=r"Reshape requires an array operand; got \(f32\[2\], s32\[\]\)"):
        Reshape(t, [2])


@pytest.mark.parametrize("call, error, message", [
    (lambda b: Iota(b, Shape.parse("s32[]"), 0), InvalidArgumentError,
     r"Iota requires iota_dimension in \[0, 0\); got 0 for shape s32\[\]"),
    (lambda b: Iota(b, Shape.parse("f32[2,3]"), 2), InvalidArgumentError,
     r"Iota requires iota_dimension in \[0, 2\); got 2 for shape f32\[2,3\]"),
    (lambda b: Iota(b, Shape.parse("pred[4]"), 0), DTypeError,
     r"Iota requires an integer, floating-point or complex element type; got pred\[4\]"),
    (lambda b: Iota(b, PrimitiveType.S32, -1), InvalidArgumentError,
     r"Iota requires non-negative size; got \[-1\]"),
    (lambda b: Iota(b, Shape.parse("(s32[2])"), 0), ShapeError,
     r"Iota requires an array result; got \(s32\[2\]\)"),
    (lambda b: Iota(b, "not-a-type", 3), DTypeError, r"dtype 'not-a-type' has no XLA primitive type"),
])
def test_iota_errors(call, error, message):
    with pytest.raises(error, match=message) as info:
        call(XlaBuilder("iota_errors"))
    assert "test_shape_ops.py:" in str(info.value)
